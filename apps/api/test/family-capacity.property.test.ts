import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorEnvelope } from '@alda/contract/envelope';
import { canAddFamilyMember, memberPriceAt, nextMemberPrice } from '@alda/contract/rules/family';
import { accounts } from '../src/db/schema/accounts';
import { orders } from '../src/db/schema/orders';
import { phoneLines } from '../src/db/schema/phone-lines';
import { DEMO_PLANS } from '../src/seed/demo-accounts';
import { usingPostgres } from './helper';
import {
  addMembers,
  createLifecycleApp,
  overview,
  type LifecycleApp,
} from './lifecycle-b-fixtures';
import { iccidEndingIn, newCustomer } from './provisioning-fixtures';

/*
 * SPEC §4 "Family capacity" under concurrency: whatever requests to add members race for the
 * seats of a family, the members plus the members being added never pass maxMembers, and no seat
 * is lost (a request is refused only when its people did not fit). On PostgreSQL the requests
 * really run in parallel over the pool; on PGlite they interleave on one connection.
 */

const FAMILY_PLANS = DEMO_PLANS.filter((p) => p.planTypeId === 'family');

let ported = 0;
/** A number not ours, moved in by porting (no reservation needed). */
const portedNumber = () => `7${String(10_000 + (ported += 1)).padStart(5, '0')}`;

describe(`SPEC §4 Family capacity under concurrency (${usingPostgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  let t: LifecycleApp;
  let lineSeq = 0;
  beforeAll(async () => {
    t = await createLifecycleApp();
  });
  afterAll(() => t.close());

  /** A family in service with `members` numbers (the owner's first) and its owner signed in. */
  async function family(planId: string, members: number) {
    const owner = await newCustomer(t.app);
    const [account] = await t.app.db
      .insert(accounts)
      .values({ ownerUserId: owner.userId, type: 'family_plan', planId, status: 'active' })
      .returning();
    if (!account) throw new Error('no account');
    for (let i = 0; i < members; i += 1) {
      lineSeq += 1;
      await t.app.db.insert(phoneLines).values({
        msisdn: `6${String(lineSeq).padStart(5, '0')}`,
        userId: i === 0 ? owner.userId : null,
        status: 'active',
        accountId: account.id,
        planId,
        simType: 'esim',
      });
    }
    return { owner, account };
  }

  const person = (n: number) => ({
    firstname: `Limur${n}`,
    lastname: 'Test',
    phoneNumberReservationId: null,
    eSim: true,
    simcardNumber: null,
    porting: { phoneNumber: portedNumber(), simcardNumber: iccidEndingIn(String(5000 + n)) },
    simPickupLocationId: null,
    simShippingAddress: null,
  });

  it('SPEC §4 Family capacity: concurrent adds never pass maxMembers, refuse only people who do not fit, and the answer counts and prices follow', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...FAMILY_PLANS),
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 1, maxLength: 4 }),
        async (plan, wanted, sizes) => {
          const max = plan.maxMembers ?? 1;
          const initial = Math.min(wanted, max);
          const { owner, account } = await family(plan.id, initial);
          const answers = await Promise.all(
            sizes.map((size, r) =>
              addMembers(
                t.app,
                owner.headers,
                Array.from({ length: size }, (_, i) => person(r * 10 + i)),
              ),
            ),
          );
          let accepted = 0;
          const refused: number[] = [];
          answers.forEach((res, r) => {
            const size = sizes[r] ?? 0;
            if (res.statusCode === 201) accepted += size;
            else {
              expect(res.statusCode, res.body).toBe(409);
              expect(errorEnvelope.parse(res.json()).error.code).toBe('FAMILY_FULL');
              refused.push(size);
            }
          });
          // Never more than the seats; a refusal only when those people did not fit.
          expect(initial + accepted).toBeLessThanOrEqual(max);
          for (const size of refused) expect(initial + accepted + size).toBeGreaterThan(max);
          // What was answered is what was written.
          expect(
            await t.app.db.$count(
              orders,
              and(eq(orders.accountId, account.id), eq(orders.kind, 'add_member')),
            ),
          ).toBe(accepted);
          expect(
            await t.app.db.$count(
              phoneLines,
              and(eq(phoneLines.accountId, account.id), eq(phoneLines.status, 'processing')),
            ),
          ).toBe(accepted);
          // GET /api/subscriptions computes capacity and price with the same rules.
          const seen = await overview(t.app, owner.headers);
          expect(seen.currentAccount?.id).toBe(account.id);
          expect(seen.currentAccount?.family).toEqual({
            canAddMember: canAddFamilyMember(max, initial, accepted, {
              isProcessing: false,
              isPrepaid: false,
            }),
            nextMemberPrice: nextMemberPrice(plan.memberPrices, initial),
            processingMembers: accepted,
            maxMembers: max,
          });
          expect(seen.currentAccount?.family?.canAddMember).toBe(initial + accepted < max);
        },
      ),
      { numRuns: usingPostgres ? 20 : 12 },
    );
  });

  it('SPEC §4 member prices: the next member price is the entry at the member count, capped at the last entry; the first is the plan price', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 100_000 }), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: -3, max: 20 }),
        (prices, count) => {
          const list = prices.map((price) => ({ price }));
          const expected = prices[Math.min(Math.max(count, 0), prices.length - 1)];
          expect(nextMemberPrice(list, count)).toBe(expected);
          expect(memberPriceAt(list, 0)).toBe(prices[0]);
          // From the last entry on, every further member costs the same.
          if (count >= prices.length - 1)
            expect(nextMemberPrice(list, count + 1)).toBe(nextMemberPrice(list, count));
        },
      ),
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10 }),
        fc.nat(12),
        fc.nat(12),
        fc.boolean(),
        fc.boolean(),
        (max, members, processing, isProcessing, isPrepaid) => {
          expect(canAddFamilyMember(max, members, processing, { isProcessing, isPrepaid })).toBe(
            !isProcessing && !isPrepaid && members + processing < max,
          );
        },
      ),
    );
  });

  it('SPEC §4, ADR 0050: the same request sent three times at once with one Idempotency-Key places one set of orders and every answer names it', async () => {
    const { owner, account } = await family('family-unlimited', 1);
    const key = randomUUID();
    const people = [person(90), person(91)];
    const answers = await Promise.all([
      addMembers(t.app, owner.headers, people, key),
      addMembers(t.app, owner.headers, people, key),
      addMembers(t.app, owner.headers, people, key),
    ]);
    for (const res of answers) expect(res.statusCode, res.body).toBe(201);
    const ids = answers.map((res) =>
      (res.json() as { data: { orders: { id: string }[] } }).data.orders.map((o) => o.id).join(),
    );
    expect(new Set(ids).size).toBe(1);
    expect(
      await t.app.db.$count(
        orders,
        and(eq(orders.accountId, account.id), eq(orders.kind, 'add_member')),
      ),
    ).toBe(2);
  });
});
