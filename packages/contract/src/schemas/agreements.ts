import { z } from 'zod/mini';
import { id, isoDateTime } from './common';

/** Lifecycle of a payment agreement (a saved card for monthly charges). */
export const agreementStatus = z.enum(['pending', 'active', 'expired', 'cancelled']);
export type AgreementStatus = z.infer<typeof agreementStatus>;

/**
 * The payment agreement (SPEC §2 profile.agreement, §7 agreements). The card itself stays with
 * the payment provider; only what identifies it to the customer is here.
 */
export const agreement = z.object({
  id,
  status: agreementStatus,
  /**
   * The agreement is held by a payment provider Alda no longer uses: it shows as `expired`, can
   * no longer be charged, and the customer is asked to approve a new one.
   */
  needsRenewal: z.boolean(),
  /** E.g. 'Visa', 'Mastercard'; null until the card is registered. */
  cardBrand: z.nullable(z.string()),
  /** Last four digits of the card. */
  cardLast4: z.nullable(z.string().check(z.regex(/^\d{4}$/))),
  /** Card expiry, `MM/YY`. */
  cardExpiry: z.nullable(z.string().check(z.regex(/^(0[1-9]|1[0-2])\/\d{2}$/))),
  createdAt: isoDateTime,
});
export type Agreement = z.infer<typeof agreement>;

/** GET /api/agreements: the current agreement, or null when there is none. */
export const agreementResponse = z.nullable(agreement);
export type AgreementResponse = z.infer<typeof agreementResponse>;

/**
 * POST /api/agreements: register a card on file, or change it (SPEC §8 "payment agreement
 * creation"). Send an `Idempotency-Key` header. It places an order of kind `payment_agreement`
 * (a zero-amount card check) and answers orderPlacedResponse; the agreement becomes active, and
 * replaces the previous one, when the provider reports the card check paid.
 */
export const createAgreementRequest = z.strictObject({});
export type CreateAgreementRequest = z.output<typeof createAgreementRequest>;

/**
 * DELETE /api/agreements: the current agreement is ended at the payment provider (never charged
 * again) and then cancelled; the answer is `{ data: null }`. 404 NOT_FOUND without one; 503
 * PAYMENT_PROVIDER_UNAVAILABLE when the provider could not end it (nothing changed: try again).
 */
export const endAgreementResponse = z.null();
export type EndAgreementResponse = z.infer<typeof endAgreementResponse>;
