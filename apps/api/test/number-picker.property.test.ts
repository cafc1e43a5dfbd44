import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { and, inArray, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope } from '@alda/contract/envelope';
import { reservedNumbersResponse } from '@alda/contract/schemas/auth-register';
import { freeNumbersResponse } from '@alda/contract/schemas/number-picker';
import { numberReservations, phoneLines } from '../src/db/schema/phone-lines';
import { seedDemoData, seedReferenceData } from '../src/seed/seed';
import { createTestApp, parse, testClock, type TestApp } from './helper';
import { newCustomer, postSignup, signupBody } from './provisioning-fixtures';

type Chooser = Awaited<ReturnType<typeof newCustomer>>;

/*
 * Issue 33 §1: "two customers can never be shown-and-given the same number: the reservation
 * decides". Customers open the picker on the same small block at once, each taps one of the
 * numbers shown to them — at the same moment — and everyone told "yours" orders it at once, some
 * also with another customer's reservation id. Against the real database and the real routes.
 */
describe('number picker: concurrent choosers never get the same number (issue 33 §1, ADR 0024 reservations, property)', () => {
  let t: TestApp;
  const clock = testClock('2026-03-10T10:00:00.000Z');
  const choosers: Chooser[] = [];
  let block = 0;

  beforeAll(async () => {
    t = await createTestApp(
      { ACCESS_TOKEN_TTL_S: '86400', RATE_LIMIT_MAX: '0' },
      { now: clock.now },
    );
    await seedReferenceData(t.app.db);
    await seedDemoData(t.app.db, clock.now());
    for (let i = 0; i < 4; i += 1) choosers.push(await newCustomer(t.app));
  });
  afterAll(() => t.close());

  const shown = async (c: Chooser, prefix: string) =>
    parse(
      dataEnvelope(freeNumbersResponse),
      await t.app.inject({
        method: 'GET',
        url: `/api/auth/free-numbers?match=startsWith&digits=${prefix}`,
        headers: c.headers,
      }),
    ).data;

  const reserve = async (c: Chooser, phoneNumber: string) =>
    parse(
      dataEnvelope(reservedNumbersResponse),
      await t.app.inject({
        method: 'POST',
        url: '/api/auth/reserved-numbers',
        headers: c.headers,
        payload: { phoneNumber },
      }),
    ).data;

  it('a number shown to several is given to exactly one of those who tap it', async () => {
    await fc.assert(
      fc.asyncProperty(
        // Who taps which of the numbers shown to them (at most 5 each: a sixth would release
        // the first, ADR 0024), and who then tries to order with someone else's reservation.
        fc.array(fc.record({ chooser: fc.nat({ max: 3 }), pick: fc.nat({ max: 9 }) }), {
          minLength: 2,
          maxLength: 12,
        }),
        fc.array(fc.record({ thief: fc.nat({ max: 3 }), victim: fc.nat() }), { maxLength: 3 }),
        async (taps, thefts) => {
          // A fresh block of ten numbers per run; rate limits and earlier reservations have passed.
          clock.advance(31 * 60);
          block += 1;
          const prefix = `29${String(7000 + block).slice(-3)}`;
          const views = await Promise.all(choosers.map((c) => shown(c, prefix)));
          const perChooser = new Map<number, number>();
          const fair = taps.filter((tap) => {
            const count = (perChooser.get(tap.chooser) ?? 0) + 1;
            perChooser.set(tap.chooser, count);
            return count <= 5;
          });

          // Everyone taps at once.
          const answers = await Promise.all(
            fair.map(async ({ chooser, pick }) => {
              const offered = views[chooser]!.numbers.map((n) => n.phoneNumber);
              const phoneNumber = offered[pick % offered.length]!;
              return {
                chooser,
                phoneNumber,
                answer: await reserve(choosers[chooser]!, phoneNumber),
              };
            }),
          );
          const winners = new Map<string, Set<number>>();
          for (const { chooser, phoneNumber, answer } of answers) {
            if (answer.status !== 'free') continue;
            expect(answer.reservationId).not.toBeNull();
            winners.set(phoneNumber, (winners.get(phoneNumber) ?? new Set()).add(chooser));
          }
          for (const [, who] of winners) expect(who.size).toBe(1);

          // Nobody else is shown a number someone now holds.
          const after = await shown(choosers[0]!, prefix);
          const held = await t.app.db
            .select({ msisdn: numberReservations.msisdn })
            .from(numberReservations);
          const heldNow = new Set(held.map((r) => r.msisdn));
          for (const n of [...after.numbers, ...after.golden])
            expect(heldNow.has(n.phoneNumber), n.phoneNumber).toBe(false);

          // Everyone told "yours" orders at once; some try someone else's reservation too.
          const granted = answers.filter((a) => a.answer.status === 'free');
          const attempts = [
            ...granted.map((g) => ({ chooser: g.chooser, reservationId: g.answer.reservationId })),
            ...(granted.length === 0
              ? []
              : thefts.map(({ thief, victim }) => ({
                  chooser: thief,
                  reservationId: granted[victim % granted.length]!.answer.reservationId,
                }))),
          ];
          await Promise.all(
            attempts.map(({ chooser, reservationId }) =>
              postSignup(
                t.app,
                choosers[chooser]!.headers,
                signupBody({ phoneNumberReservationId: reservationId }),
                randomUUID(),
              ),
            ),
          );
          const numbers = [...new Set(answers.map((a) => a.phoneNumber))];
          const lines = await t.app.db
            .select({ msisdn: phoneLines.msisdn, userId: phoneLines.userId })
            .from(phoneLines)
            .where(and(inArray(phoneLines.msisdn, numbers), ne(phoneLines.status, 'cancelled')));
          // Each number went to one customer: the one the reservation was given to.
          expect(new Set(lines.map((l) => l.msisdn)).size).toBe(lines.length);
          expect(lines).toHaveLength(winners.size);
          for (const line of lines) {
            const [winner] = [...(winners.get(line.msisdn) ?? [])];
            expect(winner, line.msisdn).toBeDefined();
            expect(line.userId).toBe(choosers[winner!]!.userId);
          }
        },
      ),
      { numRuns: 12 },
    );
  }, 120_000);
});
