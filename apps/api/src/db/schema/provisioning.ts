import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { ProvisioningStepKey } from '@alda/contract/schemas/provisioning';
import { orders } from './orders';

export const PROVISIONING_STEP_KEYS = [
  'received',
  'esim_ready',
  'sim_sent',
  'sim_ready_for_pickup',
  'port_requested',
  'port_date_set',
  'port_rejected',
  'number_moved',
  'active',
  'failed',
] as const satisfies readonly ProvisioningStepKey[];

/**
 * Shops where a physical SIM can be picked up (GET /api/sim-pickup-locations). Reference data,
 * seeded; opening hours per language, one line per group of days.
 */
export const simPickupLocations = pgTable('sim_pickup_locations', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  address: text('address').notNull(),
  postCode: text('post_code').notNull(),
  city: text('city').notNull(),
  openingHoursFo: text('opening_hours_fo').array().notNull(),
  openingHoursEn: text('opening_hours_en').array().notNull(),
  sortOrder: integer('sort_order').notNull().default(0),
});

/**
 * What has happened to an order in provisioning, one row per step (docs/decisions/0055):
 * the customer sees them on the order; `reason_code` (a network rejection) or `reason_text`
 * (an operator's words) say why when a step went wrong or was set by hand; `actor` is
 * `network`, `customer`, `worker` or `operator:<name>`.
 */
export const provisioningSteps = pgTable(
  'provisioning_steps',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    step: text('step', { enum: PROVISIONING_STEP_KEYS }).notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    reasonCode: text('reason_code'),
    reasonText: text('reason_text'),
    actor: text('actor').notNull(),
  },
  (t) => [
    index('provisioning_steps_order_id_idx').on(t.orderId, t.at),
    check(
      'provisioning_steps_step',
      sql`${t.step} in ('received', 'esim_ready', 'sim_sent', 'sim_ready_for_pickup', 'port_requested', 'port_date_set', 'port_rejected', 'number_moved', 'active', 'failed')`,
    ),
  ],
);

/**
 * The audit log of the staff side (docs/decisions/0075-staff-console.md): every operator command,
 * every console change and every staff read of a customer's personal data — who, what, why, when.
 * Append-only: a trigger (migration 0016) refuses UPDATE and DELETE, and no route edits it.
 * `operator` is `staff:<email>` for the console and the operator's name for the command line.
 */
export const operatorActions = pgTable(
  'operator_actions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    operator: text('operator').notNull(),
    verb: text('verb').notNull(),
    /** The id acted on (order, status message, customer, payment, number, staff account). */
    target: text('target'),
    reason: text('reason'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** `read` of personal data, or a `change`. */
    kind: text('kind', { enum: ['read', 'change'] })
      .notNull()
      .default('change'),
    /** What `target` is: `order`, `customer`, `payment`, `number`, `staff`, `status`, `content`. */
    targetType: text('target_type'),
    /** The staff account, when the console did it (null for the command line). */
    staffUserId: uuid('staff_user_id'),
    /** Facts of the change a reader of the log needs (amount refunded, new role, …). */
    details: jsonb('details').$type<Record<string, unknown>>(),
  },
  (t) => [
    index('operator_actions_at_idx').on(t.at),
    index('operator_actions_target_idx').on(t.target),
    check('operator_actions_kind', sql`${t.kind} in ('read', 'change')`),
  ],
);

export type SimPickupLocationRow = typeof simPickupLocations.$inferSelect;
export type ProvisioningStepRow = typeof provisioningSteps.$inferSelect;
export type NewProvisioningStepRow = typeof provisioningSteps.$inferInsert;
export type OperatorActionRow = typeof operatorActions.$inferSelect;
