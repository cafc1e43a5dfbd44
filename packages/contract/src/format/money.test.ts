import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VAT_PERCENT } from '../constants';
import { addVat, formatKr, splitVat, withoutVat, withVat } from './money';

const oere = fc.integer({ min: -100_000_000, max: 100_000_000 });

describe('money in øre with 25 % VAT (SPEC §9 "Currency")', () => {
  it('uses 25 % VAT (SPEC §9)', () => {
    expect(VAT_PERCENT).toBe(25);
    expect(withVat(10_000)).toBe(12_500);
    expect(withoutVat(12_500)).toBe(10_000);
  });

  it('rounds to whole øre, half away from zero (SPEC §9)', () => {
    expect(withVat(1)).toBe(1); // 1.25
    expect(withVat(2)).toBe(3); // 2.5
    expect(withoutVat(14_900)).toBe(11_920);
    expect(withoutVat(9_999)).toBe(7_999); // 7999.2
    expect(withVat(-2)).toBe(-3);
  });

  it('splits 149,00 kr. into 119,20 kr. net and 29,80 kr. VAT (SPEC §9)', () => {
    expect(splitVat(14_900)).toEqual({ net: 11_920, vat: 2_980, gross: 14_900 });
    expect(addVat(11_920)).toEqual({ net: 11_920, vat: 2_980, gross: 14_900 });
  });

  it('always splits a price into parts that add up to it (SPEC §9)', () => {
    fc.assert(
      fc.property(oere, (gross) => {
        const { net, vat } = splitVat(gross);
        expect(net + vat).toBe(gross);
        expect(Number.isInteger(net) && Number.isInteger(vat)).toBe(true);
        // The VAT is the rounded 20 % of a VAT-inclusive price, give or take the rounding of net.
        expect(Math.abs(vat - gross / 5)).toBeLessThanOrEqual(0.5);
      }),
    );
  });

  it('recovers the net price after adding VAT, and the gross within one øre (SPEC §9)', () => {
    fc.assert(
      fc.property(oere, (amount) => {
        expect(withoutVat(withVat(amount))).toBe(amount);
        expect(Math.abs(withVat(withoutVat(amount)) - amount)).toBeLessThanOrEqual(1);
      }),
    );
  });

  it("formats kroner as '149,00 kr.' in Faroese and '149.00 kr.' in English (SPEC §9)", () => {
    expect(formatKr(14_900, 'fo')).toBe('149,00 kr.');
    expect(formatKr(14_900, 'en')).toBe('149.00 kr.');
    expect(formatKr(124_950, 'fo')).toBe('1.249,50 kr.');
    expect(formatKr(124_950, 'en')).toBe('1,249.50 kr.');
    expect(formatKr(0, 'fo')).toBe('0,00 kr.');
    expect(formatKr(-5_000, 'fo')).toBe('-50,00 kr.');
  });

  it("formats a next member's price as '+{price} kr.' (SPEC §4 Family capacity)", () => {
    expect(formatKr(9_900, 'fo', { sign: 'always' })).toBe('+99,00 kr.');
    expect(formatKr(9_900, 'fo', { sign: 'always', decimals: 'auto' })).toBe('+99 kr.');
    expect(formatKr(9_950, 'fo', { sign: 'always', decimals: 'auto' })).toBe('+99,50 kr.');
    expect(formatKr(0, 'fo', { sign: 'always' })).toBe('0,00 kr.');
  });

  it('refuses fractions of an øre (SPEC §9)', () => {
    expect(() => withVat(1.5)).toThrow(RangeError);
    expect(() => formatKr(0.5, 'fo')).toThrow(RangeError);
  });
});
