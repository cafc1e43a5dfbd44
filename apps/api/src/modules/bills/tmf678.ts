import { z } from 'zod';
import {
  endOfMonth,
  faroeDateTime,
  faroeOffsetMs,
  fromFaroeWallClock,
} from '@alda/contract/format/date';
import { billState, periodBounds } from '@alda/contract/rules/bills';
import { toWireNumber } from '@alda/contract/rules/phone';
import type { BillItemRow, BillRow } from '../../db/schema/bills';

/*
 * The monthly bills as TM Forum TMF678 Customer Bill Management v4 resources, for the operator's
 * finance system (docs/decisions/0098-monthly-bill.md). Pure: a bill row is a `CustomerBill`, a
 * bill item an `AppliedCustomerBillingRate`, in the types of the published document (vendored in
 * apps/api/test/contracts/tmf678/). What leaves here names the customer by their customer number
 * only: never a name, an address, an e-mail or a line holder's first name, which the bill rows
 * also carry (and lose when the customer is deleted).
 */

/** Where the TMF678 resources live (the document's `basePath`, without its trailing slash). */
export const TMF678_BASE_PATH = '/tmf-api/customerBillManagement/v4';

/** The document's `stateValue` (v5: `CustomerBillStateType`). */
export const TMF_BILL_STATES = [
  'new',
  'onHold',
  'validated',
  'sent',
  'partiallyPaid',
  'settled',
] as const;
export type TmfBillState = (typeof TMF_BILL_STATES)[number];

/** What of a bill the mapping reads: no name, address or e-mail (the repo does not select them). */
export type Tmf678Bill = Pick<
  BillRow,
  | 'id'
  | 'number'
  | 'customerNumber'
  | 'period'
  | 'issuedAt'
  | 'dueDate'
  | 'locale'
  | 'vatRate'
  | 'netOere'
  | 'vatOere'
  | 'grossOere'
  | 'paidOere'
>;

/** What of a bill item the mapping reads: not the holder's first name, the line or the card. */
export type Tmf678Item = Pick<
  BillItemRow,
  | 'id'
  | 'billId'
  | 'msisdn'
  | 'kind'
  | 'descriptionFo'
  | 'descriptionEn'
  | 'netOere'
  | 'vatOere'
  | 'grossOere'
  | 'paidAt'
>;

/** The bill an item is on, as its rate needs it. */
export type Tmf678ItemBill = Pick<BillRow, 'issuedAt' | 'locale' | 'vatRate'>;

const money = z.object({
  unit: z.literal('DKK'),
  value: z.number().describe('kroner, to the øre (two decimals)'),
});
const tax = z.object({
  taxCategory: z.literal('VAT'),
  taxRate: z.number().describe('0.25: the Faroese VAT'),
  taxAmount: money,
});
const dateTime = z.string().describe('RFC 3339, in Faroese time with its offset');

/** A bill as TMF678 `CustomerBill`. */
export const tmfCustomerBill = z.object({
  id: z.string().describe('the bill id (a UUID)'),
  href: z.string().describe('<APP_URL>/tmf-api/customerBillManagement/v4/customerBill/{id}'),
  billNo: z.string().describe('the bill number printed on it, `R-000042`'),
  billDate: dateTime.describe('when the bill was issued'),
  billingPeriod: z.object({
    startDateTime: dateTime.describe('00:00 on the 1st of the Faroese month billed'),
    endDateTime: dateTime.describe('its last moment, 23:59:59.999 on its last day'),
  }),
  paymentDueDate: dateTime.describe('the last moment of the due date (Faroese)'),
  category: z.literal('normal'),
  runType: z.literal('onCycle'),
  state: z
    .enum(TMF_BILL_STATES)
    .describe('settled: paid; partiallyPaid: some paid; sent: nothing paid (overdue or not)'),
  amountDue: money.describe('the total with VAT'),
  remainingAmount: money.describe('what is not paid of it'),
  taxExcludedAmount: money,
  taxIncludedAmount: money,
  taxItem: z.array(tax),
  billingAccount: z.object({
    id: z.string().describe('the customer number'),
    '@referredType': z.literal('BillingAccount'),
  }),
  relatedParty: z.array(
    z.object({
      id: z.string().describe('the customer number'),
      role: z.literal('customer'),
      '@referredType': z.literal('Customer'),
    }),
  ),
  '@type': z.literal('CustomerBill'),
});
export type TmfCustomerBill = z.infer<typeof tmfCustomerBill>;

/** A bill item as TMF678 `AppliedCustomerBillingRate`. */
export const tmfAppliedRate = z.object({
  id: z.string().describe('the bill item id (a UUID)'),
  href: z
    .string()
    .describe('<APP_URL>/tmf-api/customerBillManagement/v4/appliedCustomerBillingRate/{id}'),
  name: z.string().describe('what was charged, in English'),
  description: z.string().describe('what was charged, in the language of the bill'),
  type: z
    .enum(['appliedBillingCharge', 'appliedBillingCredit'])
    .describe('as the document names them: a charge, or a credit (an amount below 0)'),
  date: dateTime.describe('when it was paid, or else when the bill was issued'),
  isBilled: z.literal(true),
  bill: z.object({
    id: z.string(),
    href: z.string(),
    '@referredType': z.literal('CustomerBill'),
  }),
  taxExcludedAmount: money,
  taxIncludedAmount: money,
  appliedTax: z.array(tax),
  characteristic: z
    .array(z.object({ name: z.string(), valueType: z.literal('string'), value: z.string() }))
    .describe(
      '`kind` (plan, member, eu_package, number_fee, roaming, package, top_up, other) and, for a charge on a number, `msisdn` (298 and the 6 digits)',
    ),
  '@type': z.literal('AppliedCustomerBillingRate'),
});
export type TmfAppliedRate = z.infer<typeof tmfAppliedRate>;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * An instant as RFC 3339 in Faroese time with its offset (`2026-06-01T00:00:00.000+01:00`): the
 * same instant as UTC, but its date is the Faroese date the bill is about, also to a reader that
 * takes the date part as it is written.
 */
