import { VAT_PERCENT } from '@alda/contract/constants';
import { faroeDateTime, formatMonth } from '@alda/contract/format/date';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import { splitVat } from '@alda/contract/format/money';
import type { Locale } from '@alda/contract/locale';
import type { MonthlyPriceLine } from '@alda/contract/schemas/billing';
import type { ReceiptLine } from '@alda/contract/schemas/receipts';
import type { Db } from '../../db/client';
import type { OrderRow } from '../../db/schema/orders';
import type { PaymentRow, ReceiptRow } from '../../db/schema/payments';
import { findUser, insertReceipt, nextReceiptSerial } from './repo';

/**
 * A receipt line as stored: the contract's line with its description in Faroese, plus the
 * English one, so the receipt reads in the reader's language and never changes after issue.
 */
export type StoredReceiptLine = ReceiptLine & {
  descriptionEn?: string;
  /** What the line charged for, when it is a number's (the monthly bill's sections, ADR 0098). */
  charged?: ChargedFor;
};

/** The number a receipt line charged for, its kind and its plain text (without the number). */
export interface ChargedFor {
  phoneNumber: string;
  kind: MonthlyPriceLine['kind'];
  label: ReceiptText;
}

/** What a receipt line says, in both languages. */
export interface ReceiptText {
  fo: string;
  en: string;
}

/** `K-2026-000042`: the Faroese year of issue and the sequence number, six digits. */
export function receiptNumber(serial: number, issuedAt: Date): string {
  const year = faroeDateTime(issuedAt).year;
  return `K-${year}-${String(serial).padStart(6, '0')}`;
}

/** The stored line in the reader's language. */
export function localizedLine(line: StoredReceiptLine, locale: Locale): ReceiptLine {
  return {
    description: locale === 'en' && line.descriptionEn ? line.descriptionEn : line.description,
    quantity: line.quantity,
    unitPrice: line.unitPrice,
    total: line.total,
  };
}

/** One line of a receipt to issue: what it says and what it cost (øre with VAT). */
export interface ReceiptItem {
  text: ReceiptText;
  oere: number;
  charged?: ChargedFor;
}

/**
 * The receipt items of a month's payment, one per priced line with an amount: "Familja 20 GB ·
 * 21 44 55 · november 2026" in both languages, each with the number, kind and plain text it was
 * priced for (`charged`, which the monthly bill sections by; ADR 0098).
 */
export function monthReceiptItems(
  fo: readonly MonthlyPriceLine[],
  en: readonly MonthlyPriceLine[],
  period: string,
): ReceiptItem[] {
  return fo
    .map((line, i) => {
      const label = { fo: line.description, en: en[i]?.description ?? line.description };
      const number = formatPhoneNumber(line.phoneNumber);
      return {
        text: {
          fo: `${label.fo} · ${number} · ${formatMonth(period, 'fo')}`,
          en: `${label.en} · ${number} · ${formatMonth(period, 'en')}`,
        },
        oere: line.price.gross,
        charged: { phoneNumber: line.phoneNumber, kind: line.kind, label },
      };
    })
    .filter((item) => item.oere > 0);
}

/**
 * Issues the receipt of a paid payment inside the transaction that fulfils it: number from the
 * shared sequence, the lines (one for the whole amount unless `items` itemise it and add up to
 * it exactly), VAT 25 % split off the amount paid (net + VAT = gross, always), the customer's
 * name, address and e-mail as they are now, and the card.
 */
export async function issueReceipt(
  tx: Db,
  args: {
    order: OrderRow;
    payment: PaymentRow;
    text: ReceiptText;
    now: Date;
    /** Itemised lines; used only when they add up to the amount paid. */
    items?: readonly ReceiptItem[];
  },
): Promise<ReceiptRow> {
  const { order, payment, text, now } = args;
  const customer = await findUser(tx, order.userId);
  if (!customer) throw new Error(`receipt for an unknown customer ${order.userId}`);
  const total = splitVat(payment.amountOere);
  const itemised =
    args.items !== undefined &&
    args.items.length > 0 &&
    args.items.reduce((sum, item) => sum + item.oere, 0) === payment.amountOere;
  const items: readonly ReceiptItem[] =
    itemised && args.items ? args.items : [{ text, oere: payment.amountOere }];
  const lines: StoredReceiptLine[] = items.map((item) => {
    const price = splitVat(item.oere);
    return {
      description: item.text.fo,
      descriptionEn: item.text.en,
      quantity: 1,
      unitPrice: price,
      total: price,
      ...(item.charged ? { charged: item.charged } : {}),
    };
  });
  const address = [customer.address, [customer.postCode, customer.city].filter(Boolean).join(' ')]
    .filter((part) => part !== null && part !== undefined && part !== '')
    .join(', ');
  return insertReceipt(tx, {
    number: receiptNumber(await nextReceiptSerial(tx), now),
    userId: order.userId,
    orderId: order.id,
    paymentId: payment.id,
    issuedAt: now,
    lines,
    vatRate: VAT_PERCENT,
    netOere: total.net,
    vatOere: total.vat,
    grossOere: total.gross,
    customerName: `${customer.firstname} ${customer.lastname}`.trim(),
    customerAddress: address === '' ? null : address,
    customerEmail: customer.email,
    cardBrand: payment.cardBrand,
    cardLast4: payment.cardLast4,
  });
}
