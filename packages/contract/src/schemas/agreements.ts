import { z } from 'zod';
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
  /** E.g. 'Visa', 'Mastercard'; null until the card is registered. */
  cardBrand: z.string().nullable(),
  /** Last four digits of the card. */
  cardLast4: z
    .string()
    .regex(/^\d{4}$/)
    .nullable(),
  /** Card expiry, `MM/YY`. */
  cardExpiry: z
    .string()
    .regex(/^(0[1-9]|1[0-2])\/\d{2}$/)
    .nullable(),
  createdAt: isoDateTime,
});
export type Agreement = z.infer<typeof agreement>;

/** GET /api/agreements: the current agreement, or null when there is none. */
export const agreementResponse = agreement.nullable();
export type AgreementResponse = z.infer<typeof agreementResponse>;

/** POST /api/agreements: start registering a card (also used to change card). */
export const createAgreementRequest = z.object({
  /** App path to return to after the card page, e.g. '/min-brukari/gjaldsavtala'. */
  returnPath: z.string().startsWith('/').max(200).default('/min-brukari/gjaldsavtala'),
});
export type CreateAgreementRequest = z.output<typeof createAgreementRequest>;

/** Answer of POST /api/agreements: the pending agreement and the provider's card page to open. */
export const createAgreementResponse = z.object({
  agreement,
  paymentUrl: z.url(),
});
export type CreateAgreementResponse = z.infer<typeof createAgreementResponse>;
