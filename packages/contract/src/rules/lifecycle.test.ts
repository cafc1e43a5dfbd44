import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UNLIMITED_DATA_MB } from '../constants';
import { endOfMonth, faroeDateTime, startOfMonth } from '../format/date';
import {
  cancellationEffectiveAt,
  commitmentEndsAt,
  isSmallerPlan,
  lastDayBefore,
  monthsStillOwed,
  planChangeEffectiveAt,
  rolloverInto,
  rolloverLost,
  startOfNextMonth,
  type PlanSize,
} from './lifecycle';

const plan = fc.record({
  monthlyPriceOere: fc.integer({ min: 0, max: 100_000 }),
  dataMb: fc.oneof(fc.integer({ min: 0, max: 200_000 }), fc.constant(UNLIMITED_DATA_MB)),
});
/** Instants from 2024 to 2030 (both summer and winter time in the Faroes). */
const instant = fc
  .integer({ min: Date.parse('2024-01-01T00:00:00Z'), max: Date.parse('2030-12-31T00:00:00Z') })
  .map((ms) => new Date(ms));

const size = (monthlyPriceOere: number, dataMb: number): PlanSize => ({
  monthlyPriceOere,
  dataMb,
});

describe('SPEC §4 Subscription lifecycle: plan size and when a change takes effect (ADR 0056)', () => {
  it('SPEC §4: a cheaper plan is smaller; at the same price, less data is smaller; the same plan is not', () => {
    expect(isSmallerPlan(size(19_900, 20_480), size(14_900, 5_120))).toBe(true);
    expect(isSmallerPlan(size(14_900, 5_120), size(19_900, 20_480))).toBe(false);
    expect(isSmallerPlan(size(19_900, 20_480), size(19_900, 10_240))).toBe(true);
    expect(isSmallerPlan(size(19_900, 20_480), size(19_900, 20_480))).toBe(false);
    // A higher price is bigger even with less data.
    expect(isSmallerPlan(size(14_900, 50_000), size(19_900, 20_480))).toBe(false);
  });

  it('SPEC §4 (property): of two different plans exactly one direction is smaller; a plan is never smaller than itself', () => {
    fc.assert(
      fc.property(plan, plan, (a, b) => {
        expect(isSmallerPlan(a, a)).toBe(false);
        const same = a.monthlyPriceOere === b.monthlyPriceOere && a.dataMb === b.dataMb;
        if (same) expect(isSmallerPlan(a, b) || isSmallerPlan(b, a)).toBe(false);
        else expect(isSmallerPlan(a, b)).toBe(!isSmallerPlan(b, a));
      }),
    );
  });

  it('SPEC §4 (property): a bigger or equal plan takes effect now, a smaller one at the first instant of the next Faroese month', () => {
    fc.assert(
      fc.property(plan, plan, instant, (from, to, now) => {
        const at = planChangeEffectiveAt(from, to, now);
        if (!isSmallerPlan(from, to)) expect(at.getTime()).toBe(now.getTime());
        else {
          expect(at.getTime()).toBe(endOfMonth(now).getTime() + 1);
          expect(startOfMonth(at).getTime()).toBe(at.getTime());
          expect(at.getTime()).toBeGreaterThan(now.getTime());
        }
      }),
    );
  });

  it('SPEC §4: the month starts in Faroese time — 1 July is 30 June 23:00 UTC, 1 December midnight UTC', () => {
    expect(startOfNextMonth(new Date('2026-06-15T12:00:00Z')).toISOString()).toBe(
      '2026-06-30T23:00:00.000Z',
    );
    expect(startOfNextMonth(new Date('2026-11-30T23:59:00Z')).toISOString()).toBe(
      '2026-12-01T00:00:00.000Z',
    );
    expect(lastDayBefore('2026-07-01T00:00:00+01:00').toISOString()).toBe(
      '2026-06-30T22:59:59.999Z',
    );
  });
});

