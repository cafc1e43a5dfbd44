import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import type { NotificationChannel, NotificationKind } from '@alda/contract/schemas/push';
import { notifications } from './data-transfers';
import { sessions } from './sessions';
import { users } from './users';

/**
 * A device's push address (ADR 0096), bound to the session that registered it: one per
 * session (a new token replaces the old), gone with the session (sign-out) and at once when the
 * push service answers 404 or 410. `address` is a web push endpoint or an APNs / FCM token,
 * unique: a browser or phone that signs in as someone else takes its address along.
 */
export const pushDevices = pgTable(
  'push_devices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sessionId: uuid('session_id')
      .notNull()
      .unique()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    platform: text('platform', { enum: ['web', 'apns', 'fcm'] }).notNull(),
    address: text('address').notNull().unique(),
    /** Web push (RFC 8291): the browser's P-256 public key and auth secret, base64url. */
    p256dh: text('p256dh'),
    auth: text('auth'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('push_devices_user_id_idx').on(t.userId),
    check('push_devices_platform', sql`${t.platform} in ('web', 'apns', 'fcm')`),
    check(
      'push_devices_web_keys',
      sql`(${t.platform} = 'web') = (${t.p256dh} is not null and ${t.auth} is not null)`,
    ),
  ],
);

/**
 * Where a push stands (ADR 0096): `queued` due at `due_at` (later in quiet hours or after a
 * temporary refusal); `sending` claimed by a dispatcher until `lease_until`; `sent` accepted by
 * the push service; `unknown` the answer was lost (a timeout, a dead instance): never sent again,
 * so a device gets a notification at most once; `failed` refused for good or given up.
 */
export const PUSH_STATES = ['queued', 'sending', 'sent', 'unknown', 'failed'] as const;
export type PushState = (typeof PUSH_STATES)[number];

/** One notification to one device: written in the transaction of the notification. */
export const pushDeliveries = pgTable(
  'push_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    notificationId: uuid('notification_id')
      .notNull()
      .references(() => notifications.id, { onDelete: 'cascade' }),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => pushDevices.id, { onDelete: 'cascade' }),
    /** Security pushes: high urgency, never held by quiet hours. */
    urgent: boolean('urgent').notNull().default(false),
    state: text('state', { enum: PUSH_STATES }).notNull().default('queued'),
    stateAt: timestamp('state_at', { withTimezone: true }).notNull().defaultNow(),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    /** The push service's status and reason, or ours. */
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('push_deliveries_once').on(t.notificationId, t.deviceId),
    index('push_deliveries_due_idx')
      .on(t.dueAt)
      .where(sql`${t.state} = 'queued'`),
    index('push_deliveries_lease_idx')
      .on(t.leaseUntil)
      .where(sql`${t.state} = 'sending'`),
    index('push_deliveries_device_id_idx').on(t.deviceId),
    check(
      'push_deliveries_state',
      sql`${t.state} in ('queued', 'sending', 'sent', 'unknown', 'failed')`,
    ),
  ],
);

/**
 * The customer's switches per kind and channel (ADR 0096) where they differ from the default
 * (on). The usage alerts' e-mail stays `users.usage_alert_email` (ADR 0066).
 */
export const notificationChannels = pgTable(
  'notification_channels',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<NotificationKind>().notNull(),
    channel: text('channel').$type<NotificationChannel>().notNull(),
    on: boolean('on').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind, t.channel] })],
);

export type PushDeviceRow = typeof pushDevices.$inferSelect;
export type PushDeliveryRow = typeof pushDeliveries.$inferSelect;
