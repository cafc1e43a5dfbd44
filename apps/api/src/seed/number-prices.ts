import type { numberPriceClasses } from '../db/schema/number-picker';

/**
 * The demo's price list of easy numbers (ADR 0077), øre with VAT: what a Faroese customer might
 * pay once for a number that is easy to remember. Operations changes the rows; a class at 0 is
 * an ordinary number.
 */
export const DEMO_NUMBER_PRICES: (typeof numberPriceClasses.$inferInsert)[] = [
  { numberClass: 'solid', priceOere: 200_000 },
  { numberClass: 'ladder', priceOere: 100_000 },
  { numberClass: 'repeat', priceOere: 50_000 },
  { numberClass: 'tail', priceOere: 30_000 },
  { numberClass: 'pairs', priceOere: 15_000 },
];
