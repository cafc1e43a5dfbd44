import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dataEnvelope, errorEnvelope } from '@alda/contract/envelope';
import { tokens } from '@alda/contract/schemas/auth';
import { reservedNumbersResponse } from '@alda/contract/schemas/auth-register';
import { DEMO_PASSWORD } from '../src/seed/demo-users';
import { numberReservations } from '../src/db/schema/phone-lines';
import { seedDemoData } from '../src/seed/seed';
import { nearbyNumbers } from '../src/modules/phone-lines/numbering';
import { bearer, createTestApp, demoUser, parse, type TestApp, testClock } from './helper';

const jóannes = demoUser('Jóannes');
const guðrun = demoUser('Guðrun');
const rói = demoUser('Rói');
const answer = dataEnvelope(reservedNumbersResponse);

describe('POST /api/auth/reserved-numbers: number search with reservations (SPEC §7 Auth, §8 Number search)', () => {
  let t: TestApp;
  const clock = testClock();
  const tokenOf: Record<string, string> = {};
  let n = 0;
  let remoteAddress = '10.3.0.0';

  beforeAll(async () => {
    // Access tokens that outlive the clock jumps of the reservation tests.
    t = await createTestApp({ ACCESS_TOKEN_TTL_S: '86400' }, { now: clock.now });
    await seedDemoData(t.app.db, clock.now());
    for (const demo of [jóannes, guðrun, rói]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/email-login',
        payload: { email: demo.email, password: DEMO_PASSWORD },
      });
      tokenOf[demo.firstname] = parse(dataEnvelope(tokens), res).data.accessToken;
    }
  });
  afterAll(() => t.close());
  beforeEach(() => {
    n += 1;
    remoteAddress = `10.3.0.${n}`;
  });

  const search = (phoneNumber: string, who?: string, locale = 'en') =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/reserved-numbers',
      remoteAddress,
      headers: {
        'accept-language': locale,
        ...(who ? bearer(tokenOf[who] ?? '') : {}),
      },
      payload: { phoneNumber },
    });

  it('reserves a free number for the signed-in caller for 30 minutes', async () => {
    const res = await search('219901', 'Jóannes');
    expect(res.statusCode).toBe(200);
    const { data } = parse(answer, res);
    expect(data).toMatchObject({ phoneNumber: '219901', status: 'free', suggestions: [] });
    expect(data.reservationId).toEqual(expect.any(String));
    expect(data.reservedUntil).toBe(new Date(clock.now().getTime() + 30 * 60_000).toISOString());
    const [row] = await t.app.db
      .select()
      .from(numberReservations)
      .where(eq(numberReservations.msisdn, '219901'));
    expect(row).toMatchObject({ id: data.reservationId, userId: jóannes.id });
  });

  it('tells others the number is reserved, offers free numbers nearby, and renews it for its holder', async () => {
    const first = parse(answer, await search('219902', 'Jóannes')).data;
    const other = parse(answer, await search('+298 21 99 02', 'Rói')).data;
    expect(other).toMatchObject({ status: 'reserved', reservationId: null, reservedUntil: null });
    expect(other.suggestions).toHaveLength(5);
    expect(other.suggestions).not.toContain('219902');
    expect(other.suggestions).not.toContain('219901');
    for (const s of other.suggestions) expect(s).toMatch(/^2199\d\d$/);

    clock.advance(600);
    const renewed = parse(answer, await search('219902', 'Jóannes')).data;
    expect(renewed.status).toBe('free');
    expect(renewed.reservationId).toBe(first.reservationId);
    expect(Date.parse(renewed.reservedUntil ?? '')).toBe(clock.now().getTime() + 30 * 60_000);
  });

  it('hands an expired reservation to the next customer, with a new id', async () => {
    const first = parse(answer, await search('219903', 'Jóannes')).data;
    clock.advance(30 * 60);
    const taken = parse(answer, await search('219903', 'Rói')).data;
    expect(taken.status).toBe('free');
    expect(taken.reservationId).not.toBe(first.reservationId);
    expect(parse(answer, await search('219903', 'Jóannes')).data.status).toBe('reserved');
  });

  it("answers 'customer' for a number in use and 'processing' for a line being set up", async () => {
    const customer = parse(answer, await search(jóannes.phoneNumber, 'Rói')).data;
    expect(customer).toMatchObject({ status: 'customer', reservationId: null });
    expect(customer.suggestions).not.toContain('214456');
    expect(customer.suggestions.length).toBeGreaterThan(0);
    const processing = parse(answer, await search('557813', 'Rói')).data;
    expect(processing.status).toBe('processing');
  });

  it('lets guests look without reserving anything', async () => {
    const free = parse(answer, await search('219950')).data;
    expect(free).toEqual({
      phoneNumber: '219950',
      status: 'free',
      reservationId: null,
      reservedUntil: null,
      suggestions: [],
      numberClass: null,
      oneOffPrice: null,
    });
    expect(await t.app.db.$count(numberReservations, eq(numberReservations.msisdn, '219950'))).toBe(
      0,
    );
    await search('219951', 'Guðrun');
    expect(parse(answer, await search('219951')).data.status).toBe('reserved');
  });

  it("answers a number outside our range with 404 NUMBER_NOT_FOUND, 'The number you're searching for does not exist' (SPEC §8)", async () => {
    // 3xxxxx is a fixed-line number.
    const res = await search('312345', 'Rói');
    expect(res.statusCode).toBe(404);
    expect(parse(errorEnvelope, res).error).toEqual({
      code: 'NUMBER_NOT_FOUND',
      message: "The number you're searching for does not exist",
    });
    expect(parse(errorEnvelope, await search('312345', 'Rói', 'fo')).error.message).toBe(
      'Nummarið, tú leitar eftir, finst ikki.',
    );
    const invalid = await search('2199', 'Rói');
    expect(invalid.statusCode).toBe(400);
    expect(parse(errorEnvelope, invalid).error.field).toBe('phoneNumber');
  });

  it('keeps at most 5 reservations per customer: a sixth releases the oldest', async () => {
    const numbers = ['529001', '529002', '529003', '529004', '529005', '529006'];
    for (const number of numbers) {
      clock.advance(1);
      expect(parse(answer, await search(number, 'Guðrun')).data.status).toBe('free');
    }
    const held = await t.app.db
      .select({ msisdn: numberReservations.msisdn })
      .from(numberReservations)
      .where(eq(numberReservations.userId, guðrun.id));
    expect(held.map((r) => r.msisdn)).not.toContain('529001');
    expect(held.map((r) => r.msisdn)).toEqual(expect.arrayContaining(numbers.slice(1)));
    expect(parse(answer, await search('529001', 'Rói')).data.status).toBe('free');
  });

  it('gives a number to exactly one of two customers asking at the same moment', async () => {
    const [a, b] = await Promise.all([search('539999', 'Jóannes'), search('539999', 'Rói')]);
    const statuses = [parse(answer, a).data.status, parse(answer, b).data.status].sort();
    expect(statuses).toEqual(['free', 'reserved']);
  });

  it('suggests neighbours in the same block, closest first', () => {
    expect(nearbyNumbers('214455', 4)).toEqual(['214456', '214454', '214457', '214453']);
    expect(nearbyNumbers('219999', 3)).toEqual(['219998', '219997', '219996']);
  });
});
