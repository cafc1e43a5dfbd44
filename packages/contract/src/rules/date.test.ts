import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  daysInMonth,
  displayDateSchema,
  isLeapYear,
  isoDateSchema,
  isoToDisplayDate,
  isValidDisplayDate,
  parseDisplayDate,
} from './date';

describe('date dd.mm.yyyy (SPEC §5, §9)', () => {
  it('parses dd.mm.yyyy to ISO yyyy-mm-dd (SPEC §5)', () => {
    expect(parseDisplayDate('17.06.1990')).toBe('1990-06-17');
    expect(parseDisplayDate(' 01.01.2000 ')).toBe('2000-01-01');
  });

  it('rejects dates that do not exist, such as 31.02 (SPEC §5)', () => {
    for (const bad of [
      '31.02.2024',
      '30.02.2024',
      '31.04.2024',
      '00.01.2024',
      '01.13.2024',
      '01.00.2024',
    ]) {
      expect(parseDisplayDate(bad), bad).toBeNull();
    }
  });

  it('accepts 29.02 in leap years only (SPEC §5)', () => {
    expect(parseDisplayDate('29.02.2024')).toBe('2024-02-29');
    expect(parseDisplayDate('29.02.2000')).toBe('2000-02-29');
    expect(parseDisplayDate('29.02.2023')).toBeNull();
    expect(parseDisplayDate('29.02.1900')).toBeNull();
    expect([1900, 2000, 2023, 2024].map(isLeapYear)).toEqual([false, true, false, true]);
  });

  it('rejects other formats (SPEC §5)', () => {
    for (const bad of [
      '1990-06-17',
      '17/06/1990',
      '17.6.1990',
      '7.06.1990',
      '17.06.90',
      '17.06.1990x',
      '',
    ]) {
      expect(isValidDisplayDate(bad), bad).toBe(false);
    }
  });

  it('round-trips every real day between ISO and dd.mm.yyyy (SPEC §5)', () => {
    const day = fc.date({
      min: new Date('1000-01-01T00:00:00Z'),
      max: new Date('9999-12-31T00:00:00Z'),
      noInvalidDate: true,
    });
    fc.assert(
      fc.property(day, (d) => {
        const iso = d.toISOString().slice(0, 10);
        const shown = isoToDisplayDate(iso);
        expect(shown).toMatch(/^\d{2}\.\d{2}\.\d{4}$/);
        expect(parseDisplayDate(shown)).toBe(iso);
      }),
    );
  });

  it('accepts a day exactly when it is within the month’s length (SPEC §5)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1000, max: 9999 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 31 }),
        (y, m, d) => {
          const text = `${String(d).padStart(2, '0')}.${String(m).padStart(2, '0')}.${y}`;
          expect(isValidDisplayDate(text)).toBe(d <= daysInMonth(y, m));
        },
      ),
    );
  });

  it('gives REQUIRED and INVALID_DATE, keeping the typed form (SPEC §5)', () => {
    expect(displayDateSchema.safeParse('').error?.issues[0]?.message).toBe('REQUIRED');
    expect(displayDateSchema.safeParse('31.02.2024').error?.issues[0]?.message).toBe(
      'INVALID_DATE',
    );
    expect(displayDateSchema.parse('29.02.2024')).toBe('29.02.2024');
    expect(isoDateSchema.safeParse('2023-02-29').success).toBe(false);
    expect(() => isoToDisplayDate('2023-02-29')).toThrow(RangeError);
  });
});
