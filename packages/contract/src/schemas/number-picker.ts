import { z } from 'zod/mini';
import { numberClass, numberMatchMode } from '../rules/number-picker';
import { phoneNumber } from '../rules/phone';
import { priceBreakdown } from './common';

/**
 * GET /api/auth/free-numbers: free numbers to tap in sign-up (issue 33 §1, ADR 0077). Without
 * `digits`, a handful of any free numbers (a fresh set on every call); with them, free numbers
 * whose digits match (`contains` by default, `endsWith`, `startsWith`; 1–6 digits, `INVALID`
 * otherwise). Nothing is reserved: tapping a number reserves it (POST /auth/reserved-numbers).
 */
export const freeNumbersQuery = z.object({
  match: z._default(numberMatchMode, 'contains'),
  digits: z._default(
    z
      .pipe(
        z.string(),
        z.transform((v) => v.replace(/\s+/g, '')),
      )
      .check(z.refine((v) => /^\d{0,6}$/.test(v), 'INVALID')),
    '',
  ),
});
export type FreeNumbersQuery = z.output<typeof freeNumbersQuery>;

/** A free number as the picker offers it: its class of easy numbers and one-off price, if any. */
export const freeNumber = z.object({
  phoneNumber,
  numberClass: z.nullable(numberClass),
  /** The one-off price (ADR 0077); null for a number without one. */
  oneOffPrice: z.nullable(priceBreakdown),
});
export type FreeNumber = z.infer<typeof freeNumber>;

export const freeNumbersResponse = z.object({
  /** Free numbers that match, in random order (ordinary ones; a priced one shows its price). */
  numbers: z.array(freeNumber).check(z.maxLength(12)),
  /** Free easy numbers with a price that match, apart from `numbers`. */
  golden: z.array(freeNumber).check(z.maxLength(6)),
  /**
   * Set when nothing that matches is free: the nearest looser pattern that has free numbers
   * (one digit fewer at a time; `digits` empty: any number), and some of its numbers. For six
   * digits, the free numbers closest to it in its block.
   */
  nearest: z.nullable(
    z.object({
      match: numberMatchMode,
      digits: z.string().check(z.regex(/^\d{0,6}$/)),
      numbers: z.array(freeNumber).check(z.maxLength(12)),
    }),
  ),
});
export type FreeNumbersResponse = z.infer<typeof freeNumbersResponse>;
