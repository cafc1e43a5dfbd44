import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dataEnvelope, errorEnvelope } from '@alda/contract/envelope';
import { numberClassOf } from '@alda/contract/rules/number-picker';
import { reservedNumbersResponse } from '@alda/contract/schemas/auth-register';
import {
  freeNumbersResponse,
  type FreeNumbersResponse,
} from '@alda/contract/schemas/number-picker';
import { monthlyPriceResponse } from '@alda/contract/schemas/billing';
import { orderPlacedResponse } from '@alda/contract/schemas/orders';
import { faroeMonth } from '@alda/contract/format/date';
import { monthlyPriceLines } from '../src/modules/billing/price';
import { loadBilledAccounts } from '../src/modules/billing/service';
import { numberFees, numberPriceClasses } from '../src/db/schema/number-picker';
import { receipts } from '../src/db/schema/payments';
import { numberReservations, phoneLines } from '../src/db/schema/phone-lines';
import { isProviderNumber } from '../src/modules/phone-lines/numbering';
import { seedDemoData, seedReferenceData } from '../src/seed/seed';
import { createTestApp, parse, testClock, type TestApp } from './helper';
import { newCustomer, postSignup, reserve, signupBody } from './provisioning-fixtures';
import { paidOrder } from './purchases-fixtures';

const answer = dataEnvelope(freeNumbersResponse);
const reserved = dataEnvelope(reservedNumbersResponse);
const DAY_S = 86_400;

