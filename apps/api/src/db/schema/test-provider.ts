import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The built-in test card provider's own store (docs/decisions/0050-payments.md). It plays a
 * separate company: the API never reads these tables; it learns about payments only through
 * signed webhooks and the provider's HTTP-shaped interface, as it would with a real provider.
 */
export const TEST_PROVIDER_KINDS = ['checkout', 'card_setup', 'agreement_charge'] as const;
export const TEST_PROVIDER_STATES = ['created', 'processing', 'succeeded', 'failed'] as const;

export const testProviderPayments = pgTable(
  'test_provider_payments',
  {
    /** `tp_…`, the provider's payment id. */
    id: text('id').primaryKey(),
    kind: text('kind', { enum: TEST_PROVIDER_KINDS }).notNull(),
    /** The merchant's reference (our payment id). */
    merchantReference: text('merchant_reference').notNull(),
    amountOere: integer('amount_oere').notNull(),
    state: text('state', { enum: TEST_PROVIDER_STATES }).notNull().default('created'),
    returnUrl: text('return_url'),
    /** What the merchant sells, shown on the hosted card page. */
    description: text('description'),
    /** When a processing payment settles (the slow test card); null while nothing is due. */
    settleAt: timestamp('settle_at', { withTimezone: true }),
    /** The stored card charged, or created by a card setup. */
    cardId: text('card_id'),
    cardBrand: text('card_brand'),
    cardLast4: text('card_last4'),
    cardExpiry: text('card_expiry'),
    failureReason: text('failure_reason'),
    /** A refund of the whole amount: its id, the merchant's idempotency key, and when. */
    refundId: text('refund_id'),
    refundKey: text('refund_key'),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('test_provider_payments_settle_idx')
      .on(t.settleAt)
      .where(sql`${t.settleAt} is not null`),
    // The checkouts nobody submitted, which the worker expires: a handful at any time, so the
    // look the worker takes every second stays as small at a million payments as at five.
    index('test_provider_payments_created_idx')
      .on(t.createdAt)
      .where(sql`${t.state} = 'created'`),
    check('test_provider_payments_amount', sql`${t.amountOere} >= 0`),
    check(
      'test_provider_payments_state',
      sql`${t.state} in ('created', 'processing', 'succeeded', 'failed')`,
    ),
  ],
);

/** Cards stored with the test provider (the card on file behind a payment agreement). */
export const testProviderCards = pgTable('test_provider_cards', {
  id: text('id').primaryKey(),
  brand: text('brand').notNull(),
  last4: text('last4').notNull(),
  expiry: text('expiry').notNull(),
  /** Behaviour copied from the test card that registered it: succeed, decline or slow. */
  behaviour: text('behaviour').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  /** When the agreement on this card was ended (`stopAgreement`): it is never charged again. */
  stoppedAt: timestamp('stopped_at', { withTimezone: true }),
});

/**
 * Webhooks the test provider still has to deliver (with retries and backoff, like a real one);
 * kept in its store so a restart of the process does not lose them.
 */
export const testProviderWebhooks = pgTable(
  'test_provider_webhooks',
  {
    id: text('id').primaryKey(),
    paymentId: text('payment_id').notNull(),
    body: text('body').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    lastError: text('last_error'),
  },
  (t) => [
    index('test_provider_webhooks_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.deliveredAt} is null`),
  ],
);
