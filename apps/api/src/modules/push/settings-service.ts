import {
  CHANNELS_OF_KIND,
  NOTIFICATION_KINDS,
  type NotificationSettings,
  type NotificationSettingsUpdate,
  type PushDeviceRegistration,
  type PushDeviceResponse,
} from '@alda/contract/schemas/push';
import type { Db } from '../../db/client';
import { AppError } from '../../errors';
import type { PushPlatform } from '../../adapters/push/push-sender';
import { bumpUserVersions } from '../versions/change-versions';
import {
  countDevicesOfUser,
  deleteDeviceOfSession,
  findDeviceOfSession,
  findSettingsOfUser,
  putDeviceOfSession,
  setChannel,
  updateUserNotificationColumns,
} from './repo';

export interface PushSettingsDeps {
  db: Db;
  now: () => Date;
  /** The VAPID public key browsers subscribe with; null when web push is not configured. */
  vapidPublicKey: string | null;
  /** The platforms this installation can send to (their keys are configured). */
  platforms: ReadonlySet<PushPlatform>;
}

/**
 * The customer's notification settings per kind and channel, quiet hours, and this device's
 * push address (ADR 0096).
 */
export function createPushSettingsService(deps: PushSettingsDeps) {
  const { db, now } = deps;

  async function read(userId: string, sessionId: string): Promise<NotificationSettings> {
    const found = await findSettingsOfUser(db, userId);
    if (!found) throw new AppError('UNAUTHORIZED', { detail: 'user of the session is gone' });
    const { user, switches } = found;
    const switched = new Map(switches.map((s) => [`${s.kind}:${s.channel}`, s.on]));
    const kinds = NOTIFICATION_KINDS.map((kind) => {
      const cells = Object.entries(CHANNELS_OF_KIND[kind]).map(([channel, mode]) => {
        const on =
          mode === 'always' ||
          (kind === 'usage' && channel === 'email'
            ? user.usageAlertEmail
            : (switched.get(`${kind}:${channel}`) ?? true));
        return [channel, { on, mode }] as const;
      });
      return { kind, ...Object.fromEntries(cells) };
    });
    const [device, devices] = await Promise.all([
      findDeviceOfSession(db, sessionId),
      countDevicesOfUser(db, userId),
    ]);
    return {
      kinds,
      quietHours: { on: user.quietHoursOn, from: user.quietFrom, to: user.quietTo },
      vapidPublicKey: deps.platforms.has('web') ? deps.vapidPublicKey : null,
      thisDeviceRegistered: device !== undefined,
      devices,
    };
  }

  return {
    read,

    /**
     * Changes what was sent, in one transaction. A channel the kind does not have is a 400; one
     * that is always used (security pushes, receipts) cannot be switched off (422
     * CHANNEL_ALWAYS_ON) and switching it on changes nothing.
     */
    async update(
      userId: string,
      sessionId: string,
      update: NotificationSettingsUpdate,
    ): Promise<NotificationSettings> {
      await db.transaction(async (tx) => {
        for (const change of update.channels ?? []) {
          const mode = CHANNELS_OF_KIND[change.kind][change.channel];
          if (mode === undefined) {
            throw new AppError('VALIDATION_FAILED', {
              field: 'channels',
              detail: `${change.kind} has no ${change.channel} channel`,
            });
          }
          if (mode === 'always') {
            if (!change.on) throw new AppError('CHANNEL_ALWAYS_ON', { field: 'channels' });
            continue;
          }
          if (change.kind === 'usage' && change.channel === 'email') {
            await updateUserNotificationColumns(tx, userId, { usageAlertEmail: change.on });
            // GET /auth/me answers the same switch (usageAlerts.email).
            await bumpUserVersions(tx, [userId]);
          } else {
            await setChannel(tx, userId, change.kind, change.channel, change.on);
          }
        }
        if (update.quietHours) {
          await updateUserNotificationColumns(tx, userId, {
            quietHoursOn: update.quietHours.on,
            quietFrom: update.quietHours.from,
            quietTo: update.quietHours.to,
          });
        }
      });
      return read(userId, sessionId);
    },

    /** Binds this session's device (ADR 0096); a platform not configured is 409. */
    async registerDevice(
      userId: string,
      sessionId: string,
      registration: PushDeviceRegistration,
    ): Promise<PushDeviceResponse> {
      if (!deps.platforms.has(registration.platform)) {
        throw new AppError('PUSH_NOT_AVAILABLE', {
          detail: `${registration.platform} not configured`,
        });
      }
      const at = now();
      const row = await db.transaction((tx) =>
        putDeviceOfSession(tx, {
          userId,
          sessionId,
          platform: registration.platform,
          address: registration.platform === 'web' ? registration.endpoint : registration.token,
          p256dh: registration.platform === 'web' ? registration.keys.p256dh : null,
          auth: registration.platform === 'web' ? registration.keys.auth : null,
          now: at,
        }),
      );
      return { platform: row.platform, registeredAt: row.createdAt.toISOString() };
    },

    /** This device stops receiving pushes (its queued ones go too). */
    async removeDevice(sessionId: string): Promise<void> {
      await deleteDeviceOfSession(db, sessionId);
    },
  };
}

export type PushSettingsService = ReturnType<typeof createPushSettingsService>;