describe('GET /api/auth/free-numbers: the number picker (issue 33 §1, ADR 0077)', () => {
  let t: TestApp;
  // 20 March 2026: a line set up now is active in March; April is its first charged month.
  const clock = testClock('2026-03-20T10:00:00.000Z');
  let n = 0;
  let remoteAddress = '10.33.0.0';

  beforeAll(async () => {
    t = await createTestApp(
      { ACCESS_TOKEN_TTL_S: '86400', RATE_LIMIT_MAX: '0' },
      { now: clock.now },
    );
    await seedReferenceData(t.app.db);
    await seedDemoData(t.app.db, clock.now());
  });
  afterAll(() => t.close());
  beforeEach(() => {
    n += 1;
    remoteAddress = `10.33.${Math.floor(n / 250)}.${n % 250}`;
  });

  const free = (query: string, headers: Record<string, string> = {}, locale = 'en') =>
    t.app.inject({
      method: 'GET',
      url: `/api/auth/free-numbers${query}`,
      remoteAddress,
      headers: { 'accept-language': locale, ...headers },
    });
  const numbersOf = (data: FreeNumbersResponse) => [
    ...data.numbers.map((x) => x.phoneNumber),
    ...data.golden.map((x) => x.phoneNumber),
  ];

  it('opens with a handful of free numbers of our range for a guest, a fresh set each time, reserving nothing', async () => {
    const first = await free('');
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('no-store');
    const a = parse(answer, first).data;
    const b = parse(answer, await free('')).data;
    expect(a.numbers).toHaveLength(6);
    expect(a.nearest).toBeNull();
    for (const x of [...a.numbers, ...a.golden]) expect(isProviderNumber(x.phoneNumber)).toBe(true);
    expect(new Set(numbersOf(a)).size).toBe(numbersOf(a).length);
    expect(numbersOf(b)).not.toEqual(numbersOf(a));
    expect(await t.app.db.$count(numberReservations)).toBe(0);
  });

  it('shows easy numbers with the one-off price operations set for their class, before choosing', async () => {
    const { data } = parse(answer, await free(''));
    expect(data.golden.length).toBeGreaterThan(0);
    for (const g of data.golden) {
      expect(g.numberClass).toBe(numberClassOf(g.phoneNumber));
      expect(g.oneOffPrice?.gross).toBeGreaterThan(0);
    }
    // Operations changes the price of a class: the next answer shows it.
    await t.app.db
      .update(numberPriceClasses)
      .set({ priceOere: 77_700 })
      .where(eq(numberPriceClasses.numberClass, 'solid'));
    const solid = parse(answer, await free('?digits=999999')).data;
    const nines = solid.golden.find((g) => g.phoneNumber === '999999');
    expect(nines).toEqual({
      phoneNumber: '999999',
      numberClass: 'solid',
      oneOffPrice: { net: 62_160, vat: 15_540, gross: 77_700 },
    });
    // A class at 0 is an ordinary number: no price, not among the easy ones.
    await t.app.db
      .update(numberPriceClasses)
      .set({ priceOere: 0 })
      .where(eq(numberPriceClasses.numberClass, 'solid'));
    const plain = parse(answer, await free('?match=contains&digits=999999')).data;
    expect(plain.golden).toEqual([]);
    expect(plain.numbers).toEqual([
      { phoneNumber: '999999', numberClass: null, oneOffPrice: null },
    ]);
    await t.app.db
      .update(numberPriceClasses)
      .set({ priceOere: 200_000 })
      .where(eq(numberPriceClasses.numberClass, 'solid'));
  });

  it('answers a pattern search with free numbers that match: ends with, starts with, contains', async () => {
    const ends = parse(answer, await free('?match=endsWith&digits=55')).data;
    expect(ends.numbers.length).toBe(6);
    for (const x of numbersOf(ends)) expect(x).toMatch(/^[2579]\d{3}55$/);
    const starts = parse(answer, await free('?match=startsWith&digits=7 7')).data;
    for (const x of numbersOf(starts)) expect(x).toMatch(/^77\d{4}$/);
    const contains = parse(answer, await free('?digits=1234')).data;
    expect(contains.numbers.length).toBeGreaterThan(0);
    for (const x of numbersOf(contains)) expect(x).toContain('1234');
  });

  it('never offers a reserved, quarantined or used number, nor a customer’s own', async () => {
    // 219900–219909: four reserved, one resting after its line ended, one a live line, one a
    // customer's own number (Jóannes's is 214456, so a fresh customer's own is used instead).
    const c = await newCustomer(t.app);
    for (const x of ['219900', '219901', '219902', '219903']) await reserve(t.app, c.headers, x);
    await t.app.db.insert(phoneLines).values([
      {
        msisdn: '219904',
        status: 'cancelled',
        statusChangedAt: new Date(clock.now().getTime() - 5 * DAY_S * 1000),
      },
      { msisdn: '219905', status: 'active' },
    ]);
    const { data } = parse(answer, await free('?match=startsWith&digits=21990'));
    expect(numbersOf(data).sort()).toEqual(['219906', '219907', '219908', '219909']);
  });

  it('says none is free with the nearest looser pattern when nothing that matches is free', async () => {
    const c = await newCustomer(t.app);
    for (const x of ['219906', '219907', '219908', '219909']) await reserve(t.app, c.headers, x);
    const { data } = parse(answer, await free('?match=startsWith&digits=21990'));
    expect(data.numbers).toEqual([]);
    expect(data.golden).toEqual([]);
    expect(data.nearest?.match).toBe('startsWith');
    expect(data.nearest?.digits).toBe('2199');
    expect(data.nearest?.numbers.length).toBeGreaterThan(0);
    for (const x of data.nearest?.numbers ?? []) expect(x.phoneNumber).toMatch(/^2199[1-9]\d$/);
    // Six digits: the free numbers closest to it in its block.
    const exact = parse(answer, await free('?digits=219905')).data;
    expect(exact.nearest?.digits).toBe('2199');
    expect(exact.nearest?.numbers[0]?.phoneNumber).toBe('219910');
    // Nothing of our range starts with 3 (a fixed line): any free numbers are the nearest.
    const fixed = parse(answer, await free('?match=startsWith&digits=3')).data;
    expect(fixed.nearest).toMatchObject({ match: 'startsWith', digits: '' });
    expect(fixed.nearest?.numbers.length).toBe(6);
  });

  it('refuses bad input with a 4xx and a localized message, never a 500', async () => {
    for (const query of ['?digits=5a', '?digits=1234567', '?match=around&digits=5']) {
      const res = await free(query, {}, 'fo');
      expect(res.statusCode, query).toBe(400);
      expect(parse(errorEnvelope, res).error.code).toBe('VALIDATION_FAILED');
    }
    const outside = await free('?digits=312345');
    expect(outside.statusCode).toBe(404);
    expect(parse(errorEnvelope, outside).error).toEqual({
      code: 'NUMBER_NOT_FOUND',
      message: "The number you're searching for does not exist",
    });
  });

  it('is limited per caller like the number search (60 in 15 minutes), then 429 TOO_MANY_ATTEMPTS', async () => {
    remoteAddress = '10.33.250.1';
    for (let i = 0; i < 60; i += 1) expect((await free('?digits=219999')).statusCode).toBe(200);
    const over = await free('?digits=219999');
    expect(over.statusCode).toBe(429);
    expect(parse(errorEnvelope, over).error.code).toBe('TOO_MANY_ATTEMPTS');
    // A sliding window: the count has healed once two windows passed.
    clock.advance(30 * 60 + 1);
    expect((await free('?digits=219999')).statusCode).toBe(200);
  });

  it('charges an easy number’s price with the first payment, as a receipt line of its own, once', async () => {
    const c = await newCustomer(t.app);
    const { data } = parse(answer, await free('?match=endsWith&digits=5555', c.headers));
    const pick = data.golden.find((g) => g.numberClass === 'tail');
    expect(pick, JSON.stringify(data)).toBeDefined();
    const msisdn = pick!.phoneNumber;
    const price = pick!.oneOffPrice!.gross;
    // Reserving holds the price shown; a change of the price list afterwards does not move it.
    const held = await t.app.inject({
      method: 'POST',
      url: '/api/auth/reserved-numbers',
      remoteAddress,
      headers: c.headers,
      payload: { phoneNumber: msisdn },
    });
    expect(parse(reserved, held).data).toMatchObject({
      status: 'free',
      numberClass: 'tail',
      oneOffPrice: { gross: price },
    });
    await t.app.db
      .update(numberPriceClasses)
      .set({ priceOere: price + 10_000 })
      .where(eq(numberPriceClasses.numberClass, 'tail'));
    const reservationId = parse(reserved, held).data.reservationId;
    const placed = await postSignup(
      t.app,
      c.headers,
      signupBody({ planId: 'individual-20', phoneNumberReservationId: reservationId }),
      randomUUID(),
    );
    expect(placed.statusCode, placed.body).toBe(201);
    const orderId = parse(dataEnvelope(orderPlacedResponse), placed).data.order.id;
    const [fee] = await t.app.db.select().from(numberFees).where(eq(numberFees.msisdn, msisdn));
    expect(fee).toMatchObject({ numberClass: 'tail', priceOere: price, chargedOrderId: null });

    // Active in March (free month); April's payment carries the fee.
    clock.advance(30);
    await t.app.provisioning.runDue();
    clock.advance(60);
    const confirmed = await t.app.inject({
      method: 'POST',
      url: `/api/orders/${orderId}/confirm-sim`,
      headers: c.headers,
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const march = parse(
      dataEnvelope(monthlyPriceResponse),
      await t.app.inject({ method: 'GET', url: '/api/billing/monthly-price', headers: c.headers }),
    ).data;
    expect(march.lines.map((l) => l.kind)).not.toContain('number_fee');
    // The month's price as GET /api/billing/monthly-price computes it (the token is a day old by then).
    const monthly = async () => ({
      period: faroeMonth(clock.now()),
      ...monthlyPriceLines(await loadBilledAccounts(t.app.db, c.userId, clock.now()), 'fo'),
    });
    clock.set('2026-04-02T10:00:00.000Z');
    const april = await monthly();
    expect(april.lines.map((l) => [l.kind, l.phoneNumber, l.price.gross])).toContainEqual([
      'number_fee',
      msisdn,
      price,
    ]);
    const { order } = await paidOrder(
      t.app,
      {
        userId: c.userId,
        kind: 'subscription_payment',
        billingPeriod: april.period,
        priceOere: april.total.gross,
      },
      clock.now(),
    );
    const [receipt] = await t.app.db.select().from(receipts).where(eq(receipts.orderId, order.id));
    expect(receipt?.lines.map((l) => l.total.gross)).toContain(price);
    expect(receipt?.lines.find((l) => l.total.gross === price)?.description).toMatch(
      /^Lætt nummar, eingangsgjald · \d\d \d\d \d\d · apríl 2026$/,
    );
    const [charged] = await t.app.db.select().from(numberFees).where(eq(numberFees.msisdn, msisdn));
    expect(charged?.chargedOrderId).toBe(order.id);
    // Charged once: May has no fee line.
    clock.set('2026-05-02T10:00:00.000Z');
    expect((await monthly()).lines.map((l) => l.kind)).not.toContain('number_fee');
  });
});
