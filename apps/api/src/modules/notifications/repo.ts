import { and, count, desc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { notifications, type NotificationRow } from '../../db/schema/data-transfers';

/** One page of a customer's notifications, newest first. */
export async function findNotificationsPage(
  db: Db,
  userId: string,
  offset: number,
  limit: number,
): Promise<NotificationRow[]> {
  return db
    .select()
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .offset(offset)
    .limit(limit);
}

export async function countNotifications(
  db: Db,
  userId: string,
): Promise<{ total: number; unread: number }> {
  const [all] = await db
    .select({ n: count() })
    .from(notifications)
    .where(eq(notifications.userId, userId));
  const [unread] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return { total: Number(all?.n ?? 0), unread: Number(unread?.n ?? 0) };
}

/** Marks one of the customer's notifications read (keeps the first read time). */
export async function markRead(
  db: Db,
  userId: string,
  id: string,
  at: Date,
): Promise<{ row: NotificationRow | undefined; changed: boolean }> {
  const [updated] = await db
    .update(notifications)
    .set({ readAt: at })
    .where(
      and(eq(notifications.id, id), eq(notifications.userId, userId), isNull(notifications.readAt)),
    )
    .returning();
  if (updated) return { row: updated, changed: true };
  const [row] = await db
    .select()
    .from(notifications)
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)));
  return { row, changed: false };
}

export async function markAllRead(db: Db, userId: string, at: Date): Promise<number> {
  const rows = await db
    .update(notifications)
    .set({ readAt: at })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)))
    .returning({ id: notifications.id });
  return rows.length;
}
