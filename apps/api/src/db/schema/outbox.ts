import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Messages "sent" by the built-in outbox adapters when no SMS gateway or SMTP server is
 * configured: stored here, logged, and listed on the dev-only /dev/outbox page in demo mode
 * (docs/decisions/0025-messaging-adapters.md).
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
  },
  (t) => [
    index('outbox_messages_recipient_idx').on(t.recipient, t.createdAt),
    check('outbox_messages_channel', sql`${t.channel} in ('sms', 'email')`),
  ],
);

export type OutboxMessageRow = typeof outboxMessages.$inferSelect;
export type NewOutboxMessageRow = typeof outboxMessages.$inferInsert;
