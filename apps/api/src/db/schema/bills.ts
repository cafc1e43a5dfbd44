import { sql } from 'drizzle-orm';
import {
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { orders } from './orders';
import { phoneLines } from './phone-lines';
import { users } from './users';

/*
 * The monthly bill (docs/decisions/0098-monthly-bill.md, TMF678 CustomerBill): one per paying
 * customer per Faroese month, made by the month-end job. A bill never changes after it is issued,
 * except that deleting the customer removes their name, address and e-mail from it: the
 * bookkeeping act keeps the bill itself five years.
 */

/**
 * The one unbroken sequence of bill numbers (the VAT rules for invoices): a single row, moved
 * in the transaction that writes the bill. Its row lock makes the bills of concurrent
 * instances take turns, and a rolled-back bill gives its number back — a database sequence
 * would leave a gap.
 */
export const billCounter = pgTable(
  'bill_counter',
  {
    id: smallint('id').primaryKey().default(1),
    lastSerial: integer('last_serial').notNull().default(0),
  },
  (t) => [check('bill_counter_one_row', sql`${t.id} = 1`)],
);

/**
 * The customer numbers printed on bills: a short number per paying customer, given at their
 * first bill (from 100001). Kept after the user is deleted (`user_id` set null), as the books
 * name the customer by it.
 */
export const billCustomers = pgTable('bill_customers', {
  customerNumber: integer('customer_number').primaryKey().generatedAlwaysAsIdentity({
    startWith: 100_001,
  }),
  userId: uuid('user_id')
    .unique()
    .references(() => users.id, { onDelete: 'set null' }),
});

export const bills = pgTable(
  'bills',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Place in the unbroken sequence, from 1. */
    serial: integer('serial').notNull(),
    /** `R-000042`. */
    number: text('number').notNull(),
    /** Null once the customer deleted their user (the bill is kept, anonymised). */
    payerUserId: uuid('payer_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The customer number printed on the bill (`bill_customers`), kept for the books. */
    customerNumber: text('customer_number').notNull(),
    /** The Faroese month billed, `yyyy-mm`. */
    period: text('period').notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
    /** Faroese date. */
    dueDate: date('due_date', { mode: 'string' }).notNull(),
    /** The payer's language when it was issued (the PDF and the e-mail). */
    locale: text('locale', { enum: ['fo', 'en'] }).notNull(),
    // Copied at issue; removed when the customer deletes their user.
    customerName: text('customer_name'),
    customerAddress: text('customer_address'),
    customerEmail: text('customer_email'),
    anonymisedAt: timestamp('anonymised_at', { withTimezone: true }),
    vatRate: integer('vat_rate').notNull(),
    netOere: integer('net_oere').notNull(),
    vatOere: integer('vat_oere').notNull(),
    grossOere: integer('gross_oere').notNull(),
    /** What was paid of it when it was issued, øre with VAT. */
    paidOere: integer('paid_oere').notNull(),
    /** The bank transfer's reference: the serial and a check digit. */
    paymentReference: text('payment_reference').notNull(),
    /**
     * When the customer was told by e-mail that the bill is ready; null until then. The job
     * sends the e-mails of bills without it after they are committed, so a crash between the
     * two sends it on the next round (at least once).
     */
    notifiedAt: timestamp('notified_at', { withTimezone: true }),
    /** An instance sending that e-mail holds it until then (a lease; another takes it after). */
    notifyingUntil: timestamp('notifying_until', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('bills_serial_uq').on(t.serial),
    uniqueIndex('bills_number_uq').on(t.number),
    // Exactly one bill per customer per month.
    uniqueIndex('bills_payer_period_uq').on(t.payerUserId, t.period),
    // The finance system's list (TMF678), oldest first, paged by issue time.
    index('bills_issued_at_idx').on(t.issuedAt, t.id),
    index('bills_unnotified_idx')
      .on(t.issuedAt)
      .where(sql`${t.notifiedAt} is null`),
    check('bills_totals', sql`${t.netOere} + ${t.vatOere} = ${t.grossOere}`),
    check('bills_paid', sql`${t.paidOere} >= 0 and ${t.paidOere} <= ${t.grossOere}`),
    check('bills_period', sql`${t.period} ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'`),
    check(
      'bills_anonymised',
      sql`${t.anonymisedAt} is null or (${t.customerName} is null and ${t.customerAddress} is null and ${t.customerEmail} is null)`,
    ),
  ],
);

export type BillRow = typeof bills.$inferSelect;
export type NewBillRow = typeof bills.$inferInsert;

export const BILL_ITEM_KINDS = [
  'plan',
  'member',
  'eu_package',
  'number_fee',
  'roaming',
  'package',
  'top_up',
  'other',
] as const;

/**
 * A charge on a bill (TMF678 AppliedCustomerBillingRate), in the number's section: its text in
 * both languages, its price and how it was paid, as at issue.
 */
export const billItems = pgTable(
  'bill_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    billId: uuid('bill_id')
      .notNull()
      .references(() => bills.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    /** The number charged for, null for a charge on no number. */
    msisdn: text('msisdn'),
    /** The line then, for its itemised use; null once the line is gone. */
    lineId: uuid('line_id').references(() => phoneLines.id, { onDelete: 'set null' }),
    /** Whose line it was: a member sees only their own. */
    lineUserId: uuid('line_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The holder's first name when it is not the payer's own number. */
    holder: text('holder'),
    kind: text('kind', { enum: BILL_ITEM_KINDS }).notNull(),
    descriptionFo: text('description_fo').notNull(),
    descriptionEn: text('description_en').notNull(),
    netOere: integer('net_oere').notNull(),
    vatOere: integer('vat_oere').notNull(),
    grossOere: integer('gross_oere').notNull(),
    /** The order that paid it; null when it is owed. */
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'set null' }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    paymentMethod: text('payment_method', { enum: ['card', 'mobilepay', 'agreement'] }),
    cardBrand: text('card_brand'),
    cardLast4: text('card_last4'),
  },
  (t) => [
    uniqueIndex('bill_items_bill_position_uq').on(t.billId, t.position),
    // Deleting an order or a line sets these null: without an index each would scan the items.
    index('bill_items_order_id_idx')
      .on(t.orderId)
      .where(sql`${t.orderId} is not null`),
    index('bill_items_line_id_idx')
      .on(t.lineId)
      .where(sql`${t.lineId} is not null`),
    index('bill_items_line_user_id_idx')
      .on(t.lineUserId)
      .where(sql`${t.lineUserId} is not null`),
    check('bill_items_totals', sql`${t.netOere} + ${t.vatOere} = ${t.grossOere}`),
    check('bill_items_paid', sql`(${t.paidAt} is null) = (${t.paymentMethod} is null)`),
  ],
);

export type BillItemRow = typeof billItems.$inferSelect;
export type NewBillItemRow = typeof billItems.$inferInsert;

/**
 * Customers the month-end job has dealt with for a month: a bill, or none when nothing was
 * charged. Written in the bill's transaction, so a customer is billed once per month however
 * often the job runs, crashes or runs on two instances at once.
 */
export const billRuns = pgTable(
  'bill_runs',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    period: text('period').notNull(),
    billId: uuid('bill_id').references(() => bills.id, { onDelete: 'set null' }),
    ranAt: timestamp('ran_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.period] })],
);

/** Months whose bills are all made: a later round reads this one row and stops. */
export const billPeriods = pgTable('bill_periods', {
  period: text('period').primaryKey(),
  completedAt: timestamp('completed_at', { withTimezone: true }).notNull(),
});
