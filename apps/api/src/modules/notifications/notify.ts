import type { Db } from '../../db/client';
import { notifications, type NewNotificationRow } from '../../db/schema/data-transfers';
import { queuePushes } from '../push/enqueue';

// Public to other modules: notifications are written in the transaction of the change they tell about.

/**
 * Adds notifications; one whose id exists already is skipped (a retried change notifies once).
 * Their pushes are queued in the same transaction (ADR 0096).
 */
export async function insertNotifications(db: Db, rows: NewNotificationRow[]): Promise<void> {
  if (rows.length === 0) return;
  const written = await db
    .insert(notifications)
    .values(rows)
    .onConflictDoNothing()
    .returning({
      id: notifications.id,
      userId: notifications.userId,
      type: notifications.type,
      params: notifications.params,
      createdAt: notifications.createdAt,
    });
  await queuePushes(db, written);
}

/** A notification's texts in one language, e.g. for the e-mail that repeats it (ADR 0066). */
export { notificationSms, notificationTexts } from './texts';
