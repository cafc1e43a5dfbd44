import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UNLIMITED_DATA_MB } from '@alda/contract/constants';
import { applyUsage, sumUsage, type DataBuckets } from './balance';

const buckets = (patch: Partial<DataBuckets> = {}): DataBuckets => ({
  domesticTotalMb: 20_480,
  domesticRemainingMb: 20_480,
  domesticUsedMb: 0,
  euAllowanceMb: null,
  euUsedMb: 0,
  ...patch,
});

const arbitraryBuckets = fc
  .record({
    total: fc.oneof(fc.nat(100_000), fc.constant(UNLIMITED_DATA_MB)),
    remainingShare: fc.double({ min: 0, max: 1, noNaN: true }),
    eu: fc.option(fc.nat(60_000)),
    euUsedShare: fc.double({ min: 0, max: 1, noNaN: true }),
  })
  .map(({ total, remainingShare, eu, euUsedShare }) => {
    const remaining = Math.floor(total * remainingShare);
    return buckets({
      domesticTotalMb: total,
      domesticRemainingMb: remaining,
      domesticUsedMb: total - remaining,
      euAllowanceMb: eu,
      euUsedMb: eu === null ? 0 : Math.floor(eu * euUsedShare),
    });
  });

const arbitraryRecords = fc.array(
  fc.record({ usedMb: fc.nat(5_000), kind: fc.constantFrom('domestic' as const, 'eu' as const) }),
  { maxLength: 20 },
);

describe('applying data use to a balance (usage feed)', () => {
  it('takes domestic use from the remaining data and counts it as used', () => {
    expect(applyUsage(buckets(), { domesticMb: 500, euMb: 0 })).toMatchObject({
      domesticRemainingMb: 19_980,
      domesticUsedMb: 500,
    });
  });

  it('takes EU use from the EU package first, the rest from domestic data (roam like at home)', () => {
    const b = buckets({ euAllowanceMb: 1_000, euUsedMb: 800 });
    expect(applyUsage(b, { domesticMb: 0, euMb: 500 })).toMatchObject({
      euUsedMb: 1_000,
      domesticRemainingMb: 20_180,
      domesticUsedMb: 300,
    });
    expect(applyUsage(buckets(), { domesticMb: 0, euMb: 100 }).domesticRemainingMb).toBe(20_380);
  });

  it('never goes below zero, and keeps an unlimited plan unlimited (SPEC §9)', () => {
    expect(
      applyUsage(buckets({ domesticRemainingMb: 10 }), { domesticMb: 50, euMb: 0 })
        .domesticRemainingMb,
    ).toBe(0);
    const unlimited = buckets({
      domesticTotalMb: UNLIMITED_DATA_MB,
      domesticRemainingMb: UNLIMITED_DATA_MB,
    });
    const after = applyUsage(unlimited, { domesticMb: 9_000, euMb: 0 });
    expect(after.domesticRemainingMb).toBe(UNLIMITED_DATA_MB);
    expect(after.domesticUsedMb).toBe(9_000);
  });

  it('refuses negative use', () => {
    expect(() => applyUsage(buckets(), { domesticMb: -1, euMb: 0 })).toThrow(RangeError);
  });

  it('keeps every bucket within its bounds (property)', () => {
    fc.assert(
      fc.property(arbitraryBuckets, arbitraryRecords, (b, records) => {
        const after = applyUsage(b, sumUsage(records));
        expect(after.domesticRemainingMb).toBeGreaterThanOrEqual(0);
        expect(after.domesticRemainingMb).toBeLessThanOrEqual(b.domesticRemainingMb);
        if (after.euAllowanceMb !== null)
          expect(after.euUsedMb).toBeLessThanOrEqual(after.euAllowanceMb);
        // All use is accounted for: in the EU bucket or as domestic use.
        const total = records.reduce((sum, r) => sum + r.usedMb, 0);
        expect(after.domesticUsedMb - b.domesticUsedMb + after.euUsedMb - b.euUsedMb).toBe(total);
      }),
    );
  });

  it('gives the same balance whether records come one by one, in any order, or as one sum (property)', () => {
    fc.assert(
      fc.property(arbitraryBuckets, arbitraryRecords, (b, records) => {
        const oneByOne = records.reduce((acc, r) => applyUsage(acc, sumUsage([r])), b);
        const reversed = [...records]
          .reverse()
          .reduce((acc, r) => applyUsage(acc, sumUsage([r])), b);
        const batched = applyUsage(b, sumUsage(records));
        expect(oneByOne).toEqual(batched);
        expect(reversed).toEqual(batched);
      }),
    );
  });
});
