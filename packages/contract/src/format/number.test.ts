import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatNumber } from './number';

describe('number formatting for fo and en (SPEC §1 languages, §9)', () => {
  it('writes Faroese numbers with a decimal comma and dot grouping (SPEC §1)', () => {
    expect(formatNumber(1234.5, 'fo')).toBe('1.234,5');
    expect(formatNumber(1234567, 'fo')).toBe('1.234.567');
    expect(formatNumber(0.5, 'fo', { minimumFractionDigits: 2 })).toBe('0,50');
  });

  it('writes English numbers with a decimal point and comma grouping (SPEC §1)', () => {
    expect(formatNumber(1234.5, 'en')).toBe('1,234.5');
    expect(formatNumber(-1234.567, 'en')).toBe('-1,234.57');
  });

  it('rounds half away from zero without binary noise (SPEC §9)', () => {
    expect(formatNumber(1.005, 'en')).toBe('1.01');
    expect(formatNumber(2.675, 'en')).toBe('2.68');
    expect(formatNumber(-0.001, 'en')).toBe('0');
    expect(formatNumber(1.5, 'en', { maximumFractionDigits: 0 })).toBe('2');
  });

  it('can switch grouping off (SPEC §9)', () => {
    expect(formatNumber(1234, 'fo', { useGrouping: false })).toBe('1234');
  });

  it('matches Intl for every integer it formats (SPEC §1)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), (n) => {
        expect(formatNumber(n, 'en')).toBe(new Intl.NumberFormat('en-US').format(n));
        expect(formatNumber(n, 'fo')).toBe(
          new Intl.NumberFormat('en-US').format(n).replace(/,/g, '.'),
        );
      }),
    );
  });

  it('only swaps the marks between the two languages (SPEC §1)', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e9, max: 1e9, noNaN: true }), (n) => {
        const swapped = formatNumber(n, 'en').replace(/[.,]/g, (m) => (m === '.' ? ',' : '.'));
        expect(formatNumber(n, 'fo')).toBe(swapped);
      }),
    );
  });

  it('refuses NaN and infinities (SPEC §9)', () => {
    expect(() => formatNumber(Number.NaN, 'fo')).toThrow(RangeError);
    expect(() => formatNumber(Infinity, 'en')).toThrow(RangeError);
  });
});