describe('SPEC §4 Subscription lifecycle: rollover (ADR 0056)', () => {
  it('SPEC §4: carries what was left, at most one month of the plan; none on unlimited, talutíð, or into a smaller plan', () => {
    expect(rolloverInto(3_000, 5_120, { prepaid: false, toSmallerPlan: false })).toBe(3_000);
    expect(rolloverInto(9_000, 5_120, { prepaid: false, toSmallerPlan: false })).toBe(5_120);
    expect(rolloverInto(9_000, UNLIMITED_DATA_MB, { prepaid: false, toSmallerPlan: false })).toBe(
      0,
    );
    expect(rolloverInto(1_000, 2_048, { prepaid: true, toSmallerPlan: false })).toBe(0);
    expect(rolloverInto(1_000, 20_480, { prepaid: false, toSmallerPlan: true })).toBe(0);
    expect(rolloverLost(1_000, 20_480)).toBe(1_000);
  });

  it('SPEC §4 (property): the rollover is a whole number between 0 and both what was left and the plan data, and zero whenever a rule says none', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -1_000, max: 3_000_000, noNaN: true }),
        fc.oneof(fc.integer({ min: -10, max: 200_000 }), fc.constant(UNLIMITED_DATA_MB)),
        fc.boolean(),
        fc.boolean(),
        (remaining, planData, prepaid, toSmallerPlan) => {
          const r = rolloverInto(remaining, planData, { prepaid, toSmallerPlan });
          expect(Number.isInteger(r)).toBe(true);
          expect(r).toBeGreaterThanOrEqual(0);
          expect(r).toBeLessThanOrEqual(Math.max(0, planData));
          expect(r).toBeLessThanOrEqual(Math.max(0, Math.trunc(remaining)));
          if (prepaid || toSmallerPlan || planData >= UNLIMITED_DATA_MB) expect(r).toBe(0);
          if (!prepaid && !toSmallerPlan && planData > 0 && planData < UNLIMITED_DATA_MB)
            expect(r).toBe(Math.max(0, Math.min(Math.trunc(remaining), planData)));
          // What a downgrade's confirm names is exactly what the month end would carry.
          expect(rolloverLost(remaining, planData)).toBe(
            rolloverInto(remaining, planData, { prepaid: false, toSmallerPlan: false }),
          );
        },
      ),
    );
  });

  it('SPEC §4 (property): a month ended on the rollover alone carries the same again — it never grows past one month of the plan', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 500_000 }),
        fc.integer({ min: 1, max: 200_000 }),
        (remaining, planData) => {
          const first = rolloverInto(remaining, planData, { prepaid: false, toSmallerPlan: false });
          // Nothing used next month: the plan's data plus the rollover is left.
          const second = rolloverInto(planData + first, planData, {
            prepaid: false,
            toSmallerPlan: false,
          });
          expect(second).toBe(planData);
        },
      ),
    );
  });
});

describe('SPEC §4, §9: commitment and cancellation (ADR 0056)', () => {
  it('SPEC §9: a line activated in May 2026 (free month) is committed for June … November; it ends on 1 December', () => {
    expect(commitmentEndsAt('2026-05-10T10:00:00Z')?.toISOString()).toBe(
      '2026-12-01T00:00:00.000Z',
    );
    expect(commitmentEndsAt(null)).toBeNull();
  });

  it('SPEC §4 (property): a cancellation ends at a month start, never before this month ends nor before the commitment ends, and the months owed are the months between', () => {
    fc.assert(
      fc.property(
        instant,
        fc.option(fc.integer({ min: 0, max: 400 * 86_400_000 }), { nil: null }),
        (now, ago) => {
          // The line was activated before the cancellation (or is older than provisioning).
          const activatedAt = ago === null ? null : new Date(now.getTime() - ago);
          const commitment = commitmentEndsAt(activatedAt);
          const ends = cancellationEffectiveAt(commitment, now);
          expect(startOfMonth(ends).getTime()).toBe(ends.getTime());
          expect(ends.getTime()).toBeGreaterThanOrEqual(startOfNextMonth(now).getTime());
          if (commitment) expect(ends.getTime()).toBeGreaterThanOrEqual(commitment.getTime());
          if (!commitment || commitment.getTime() <= startOfNextMonth(now).getTime())
            expect(ends.getTime()).toBe(startOfNextMonth(now).getTime());
          const owed = monthsStillOwed(commitment, now);
          const a = faroeDateTime(startOfNextMonth(now));
          const b = faroeDateTime(ends);
          expect(owed).toBe(b.year * 12 + b.month - (a.year * 12 + a.month));
          expect(owed).toBeGreaterThanOrEqual(0);
          expect(owed).toBeLessThanOrEqual(6);
        },
      ),
    );
  });
});
