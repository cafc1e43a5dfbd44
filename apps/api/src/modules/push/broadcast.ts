import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { notifications, type NotificationParams } from '../../db/schema/data-transfers';
import { pushDeliveries, pushDevices } from '../../db/schema/push';
import { bumpUserVersions } from '../versions/change-versions';
import { queuePushes } from './enqueue';

// Public to other modules: the operator service broadcasts an urgent status message in the
// transaction that publishes it (issue 64).

/** What every customer with a push device is told: both languages, written by staff. */
export interface UrgentBroadcast {
  title: { fo: string; en: string };
  body: { fo: string; en: string };
  /** The status message it tells about (ending it before it starts withdraws the pushes). */
  statusMessageId: string;
  /** The notification's time: when it was published. */
  at: Date;
  /** When its pushes go: now, or a scheduled message's start, not before it is shown. */
  pushAt: Date;
}

/**
 * Customers per follow-up statement: queuePushes and bumpUserVersions bind a parameter or two
 * per customer, and PostgreSQL takes at most 65,535 in one statement.
 */
const PER_STATEMENT = 1000;

/**
 * Writes an urgent `system` notification (link `/`) to every customer who has a push device,
 * and queues its pushes (issue 64, ADR 0096), in the caller's transaction — so a message whose
 * publishing rolls back tells no one, and one that commits has told everyone it will.
 *
 * Whom: one INSERT … SELECT over the distinct `push_devices.user_id` (the devices alone: on
 * PostgreSQL a scan of that small table with a hash, measured at 31,000 devices), never a scan
 * of every customer — most of a million customers have no device, and a customer without one
 * would only find it in the app's list, where the status message itself is shown at resume
 * anyway. A customer who switched status pushes off still gets the notification; queuePushes
 * leaves out their push. The rows come back without their texts (one shared params object), so
 * tens of thousands of device holders cost little memory. Answers how many customers were told.
 */
export async function broadcastUrgent(db: Db, broadcast: UrgentBroadcast): Promise<number> {
  const params: NotificationParams = {
    title: broadcast.title,
    body: broadcast.body,
    urgent: true,
    statusMessageId: broadcast.statusMessageId,
  };
  const holders = db.selectDistinct({ userId: pushDevices.userId }).from(pushDevices).as('holders');
  const written = await db
    .insert(notifications)
    .select(
      db
        .select({
          id: sql`gen_random_uuid()`.as('id'),
          userId: holders.userId,
          type: sql`'system'`.as('type'),
          params: sql`${JSON.stringify(params)}::jsonb`.as('params'),
          link: sql`'/'`.as('link'),
          createdAt: sql`${broadcast.at.toISOString()}::timestamptz`.as('created_at'),
          readAt: sql`null::timestamptz`.as('read_at'),
        })
        .from(holders),
    )
    .returning({ id: notifications.id, userId: notifications.userId });
  // In user id order across the batches, as bumpUserVersions takes them within one: two
  // transactions bumping the same customers never wait for each other in a circle.
  const rows = written
    .map((row) => ({
      ...row,
      type: 'system' as const,
      params,
      createdAt: broadcast.at,
    }))
    .sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0));
  for (let i = 0; i < rows.length; i += PER_STATEMENT) {
    const batch = rows.slice(i, i + PER_STATEMENT);
    await queuePushes(db, batch, broadcast.pushAt);
    // GET /api/notifications answers 304 from the change version: it must move.
    await bumpUserVersions(
      db,
      batch.map((row) => row.userId),
    );
  }
  return rows.length;
}

/**
 * A status message ended before its pushes went: those still queued are withdrawn (the
 * notification stays in the app's list, where it tells what was planned). Answers how many.
 */
export async function withdrawUrgent(db: Db, statusMessageId: string): Promise<number> {
  const withdrawn = await db
    .delete(pushDeliveries)
    .where(
      and(
        eq(pushDeliveries.state, 'queued'),
        inArray(
          pushDeliveries.notificationId,
          db
            .select({ id: notifications.id })
            .from(notifications)
            .where(
              and(
                eq(notifications.type, 'system'),
                sql`${notifications.params} ->> 'statusMessageId' = ${statusMessageId}`,
              ),
            ),
        ),
      ),
    )
    .returning({ id: pushDeliveries.id });
  return withdrawn.length;
}
