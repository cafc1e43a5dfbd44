import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { ReceiptLine } from '@alda/contract/schemas/receipts';
import { orders } from './orders';
import { users } from './users';

/**
 * Our side of a card payment (docs/decisions/0050-payments.md). States only move forward:
 * created → pending → paid | failed | cancelled. One payment per order; `fulfilled_at` is set in
 * the same transaction that adds the package / credit / agreement, so fulfilment happens once.
 */
export const PAYMENT_STATES = ['created', 'pending', 'paid', 'failed', 'cancelled'] as const;
export type PaymentState = (typeof PAYMENT_STATES)[number];

export const PAYMENT_METHODS = ['card', 'mobilepay', 'agreement'] as const;

export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Øre with VAT; 0 for a card registration. */
    amountOere: integer('amount_oere').notNull(),
    method: text('method', { enum: PAYMENT_METHODS }).notNull(),
    state: text('state', { enum: PAYMENT_STATES }).notNull().default('created'),
    /** Which provider adapter handles it (`test`, or a real one's name). */
    provider: text('provider').notNull(),
    /** The provider's id of the checkout / charge; set once the provider accepted it. */
    providerPaymentId: text('provider_payment_id'),
    /**
     * The provider's hosted card page of a card payment, kept so a retried purchase (same
     * Idempotency-Key) answers the same `paymentUrl` as the first; null for agreement charges.
     */
    checkoutUrl: text('checkout_url'),
    cardBrand: text('card_brand'),
    cardLast4: text('card_last4'),
    cardExpiry: text('card_expiry'),
    /** The provider's reference of a stored card (card registrations). */
    providerAgreementRef: text('provider_agreement_ref'),
    failureReason: text('failure_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** When fulfilment ran (exactly once, in the transaction that marked it paid). */
    fulfilledAt: timestamp('fulfilled_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('payments_order_id_uq').on(t.orderId),
    uniqueIndex('payments_provider_payment_id_uq')
      .on(t.provider, t.providerPaymentId)
      .where(sql`${t.providerPaymentId} is not null`),
    index('payments_user_id_idx').on(t.userId),
    // The staff console's list, newest first and paged on (created_at, id) (read backwards):
    // all payments, and those of one state.
    index('payments_created_at_id_idx').on(t.createdAt, t.id),
    index('payments_state_created_at_id_idx').on(t.state, t.createdAt, t.id),
    index('payments_pending_idx')
      .on(t.updatedAt)
      .where(sql`${t.state} in ('created', 'pending')`),
    check(
      'payments_state',
      sql`${t.state} in ('created', 'pending', 'paid', 'failed', 'cancelled')`,
    ),
    check('payments_method', sql`${t.method} in ('card', 'mobilepay', 'agreement')`),
    check('payments_amount', sql`${t.amountOere} >= 0`),
    check('payments_fulfilled_only_paid', sql`${t.fulfilledAt} is null or ${t.state} = 'paid'`),
  ],
);

export type PaymentRow = typeof payments.$inferSelect;
export type NewPaymentRow = typeof payments.$inferInsert;

/**
 * Provider webhook events already handled. The unique key is written in the same transaction as
 * the state change it causes, so a redelivered event is recognised and changes nothing.
 */
export const paymentWebhookEvents = pgTable(
  'payment_webhook_events',
  {
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    paymentId: uuid('payment_id').references(() => payments.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('payment_webhook_events_uq').on(t.provider, t.eventId)],
);

/**
 * Webhooks registered with a provider's Webhooks API (Vipps MobilePay, ADR 0081): where it sends
 * events and the secret it signs them with (given by the provider when registering; every
 * instance reads it here, so nobody copies it into the environment).
 */
export const paymentWebhookRegistrations = pgTable(
  'payment_webhook_registrations',
  {
    provider: text('provider').notNull(),
    /** The provider's id of the registration. */
    id: text('id').notNull(),
    url: text('url').notNull(),
    events: jsonb('events').$type<string[]>().notNull(),
    secret: text('secret').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.id] })],
);

