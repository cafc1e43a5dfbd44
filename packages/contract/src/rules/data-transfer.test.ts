import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  counterpartProblem,
  giftCeilingMb,
  giftProblem,
  maxGiftMb,
  type GiverData,
} from './data-transfer';

const giver = (current: number, max: number, domestic: number): GiverData => ({
  givenData: { current, max },
  dataRemaining: { domestic },
});

const arbitraryGiver = fc
  .tuple(fc.nat(100_000), fc.nat(100_000), fc.nat(2_000_000))
  .map(([current, max, domestic]) => giver(Math.min(current, max), max, domestic));

describe('data gifts (SPEC §5)', () => {
  it("takes the monthly ceiling from the line's plan (SPEC §3 givenData.max)", () => {
    expect(giftCeilingMb(5_120)).toBe(5_120);
    expect(giftCeilingMb(0)).toBe(0);
  });

  it('lets a line without a plan give nothing (SPEC §3 givenData.max, §5)', () => {
    expect(giftCeilingMb(null)).toBe(0);
    expect(giftCeilingMb(undefined)).toBe(0);
    expect(
      maxGiftMb({
        givenData: { current: 0, max: giftCeilingMb(null) },
        dataRemaining: { domestic: 9_000 },
      }),
    ).toBe(0);
  });

  it('is limited by the monthly allowance, givenData max − current (SPEC §5)', () => {
    expect(maxGiftMb(giver(3_000, 10_240, 50_000))).toBe(7_240);
  });

  it("is limited by the giver's remaining domestic data (SPEC §5)", () => {
    expect(maxGiftMb(giver(0, 10_240, 2_000))).toBe(2_000);
  });

  it('never goes below zero (SPEC §5)', () => {
    expect(maxGiftMb(giver(12_000, 10_240, 50_000))).toBe(0);
  });

  it('names the reason: INSUFFICIENT_DATA or GIVE_LIMIT_REACHED (SPEC §5, §8)', () => {
    expect(giftProblem(giver(0, 10_240, 1_000), 2_000)).toBe('INSUFFICIENT_DATA');
    expect(giftProblem(giver(10_000, 10_240, 50_000), 1_024)).toBe('GIVE_LIMIT_REACHED');
    expect(giftProblem(giver(0, 10_240, 50_000), 1_024)).toBeNull();
  });

  it('allows exactly the amounts up to maxGiftMb (SPEC §5)', () => {
    fc.assert(
      fc.property(arbitraryGiver, fc.nat(3_000_000), (g, amount) => {
        expect(giftProblem(g, amount) === null).toBe(amount <= maxGiftMb(g));
      }),
    );
  });

  it('rejects yourself as recipient with SELF_REQUEST (SPEC §5, §8)', () => {
    expect(counterpartProblem('211234', '211234')).toBe('SELF_REQUEST');
    expect(counterpartProblem('211234', '511234')).toBeNull();
  });
});
