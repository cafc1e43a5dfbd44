import { z } from 'zod/mini';
import { phoneNumber } from '../rules/phone';
import { id, priceBreakdown } from './common';
import { paymentMethod } from './orders';

/**
 * One line of the monthly price: a number's plan, an EU package on it, the one-off price of an
 * easy number (`number_fee`, charged once with the line's first payment, ADR 0077), or a past
 * month's charges for data abroad beyond what is included (`roaming`, charged once with the next
 * payment after that month, ADR 0078; the description names the month).
 */
export const monthlyPriceLine = z.object({
  phoneNumber,
  kind: z.enum(['plan', 'member', 'eu_package', 'number_fee', 'roaming']),
  /** Display text in the requested language, e.g. 'Familja 50 GB' or 'ES-pakki'. */
  description: z.string(),
  price: priceBreakdown,
});
export type MonthlyPriceLine = z.infer<typeof monthlyPriceLine>;

/**
 * GET /api/billing/monthly-price: what the caller's subscriptions cost this month (SPEC §8
 * "fetching the monthly price"), with and without VAT (SPEC §9), and whether it is paid.
 */
export const monthlyPriceResponse = z.object({
  /** The Faroese month, `YYYY-MM`. */
  period: z.string().check(z.regex(/^\d{4}-(0[1-9]|1[0-2])$/)),
  lines: z.array(monthlyPriceLine),
  total: priceBreakdown,
  /** The order that paid this month, when one did. */
  paidOrderId: z.nullable(id),
});
export type MonthlyPriceResponse = z.infer<typeof monthlyPriceResponse>;

/**
 * POST /api/billing/pay: pay this month's price through the provider. Send an `Idempotency-Key`
 * header. Answer: orderPlacedResponse. 409 ALREADY_PAID when the month is paid.
 */
export const payMonthRequest = z.object({
  payWith: z._default(paymentMethod, 'card'),
});
export type PayMonthRequest = z.output<typeof payMonthRequest>;
