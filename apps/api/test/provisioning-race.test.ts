import { randomUUID } from 'node:crypto';
import { eq, inArray, ne, and } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorEnvelope } from '@alda/contract/envelope';
import { accounts } from '../src/db/schema/accounts';
import { orders } from '../src/db/schema/orders';
import { phoneLines } from '../src/db/schema/phone-lines';
import { seedDemoData, seedReferenceData } from '../src/seed/seed';
import { createTestApps, type TestApps } from './helper';
import {
  iccidEndingIn,
  newCustomer,
  postSignup,
  reserve,
  signupBody,
} from './provisioning-fixtures';

/*
 * ADR 0055: the partial unique index on live numbers makes two customers ordering one number a
 * race with exactly one winner. Two app instances on one database (separate pools on
 * PostgreSQL), requests sent at once.
 */
describe('provisioning races: one number, one winner (SPEC §5 sign-up, ADR 0055)', () => {
  let t: TestApps;
  type Customer = Awaited<ReturnType<typeof newCustomer>>;
  const customers: Customer[] = [];

  beforeAll(async () => {
    t = await createTestApps(2, { ACCESS_TOKEN_TTL_S: '86400', RATE_LIMIT_MAX: '0' });
    const [first] = t.apps;
    if (!first) throw new Error('no app');
    await seedReferenceData(first.db);
    await seedDemoData(first.db);
    for (let i = 0; i < 5; i += 1) customers.push(await newCustomer(first));
  });
  afterAll(() => t.close());

  const app = (i: number) => {
    const a = t.apps[i % t.apps.length];
    if (!a) throw new Error('no app');
    return a;
  };
  const codes = (responses: { statusCode: number; body: string }[]) =>
    responses
      .map((r) =>
        r.statusCode === 201
          ? '201'
          : (JSON.parse(r.body) as { error: { code: string } }).error.code,
      )
      .sort();
  const liveLines = (msisdn: string) =>
    app(0).db.$count(
      phoneLines,
      and(eq(phoneLines.msisdn, msisdn), ne(phoneLines.status, 'cancelled')),
    );

  it('SPEC §5 sign-up: the same customer sends the same reservation twice at once with different keys — exactly one 201, the other RESERVATION_EXPIRED, one account', async () => {
    const c = customers[0] as Customer;
    const reservationId = await reserve(app(0), c.headers, '219601');
    const body = signupBody({ phoneNumberReservationId: reservationId });
    const responses = await Promise.all([
      postSignup(app(0), c.headers, body, randomUUID()),
      postSignup(app(1), c.headers, body, randomUUID()),
    ]);
    expect(codes(responses)).toEqual(['201', 'RESERVATION_EXPIRED']);
    expect(await liveLines('219601')).toBe(1);
    expect(await app(0).db.$count(accounts, eq(accounts.ownerUserId, c.userId))).toBe(1);
  });

  it('SPEC §1 number porting: two customers port the same number at once — exactly one wins, the other gets NUMBER_ALREADY_OURS and keeps nothing', async () => {
    const [a, b] = [customers[1] as Customer, customers[2] as Customer];
    const port = (who: Customer, i: number) =>
      postSignup(
        app(i),
        who.headers,
        signupBody({ porting: { phoneNumber: '219602', simcardNumber: iccidEndingIn('5150') } }),
        randomUUID(),
      );
    const responses = await Promise.all([port(a, 0), port(b, 1)]);
    expect(codes(responses)).toEqual(['201', 'NUMBER_ALREADY_OURS']);
    expect(await liveLines('219602')).toBe(1);
    const owners = await app(0)
      .db.select({ id: accounts.ownerUserId })
      .from(accounts)
      .where(inArray(accounts.ownerUserId, [a.userId, b.userId]));
    expect(owners).toHaveLength(1);
    const loser = responses.findIndex((r) => r.statusCode !== 201);
    expect(JSON.parse(responses[loser]?.body ?? '{}')).toMatchObject(
      errorEnvelope.parse(JSON.parse(responses[loser]?.body ?? '{}')),
    );
  });

  it('SPEC §5 property: however many customers race for however many numbers, each number has exactly one live line and one winning order; the losers leave nothing behind', async () => {
    let round = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ who: fc.nat(4), number: fc.nat(2) }), { minLength: 2, maxLength: 6 }),
        async (attempts) => {
          round += 1;
          const msisdn = (n: number) => `2195${String(round * 3 + n).padStart(2, '0')}`;
          const ordersBefore = await app(0).db.$count(orders);
          const responses = await Promise.all(
            attempts.map((a, i) =>
              postSignup(
                app(i),
                (customers[a.who] as Customer).headers,
                signupBody({
                  porting: { phoneNumber: msisdn(a.number), simcardNumber: iccidEndingIn('7788') },
                }),
                randomUUID(),
              ),
            ),
          );
          const numbers = [...new Set(attempts.map((a) => a.number))];
          for (const r of responses) expect([201, 409], r.body).toContain(r.statusCode);
          const wins = responses.filter((r) => r.statusCode === 201).length;
          expect(wins).toBe(numbers.length);
          for (const n of numbers) expect(await liveLines(msisdn(n))).toBe(1);
          expect((await app(0).db.$count(orders)) - ordersBefore).toBe(numbers.length);
        },
      ),
      { numRuns: 15 },
    );
  });
});
