import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { LineHandoverStatus } from '@alda/contract/schemas/subscriptions';
import { plans } from './catalog';
import { orders } from './orders';
import { phoneLines } from './phone-lines';
import { users } from './users';

export const LINE_HANDOVER_STATUSES = [
  'pending',
  'accepted',
  'declined',
  'withdrawn',
] as const satisfies readonly LineHandoverStatus[];

/** Unique index: a number has at most one hand-over waiting for an answer. */
export const ONE_PENDING_HANDOVER_CONSTRAINT = 'line_handovers_one_pending_uq';

/**
 * A number offered to another person's user (PATCH
 * /api/subscriptions/transfer-subscription-to-user-customer, docs/decisions/0056): nothing moves
 * while it is `pending`; the receiver accepts (a `hand_over` transfer order is placed, `order_id`)
 * or declines, the giver may withdraw it.
 */
export const lineHandovers = pgTable(
  'line_handovers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    lineId: uuid('line_id')
      .notNull()
      .references(() => phoneLines.id, { onDelete: 'cascade' }),
    fromUserId: uuid('from_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    toUserId: uuid('to_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The individual plan the number goes on for the receiver. */
    planId: text('plan_id')
      .notNull()
      .references(() => plans.id),
    status: text('status', { enum: LINE_HANDOVER_STATUSES }).notNull().default('pending'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex(ONE_PENDING_HANDOVER_CONSTRAINT)
      .on(t.lineId)
      .where(sql`${t.status} = 'pending'`),
    index('line_handovers_to_user_idx').on(t.toUserId),
    index('line_handovers_from_user_idx').on(t.fromUserId),
    check(
      'line_handovers_status',
      sql`${t.status} in ('pending', 'accepted', 'declined', 'withdrawn')`,
    ),
    check('line_handovers_decided', sql`(${t.status} = 'pending') = (${t.decidedAt} is null)`),
  ],
);

export type LineHandoverRow = typeof lineHandovers.$inferSelect;
export type NewLineHandoverRow = typeof lineHandovers.$inferInsert;
