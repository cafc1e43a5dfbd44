import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope } from '@alda/contract/envelope';
import { splitVat } from '@alda/contract/format/money';
import { monthlyPriceResponse } from '@alda/contract/schemas/billing';
import { orderPlacedResponse } from '@alda/contract/schemas/orders';
import type { UsageRecord } from '@alda/contract/schemas/usage';
import { lineBalances, roamingCharges, usageRecords } from '../src/db/schema/balances';
import { createMonthEndService } from '../src/modules/month-end/service';
import { LINES, sendUsage, signIn, USAGE_FEED_TOKEN, type DemoName } from './demo-accounts';
import { parse } from './helper';
import {
  CARDS,
  createPaymentsApp,
  paymentOfOrder,
  receiptsOf,
  submitCard,
  type PaymentsTestApp,
} from './payments-fixture';
import { expectError } from './purchases-fixtures';

/*
 * Billing the roaming charges (issue 33 §2, ADR 0078 "Billing"): a month's charges of each number
 * are kept owed when month end starts the balance over, and charged with the account's next
 * monthly payment as a line of their own per number — on the monthly price and the receipt, with
 * VAT like the other lines — once. Sunneva (214456) is a member of Jóannes's family; Jóannes owns
 * it and his work number 214466, whose seeded June has 328 kr of charges (the demo).
 */

const priceAnswer = dataEnvelope(monthlyPriceResponse);
const placedAnswer = dataEnvelope(orderPlacedResponse);
const WORK_LINE = '7a2e4b1c-0001-4c3d-8e2f-0b2f00000002';

let counter = 0;
const eu = (usedMb: number): UsageRecord => ({
  recordId: `bill-${String((counter += 1)).padStart(6, '0')}`,
  phoneNumber: '214456',
  usedMb,
  kind: 'eu',
  occurredAt: new Date(Date.UTC(2026, 5, 14, 9, 0, counter)).toISOString(),
});

