import { sql } from 'drizzle-orm';
import {
  check,
  customType,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { phoneLines } from './phone-lines';
import { users } from './users';

/*
 * Number protection and the customer's data (issue 32, docs/decisions/0076-number-protection.md):
 * port-out authorisation codes and the port-out requests of other providers, the partner
 * clients of the CAMARA SIM Swap API with their tokens and calls, and data exports (GDPR
 * Art. 15 and 20). The lock itself is on `phone_lines` (number_locked, unlock_at).
 */

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

/**
 * A port-out authorisation code (the customer hands it to the new provider): shown once, kept
 * as SHA-256 of its normalized form, single use, valid 30 days. A new code for a line revokes
 * the line's earlier ones, so at most one works at a time.
 */
export const portOutCodes = pgTable(
  'port_out_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    lineId: uuid('line_id')
      .notNull()
      .references(() => phoneLines.id, { onDelete: 'cascade' }),
    /** The customer who made it (the line's owner or its user). */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    codeHash: text('code_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('port_out_codes_code_hash_uq').on(t.codeHash),
    index('port_out_codes_line_id_idx').on(t.lineId),
  ],
);

export const PORT_OUT_OUTCOMES = ['accepted', 'refused'] as const;

/** Every port-out request another provider made for one of our numbers, and its answer. */
export const portOutRequests = pgTable(
  'port_out_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    msisdn: text('msisdn').notNull(),
    /** The line the number was in service on, when there was one. */
    lineId: uuid('line_id').references(() => phoneLines.id, { onDelete: 'set null' }),
    /** The recipient provider, as it named itself. */
    provider: text('provider').notNull(),
    outcome: text('outcome', { enum: PORT_OUT_OUTCOMES }).notNull(),
    /** Why it was refused: an error code (NUMBER_LOCKED, PORT_OUT_CODE_INVALID, …). */
    reason: text('reason'),
    /** The `port_out` lifecycle order an accepted request placed. */
    orderId: uuid('order_id'),
    portDate: timestamp('port_date', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('port_out_requests_msisdn_idx').on(t.msisdn, t.createdAt),
    check('port_out_requests_outcome', sql`${t.outcome} in ('accepted', 'refused')`),
  ],
);

/**
 * A partner (a bank) using the CAMARA APIs with OAuth 2.0 client credentials (RFC 6749 §4.4).
 * The secret is shown once when made and kept as SHA-256 (it is 256 random bits).
 */
export const partnerClients = pgTable(
  'partner_clients',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: text('client_id').notNull(),
    name: text('name').notNull(),
    secretHash: text('secret_hash').notNull(),
    /** Space-free scope names, e.g. `sim-swap`. */
    scopes: text('scopes').array().notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('partner_clients_client_id_uq').on(t.clientId)],
);

/** An access token of a partner client (opaque, SHA-256 stored), with the scopes it carries. */
export const partnerTokens = pgTable(
  'partner_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    partnerId: uuid('partner_id')
      .notNull()
      .references(() => partnerClients.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    scopes: text('scopes').array().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('partner_tokens_token_hash_uq').on(t.tokenHash),
    index('partner_tokens_partner_id_idx').on(t.partnerId),
  ],
);

/** The audit of every CAMARA call a partner made: who, which operation, which number, answer. */
export const partnerCalls = pgTable(
  'partner_calls',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    partnerId: uuid('partner_id')
      .notNull()
      .references(() => partnerClients.id, { onDelete: 'cascade' }),
    operation: text('operation').notNull(),
    /** The number asked about, as the 6 national digits (null when it was not a valid one). */
    msisdn: text('msisdn'),
    /** HTTP status of the answer. */
    status: integer('status').notNull(),
    /** `swapped: true|false`, a date, or the CAMARA error code. */
    result: text('result').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('partner_calls_partner_id_created_at_idx').on(t.partnerId, t.createdAt)],
);

export const DATA_EXPORT_STATES = ['queued', 'preparing', 'ready', 'failed'] as const;

/**
 * A customer's data export (GDPR Art. 15 and 20): asked for in the app, prepared in the
 * background (`progress` 0–100), the ZIP kept here until `expires_at`, downloaded through a
 * signed, time-limited link.
 */
export const dataExports = pgTable(
  'data_exports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    state: text('state', { enum: DATA_EXPORT_STATES }).notNull(),
    progress: integer('progress').notNull().default(0),
    /** The language of the README and the e-mail (the user's at the time of asking). */
    locale: text('locale').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    readyAt: timestamp('ready_at', { withTimezone: true }),
    /** The link works until this instant; then the file is removed. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    downloadedAt: timestamp('downloaded_at', { withTimezone: true }),
    /** The ZIP; null until ready, and again once expired. */
    file: bytea('file'),
    byteSize: integer('byte_size'),
  },
  (t) => [
    index('data_exports_user_id_idx').on(t.userId, t.createdAt),
    index('data_exports_queued_idx')
      .on(t.createdAt)
      .where(sql`${t.state} in ('queued', 'preparing')`),
    // The ZIPs still kept, which the worker removes once expired (every 5 s): the few of the
    // last days, not every export ever made.
    index('data_exports_file_expires_idx')
      .on(t.expiresAt)
      .where(sql`${t.file} is not null`),
    uniqueIndex('data_exports_one_pending_uq')
      .on(t.userId)
      .where(sql`${t.state} in ('queued', 'preparing')`),
    check('data_exports_state', sql`${t.state} in ('queued', 'preparing', 'ready', 'failed')`),
    check('data_exports_progress', sql`${t.progress} between 0 and 100`),
  ],
);

export type PortOutCodeRow = typeof portOutCodes.$inferSelect;
export type PortOutRequestRow = typeof portOutRequests.$inferSelect;
export type PartnerClientRow = typeof partnerClients.$inferSelect;
export type PartnerTokenRow = typeof partnerTokens.$inferSelect;
export type DataExportRow = typeof dataExports.$inferSelect;