/** Receipt numbers come from one sequence, so they are unique and increasing across instances. */
export const receiptNumberSeq = pgSequence('receipt_number_seq', { startWith: 1 });

/**
 * A receipt for a paid payment (SPEC §1 "download or email receipts"). The customer's name and
 * address and the lines are copied at issue time: a receipt never changes afterwards.
 */
export const receipts = pgTable(
  'receipts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** E.g. `K-2026-000042`. */
    number: text('number').notNull(),
    // A receipt outlives the user, order and payment it was issued for: bookkeeping keeps it
    // (5 years, the Faroese bookkeeping act) after the customer deletes their user (ADR 0056).
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'set null' }),
    paymentId: uuid('payment_id').references(() => payments.id, { onDelete: 'set null' }),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
    lines: jsonb('lines').$type<ReceiptLine[]>().notNull(),
    /** Percent, 25 in the Faroe Islands. */
    vatRate: integer('vat_rate').notNull(),
    netOere: integer('net_oere').notNull(),
    vatOere: integer('vat_oere').notNull(),
    grossOere: integer('gross_oere').notNull(),
    customerName: text('customer_name').notNull(),
    customerAddress: text('customer_address'),
    customerEmail: text('customer_email'),
    cardBrand: text('card_brand'),
    cardLast4: text('card_last4'),
  },
  (t) => [
    uniqueIndex('receipts_number_uq').on(t.number),
    uniqueIndex('receipts_payment_id_uq').on(t.paymentId),
    index('receipts_user_id_issued_at_idx').on(t.userId, t.issuedAt),
    check('receipts_totals', sql`${t.netOere} + ${t.vatOere} = ${t.grossOere}`),
  ],
);

export type ReceiptRow = typeof receipts.$inferSelect;
export type NewReceiptRow = typeof receipts.$inferInsert;

export const REFUND_STATES = ['pending', 'refunded', 'failed'] as const;
export type RefundState = (typeof REFUND_STATES)[number];

/**
 * Money the provider took for a payment that was already closed here (ADR 0050 "Refunds"): the
 * provider call timed out after charging the card on file, or a payment cancelled as never sent
 * reached the provider after all. One refund per payment (unique), written in the transaction
 * that hears of the charge; the refund job sends it to the provider with the refund's id as the
 * idempotency key, so it is paid back exactly once even if two instances or a retry send it.
 */
export const paymentRefunds = pgTable(
  'payment_refunds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    paymentId: uuid('payment_id')
      .notNull()
      .references(() => payments.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The provider's id of the charge to pay back. */
    providerPaymentId: text('provider_payment_id').notNull(),
    /** Øre with VAT: all of what was charged. */
    amountOere: integer('amount_oere').notNull(),
    state: text('state', { enum: REFUND_STATES }).notNull().default('pending'),
    providerRefundId: text('provider_refund_id'),
    attempts: integer('attempts').notNull().default(0),
    /** When the job may send it (again): a lease while one instance is sending it, then backoff. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    /**
     * Who asked for it: null for the automatic refund of a charge that reached the provider after
     * the payment closed (one per payment); `staff:<email>` for a refund made in the console
     * (full or partial; several per payment, never more in all than was paid).
     */
    requestedBy: text('requested_by'),
    reason: text('reason'),
  },
  (t) => [
    uniqueIndex('payment_refunds_payment_id_uq')
      .on(t.paymentId)
      .where(sql`${t.requestedBy} is null`),
    index('payment_refunds_payment_id_idx').on(t.paymentId),
    index('payment_refunds_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.state} = 'pending'`),
    check('payment_refunds_state', sql`${t.state} in ('pending', 'refunded', 'failed')`),
    check('payment_refunds_amount', sql`${t.amountOere} > 0`),
    check(
      'payment_refunds_refunded_flag',
      sql`(${t.state} = 'refunded') = (${t.refundedAt} is not null)`,
    ),
  ],
);

export type PaymentRefundRow = typeof paymentRefunds.$inferSelect;
