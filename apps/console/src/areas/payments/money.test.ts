import { describe, expect, it } from 'vitest';
import { formatKr, kronerInput, parseKroner } from './money';

describe('amounts typed in kroner, sent in øre', () => {
  it.each([
    ['fo', '39', 3_900],
    ['fo', '39,00', 3_900],
    ['fo', '39,5', 3_950],
    ['fo', '19,50', 1_950],
    ['fo', '39.50', 3_950],
    ['fo', '0,01', 1],
    ['fo', '1.234,50', 123_450],
    ['fo', '1.234', 123_400],
    ['fo', ' 39,00 kr. ', 3_900],
    ['fo', '0', 0],
    ['en', '39.00', 3_900],
    ['en', '19,50', 1_950],
    ['en', '1,234.50', 123_450],
    ['en', '1,234', 123_400],
  ] as const)('%s: %s → %i øre', (locale, text, oere) => {
    expect(parseKroner(text, locale)).toBe(oere);
  });

  it.each([
    ['fo', ''],
    ['fo', 'abc'],
    ['fo', '-5'],
    ['fo', '+5'],
    ['fo', '39,005'],
    ['fo', '1,234'],
    ['fo', '1.23.4'],
    ['fo', '1.234,5.6'],
    ['fo', '12kr3'],
    ['en', '1.234'],
    ['en', '1,234.567,00'],
  ] as const)('%s: refuses %j', (locale, text) => {
    expect(parseKroner(text, locale)).toBeNull();
  });

  it('SPEC §9: shows money as the customer app does, and fills a field without the currency', () => {
    expect(formatKr(3_900, 'fo')).toBe('39,00 kr.');
    expect(formatKr(123_450, 'en')).toBe('1,234.50 kr.');
    expect(kronerInput(3_900, 'fo')).toBe('39,00');
    expect(kronerInput(123_450, 'fo')).toBe('1.234,50');
    expect(kronerInput(1_950, 'en')).toBe('19.50');
    expect(parseKroner(kronerInput(123_456, 'fo'), 'fo')).toBe(123_456);
    expect(parseKroner(kronerInput(123_456, 'en'), 'en')).toBe(123_456);
  });
});
