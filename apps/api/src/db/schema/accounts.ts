import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { PLAN_KINDS, plans } from './catalog';
import { users } from './users';

export const ACCOUNT_STATUSES = ['active', 'processing', 'cancelled'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

/**
 * A subscription account (TM Forum TMF666 Account / TMF637 product bundle): one owner who pays,
 * one plan, and the phone lines on it (`phone_lines.account_id`). An individual account has one
 * line; a family account up to the plan's `max_members`; a prepaid account is a talutíð number.
 * `plan_id` stays null until the first order completes (SPEC §2: the welcome screen waits for
 * it). An owner has at most one family account that is not cancelled.
 */
export const accounts = pgTable(
  'accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerUserId: uuid('owner_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type', { enum: PLAN_KINDS }).notNull(),
    planId: text('plan_id').references(() => plans.id),
    status: text('status', { enum: ACCOUNT_STATUSES }).notNull(),
    /** The EU roaming package is switched on for the whole account. */
    euPackage: boolean('eu_package').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    statusChangedAt: timestamp('status_changed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('accounts_owner_user_id_idx').on(t.ownerUserId),
    uniqueIndex('accounts_one_family_per_owner_uq')
      .on(t.ownerUserId)
      .where(sql`${t.type} = 'family_plan' and ${t.status} <> 'cancelled'`),
    check('accounts_type', sql`${t.type} in ('individual_plan', 'family_plan', 'prepaid')`),
    check('accounts_status', sql`${t.status} in ('active', 'processing', 'cancelled')`),
  ],
);

export type AccountRow = typeof accounts.$inferSelect;
export type NewAccountRow = typeof accounts.$inferInsert;
