import { describe, expect, it } from 'vitest';
import { isValidDisplayDate } from '@alda/contract/rules/date';
import { formatDateInput } from './date-input';

describe('typing a birth date (SPEC §5 date format dd.mm.yyyy)', () => {
  it.each([
    ['1', '1'],
    ['12', '12'],
    ['123', '12.3'],
    ['1205', '12.05'],
    ['12051990', '12.05.1990'],
    ['120519901', '12.05.1990'],
    ['12.05.1990', '12.05.1990'],
    ['12,05,1990', '12.05.1990'],
    ['12/05/1990', '12.05.1990'],
    ['1.5.1990', '01.05.1990'],
    ['1.', '01.'],
    ['12.', '12.'],
    ['12..', '12.'],
    ['ab12x05', '12.05'],
    ['', ''],
  ])('%j → %j', (typed, shown) => {
    expect(formatDateInput(typed)).toBe(shown);
  });

  it('lets a dot be deleted: "12.0" backspace gives "12." then "12"', () => {
    expect(formatDateInput('12.')).toBe('12.');
    expect(formatDateInput('12')).toBe('12');
  });

  it('is idempotent, so re-formatting a formatted value changes nothing', () => {
    for (const typed of ['1.5.1990', '12051990', '3', '31.1']) {
      const once = formatDateInput(typed);
      expect(formatDateInput(once)).toBe(once);
    }
  });

  it('produces dates the contract accepts', () => {
    expect(isValidDisplayDate(formatDateInput('1.5.1990'))).toBe(true);
    expect(isValidDisplayDate(formatDateInput('29022000'))).toBe(true);
  });
});