export function faroeIso(instant: Date): string {
  const t = faroeDateTime(instant);
  const offsetMin = faroeOffsetMs(instant) / 60_000;
  return (
    `${pad(t.year, 4)}-${pad(t.month)}-${pad(t.day)}T${pad(t.hour)}:${pad(t.minute)}:` +
    `${pad(t.second)}.${pad(t.millisecond, 3)}+${pad(Math.floor(offsetMin / 60))}:${pad(offsetMin % 60)}`
  );
}

/** The last moment of a Faroese date `yyyy-mm-dd`. */
function endOfFaroeDay(date: string): Date {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  // The day after at 00:00 (Date.UTC rolls over the month's end), less a millisecond.
  return new Date(fromFaroeWallClock(year, month, day + 1).getTime() - 1);
}

/** Øre as the document's `Money`: DKK, kroner to two decimals. */
export function moneyOf(oere: number): { unit: 'DKK'; value: number } {
  return { unit: 'DKK', value: Math.round(oere) / 100 };
}

/**
 * The document's state of a bill from its own (`billState`, ADR 0098): paid → settled; partly
 * paid → partiallyPaid, also once it is overdue (the document has no overdue state: that is
 * `paymentDueDate` against the clock); nothing paid, overdue or not → sent.
 */
export function tmfBillState(bill: Tmf678Bill, today: string): TmfBillState {
  const state = billState(bill.grossOere, bill.paidOere, bill.dueDate, today);
  if (state === 'paid') return 'settled';
  if (state === 'partly_paid' || bill.paidOere > 0) return 'partiallyPaid';
  return 'sent';
}

/** The bill's rate as the document's `taxRate`: 25 → 0.25. */
const taxRateOf = (vatRate: number) => vatRate / 100;

/** `href` of the resources under `base` (`<APP_URL>/tmf-api/customerBillManagement/v4`). */
export const billHref = (base: string, id: string) => `${base}/customerBill/${id}`;
export const rateHref = (base: string, id: string) => `${base}/appliedCustomerBillingRate/${id}`;

/** A bill as a `CustomerBill`; `today` (`yyyy-mm-dd`, Faroese) decides its state. */
export function customerBillOf(bill: Tmf678Bill, base: string, today: string): TmfCustomerBill {
  const { start } = periodBounds(bill.period);
  return {
    id: bill.id,
    href: billHref(base, bill.id),
    billNo: bill.number,
    billDate: faroeIso(bill.issuedAt),
    billingPeriod: { startDateTime: faroeIso(start), endDateTime: faroeIso(endOfMonth(start)) },
    paymentDueDate: faroeIso(endOfFaroeDay(bill.dueDate)),
    category: 'normal',
    runType: 'onCycle',
    state: tmfBillState(bill, today),
    amountDue: moneyOf(bill.grossOere),
    remainingAmount: moneyOf(bill.grossOere - bill.paidOere),
    taxExcludedAmount: moneyOf(bill.netOere),
    taxIncludedAmount: moneyOf(bill.grossOere),
    taxItem: [
      { taxCategory: 'VAT', taxRate: taxRateOf(bill.vatRate), taxAmount: moneyOf(bill.vatOere) },
    ],
    billingAccount: { id: bill.customerNumber, '@referredType': 'BillingAccount' },
    relatedParty: [{ id: bill.customerNumber, role: 'customer', '@referredType': 'Customer' }],
    '@type': 'CustomerBill',
  };
}

/** 298 and the six digits; a number that is not one (none should be) as stored. */
function wireNumber(msisdn: string): string {
  try {
    return toWireNumber(msisdn);
  } catch {
    return msisdn;
  }
}

/** A bill item as an `AppliedCustomerBillingRate` of its bill. */
export function appliedRateOf(
  item: Tmf678Item,
  bill: Tmf678ItemBill,
  base: string,
): TmfAppliedRate {
  return {
    id: item.id,
    href: rateHref(base, item.id),
    name: item.descriptionEn,
    description: bill.locale === 'fo' ? item.descriptionFo : item.descriptionEn,
    type: item.grossOere < 0 ? 'appliedBillingCredit' : 'appliedBillingCharge',
    date: faroeIso(item.paidAt ?? bill.issuedAt),
    isBilled: true,
    bill: { id: item.billId, href: billHref(base, item.billId), '@referredType': 'CustomerBill' },
    taxExcludedAmount: moneyOf(item.netOere),
    taxIncludedAmount: moneyOf(item.grossOere),
    appliedTax: [
      { taxCategory: 'VAT', taxRate: taxRateOf(bill.vatRate), taxAmount: moneyOf(item.vatOere) },
    ],
    characteristic: [
      { name: 'kind', valueType: 'string', value: item.kind },
      ...(item.msisdn !== null
        ? [{ name: 'msisdn', valueType: 'string' as const, value: wireNumber(item.msisdn) }]
        : []),
    ],
    '@type': 'AppliedCustomerBillingRate',
  };
}
