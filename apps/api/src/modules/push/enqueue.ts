import { and, eq, inArray } from 'drizzle-orm';
import { ALWAYS_PUSHED_KINDS, type NotificationKind } from '@alda/contract/schemas/push';
import { pushDueAt } from '@alda/contract/rules/quiet-hours';
import type { Db } from '../../db/client';
import type { NotificationRow } from '../../db/schema/data-transfers';
import { notificationChannels, pushDeliveries, pushDevices } from '../../db/schema/push';
import { users } from '../../db/schema/users';
import { pushKindOf } from './kinds';

// Public to other modules: the notifications module queues the pushes of the notifications it
// writes, in the same transaction.

type Written = Pick<NotificationRow, 'id' | 'userId' | 'type' | 'params' | 'createdAt'>;

/**
 * Queues one push per notification and device of its reader (ADR 0096), in the transaction
 * that writes the notification, so a rolled-back change pushes nothing and a push is never
 * queued twice (unique per notification and device). Skipped: kinds that are not pushed, kinds
 * the reader switched off (security never), readers without a device. A push that is not
 * urgent (security, an urgent status message) is due when the reader's quiet hours end.
 */
export async function queuePushes(
  db: Db,
  written: readonly Written[],
  /** Not before this instant (a scheduled status message's start). */
  notBefore?: Date,
): Promise<void> {
  const pushed = written
    .map((row) => ({ row, kind: pushKindOf(row.type, row.params) }))
    .filter((p): p is { row: Written; kind: NotificationKind } => p.kind !== null);
  if (pushed.length === 0) return;
  const readers = [...new Set(pushed.map((p) => p.row.userId))];
  const devices = await db
    .select({
      id: pushDevices.id,
      userId: pushDevices.userId,
      quietHoursOn: users.quietHoursOn,
      quietFrom: users.quietFrom,
      quietTo: users.quietTo,
    })
    .from(pushDevices)
    .innerJoin(users, eq(users.id, pushDevices.userId))
    .where(inArray(pushDevices.userId, readers));
  if (devices.length === 0) return;
  const off = await db
    .select({ userId: notificationChannels.userId, kind: notificationChannels.kind })
    .from(notificationChannels)
    .where(
      and(
        inArray(notificationChannels.userId, readers),
        eq(notificationChannels.channel, 'push'),
        eq(notificationChannels.on, false),
      ),
    );
  const switchedOff = new Set(off.map((o) => `${o.userId}:${o.kind}`));
  const rows = pushed.flatMap(({ row, kind }) => {
    const always = ALWAYS_PUSHED_KINDS.includes(kind);
    if (!always && switchedOff.has(`${row.userId}:${kind}`)) return [];
    // Security and urgent status messages never wait for quiet hours.
    const urgent = always || kind === 'status';
    return devices
      .filter((d) => d.userId === row.userId)
      .map((d) => ({
        notificationId: row.id,
        deviceId: d.id,
        urgent,
        dueAt: latest(
          urgent
            ? row.createdAt
            : pushDueAt(row.createdAt, { on: d.quietHoursOn, from: d.quietFrom, to: d.quietTo }),
          notBefore,
        ),
      }));
  });
  if (rows.length > 0) await db.insert(pushDeliveries).values(rows).onConflictDoNothing();
}

const latest = (at: Date, notBefore: Date | undefined) =>
  notBefore && notBefore > at ? notBefore : at;
