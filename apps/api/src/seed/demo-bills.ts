import { createHash } from 'node:crypto';
import { faroeMonth, fromFaroeWallClock, startOfMonth } from '@alda/contract/format/date';
import { periodBounds } from '@alda/contract/rules/bills';
import type { Db } from '../db/client';
import { usageRecords, type USAGE_UNITS } from '../db/schema/balances';
import { orders, type NewOrderRow } from '../db/schema/orders';
import { payments, type NewPaymentRow } from '../db/schema/payments';
import { loadBilledAccounts } from '../modules/billing/service';
import { monthlyPriceLines } from '../modules/billing/price';
import { issueBill } from '../modules/bills/issue';
import { issueReceipt, monthReceiptItems, type ReceiptItem } from '../modules/receipts/issue';
import { insertDemoRows, type DemoRemap } from './demo-remap';
import { DEMO_LINE_IDS, DEMO_PHONE_LINES, demoUser } from './demo-users';

/*
 * The demo's bill history (docs/decisions/0098-monthly-bill.md): the last two months as the
 * system would have recorded them — the calls, SMS and data sessions the charging system sent,
 * the month's payments with their receipts, a package bought — and the bills the month-end job
 * makes of them, so "Rokningar" has something to show on a fresh demo. Jóannes pays both months
 * with his card agreement and bought Sunneva a package; Guðrun paid the month before last by
 * card and not last month, so that bill is owed by bank transfer. Deterministic (hashes, not
 * Math.random); every id is a UUID, so a demo copy's remap gives the copy its own.
 */

const LINE = DEMO_LINE_IDS;
const JOANNES = demoUser('Jóannes').id;
const GUDRUN = demoUser('Guðrun').id;

/** A UUID made from a text: the same text always gives the same id. */
function uuidOf(text: string): string {
  const h = createHash('sha256').update(text).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** A number from 0 to 1 made from a text. */
function unit(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0) / 2 ** 32;
}

/** The Faroese month `back` months before `now`'s. */
function monthBack(now: Date, back: number): string {
  let at = startOfMonth(now);
  for (let i = 0; i < back; i += 1) at = startOfMonth(at.getTime() - 1);
  return faroeMonth(at);
}

/** Who each demo line calls and texts now and then (Faroese numbers; the family's own). */
const CONTACTS: Record<string, string[]> = {
  [LINE.joannes]: ['214456', '317245', '289931', '555120', '+4520123456'],
  [LINE.sunneva]: ['214455', '233817', '291144', '593310', '216702'],
  [LINE.joannesWork]: ['351000', '302030', '411550', '+4533123456', '214455'],
  [LINE.gudrun]: ['557813', '314159', '286024', '505050', '+3545551234'],
};

/** One line's use in one month: calls, SMS and data sessions spread over the days. */
function monthUse(lineId: string, msisdn: string, period: string, now: Date) {
  const { start, next } = periodBounds(period);
  const days = Math.round((next.getTime() - start.getTime()) / 86_400_000);
  const contacts = CONTACTS[lineId] ?? [];
  const rows: (typeof usageRecords.$inferInsert)[] = [];
  const count = 24;
  for (let i = 0; i < count; i += 1) {
    const seed = `${lineId}:${period}:${i}`;
    const day = 1 + Math.floor(unit(`${seed}:day`) * days);
    const hour = 7 + Math.floor(unit(`${seed}:hour`) * 15);
    const minute = Math.floor(unit(`${seed}:minute`) * 60);
    const [year, month] = period.split('-').map(Number) as [number, number];
    const occurredAt = fromFaroeWallClock(year, month, day, hour, minute);
    if (occurredAt >= now) continue;
    const pick = unit(`${seed}:type`);
    const otherParty = contacts[Math.floor(unit(`${seed}:who`) * contacts.length)] ?? null;
    const base = {
      recordId: `demo-${uuidOf(seed)}`,
      lineId,
      msisdn,
      occurredAt,
      receivedAt: occurredAt,
      kind: 'domestic' as const,
    };
    if (pick < 0.45) {
      rows.push({
        ...base,
        usageType: 'voice',
        quantity: 20 + Math.floor(unit(`${seed}:len`) * 900),
        unit: 's' satisfies (typeof USAGE_UNITS)[number],
        otherParty,
        usedMb: 0,
      });
    } else if (pick < 0.75) {
      rows.push({ ...base, usageType: 'sms', quantity: 1, unit: 'count', otherParty, usedMb: 0 });
    } else {
      const mb = 20 + Math.floor(unit(`${seed}:mb`) * 600);
      rows.push({ ...base, usageType: 'data', quantity: mb, unit: 'MB', usedMb: mb });
    }
  }
  return rows;
}

/** A paid monthly payment: the order, the payment and (after insert) its itemised receipt. */
function monthPayment(
  userId: string,
  period: string,
  paidAt: Date,
  oere: number,
  method: 'agreement' | 'card',
  card: { brand: string; last4: string },
): { order: NewOrderRow; payment: NewPaymentRow } {
  const orderId = uuidOf(`demo-bill-order:${userId}:${period}`);
  return {
    order: {
      id: orderId,
      userId,
      kind: 'subscription_payment',
      priceOere: oere,
      paymentStatus: 'paid',
      billingPeriod: period,
      idempotencyKey: `month-charge:${userId}:${period}`,
      createdAt: paidAt,
      isComplete: true,
      completedAt: paidAt,
    },
    payment: {
      id: uuidOf(`demo-bill-payment:${userId}:${period}`),
      orderId,
      userId,
      amountOere: oere,
      method,
      state: 'paid',
      provider: 'test',
      providerPaymentId: `demo-${uuidOf(`demo-bill-provider:${userId}:${period}`)}`,
      cardBrand: card.brand,
      cardLast4: card.last4,
      createdAt: paidAt,
      updatedAt: paidAt,
      fulfilledAt: paidAt,
    },
  };
}

