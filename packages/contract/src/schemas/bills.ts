import { z } from 'zod/mini';
import { BILL_STATES } from '../rules/bills';
import { phoneNumber } from '../rules/phone';
import { id, isoDateTime, okResponse, priceBreakdown } from './common';
import { paymentMethod } from './orders';

/*
 * The monthly bill (docs/decisions/0098-monthly-bill.md): one per paying customer per Faroese
 * month, made by the month-end job, numbered in one unbroken sequence. Its items are what was
 * charged for the month — the month's payment (plans, EU package, one-off prices, an earlier
 * month's charges abroad) and the purchases of the month — each with the payment that paid it.
 */

const period = z.string().check(z.regex(/^\d{4}-(0[1-9]|1[0-2])$/));
const isoDate = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/));

export const billState = z.enum(BILL_STATES);
export type BillStateValue = z.infer<typeof billState>;

/** What a bill item is. */
export const billItemKind = z.enum([
  'plan',
  'member',
  'eu_package',
  'number_fee',
  'roaming',
  'package',
  'top_up',
  'other',
]);
export type BillItemKind = z.infer<typeof billItemKind>;

/** How a bill, or one of its items, was paid. */
export const billPayment = z.object({
  method: paymentMethod,
  paidAt: isoDateTime,
  cardBrand: z.nullable(z.string()),
  cardLast4: z.nullable(z.string()),
});
export type BillPayment = z.infer<typeof billPayment>;

/** A bill as listed. `scope` `member`: the caller sees only their own lines of it. */
export const billSummary = z.object({
  id,
  /** `R-000042`. */
  number: z.string(),
  /** The Faroese month billed, `YYYY-MM`. */
  period,
  issuedAt: isoDateTime,
  /** Faroese date, `YYYY-MM-DD`. */
  dueDate: isoDate,
  total: priceBreakdown,
  /** Øre with VAT paid of the total. */
  paidOere: z.int().check(z.nonnegative()),
  state: billState,
  /** The latest payment of the bill, when there is one. */
  payment: z.nullable(billPayment),
  scope: z.enum(['payer', 'member']),
});
export type BillSummary = z.infer<typeof billSummary>;

/** GET /api/bills: newest first. */
export const billsResponse = z.object({ items: z.array(billSummary) });
export type BillsResponse = z.infer<typeof billsResponse>;

/** One thing charged on a bill. */
export const billItem = z.object({
  id,
  kind: billItemKind,
  /** In the reader's language. */
  description: z.string(),
  price: priceBreakdown,
  /** Whether it is paid, and how. */
  paid: z.boolean(),
  payment: z.nullable(billPayment),
});
export type BillItem = z.infer<typeof billItem>;

/** A number's section of a bill: its items and their subtotal. */
export const billSection = z.object({
  phoneNumber,
  /** Whose number it is (first name), null when it is the payer's own. */
  holder: z.nullable(z.string()),
  /** The caller may see this number's itemised use with full numbers (it is their own). */
  own: z.boolean(),
  items: z.array(billItem),
  subtotal: priceBreakdown,
});
export type BillSection = z.infer<typeof billSection>;

/** How to pay what is owed by bank transfer. */
export const bankTransfer = z.object({
  /** `reg.nr. konto`, e.g. `6460 1234567`. */
  account: z.string(),
  iban: z.string(),
  /** Nine digits with a check digit. */
  reference: z.string(),
  amountOere: z.int().check(z.positive()),
  dueDate: isoDate,
});
export type BankTransfer = z.infer<typeof bankTransfer>;

/** GET /api/bills/{id}. */
export const billResponse = z.extend(billSummary, {
  /** VAT rate in percent (25). */
  vatRate: z.int(),
  sections: z.array(billSection),
  /** What is owed, when something is. */
  bankTransfer: z.nullable(bankTransfer),
});
export type BillResponse = z.infer<typeof billResponse>;

export const billUsageType = z.enum(['voice', 'sms', 'data', 'other']);
export type BillUsageType = z.infer<typeof billUsageType>;

/** GET /api/bills/{id}/usage query. */
export const billUsageQuery = z.object({
  phoneNumber,
  type: z.optional(billUsageType),
  /** Show the other party's numbers in full: honoured only on the caller's own number. */
  fullNumbers: z.optional(z.enum(['true', 'false'])),
  page: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(10_000)), 1),
  perPage: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(200)), 50),
});
export type BillUsageQuery = z.infer<typeof billUsageQuery>;

/** One use of an itemised list. */
export const billUsageItem = z.object({
  occurredAt: isoDateTime,
  type: billUsageType,
  /** Masked (`316•••`) unless full numbers are asked for on one's own number. */
  otherParty: z.nullable(z.string()),
  /** Seconds of a call, MB of data, a count of the rest. */
  quantity: z.int().check(z.nonnegative()),
  unit: z.enum(['s', 'MB', 'count']),
  zone: z.enum(['domestic', 'eu', 'world']),
  /** What it was charged, øre with VAT; 0 when included. */
  chargeOere: z.int().check(z.nonnegative()),
  included: z.boolean(),
});
export type BillUsageItem = z.infer<typeof billUsageItem>;

/** GET /api/bills/{id}/usage: the number's use in the bill's month, oldest first, paged. */
export const billUsageResponse = z.object({
  items: z.array(billUsageItem),
  total: z.int().check(z.nonnegative()),
  page: z.int().check(z.positive()),
  perPage: z.int().check(z.positive()),
  /** Full numbers were shown. */
  fullNumbers: z.boolean(),
  /** The month's use is older than what is kept (ADR 0098): the list is empty for that. */
  expired: z.boolean(),
});
export type BillUsageResponse = z.infer<typeof billUsageResponse>;

/** POST /api/bills/{id}/email. */
export const emailBillResponse = z.extend(okResponse, { sentTo: z.email() });
export type EmailBillResponse = z.infer<typeof emailBillResponse>;

/** POST /api/bills/{id}/pdf-link: a short-lived address of the PDF (as for receipts). */
export const billPdfLinkResponse = z.object({
  path: z.string().check(z.startsWith('/bill-files/')),
  expiresAt: isoDateTime,
});
export type BillPdfLinkResponse = z.infer<typeof billPdfLinkResponse>;
