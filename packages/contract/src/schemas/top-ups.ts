import { z } from 'zod/mini';
import { phoneNumberInput } from '../rules/phone';
import { oere } from './common';
import { paymentMethod } from './orders';

/**
 * Top-up of a prepaid (talutíð) number (SPEC §1 "top up"; endpoints not shown, so ours:
 * docs/decisions/0050-payments.md). GET /api/top-ups/options: the amounts on offer, øre with VAT.
 */
export const topUpOptionsResponse = z.object({
  amounts: z.array(oere),
  minOere: oere,
  maxOere: oere,
});
export type TopUpOptionsResponse = z.infer<typeof topUpOptionsResponse>;

/**
 * POST /api/top-ups: top up one of the caller's prepaid numbers. Send an `Idempotency-Key`
 * header. Answer: orderPlacedResponse; the credit is added when the payment is paid.
 */
export const topUpRequest = z.object({
  phoneNumber: phoneNumberInput,
  amount: oere.check(z.positive()),
  payWith: z._default(paymentMethod, 'card'),
});
export type TopUpRequest = z.output<typeof topUpRequest>;
