import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { LifecycleAction, OrderKind, PaymentStatus } from '@alda/contract/schemas/orders';
import type { ProvisioningWaitingFor, SimDelivery } from '@alda/contract/schemas/provisioning';
import { accounts } from './accounts';
import { plans } from './catalog';
import { packageRequests } from './controls';
import { phoneLines } from './phone-lines';
import { users } from './users';

export const ORDER_KINDS = [
  'new_subscription',
  'add_member',
  'transfer',
  'plan_change',
  'eu_package',
  'extra_package',
  'top_up',
  'cancellation',
  'payment_agreement',
  'subscription_payment',
  'sim_change',
] as const satisfies readonly OrderKind[];

/** How the SIM of an order reaches the customer (contract `simDelivery`). */
export const SIM_DELIVERIES = [
  'esim',
  'pickup',
  'home',
  'own_card',
] as const satisfies readonly SimDelivery[];

/** Who a provisioning order waits on (contract `provisioningWaitingFor`). */
export const PROVISIONING_WAITS = [
  'network',
  'customer_sim',
  'customer_correction',
  'month_end',
  'none',
] as const satisfies readonly ProvisioningWaitingFor[];

/** What a lifecycle order does (contract `lifecycleAction`, ADR 0056). */
export const LIFECYCLE_ACTIONS = [
  'plan_upgrade',
  'plan_downgrade',
  'cancel_subscription',
  'deactivate_plan',
  'delete_number',
  'move_to_own_account',
  'move_to_family_account',
  'hand_over',
  'port_out',
] as const satisfies readonly LifecycleAction[];

export const PAYMENT_STATUSES = [
  'not_required',
  'pending',
  'paid',
  'failed',
  'cancelled',
] as const satisfies readonly PaymentStatus[];

/** Unique index: an Idempotency-Key places one order per customer. */
export const IDEMPOTENCY_KEY_CONSTRAINT = 'orders_idempotency_key_uq';

/** Unique index: a customer's month has at most one pending or paid `subscription_payment`. */
export const ONE_MONTH_PAYMENT_CONSTRAINT = 'orders_one_month_payment_uq';

/** The unique index of one live order per member's package request (ADR 0068). */
export const ONE_ORDER_PER_PACKAGE_REQUEST = 'orders_one_per_package_request_uq';

/**
 * A customer order (TM Forum TMF622 Product Ordering): a new subscription, a member added to a
 * family, a transfer, a plan change, a package, a top-up. Provisioning carries it out and can take
 * days (SPEC §4); it is processing while `is_complete` is false. The flags mirror the timestamps
 * (checked), so the SPEC §3 booleans are plain columns to filter on.
 */
