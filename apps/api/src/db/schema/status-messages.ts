import { boolean, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Messages the native shell shows at app resume (SPEC §1, §4 "Status messages"). A message is
 * active from `active_from` (inclusive, null = always was) until `active_to` (exclusive, null =
 * open-ended); see docs/decisions/0010-status-message-window.md. An `urgent` message is also
 * a notification to every customer with a push device, pushed when it starts (issue 64, ADR 0096).
 */
export const statusMessages = pgTable(
  'status_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    titleFo: text('title_fo').notNull(),
    titleEn: text('title_en').notNull(),
    bodyFo: text('body_fo').notNull(),
    bodyEn: text('body_en').notNull(),
    activeFrom: timestamp('active_from', { withTimezone: true }),
    activeTo: timestamp('active_to', { withTimezone: true }),
    /** Chosen when it is published, never changed: its notifications and pushes are written then. */
    urgent: boolean('urgent').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('status_messages_window_idx').on(t.activeFrom, t.activeTo)],
);

export type StatusMessageRow = typeof statusMessages.$inferSelect;
export type NewStatusMessageRow = typeof statusMessages.$inferInsert;
