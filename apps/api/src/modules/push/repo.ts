import { and, count, eq, ne } from 'drizzle-orm';
import type { NotificationChannel, NotificationKind } from '@alda/contract/schemas/push';
import type { Db } from '../../db/client';
import { notificationChannels, pushDevices, type PushDeviceRow } from '../../db/schema/push';
import { users } from '../../db/schema/users';

/** What the settings answer reads of the customer. */
export async function findSettingsOfUser(db: Db, userId: string) {
  const [user] = await db
    .select({
      usageAlertEmail: users.usageAlertEmail,
      quietHoursOn: users.quietHoursOn,
      quietFrom: users.quietFrom,
      quietTo: users.quietTo,
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) return undefined;
  const switches = await db
    .select({
      kind: notificationChannels.kind,
      channel: notificationChannels.channel,
      on: notificationChannels.on,
    })
    .from(notificationChannels)
    .where(eq(notificationChannels.userId, userId));
  return { user, switches };
}

export async function countDevicesOfUser(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(pushDevices)
    .where(eq(pushDevices.userId, userId));
  return Number(row?.n ?? 0);
}

export async function findDeviceOfSession(
  db: Db,
  sessionId: string,
): Promise<PushDeviceRow | undefined> {
  const [row] = await db.select().from(pushDevices).where(eq(pushDevices.sessionId, sessionId));
  return row;
}

export async function setChannel(
  db: Db,
  userId: string,
  kind: NotificationKind,
  channel: NotificationChannel,
  on: boolean,
): Promise<void> {
  await db
    .insert(notificationChannels)
    .values({ userId, kind, channel, on })
    .onConflictDoUpdate({
      target: [
        notificationChannels.userId,
        notificationChannels.kind,
        notificationChannels.channel,
      ],
      set: { on },
    });
}

export async function updateUserNotificationColumns(
  db: Db,
  userId: string,
  set: Partial<{
    usageAlertEmail: boolean;
    quietHoursOn: boolean;
    quietFrom: number;
    quietTo: number;
  }>,
): Promise<void> {
  if (Object.keys(set).length === 0) return;
  await db.update(users).set(set).where(eq(users.id, userId));
}

/**
 * This session's device: its address replaces the session's earlier one (a changed token), and
 * a row of another session with the same address goes (the browser or phone signed in again,
 * or as someone else), so an address belongs to one session.
 */
export async function putDeviceOfSession(
  db: Db,
  values: {
    userId: string;
    sessionId: string;
    platform: PushDeviceRow['platform'];
    address: string;
    p256dh: string | null;
    auth: string | null;
    now: Date;
  },
): Promise<PushDeviceRow> {
  await db
    .delete(pushDevices)
    .where(
      and(eq(pushDevices.address, values.address), ne(pushDevices.sessionId, values.sessionId)),
    );
  const row = {
    userId: values.userId,
    sessionId: values.sessionId,
    platform: values.platform,
    address: values.address,
    p256dh: values.p256dh,
    auth: values.auth,
    createdAt: values.now,
  };
  const existing = await findDeviceOfSession(db, values.sessionId);
  if (existing && existing.address === values.address) {
    const [updated] = await db
      .update(pushDevices)
      .set({ p256dh: row.p256dh, auth: row.auth, platform: row.platform })
      .where(eq(pushDevices.id, existing.id))
      .returning();
    return updated!;
  }
  // A new address: the old one's queued pushes go with it; what is queued from now goes here.
  if (existing) await db.delete(pushDevices).where(eq(pushDevices.id, existing.id));
  const [inserted] = await db.insert(pushDevices).values(row).returning();
  return inserted!;
}

export async function deleteDeviceOfSession(db: Db, sessionId: string): Promise<boolean> {
  const gone = await db
    .delete(pushDevices)
    .where(eq(pushDevices.sessionId, sessionId))
    .returning({ id: pushDevices.id });
  return gone.length > 0;
}
