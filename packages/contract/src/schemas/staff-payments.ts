import { z } from 'zod/mini';
import { orderKind } from './orders';
import { staffReason } from './staff';

/*
 * The staff console's payments area (issue 31, docs/decisions/0075-staff-console.md): recent
 * payments and search, one payment with the provider's events, what the provider says now and
 * the reconciliation verdict, and refunds (full or partial) made through the provider adapter.
 * Amounts are øre with VAT (1 kr. = 100 øre), currency DKK.
 */

/** Our side of a card payment: created → pending → paid | failed | cancelled (ADR 0050). */
export const STAFF_PAYMENT_STATES = ['created', 'pending', 'paid', 'failed', 'cancelled'] as const;
export const staffPaymentState = z.enum(STAFF_PAYMENT_STATES);
export type StaffPaymentState = z.infer<typeof staffPaymentState>;

export const staffPaymentMethod = z.enum(['card', 'mobilepay', 'agreement']);

/** A refund: sent by the refund job with its id as the provider's idempotency key. */
export const STAFF_REFUND_STATES = ['pending', 'refunded', 'failed'] as const;
export const staffRefundState = z.enum(STAFF_REFUND_STATES);
export type StaffRefundState = z.infer<typeof staffRefundState>;

/** Where the provider says a payment stands (its own words). */
export const staffProviderState = z.enum([
  'created',
  'pending',
  'authorized',
  'succeeded',
  'failed',
]);

/** The most a single refund can be (a sanity bound; the real bound is what is left to refund). */
export const MAX_REFUND_OERE = 100_000_000;

/** GET /api/staff/payments?q=&state=&before=&limit= */
export const staffPaymentsQuery = z.object({
  /**
   * A payment id, an order id, the provider's payment id, the customer's phone number (6 digits,
   * with or without +298 and spaces) or e-mail address. Empty: the most recent payments.
   */
  q: z.optional(z.string().check(z.trim(), z.maxLength(200))),
  state: z.optional(staffPaymentState),
  /** Paging: the payments older than this one (the last row shown: the page's `nextBefore`). */
  before: z.optional(z.uuid()),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(200)), 50),
});
export type StaffPaymentsQuery = z.infer<typeof staffPaymentsQuery>;

export const staffPaymentCustomer = z.object({
  id: z.uuid(),
  name: z.string(),
});

export const staffPaymentCard = z.object({
  brand: z.nullable(z.string()),
  last4: z.nullable(z.string()),
});

/** One row of the payments list. */
export const staffPaymentRow = z.object({
  id: z.uuid(),
  orderId: z.uuid(),
  createdAt: z.iso.datetime({ offset: true }),
  customer: staffPaymentCustomer,
  /** Øre with VAT. */
  amountOere: z.int().check(z.nonnegative()),
  currency: z.literal('DKK'),
  method: staffPaymentMethod,
  state: staffPaymentState,
  /** Null until the provider reported the card. */
  card: z.nullable(staffPaymentCard),
  /** Paid back to the card so far (refunds done). */
  refundedOere: z.int().check(z.nonnegative()),
  /** Asked for and not paid back yet (refunds pending). */
  refundingOere: z.int().check(z.nonnegative()),
});
export type StaffPaymentRow = z.infer<typeof staffPaymentRow>;

export const staffPaymentsPage = z.object({
  /** Newest first, at most `limit`. */
  items: z.array(staffPaymentRow),
  /** Pass as `before` for the next (older) page; null on the last page. */
  nextBefore: z.nullable(z.uuid()),
});
export type StaffPaymentsPage = z.infer<typeof staffPaymentsPage>;

/** A webhook the provider sent about the payment (`payment_webhook_events`), oldest first. */
export const staffPaymentEvent = z.object({
  eventId: z.string(),
  type: z.string(),
  receivedAt: z.iso.datetime({ offset: true }),
});

export const staffRefund = z.object({
  id: z.uuid(),
  amountOere: z.int().check(z.positive()),
  state: staffRefundState,
  /** `staff:<email>` for a refund made in the console; null for the automatic refund of a late charge. */
  requestedBy: z.nullable(z.string()),
  reason: z.nullable(z.string()),
  attempts: z.int().check(z.nonnegative()),
  lastError: z.nullable(z.string()),
  createdAt: z.iso.datetime({ offset: true }),
  refundedAt: z.nullable(z.iso.datetime({ offset: true })),
});
export type StaffRefund = z.infer<typeof staffRefund>;

/**
 * What the reconciliation concludes for the payment, by the rule the reconciliation job and the
 * webhooks apply (apps/api/src/modules/payments/transition.ts `reconciliationOf`):
 * - `agree`: the provider's state is ours;
 * - `differs`: it is not. `next` says what settles it: `advance` (the forward-only transition:
 *   the next webhook or reconciliation round moves ours on), `refund` (the provider charged a
 *   payment closed here: the money goes back), `person` (nothing automatic: someone must look).
 * `provider` is the provider's state in our words (null: the provider has no such payment).
 */
export const staffReconciliation = z.object({
  verdict: z.enum(['agree', 'differs']),
  ours: staffPaymentState,
  provider: z.nullable(staffPaymentState),
  next: z.nullable(z.enum(['advance', 'refund', 'person'])),
});
export type StaffReconciliation = z.infer<typeof staffReconciliation>;

/**
 * What the provider says about the payment now (`getPayment` through the adapter):
 * - `known`: its view, and the reconciliation verdict;
 * - `not_sent`: the payment never reached the provider (no provider id); verdict as above;
 * - `unreachable`: the provider did not answer — the page still shows everything else.
 */
export const staffProviderCheck = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('known'),
    /** Null when the provider does not know the payment id. */
    view: z.nullable(
      z.object({
        state: staffProviderState,
        card: z.nullable(
          z.object({
            brand: z.string(),
            last4: z.nullable(z.string()),
            expiry: z.nullable(z.string()),
          }),
        ),
        failureReason: z.nullable(z.string()),
      }),
    ),
    reconciliation: staffReconciliation,
  }),
  z.object({ status: z.literal('not_sent'), reconciliation: staffReconciliation }),
  z.object({ status: z.literal('unreachable') }),
]);
export type StaffProviderCheck = z.infer<typeof staffProviderCheck>;

export const staffPaymentReceipt = z.object({
  id: z.uuid(),
  number: z.string(),
  issuedAt: z.iso.datetime({ offset: true }),
  grossOere: z.int(),
});

/** GET /api/staff/payments/:id */
export const staffPaymentDetail = z.extend(staffPaymentRow, {
  updatedAt: z.iso.datetime({ offset: true }),
  provider: z.string(),
  providerPaymentId: z.nullable(z.string()),
  failureReason: z.nullable(z.string()),
  order: z.object({ id: z.uuid(), kind: orderKind }),
  events: z.array(staffPaymentEvent),
  providerCheck: staffProviderCheck,
  refunds: z.array(staffRefund),
  receipt: z.nullable(staffPaymentReceipt),
  /** What may still be refunded: paid, less refunds done or pending; 0 unless paid. */
  refundableOere: z.int().check(z.nonnegative()),
});
export type StaffPaymentDetail = z.infer<typeof staffPaymentDetail>;

/** POST /api/staff/payments/:id/refunds — a full or partial refund of a paid payment. */
export const staffRefundRequest = z.object({
  amountOere: z.int().check(z.positive(), z.lte(MAX_REFUND_OERE)),
  reason: staffReason,
});
export type StaffRefundRequest = z.infer<typeof staffRefundRequest>;
