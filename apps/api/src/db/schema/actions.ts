import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { actionType, type ActionType } from '@alda/contract/schemas/actions';
import { phoneLines } from './phone-lines';
import { users } from './users';

/** The activity-log kinds of the contract, so the column check and the API answer cannot drift. */
export const ACTION_TYPES = actionType.options as [ActionType, ...ActionType[]];

/**
 * Parameters of an entry's sentence, by type: names of a plan, package or counterpart, kept as
 * they were at the time so the log does not change when the catalogue does.
 */
export interface ActionPayload {
  planName?: { fo: string; en: string };
  packageName?: { fo: string; en: string };
  /** The other party of a gift or request, or the member concerned. */
  counterpart?: { name: string; phoneNumber: string };
  enabled?: boolean;
  /** The device of a security event (a sign-in on a new device), as the sign-in named it. */
  device?: { name: string | null; platform: string | null; model: string | null };
  /** Number protection (ADR 0076): when a waiting unlock opens (ISO 8601). */
  at?: string;
  /** A refused port-out: why (an error code such as NUMBER_LOCKED); who asked (the provider). */
  reason?: string;
  provider?: string;
  /** A passkey's name as the customer sees it (ADR 0097). */
  passkey?: string;
}

/**
 * The activity log (SPEC §1 "view the activity log"): one row per entry in one customer's log
 * (`user_id`). When someone else did it (the family owner for a member), `actor_user_id` names
 * them. The sentence is made in the reader's language from `type` and `payload`.
 */
export const actions = pgTable(
  'actions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    lineId: uuid('line_id').references(() => phoneLines.id, { onDelete: 'set null' }),
    actorUserId: uuid('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    type: text('type', { enum: ACTION_TYPES }).notNull(),
    payload: jsonb('payload').$type<ActionPayload>().notNull().default({}),
    dataMb: integer('data_mb'),
    /** Charged (positive) or refunded (negative), øre with VAT. */
    amountOere: integer('amount_oere'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('actions_user_id_created_at_idx').on(t.userId, t.createdAt),
    index('actions_line_id_idx').on(t.lineId),
    check('actions_data_mb', sql`${t.dataMb} >= 0`),
    check(
      'actions_type',
      sql`${t.type} in ('subscription_created', 'subscription_cancelled', 'plan_changed', 'member_added', 'member_moved', 'member_removed', 'package_purchased', 'eu_package_changed', 'data_given', 'data_received', 'data_requested', 'top_up', 'payment', 'sim_changed', 'profile_updated', 'signed_in_new_device', 'password_changed', 'pin_locked', 'number_locked', 'number_unlock_requested', 'number_unlock_cancelled', 'number_unlocked', 'port_out_code_created', 'port_out_refused', 'port_out_accepted', 'data_export', 'passkey_added', 'signed_in_passkey', 'passkey_removed')`,
    ),
  ],
);

export type ActionRow = typeof actions.$inferSelect;
export type NewActionRow = typeof actions.$inferInsert;
