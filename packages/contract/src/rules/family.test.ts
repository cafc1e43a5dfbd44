import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatKr } from '../format/money';
import type { Order, OrderKind } from '../schemas/orders';
import type { Account, Member } from '../schemas/subscriptions';
import {
  canAddFamilyMember,
  familyMembers,
  familyMembersInProcessing,
  memberPriceAt,
  nextMemberPrice,
} from './family';

const prices = (...kr: number[]) => kr.map((k) => ({ price: k * 100 }));
const open = { isProcessing: false, isPrepaid: false };

const member = (id: string): Member => ({
  id,
  phoneNumber: '214455',
  user: { id: `u-${id}`, firstname: id, lastname: 'Joensen' },
  planId: 'family-20',
  givenData: { current: 0, max: 5_120 },
  dataRemaining: { domestic: 1_024, eu: null },
  dataTotal: { domestic: 20_480 },
  status: 'active',
  expiresAt: null,
  simType: 'ESIM',
  phoneBookVisible: false,
  rolloverMb: 0,
});

const account = (id: string, type: Account['type'], members: Member[]): Account => {
  const [first = member(`${id}-m`)] = members;
  return {
    id,
    planId: 'p',
    planTypeId: 'pt',
    type,
    members,
    otherMembers: members.slice(1),
    currentMember: first,
    euPackage: false,
  };
};

const order = (kind: OrderKind, flags: Partial<Order> = {}): Order => ({
  id: `o-${Math.random()}`,
  kind,
  isComplete: false,
  isCancelled: false,
  isMainSubscription: false,
  planId: 'family-20',
  phoneNumber: null,
  price: null,
  paymentStatus: 'not_required',
  createdAt: '2026-06-01T12:00:00.000Z',
  completedAt: null,
  ...flags,
});

describe('family capacity (SPEC §4 "Family capacity")', () => {
  it('accepts a member while maxMembers exceeds members plus processing orders (SPEC §4)', () => {
    expect(canAddFamilyMember(4, 2, 1, open)).toBe(true);
    expect(canAddFamilyMember(4, 3, 1, open)).toBe(false);
    expect(canAddFamilyMember(4, 4, 0, open)).toBe(false);
  });

  it('refuses while the subscription is processing or on a prepaid plan (SPEC §4)', () => {
    expect(canAddFamilyMember(6, 1, 0, { isProcessing: true, isPrepaid: false })).toBe(false);
    expect(canAddFamilyMember(6, 1, 0, { isProcessing: false, isPrepaid: true })).toBe(false);
  });

  it('is exactly maxMembers > members + processing when nothing else blocks (SPEC §4, property)', () => {
    fc.assert(
      fc.property(
        fc.nat(20),
        fc.nat(20),
        fc.nat(20),
        fc.boolean(),
        fc.boolean(),
        (max, m, p, proc, pre) => {
          const state = { isProcessing: proc, isPrepaid: pre };
          expect(canAddFamilyMember(max, m, p, state)).toBe(!proc && !pre && max > m + p);
        },
      ),
    );
  });

  it('fills a family exactly up to maxMembers when members are added one by one (SPEC §4, property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 }), fc.nat(10), fc.nat(10), (max, m, p) => {
        const members = Math.min(m, max);
        let processing = Math.min(p, max - members);
        while (canAddFamilyMember(max, members, processing, open)) processing += 1;
        expect(members + processing).toBe(max);
      }),
    );
  });
});