export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The customer who placed the order and sees it in GET /api/orders. */
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id').references(() => accounts.id, { onDelete: 'set null' }),
    /** The line the order creates or changes, once it exists. */
    lineId: uuid('line_id').references(() => phoneLines.id, { onDelete: 'set null' }),
    kind: text('kind', { enum: ORDER_KINDS }).notNull(),
    /** The order that creates an account's main subscription (SPEC §3 isMainSubscription). */
    isMainSubscription: boolean('is_main_subscription').notNull().default(false),
    planId: text('plan_id').references(() => plans.id),
    /** The number concerned (6 digits), once known. */
    msisdn: text('msisdn'),
    /** Name of the person a new number is for, when it is not the customer (a family member). */
    memberFirstname: text('member_firstname'),
    memberLastname: text('member_lastname'),
    /** What is charged up front, øre with VAT; null when nothing is. */
    priceOere: integer('price_oere'),
    paymentStatus: text('payment_status', { enum: PAYMENT_STATUSES })
      .notNull()
      .default('not_required'),
    isComplete: boolean('is_complete').notNull().default(false),
    isCancelled: boolean('is_cancelled').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    /** Client-supplied Idempotency-Key of the request that placed it (unique per customer). */
    idempotencyKey: text('idempotency_key'),
    /**
     * SHA-256 of the request that placed it, so the same key with a different body is refused
     * (IDEMPOTENCY_KEY_REUSED) instead of answered with another request's order.
     */
    requestHash: text('request_hash'),
    /** What the order buys, for fulfilment: the extra package, or the month (`YYYY-MM`) paid. */
    packageId: text('package_id'),
    billingPeriod: text('billing_period'),
    // Provisioning of orders that set up a line (docs/decisions/0055-provisioning.md).
    /** How the SIM reaches the customer; null for orders without a SIM. */
    simDelivery: text('sim_delivery', { enum: SIM_DELIVERIES }),
    simPickupLocationId: text('sim_pickup_location_id'),
    shippingAddress: text('shipping_address'),
    shippingPostCode: text('shipping_post_code'),
    shippingCity: text('shipping_city'),
    /** ICCID of the card the customer already holds (delivery `own_card`). */
    simcardNumber: text('simcard_number'),
    /**
     * eSIM orders: the SM-DP+ matching id of the profile being prepared, so the customer can
     * install it before the line (or, for a `sim_change`, the new SIM) is active.
     */
    esimMatchingId: text('esim_matching_id'),
    /** Porting: the ICCID of the SIM at the current provider (corrected after a rejection). */
    portingSimcardNumber: text('porting_simcard_number'),
    isPorting: boolean('is_porting').notNull().default(false),
    /** The EU package chosen at sign-up, set on the account when the order completes. */
    euPackage: boolean('eu_package').notNull().default(false),
    /** Who the order waits on; null for orders that are not provisioned. */
    provisioningWaitingFor: text('provisioning_waiting_for', { enum: PROVISIONING_WAITS }),
    /** When the provisioning worker next acts on the order (due when at or before now). */
    provisioningNextAt: timestamp('provisioning_next_at', { withTimezone: true }),
    portDate: timestamp('port_date', { withTimezone: true }),
    // The subscription lifecycle (docs/decisions/0056-subscription-lifecycle.md).
    /** What a plan change, cancellation or transfer does; null for other orders. */
    lifecycleAction: text('lifecycle_action', { enum: LIFECYCLE_ACTIONS }),
    /** When the change takes effect: at placement, or the first instant of a later month. */
    effectiveAt: timestamp('effective_at', { withTimezone: true }),
    /** The plan the line or account had before the change (`plan_id` is the one it goes to). */
    previousPlanId: text('previous_plan_id').references(() => plans.id),
    /** The account a transfer moves the line to, once it exists. */
    targetAccountId: uuid('target_account_id').references(() => accounts.id, {
      onDelete: 'set null',
    }),
    /** The person a `hand_over` gives the line to (they own the new account). */
    recipientUserId: uuid('recipient_user_id').references(() => users.id, { onDelete: 'set null' }),
    /**
     * The member's package request an owner's `extra_package` order pays for (ADR 0068): its
     * fulfilment marks the request approved in the same transaction.
     */
    packageRequestId: uuid('package_request_id').references(() => packageRequests.id, {
      onDelete: 'set null',
    }),
  },
  (t) => [
    index('orders_user_id_created_at_idx').on(t.userId, t.createdAt),
    index('orders_account_id_idx').on(t.accountId),
    index('orders_line_id_idx').on(t.lineId),
    // GET /api/subscriptions reads an account's orders and the transfers onto it (start-up path).
    index('orders_target_account_id_idx')
      .on(t.targetAccountId)
      .where(sql`${t.targetAccountId} is not null`),
    index('orders_lifecycle_due_idx')
      .on(t.effectiveAt)
      .where(
        sql`${t.lifecycleAction} is not null and not ${t.isComplete} and not ${t.isCancelled}`,
      ),
    check(
      'orders_lifecycle_action',
      sql`${t.lifecycleAction} is null or ${t.lifecycleAction} in ('plan_upgrade', 'plan_downgrade', 'cancel_subscription', 'deactivate_plan', 'delete_number', 'move_to_own_account', 'move_to_family_account', 'hand_over', 'port_out')`,
    ),
    // The staff console's queue, newest first and paged on (created_at, id) (read backwards):
    // every order (`all`, `complete`), and the open ones (the queue's other filters).
    index('orders_created_at_id_idx').on(t.createdAt, t.id),
    index('orders_open_created_at_id_idx')
      .on(t.createdAt, t.id)
      .where(sql`not ${t.isComplete} and not ${t.isCancelled}`),
    // The queue's search by number (or its start), newest first.
    index('orders_msisdn_created_at_idx')
      .on(t.msisdn, t.createdAt, t.id)
      .where(sql`${t.msisdn} is not null`),
    index('orders_provisioning_due_idx')
      .on(t.provisioningNextAt)
      .where(sql`${t.provisioningNextAt} is not null`),
    uniqueIndex(IDEMPOTENCY_KEY_CONSTRAINT)
      .on(t.userId, t.idempotencyKey)
      .where(sql`${t.idempotencyKey} is not null`),
    // One live payment of a month per customer: two clicks with different keys cannot both
    // open one (ADR 0052), and a paid month cannot be paid again.
    uniqueIndex(ONE_MONTH_PAYMENT_CONSTRAINT)
      .on(t.userId, t.billingPeriod)
      .where(
        sql`${t.kind} = 'subscription_payment' and ${t.paymentStatus} in ('pending', 'paid') and not ${t.isCancelled}`,
      ),
    // One live order per package request: two approvals (another key, another device) cannot
    // both pay for it; the second is answered the first's order (ADR 0068).
    uniqueIndex(ONE_ORDER_PER_PACKAGE_REQUEST)
      .on(t.packageRequestId)
      .where(
        sql`${t.packageRequestId} is not null and ${t.paymentStatus} in ('pending', 'paid') and not ${t.isCancelled}`,
      ),
    check('orders_msisdn_6_digits', sql`${t.msisdn} ~ '^[0-9]{6}$'`),
    check('orders_price', sql`${t.priceOere} >= 0`),
    check('orders_complete_flag', sql`${t.isComplete} = (${t.completedAt} is not null)`),
    check('orders_cancelled_flag', sql`${t.isCancelled} = (${t.cancelledAt} is not null)`),
    check('orders_complete_or_cancelled', sql`not (${t.isComplete} and ${t.isCancelled})`),
    check(
      'orders_kind',
      sql`${t.kind} in ('new_subscription', 'add_member', 'transfer', 'plan_change', 'eu_package', 'extra_package', 'top_up', 'cancellation', 'payment_agreement', 'subscription_payment', 'sim_change')`,
    ),
    check(
      'orders_payment_status',
      sql`${t.paymentStatus} in ('not_required', 'pending', 'paid', 'failed', 'cancelled')`,
    ),
  ],
);

export type OrderRow = typeof orders.$inferSelect;
export type NewOrderRow = typeof orders.$inferInsert;
