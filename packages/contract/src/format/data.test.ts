import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeData, formatData, gbToMb, isUnlimited, mbToGb } from './data';

describe('data amounts (SPEC §9 "Data unit", "Unlimited display")', () => {
  it('converts MB to GB with 1024 MB per GB (SPEC §9)', () => {
    expect(mbToGb(1024)).toBe(1);
    expect(mbToGb(5120)).toBe(5);
    expect(gbToMb(50)).toBe(51_200);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), (mb) => gbToMb(mbToGb(mb)) === mb),
    );
  });

  it('shows 1,024,000 MB or more as unlimited (SPEC §9)', () => {
    expect(isUnlimited(1_023_999)).toBe(false);
    expect(isUnlimited(1_024_000)).toBe(true);
    expect(describeData(1_024_000)).toEqual({ kind: 'unlimited' });
    expect(describeData(5_000_000)).toEqual({ kind: 'unlimited' });
  });

  it('uses GB from 1024 MB with at most two decimals, MB below (SPEC §9)', () => {
    expect(describeData(0)).toEqual({ kind: 'mb', value: 0 });
    expect(describeData(500)).toEqual({ kind: 'mb', value: 500 });
    expect(describeData(1023)).toEqual({ kind: 'mb', value: 1023 });
    expect(describeData(1024)).toEqual({ kind: 'gb', value: 1 });
    expect(describeData(1536)).toEqual({ kind: 'gb', value: 1.5 });
    expect(describeData(1500)).toEqual({ kind: 'gb', value: 1.46 });
    expect(describeData(1_023_999)).toEqual({ kind: 'gb', value: 1000 });
  });

  it('picks exactly one kind for every amount, by the SPEC §9 thresholds (SPEC §9)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3_000_000 }), (mb) => {
        const shown = describeData(mb);
        const expected = mb >= 1_024_000 ? 'unlimited' : mb >= 1024 ? 'gb' : 'mb';
        expect(shown.kind).toBe(expected);
        if (shown.kind === 'gb')
          expect(Math.abs(shown.value - mb / 1024)).toBeLessThanOrEqual(0.005);
      }),
    );
  });

  it('formats amounts as text in fo and en (SPEC §1, §9)', () => {
    expect(formatData(1536, 'fo')).toBe('1,5 GB');
    expect(formatData(1536, 'en')).toBe('1.5 GB');
    expect(formatData(200, 'fo')).toBe('200 MB');
    expect(formatData(2_000_000, 'fo')).toBe('Óavmarkað');
    expect(formatData(2_000_000, 'en')).toBe('Unlimited');
  });

  it('refuses negative amounts (SPEC §9)', () => {
    expect(() => describeData(-1)).toThrow(RangeError);
  });
});
