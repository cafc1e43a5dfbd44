import { z } from 'zod/mini';

/**
 * Push notifications (ADR 0096): a device's push address bound to its session, and the
 * customer's choice of what reaches them on which channel, with quiet hours.
 */

/** What a customer can switch per channel; each notification type belongs to one kind. */
export const NOTIFICATION_KINDS = [
  /** 80 % and 100 % of the month's data, home and EU. */
  'usage',
  /** The roaming spend cap reached. */
  'roaming',
  /** A family member's package request (owner) and its answer (member); paused data. */
  'family',
  /** A payment that failed or needs action. */
  'payments',
  /** An order that moved: shipped, ready, ported, rejected. */
  'orders',
  /** The desk answered. */
  'support',
  /** A number lock change, a SIM swap, a port-out: always sent, cannot be switched off. */
  'security',
  /** A status message staff marked as urgent. */
  'status',
] as const;
export const notificationKind = z.enum(NOTIFICATION_KINDS);
export type NotificationKind = z.infer<typeof notificationKind>;

export const NOTIFICATION_CHANNELS = ['push', 'email', 'sms'] as const;
export const notificationChannel = z.enum(NOTIFICATION_CHANNELS);
export type NotificationChannel = z.infer<typeof notificationChannel>;

/** Kinds whose push can never be switched off and never waits for quiet hours to end. */
export const ALWAYS_PUSHED_KINDS: readonly NotificationKind[] = ['security'];

/**
 * Which channels exist per kind, and how: `switch` the customer chooses, `always` it is always
 * sent that way (a receipt, a security e-mail), absent when that channel is not used for the kind.
 */
export const CHANNELS_OF_KIND: Record<
  NotificationKind,
  Partial<Record<NotificationChannel, 'switch' | 'always'>>
> = {
  usage: { push: 'switch', email: 'switch' },
  roaming: { push: 'switch' },
  family: { push: 'switch' },
  payments: { push: 'switch', email: 'always' },
  orders: { push: 'switch', email: 'always' },
  support: { push: 'switch', email: 'always', sms: 'always' },
  security: { push: 'always', email: 'always' },
  status: { push: 'switch' },
};

/** Quiet hours by default: 22:00–08:00 Faroe time (minutes after midnight). */
export const QUIET_HOURS_DEFAULT = { on: true, from: 22 * 60, to: 8 * 60 } as const;

const minuteOfDay = z.int().check(z.nonnegative(), z.lte(24 * 60 - 1));

/** Non-urgent pushes wait from `from` until `to` (Faroe time); `from > to` spans midnight. */
export const quietHours = z
  .object({ on: z.boolean(), from: minuteOfDay, to: minuteOfDay })
  .check(z.refine((q) => q.from !== q.to, { error: 'INVALID', path: ['to'] }));
export type QuietHours = z.infer<typeof quietHours>;

/** One cell of the settings table: a channel of a kind. */
export const channelSetting = z.object({
  /** Whether it is sent: for `always`, true. */
  on: z.boolean(),
  /** `always`: shown, not switchable. */
  mode: z.enum(['switch', 'always']),
});
export type ChannelSetting = z.infer<typeof channelSetting>;

/** GET /api/notification-settings: per kind, the channels that exist for it. */
export const notificationSettings = z.object({
  kinds: z.array(
    z.object({
      kind: notificationKind,
      push: z.optional(channelSetting),
      email: z.optional(channelSetting),
      sms: z.optional(channelSetting),
    }),
  ),
  quietHours,
  /** The VAPID public key a browser subscribes with (base64url), null when web push is off. */
  vapidPublicKey: z.nullable(z.string()),
  /** Whether the caller's session (this device) has a push address registered. */
  thisDeviceRegistered: z.boolean(),
  /** How many of the customer's devices receive pushes. */
  devices: z.int().check(z.nonnegative()),
});
export type NotificationSettings = z.infer<typeof notificationSettings>;

/** PATCH /api/notification-settings: only what is sent changes. */
export const notificationSettingsUpdate = z.strictObject({
  channels: z.optional(
    z
      .array(
        z.strictObject({ kind: notificationKind, channel: notificationChannel, on: z.boolean() }),
      )
      .check(z.minLength(1), z.maxLength(NOTIFICATION_KINDS.length * NOTIFICATION_CHANNELS.length)),
  ),
  quietHours: z.optional(quietHours),
});
export type NotificationSettingsUpdate = z.infer<typeof notificationSettingsUpdate>;

const base64url = z.string().check(z.regex(/^[A-Za-z0-9_-]+={0,2}$/));

/**
 * PUT /api/push/device: this session's push address. A web browser's PushSubscription
 * (RFC 8030 endpoint, RFC 8291 keys), or the native shell's APNs / FCM token. A new one
 * replaces the session's earlier one (a changed token). A plain union (the platforms do not
 * overlap): zod's discriminated union would add to the first screens' shared chunk.
 */
export const pushDeviceRegistration = z.union([
  z.strictObject({
    platform: z.literal('web'),
    endpoint: z.url({ protocol: /^https$/ }).check(z.maxLength(2048)),
    keys: z.strictObject({
      p256dh: base64url.check(z.minLength(80), z.maxLength(100)),
      auth: base64url.check(z.minLength(16), z.maxLength(32)),
    }),
  }),
  z.strictObject({
    platform: z.enum(['apns', 'fcm']),
    token: z.string().check(z.minLength(16), z.maxLength(4096), z.regex(/^[A-Za-z0-9_:.-]+$/)),
  }),
]);
export type PushDeviceRegistration = z.infer<typeof pushDeviceRegistration>;

/** Answer of PUT /api/push/device. */
export const pushDeviceResponse = z.object({
  platform: z.enum(['web', 'apns', 'fcm']),
  registeredAt: z.iso.datetime({ offset: true }),
});
export type PushDeviceResponse = z.infer<typeof pushDeviceResponse>;

/**
 * What a push carries to the app (web push's encrypted payload, APNs' and FCM's data): the texts
 * the lock screen may show, the app path a tap opens, the notification's id (the tag, so a repeat
 * replaces rather than adds) and its kind.
 */
export const pushPayload = z.object({
  id: z.string(),
  kind: notificationKind,
  title: z.string(),
  body: z.string(),
  link: z.string().check(z.startsWith('/')),
  /** The reader's language, for the notification's `lang`. */
  lang: z.optional(z.enum(['fo', 'en'])),
});
export type PushPayload = z.infer<typeof pushPayload>;
