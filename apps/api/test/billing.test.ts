import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope } from '@alda/contract/envelope';
import { monthlyPriceResponse } from '@alda/contract/schemas/billing';
import { receipts } from '../src/db/schema/payments';
import { createDemoApp, NOW, type DemoName } from './demo-accounts';
import { demoUser, parse } from './helper';
import { expectError, paidOrder } from './purchases-fixtures';

const priceAnswer = dataEnvelope(monthlyPriceResponse);

describe('billing: GET /api/billing/monthly-price and POST /api/billing/pay (SPEC §1, §8, §9)', () => {
  let t: Awaited<ReturnType<typeof createDemoApp>>;
  beforeAll(async () => {
    t = await createDemoApp();
  });
  afterAll(() => t.close());

  const price = async (who: DemoName, lang = 'fo') =>
    parse(
      priceAnswer,
      await t.app.inject({
        method: 'GET',
        url: '/api/billing/monthly-price',
        headers: { ...t.as[who], 'accept-language': lang },
      }),
    ).data;
  const pay = (who: DemoName, lang = 'fo', key: string | null = `pay-${who}-${lang}`) =>
    t.app.inject({
      method: 'POST',
      url: '/api/billing/pay',
      headers: {
        ...t.as[who],
        'accept-language': lang,
        ...(key === null ? {} : { 'idempotency-key': key }),
      },
      payload: {},
    });

  it('SPEC §4 family capacity prices: a family owner pays the plan, each member at memberPrices by position, the EU package, and their individual plan', async () => {
    const data = await price('Jóannes', 'en');
    expect(data.period).toBe('2026-06');
    expect(data.lines).toEqual([
      {
        phoneNumber: '214455',
        kind: 'plan',
        description: 'Family 20 GB',
        price: { net: 19_920, vat: 4_980, gross: 24_900 },
      },
      {
        phoneNumber: '214456',
        kind: 'member',
        description: 'Family 20 GB, family member',
        price: { net: 7_920, vat: 1_980, gross: 9_900 },
      },
      {
        phoneNumber: '214455',
        kind: 'eu_package',
        description: 'EU package',
        price: { net: 4_720, vat: 1_180, gross: 5_900 },
      },
      {
        phoneNumber: '214466',
        kind: 'plan',
        description: '5 GB',
        price: { net: 11_920, vat: 2_980, gross: 14_900 },
      },
    ]);
    // 249 + 99 + 59 + 149 kr.; Bárður's number is still being set up and not billed yet.
    expect(data.total).toEqual({ net: 44_480, vat: 11_120, gross: 55_600 });
    expect(data.total.net + data.total.vat).toBe(data.total.gross);
    expect(data.paidOrderId).toBeNull();
    const fo = await price('Jóannes', 'fo');
    expect(fo.lines.map((l) => l.description)).toEqual([
      'Familja 20 GB',
      'Familja 20 GB, familjulimur',
      'ES-pakki',
      '5 GB',
    ]);
  });

  it('an individual plan with the EU package; a family member pays nothing (the owner does); a prepaid number costs 0', async () => {
    const gudrun = await price('Guðrun');
    expect(gudrun.lines.map((l) => [l.phoneNumber, l.kind, l.price.gross])).toEqual([
      ['557812', 'plan', 19_900],
      ['557812', 'eu_package', 5_900],
    ]);
    expect(gudrun.total.gross).toBe(25_800);
    const sunneva = await price('Sunneva');
    expect(sunneva.lines).toEqual([]);
    expect(sunneva.total).toEqual({ net: 0, vat: 0, gross: 0 });
    const roi = await price('Rói', 'en');
    expect(roi.lines).toEqual([
      {
        phoneNumber: '779031',
        kind: 'plan',
        description: 'Prepaid',
        price: { net: 0, vat: 0, gross: 0 },
      },
    ]);
  });

  it('SPEC §8: POST /api/billing/pay needs an Idempotency-Key; NOTHING_TO_PAY when the month costs nothing, in fo and en', async () => {
    expectError(await pay('Jóannes', 'en', null), 400, 'IDEMPOTENCY_KEY_REQUIRED');
    expectError(await pay('Rói'), 409, 'NOTHING_TO_PAY', 'Tað er einki at gjalda hendan mánaðin.');
    expectError(
      await pay('Sunneva', 'en'),
      409,
      'NOTHING_TO_PAY',
      'There is nothing to pay this month.',
    );
  });

  it('a paid subscription_payment marks the month paid (paidOrderId) and POST /api/billing/pay then answers ALREADY_PAID', async () => {
    const { order } = await paidOrder(
      t.app,
      {
        userId: demoUser('Guðrun').id,
        kind: 'subscription_payment',
        billingPeriod: '2026-06',
        priceOere: 25_800,
      },
      NOW,
    );
    expect(order.isComplete).toBe(true);
    expect((await price('Guðrun')).paidOrderId).toBe(order.id);
    // The receipt lists the month's lines, which add up to what was paid.
    const [receipt] = await t.app.db.select().from(receipts).where(eq(receipts.orderId, order.id));
    expect(receipt?.lines.map((l) => [l.description, l.total.gross])).toEqual([
      ['20 GB · 55 78 12 · juni 2026', 19_900],
      ['ES-pakki · 55 78 12 · juni 2026', 5_900],
    ]);
    expect(receipt?.grossOere).toBe(25_800);
    // Another customer's month is not affected.
    expect((await price('Jóannes')).paidOrderId).toBeNull();
    expectError(await pay('Guðrun'), 409, 'ALREADY_PAID', 'Hesin mánaðurin er longu goldin.');
    expectError(await pay('Guðrun', 'en'), 409, 'ALREADY_PAID', 'This month is already paid.');
  });

  it("a month paid at another price than today's (the plan changed in between) gets one receipt line for the amount paid", async () => {
    const { order } = await paidOrder(
      t.app,
      {
        userId: demoUser('Jóannes').id,
        kind: 'subscription_payment',
        billingPeriod: '2026-05',
        priceOere: 50_000,
      },
      NOW,
    );
    const [receipt] = await t.app.db.select().from(receipts).where(eq(receipts.orderId, order.id));
    expect(receipt?.lines).toHaveLength(1);
    expect(receipt?.lines[0]?.description).toBe('Mánaðargjald fyri 2026-05');
    expect(receipt?.lines[0]?.total).toEqual({ net: 40_000, vat: 10_000, gross: 50_000 });
  });
});