describe('next family member price (SPEC §4)', () => {
  it('is the entry at the index equal to the current member count (SPEC §4)', () => {
    const list = prices(249, 99, 79, 79);
    expect(nextMemberPrice(list, 1)).toBe(9_900);
    expect(nextMemberPrice(list, 2)).toBe(7_900);
  });

  it('is capped at the last entry (SPEC §4)', () => {
    const list = prices(249, 99, 79, 59);
    expect(nextMemberPrice(list, 4)).toBe(5_900);
    expect(nextMemberPrice(list, 40)).toBe(5_900);
    expect(nextMemberPrice(prices(149), 3)).toBe(14_900);
  });

  it('is shown as +{price} kr. (SPEC §4)', () => {
    const price = nextMemberPrice(prices(249, 99, 79, 79), 2);
    expect(formatKr(price, 'fo', { sign: 'always', decimals: 'auto' })).toBe('+79 kr.');
    expect(formatKr(4_950, 'en', { sign: 'always', decimals: 'auto' })).toBe('+49.50 kr.');
  });

  it('reads position 0 as the plan price and never goes below index 0', () => {
    expect(memberPriceAt(prices(249, 99), 0)).toBe(24_900);
    expect(memberPriceAt(prices(249, 99), -3)).toBe(24_900);
  });

  it('refuses an empty price list (the contract requires one entry)', () => {
    expect(() => nextMemberPrice([], 0)).toThrow(RangeError);
  });

  it('always answers an entry of the list: prices[min(count, last)] (SPEC §4, property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat(100_000), { minLength: 1, maxLength: 8 }),
        fc.nat(50),
        (kr, count) => {
          const list = kr.map((price) => ({ price }));
          const price = nextMemberPrice(list, count);
          expect(price).toBe(kr[Math.min(count, kr.length - 1)]);
          // Beyond the list every further member costs the same.
          if (count >= kr.length - 1) expect(nextMemberPrice(list, count + 1)).toBe(price);
        },
      ),
    );
  });
});

describe('family members (SPEC §3 "Derived")', () => {
  it("are the members of all family accounts plus the current account's otherMembers (SPEC §3)", () => {
    const a = member('a');
    const b = member('b');
    const c = member('c');
    const d = member('d');
    const current = account('cur', 'family_plan', [a, b]);
    const others = [account('fam', 'family_plan', [c]), account('ind', 'individual_plan', [d])];
    expect(familyMembers(others, current).map((m) => m.id)).toEqual(['c', 'b']);
  });

  it('lists nobody without accounts, and each member once (SPEC §3, property)', () => {
    expect(familyMembers([], null)).toEqual([]);
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { maxLength: 8 }), (ids) => {
        const members = ids.map(member);
        const result = familyMembers([account('f', 'family_plan', members)], {
          otherMembers: members,
        });
        expect(result.map((m) => m.id)).toEqual([...new Set(ids)]);
      }),
    );
  });
});

describe('family members in processing (SPEC §3 "Derived", §4 Orders)', () => {
  it('are the incomplete family orders (SPEC §3)', () => {
    const adding = order('add_member');
    const done = order('add_member', { isComplete: true, completedAt: '2026-06-02T00:00:00.000Z' });
    const cancelled = order('add_member', { isCancelled: true });
    const newLine = order('new_subscription', { isMainSubscription: true });
    const toFamily = order('transfer', { planId: 'family-20' });
    const toIndividual = order('transfer', { planId: 'individual-5' });
    const all = [adding, done, cancelled, newLine, toFamily, toIndividual];
    expect(familyMembersInProcessing(all, new Set(['family-20']))).toEqual([adding, toFamily]);
    expect(familyMembersInProcessing(all)).toEqual([adding]);
  });

  it('never includes a complete or cancelled order (SPEC §3, §4, property)', () => {
    const kinds: OrderKind[] = ['add_member', 'transfer', 'new_subscription', 'plan_change'];
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            kind: fc.constantFrom(...kinds),
            isComplete: fc.boolean(),
            isCancelled: fc.boolean(),
            planId: fc.constantFrom('family-20', 'individual-5', null),
          }),
        ),
        (orders) => {
          const processing = familyMembersInProcessing(orders, new Set(['family-20']));
          for (const o of processing) expect(o.isComplete || o.isCancelled).toBe(false);
          expect(processing.length).toBeLessThanOrEqual(orders.length);
        },
      ),
    );
  });
});
