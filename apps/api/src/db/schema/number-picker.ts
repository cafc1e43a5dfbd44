import { sql } from 'drizzle-orm';
import { check, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { NumberClass } from '@alda/contract/rules/number-picker';
import { orders } from './orders';
import { phoneLines } from './phone-lines';

/*
 * The number picker's money (issue 33 §1, docs/decisions/0077-number-picker.md): the one-off
 * price of each class of easy ("golden") numbers, which operations sets, and the price a line's
 * number carries until the first payment charges it.
 */

/** The classes of the contract's rule (`rules/number-picker.ts`); `import type` only (drizzle-kit). */
const CLASSES = [
  'solid',
  'ladder',
  'repeat',
  'tail',
  'pairs',
] as const satisfies readonly NumberClass[];

/**
 * The price list of easy numbers (a catalogue value, like a plan's price): øre with VAT per
 * class. Operations changes a row to change the price of new choices; a class without a row, or
 * at 0, is an ordinary number. A reservation holds the price it was made at, a line the price of
 * its order.
 */
export const numberPriceClasses = pgTable(
  'number_price_classes',
  {
    numberClass: text('number_class', { enum: CLASSES }).primaryKey(),
    priceOere: integer('price_oere').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      'number_price_classes_class',
      sql`${t.numberClass} in ('solid', 'ladder', 'repeat', 'tail', 'pairs')`,
    ),
    check('number_price_classes_price', sql`${t.priceOere} >= 0`),
  ],
);

/**
 * The one-off price of a line's number, written with the order that set the line up; charged
 * with the first monthly payment of the account that pays for the line (`charged_order_id`, set
 * in that payment's transaction) and listed on its receipt as a line of its own.
 */
export const numberFees = pgTable(
  'number_fees',
  {
    lineId: uuid('line_id')
      .primaryKey()
      .references(() => phoneLines.id, { onDelete: 'cascade' }),
    msisdn: text('msisdn').notNull(),
    numberClass: text('number_class', { enum: CLASSES }).notNull(),
    priceOere: integer('price_oere').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** The `subscription_payment` order that charged it; null until then. */
    chargedOrderId: uuid('charged_order_id').references(() => orders.id, { onDelete: 'set null' }),
    chargedAt: timestamp('charged_at', { withTimezone: true }),
  },
  (t) => [check('number_fees_price', sql`${t.priceOere} > 0`)],
);

export type NumberPriceClassRow = typeof numberPriceClasses.$inferSelect;
export type NumberFeeRow = typeof numberFees.$inferSelect;
