import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { DataTransferKind, DataTransferStatus } from '@alda/contract/schemas/data-transfers';
import type { NotificationType } from '@alda/contract/schemas/notifications';
import { phoneLines } from './phone-lines';
import { users } from './users';

export const DATA_TRANSFER_KINDS = [
  'gift',
  'request',
] as const satisfies readonly DataTransferKind[];
export const DATA_TRANSFER_STATUSES = [
  'pending',
  'approved',
  'declined',
] as const satisfies readonly DataTransferStatus[];

/**
 * Data given (gift, approved at once) or asked for (request, pending until the asked customer
 * approves or declines it). `requester_*` is who asks (request) or who gives (gift);
 * `recipient_*` is who is asked (request, and gives on approval) or who receives (gift).
 * Users are copied from the lines when the row is made (a line without a user of its own
 * belongs to its account owner), so "pending requests for me" is one indexed lookup.
 */
export const dataTransfers = pgTable(
  'data_transfers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind', { enum: DATA_TRANSFER_KINDS }).notNull(),
    status: text('status', { enum: DATA_TRANSFER_STATUSES }).notNull(),
    requesterLineId: uuid('requester_line_id')
      .notNull()
      .references(() => phoneLines.id, { onDelete: 'cascade' }),
    requesterUserId: uuid('requester_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    recipientLineId: uuid('recipient_line_id')
      .notNull()
      .references(() => phoneLines.id, { onDelete: 'cascade' }),
    recipientUserId: uuid('recipient_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    dataMb: integer('data_mb').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    /** The client's `Idempotency-Key` header: a retried POST answers the first transfer. */
    idempotencyKey: text('idempotency_key'),
  },
  (t) => [
    uniqueIndex('data_transfers_idempotency_uq')
      .on(t.requesterUserId, t.idempotencyKey)
      .where(sql`${t.idempotencyKey} is not null`),
    index('data_transfers_recipient_pending_idx')
      .on(t.recipientUserId, t.createdAt)
      .where(sql`${t.status} = 'pending'`),
    index('data_transfers_requester_user_id_idx').on(t.requesterUserId),
    check('data_transfers_data_mb', sql`${t.dataMb} > 0`),
    check('data_transfers_kind', sql`${t.kind} in ('gift', 'request')`),
    check('data_transfers_status', sql`${t.status} in ('pending', 'approved', 'declined')`),
    check('data_transfers_two_lines', sql`${t.requesterLineId} <> ${t.recipientLineId}`),
  ],
);

export const NOTIFICATION_TYPES = [
  'data_request',
  'data_received',
  'order_completed',
  'payment',
  'package',
  'subscription',
  'system',
  'usage_alert',
  'data_paused',
  'data_resumed',
  'package_request',
  'package_request_declined',
  'number_unlock_scheduled',
  'number_unlocked',
  'sim_changed',
  'port_out',
  'data_export_ready',
  'roaming_cap',
  'support_answer',
] as const satisfies readonly NotificationType[];

/** Parameters of a notification's texts; the texts are made in the reader's language. */
export interface NotificationParams {
  name?: string | null;
  phoneNumber?: string;
  dataMb?: number;
  /** Free texts of a `system` notification, both languages. */
  title?: { fo: string; en: string };
  body?: { fo: string; en: string };
  /** A usage alert's threshold (80 or 100 % of the month's data) and bucket (ADR 0066). */
  threshold?: number;
  kind?: 'domestic' | 'eu';
  /** A usage alert: what the bucket holds this month, MB (`dataMb` is what is left). */
  totalMb?: number;
  /** A package request: the package's name in both languages (ADR 0068). */
  packageName?: { fo: string; en: string };
  /** Number protection (ADR 0076): when a waiting unlock opens the lock (ISO 8601). */
  at?: string;
  /**
   * A port-out or SIM change: what happened (`refused` / `accepted`; `esim` / `physical`); a
   * payment that went wrong: `failed` or `action` (the customer must act), which is pushed.
   */
  outcome?: string;
  /** A `system` notification staff marked urgent: pushed (ADR 0096), and its status message. */
  urgent?: boolean;
  statusMessageId?: string;
  /** A roaming cap notification (ADR 0078): charged this month and the cap, øre with VAT. */
  chargedOere?: number;
  capOere?: number;
  /** The reader owns the account, so can raise the cap themselves (else they ask the owner). */
  canRaise?: boolean;
}

/** A customer's notifications (SPEC §7): type + params, texts localized when read. */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type', { enum: NOTIFICATION_TYPES }).notNull(),
    params: jsonb('params').$type<NotificationParams>().notNull().default({}),
    link: text('link'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (t) => [
    index('notifications_user_id_created_at_idx').on(t.userId, t.createdAt),
    index('notifications_unread_idx')
      .on(t.userId)
      .where(sql`${t.readAt} is null`),
    check(
      'notifications_type',
      sql`${t.type} in ('data_request', 'data_received', 'order_completed', 'payment', 'package', 'subscription', 'system', 'usage_alert', 'data_paused', 'data_resumed', 'package_request', 'package_request_declined', 'number_unlock_scheduled', 'number_unlocked', 'sim_changed', 'port_out', 'data_export_ready', 'roaming_cap', 'support_answer')`,
    ),
  ],
);

/**
 * A change counter per customer (docs/decisions/0041-polling-etag.md): bumped in the same
 * transaction as every write that changes what the customer's polled resources answer, so
 * GET /api/data-transfers and GET /api/notifications can answer 304 from this one row.
 */
export const userVersions = pgTable('user_versions', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  version: bigint('version', { mode: 'number' }).notNull().default(1),
});

export type DataTransferRow = typeof dataTransfers.$inferSelect;
export type NotificationRow = typeof notifications.$inferSelect;
export type NewNotificationRow = typeof notifications.$inferInsert;