/** The month's priced lines of a customer as the payment's receipt lists them. */
async function monthItems(db: Db, userId: string, period: string): Promise<ReceiptItem[]> {
  const at = new Date(periodBounds(period).start.getTime() + 86_400_000);
  const billed = (await loadBilledAccounts(db, userId, at)).map((a) => ({ ...a, extras: [] }));
  const fo = monthlyPriceLines(billed, 'fo').lines;
  const en = monthlyPriceLines(billed, 'en').lines;
  return monthReceiptItems(fo, en, period);
}

/**
 * Writes the history in the seed's transaction (with a remap: the copy's own). Bills are
 * issued through the month-end job's own path, so they are numbered in the one sequence.
 */
export async function seedDemoBills(db: Db, now: Date, remap?: DemoRemap): Promise<void> {
  const id = (value: string) => (remap ? remap.row({ value }).value : value);
  const periods = [monthBack(now, 2), monthBack(now, 1)];
  const lines = DEMO_PHONE_LINES.filter((l) => CONTACTS[l.id]);
  await insertDemoRows(
    db,
    usageRecords,
    periods.flatMap((period) => lines.flatMap((l) => monthUse(l.id, l.msisdn, period, now))),
    remap,
  );
  for (const [index, period] of periods.entries()) {
    const { start, next } = periodBounds(period);
    const paidAt = new Date(start.getTime() + 2 * 3_600_000);
    const payers = [
      { userId: JOANNES, method: 'agreement' as const, card: { brand: 'Visa', last4: '4242' } },
      // Guðrun paid the month before last by card; last month is owed.
      ...(index === 0
        ? [
            {
              userId: GUDRUN,
              method: 'card' as const,
              card: { brand: 'Mastercard', last4: '5454' },
            },
          ]
        : []),
    ];
    for (const payer of payers) {
      const userId = id(payer.userId);
      const items = await monthItems(db, userId, period);
      const total = items.reduce((sum, item) => sum + item.oere, 0);
      if (total === 0) continue;
      const { order, payment } = monthPayment(
        payer.userId,
        period,
        paidAt,
        total,
        payer.method,
        payer.card,
      );
      const [orderRow] = await db
        .insert(orders)
        .values(remap ? remap.row(order) : order)
        .onConflictDoNothing()
        .returning();
      if (!orderRow) continue;
      const [paymentRow] = await db
        .insert(payments)
        .values(remap ? remap.row(payment) : payment)
        .returning();
      if (!paymentRow) continue;
      await issueReceipt(db, {
        order: orderRow,
        payment: paymentRow,
        text: { fo: `Mánaðargjald fyri ${period}`, en: `Monthly price for ${period}` },
        now: paidAt,
        items,
      });
    }
    // Last month Jóannes bought Sunneva 1 GB extra with his card.
    if (index === 1) {
      const boughtAt = new Date(start.getTime() + 12 * 86_400_000 + 15 * 3_600_000);
      const orderId = uuidOf(`demo-bill-package:${period}`);
      const order: NewOrderRow = {
        id: orderId,
        userId: JOANNES,
        lineId: LINE.sunneva,
        kind: 'extra_package',
        msisdn: '214456',
        packageId: 'data-1',
        priceOere: 3_900,
        paymentStatus: 'paid',
        createdAt: boughtAt,
        isComplete: true,
        completedAt: boughtAt,
      };
      const payment: NewPaymentRow = {
        id: uuidOf(`demo-bill-package-payment:${period}`),
        orderId,
        userId: JOANNES,
        amountOere: 3_900,
        method: 'card',
        state: 'paid',
        provider: 'test',
        providerPaymentId: `demo-${uuidOf(`demo-bill-package-provider:${period}`)}`,
        cardBrand: 'Visa',
        cardLast4: '4242',
        createdAt: boughtAt,
        updatedAt: boughtAt,
        fulfilledAt: boughtAt,
      };
      const [orderRow] = await db
        .insert(orders)
        .values(remap ? remap.row(order) : order)
        .onConflictDoNothing()
        .returning();
      const [paymentRow] = orderRow
        ? await db
            .insert(payments)
            .values(remap ? remap.row(payment) : payment)
            .returning()
        : [];
      if (orderRow && paymentRow)
        await issueReceipt(db, {
          order: orderRow,
          payment: paymentRow,
          text: { fo: 'Eykapakki 1 GB', en: 'Extra package 1 GB' },
          now: boughtAt,
        });
    }
    // The month-end round of the month after.
    const issuedAt = new Date(next.getTime() + 3 * 3_600_000);
    if (issuedAt >= now) continue;
    for (const payer of [JOANNES, GUDRUN])
      await issueBill(db, { userId: id(payer), period, now: issuedAt, history: true });
  }
}