describe('roaming charges billed with the next monthly payment (issue 33 §2, ADR 0078)', () => {
  let t: PaymentsTestApp;
  beforeAll(async () => {
    t = await createPaymentsApp({ USAGE_FEED_TOKEN });
  });
  afterAll(() => t.close());

  const monthEnd = (at: string) =>
    createMonthEndService({
      db: t.app.db,
      now: () => new Date(at),
      log: pino({ level: 'silent' }),
    }).run();
  const price = async (who: DemoName, lang = 'fo') =>
    parse(
      priceAnswer,
      await t.app.inject({
        method: 'GET',
        url: '/api/billing/monthly-price',
        headers: { ...(await signIn(t.app, who)), 'accept-language': lang },
      }),
    ).data;
  const roamingLines = (month: Awaited<ReturnType<typeof price>>) =>
    month.lines.filter((l) => l.kind === 'roaming');
  const balanceOf = async (lineId: string) => {
    const [row] = await t.app.db.select().from(lineBalances).where(eq(lineBalances.lineId, lineId));
    if (!row) throw new Error('no balance');
    return row;
  };

  it('issue 33 §2: a month with roaming charges shows them, at the feed’s amounts with VAT split, on the next month’s price and receipt, paid once; month end does not lose them; no line when there were none', async () => {
    // June, nothing included left on Sunneva's number: every MB abroad is charged at 10 øre.
    await t.app.db
      .update(lineBalances)
      .set({ domesticRemainingMb: 0, euUsedMb: 25 * 1024 })
      .where(eq(lineBalances.lineId, LINES.sunneva));
    const june = await price('Jóannes');
    expect(june.period).toBe('2026-06');
    expect(roamingLines(june), 'this month is not billed yet').toEqual([]);
    await sendUsage(t.app, [eu(1_234), eu(567)]);
    await sendUsage(t.app, [eu(89)]);
    const records = await t.app.db
      .select()
      .from(usageRecords)
      .where(eq(usageRecords.lineId, LINES.sunneva));
    const fed = records.reduce((sum, r) => sum + r.chargeOere, 0);
    expect(fed).toBe((1_234 + 567 + 89) * 10);
    expect((await balanceOf(LINES.sunneva)).roamingChargedOere).toBe(fed);
    const seededWork = (await balanceOf(WORK_LINE)).roamingChargedOere;
    expect(seededWork).toBe(32_800);
    expect(roamingLines(await price('Jóannes')), 'June is still not billed').toEqual([]);

    // Month end starts June over; the charges are kept owed. A second round adds nothing.
    await monthEnd('2026-07-01T00:05:00.000Z');
    await monthEnd('2026-07-01T00:10:00.000Z');
    expect((await balanceOf(LINES.sunneva)).roamingChargedOere).toBe(0);
    expect((await balanceOf(WORK_LINE)).roamingChargedOere).toBe(0);
    const owed = await t.app.db.select().from(roamingCharges);
    expect(owed.map((r) => [r.msisdn, r.month, r.chargeOere]).sort()).toEqual([
      ['214456', '2026-06', fed],
      ['214466', '2026-06', seededWork],
    ]);

    // July's price: a line of its own per number, after the number's plan lines.
    t.clock.set('2026-07-02T10:00:00.000Z');
    const july = await price('Jóannes');
    expect(july.period).toBe('2026-07');
    expect(july.paidOrderId).toBeNull();
    expect(roamingLines(july)).toEqual([
      {
        phoneNumber: '214456',
        kind: 'roaming',
        description: 'Kostnaður uttanlands í juni 2026',
        price: splitVat(fed),
      },
      {
        phoneNumber: '214466',
        kind: 'roaming',
        description: 'Kostnaður uttanlands í juni 2026',
        price: splitVat(seededWork),
      },
    ]);
    expect(splitVat(fed)).toEqual({ net: 15_120, vat: 3_780, gross: 18_900 });
    const kinds = july.lines.map((l) => `${l.phoneNumber} ${l.kind}`);
    expect(kinds.indexOf('214456 roaming')).toBeGreaterThan(kinds.indexOf('214456 member'));
    expect(july.total.gross).toBe(july.lines.reduce((sum, l) => sum + l.price.gross, 0));
    expect(roamingLines(await price('Jóannes', 'en')).map((l) => l.description)).toEqual([
      'Charges abroad in June 2026',
      'Charges abroad in June 2026',
    ]);
    // Another customer, with no charges: no line.
    expect(roamingLines(await price('Guðrun'))).toEqual([]);

    // Paid by card: the receipt lists each number's charges; the rows record the payment.
    const auth = await signIn(t.app, 'Jóannes');
    const key = randomUUID();
    const pay = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/billing/pay',
        headers: { ...auth, 'idempotency-key': key },
        payload: {},
      });
    const placed = parse(placedAnswer, await pay()).data;
    expect(placed.order.price?.gross).toBe(july.total.gross);
    await submitCard(t.app, placed, CARDS.succeed);
    await t.app.testProvider?.tick();
    const payment = await paymentOfOrder(t.app, placed.order.id);
    expect(payment?.state).toBe('paid');
    const [receipt] = await receiptsOf(t.app, payment!.id);
    const receiptRoaming = receipt?.lines.filter((l) => l.description.startsWith('Kostnaður'));
    expect(receiptRoaming?.map((l) => [l.description, l.total])).toEqual([
      ['Kostnaður uttanlands í juni 2026 · 21 44 56 · juli 2026', splitVat(fed)],
      ['Kostnaður uttanlands í juni 2026 · 21 44 66 · juli 2026', splitVat(seededWork)],
    ]);
    expect(receipt?.grossOere).toBe(july.total.gross);
    const charged = await t.app.db.select().from(roamingCharges);
    expect(charged.map((r) => r.chargedOrderId)).toEqual([placed.order.id, placed.order.id]);

    // The paid month still shows what it paid; paying again is refused; a retried request
    // answers the same order.
    const paidJuly = await price('Jóannes');
    expect(paidJuly.paidOrderId).toBe(placed.order.id);
    expect(roamingLines(paidJuly)).toEqual(roamingLines(july));
    expectError(
      await t.app.inject({
        method: 'POST',
        url: '/api/billing/pay',
        headers: { ...auth, 'idempotency-key': randomUUID() },
        payload: {},
      }),
      409,
      'ALREADY_PAID',
    );
    expect(parse(placedAnswer, await pay()).data.order.id).toBe(placed.order.id);

    // August: July had no charges, June's are paid — no roaming line.
    await monthEnd('2026-08-01T00:05:00.000Z');
    t.clock.set('2026-08-02T10:00:00.000Z');
    const august = await price('Jóannes');
    expect(august.paidOrderId).toBeNull();
    expect(roamingLines(august)).toEqual([]);
    expect(await t.app.db.select().from(roamingCharges)).toHaveLength(2);
  });
});
