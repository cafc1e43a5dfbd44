import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
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

/** Every command an operator ran against the system (`npm run operator`): who, what, when, why. */
export const operatorActions = pgTable(
  'operator_actions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    operator: text('operator').notNull(),
    verb: text('verb').notNull(),
    /** The order or status message acted on. */
    target: text('target'),
    reason: text('reason'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('operator_actions_at_idx').on(t.at)],
);

export type SimPickupLocationRow = typeof simPickupLocations.$inferSelect;
export type ProvisioningStepRow = typeof provisioningSteps.$inferSelect;
export type NewProvisioningStepRow = typeof provisioningSteps.$inferInsert;
export type OperatorActionRow = typeof operatorActions.$inferSelect;
