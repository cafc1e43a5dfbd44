import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  pgTable,
  smallint,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';

/**
 * Where a message stands (docs/decisions/0084-sms-smpp.md):
 * - `kept`: stored by a built-in outbox adapter, never sent (development, demo, tests; ADR 0025);
 * - `queued`: an SMS waiting for the SMPP dispatcher (new, retried after a temporary error, or
 *   waiting for the SMSC to be reachable);
 * - `sent`: the SMSC accepted every part (submit_sm_resp), no final receipt yet;
 * - `delivered`: a receipt said DELIVRD for every part;
 * - `failed`: a permanent refusal, a failed receipt, or a code not sent within its deadline.
 */
export const OUTBOX_STATES = ['kept', 'queued', 'sent', 'delivered', 'failed'] as const;
export type OutboxState = (typeof OUTBOX_STATES)[number];

/**
 * Messages of the built-in outbox adapters (kept, listed on the dev-only /dev/outbox page in demo
 * mode; docs/decisions/0025-messaging-adapters.md) and the SMPP adapter's queue: every SMS it
 * sends is a row here, with its delivery state (docs/decisions/0084-sms-smpp.md).
 */
export const outboxMessages = pgTable(
  'outbox_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    channel: text('channel', { enum: ['sms', 'email'] }).notNull(),
    /** E-mail address (lower case) or SMS number as sent (`298` + 6 digits). */
    recipient: text('recipient').notNull(),
    subject: text('subject'),
    text: text('text').notNull(),
    html: text('html'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    state: text('state', { enum: OUTBOX_STATES }).notNull().default('kept'),
    /** When `state` last changed. */
    stateAt: timestamp('state_at', { withTimezone: true }).notNull().defaultNow(),
    /** Why it failed: the SMSC's error (command_status, or a receipt's stat and err), or ours. */
    error: text('error'),
    /** SMPP: `gsm7` (data_coding 0) or `ucs2` (data_coding 8), and how many parts. */
    encoding: text('encoding', { enum: ['gsm7', 'ucs2'] }),
    parts: smallint('parts'),
    /** The SMSC's message ids of the parts accepted so far, in part order. */
    smscIds: text('smsc_ids')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** The ids of those parts a receipt said DELIVRD for. */
    deliveredIds: text('delivered_ids')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** submit rounds so far (a round resumes at the first part not yet accepted). */
    attempts: integer('attempts').notNull().default(0),
    /**
     * A queued row is due from this instant: now for a new one, later after a temporary error,
     * and while a dispatcher works on it (its lease, so a dead instance's claim runs out).
     */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    /** One-time codes: never sent after this instant (the customer was told it was not sent). */
    deadlineAt: timestamp('deadline_at', { withTimezone: true }),
    /**
     * When the content stops being of use (a login code's own life): each submit_sm carries the
     * time left as its validity_period, and a row past it is failed unsent. Stored, so whichever
     * instance's dispatcher claims the row knows it.
     */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
  },
  (t) => [
    index('outbox_messages_recipient_idx').on(t.recipient, t.createdAt),
    index('outbox_messages_queue_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.state} = 'queued'`),
    index('outbox_messages_smsc_ids_idx').using('gin', t.smscIds),
    check('outbox_messages_channel', sql`${t.channel} in ('sms', 'email')`),
    check(
      'outbox_messages_state',
      sql`${t.state} in ('kept', 'queued', 'sent', 'delivered', 'failed')`,
    ),
    check(
      'outbox_messages_encoding',
      sql`${t.encoding} is null or ${t.encoding} in ('gsm7', 'ucs2')`,
    ),
    check(
      'outbox_messages_queued_due',
      sql`${t.state} <> 'queued' or ${t.nextAttemptAt} is not null`,
    ),
  ],
);

export type OutboxMessageRow = typeof outboxMessages.$inferSelect;
export type NewOutboxMessageRow = typeof outboxMessages.$inferInsert;
