import { and, asc, eq, inArray, lt, lte } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { notifications } from '../../db/schema/data-transfers';
import { pushDeliveries, pushDevices, type PushState } from '../../db/schema/push';
import { users } from '../../db/schema/users';

/**
 * Rows whose dispatcher's lease ran out while `sending` (its instance died, or the database was
 * gone when the answer came): the push may have left, so they become `unknown` and are never
 * sent again (ADR 0096). Answers how many.
 */
export async function expireLeases(db: Db, now: Date): Promise<number> {
  const rows = await db
    .update(pushDeliveries)
    .set({
      state: 'unknown',
      stateAt: now,
      leaseUntil: null,
      error: 'no answer recorded: the instance sending it stopped',
    })
    .where(and(eq(pushDeliveries.state, 'sending'), lt(pushDeliveries.leaseUntil, now)))
    .returning({ id: pushDeliveries.id });
  return rows.length;
}

/**
 * Claims up to `limit` due pushes (`FOR UPDATE SKIP LOCKED`, committed at once as `sending`
 * under a lease), with what sending them needs: the device, the notification, the reader's
 * language.
 */
export async function claimDue(db: Db, now: Date, leaseUntil: Date, limit: number) {
  const claimed = await db.transaction(async (tx) => {
    const due = await tx
      .select({ id: pushDeliveries.id })
      .from(pushDeliveries)
      .where(and(eq(pushDeliveries.state, 'queued'), lte(pushDeliveries.dueAt, now)))
      .orderBy(asc(pushDeliveries.dueAt))
      .limit(limit)
      .for('update', { skipLocked: true });
    if (due.length === 0) return [];
    const ids = due.map((d) => d.id);
    return tx
      .update(pushDeliveries)
      .set({ state: 'sending', stateAt: now, leaseUntil })
      .where(inArray(pushDeliveries.id, ids))
      .returning({ id: pushDeliveries.id });
  });
  if (claimed.length === 0) return [];
  return db
    .select({
      id: pushDeliveries.id,
      urgent: pushDeliveries.urgent,
      attempts: pushDeliveries.attempts,
      dueAt: pushDeliveries.dueAt,
      deviceId: pushDevices.id,
      platform: pushDevices.platform,
      address: pushDevices.address,
      p256dh: pushDevices.p256dh,
      auth: pushDevices.auth,
      notificationId: notifications.id,
      type: notifications.type,
      params: notifications.params,
      link: notifications.link,
      locale: users.locale,
    })
    .from(pushDeliveries)
    .innerJoin(pushDevices, eq(pushDevices.id, pushDeliveries.deviceId))
    .innerJoin(notifications, eq(notifications.id, pushDeliveries.notificationId))
    .innerJoin(users, eq(users.id, pushDevices.userId))
    .where(
      inArray(
        pushDeliveries.id,
        claimed.map((c) => c.id),
      ),
    );
}

export type ClaimedPush = Awaited<ReturnType<typeof claimDue>>[number];

/** Writes how a claimed push ended, only while this dispatcher's claim holds (`sending`). */
export async function finishPush(
  db: Db,
  id: string,
  change: { state: PushState; at: Date; error?: string; dueAt?: Date; attempts?: number },
): Promise<void> {
  await db
    .update(pushDeliveries)
    .set({
      state: change.state,
      stateAt: change.at,
      leaseUntil: null,
      error: change.error ?? null,
      ...(change.dueAt ? { dueAt: change.dueAt } : {}),
      ...(change.attempts !== undefined ? { attempts: change.attempts } : {}),
    })
    .where(and(eq(pushDeliveries.id, id), eq(pushDeliveries.state, 'sending')));
}

/** The push service said the address is gone (404/410): the device and its queue go at once. */
export async function removeDevice(db: Db, deviceId: string): Promise<void> {
  await db.delete(pushDevices).where(eq(pushDevices.id, deviceId));
}
