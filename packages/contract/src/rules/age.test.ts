import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MIN_AGE } from '../constants';
import { ageOn, isOldEnough } from './age';

describe('age check (SPEC §5 "Users who are too young cannot register")', () => {
  it('defaults to the configurable limit of 18 (SPEC §5)', () => {
    expect(MIN_AGE).toBe(18);
    expect(isOldEnough('2000-05-10', undefined, new Date('2018-05-10T12:00:00Z'))).toBe(true);
    expect(isOldEnough('2000-05-10', undefined, new Date('2018-05-09T12:00:00Z'))).toBe(false);
  });

  it('takes the age limit as a parameter (SPEC §5)', () => {
    const today = new Date('2024-06-01T12:00:00Z');
    expect(isOldEnough('2009-06-01', 15, today)).toBe(true);
    expect(isOldEnough('2009-06-02', 15, today)).toBe(false);
  });

  it('counts the birthday by the calendar day in Atlantic/Faroe, not UTC (SPEC §5)', () => {
    // 23:30 UTC on 9 May is 00:30 on 10 May in Tórshavn (summer time, UTC+1).
    expect(isOldEnough('2000-05-10', 18, new Date('2018-05-09T23:30:00Z'))).toBe(true);
    // In winter Faroe is on UTC, so 23:30 UTC on 9 January is still 9 January.
    expect(isOldEnough('2000-01-10', 18, new Date('2018-01-09T23:30:00Z'))).toBe(false);
    expect(isOldEnough('2000-01-10', 18, new Date('2018-01-10T00:00:00Z'))).toBe(true);
  });

  it('lets 29 February birthdays come of age on 1 March in common years (SPEC §5)', () => {
    expect(ageOn('2004-02-29', '2022-02-28')).toBe(17);
    expect(ageOn('2004-02-29', '2022-03-01')).toBe(18);
    expect(ageOn('2004-02-29', '2024-02-29')).toBe(20);
  });

  it('never finds a future birth date old enough (SPEC §5)', () => {
    expect(isOldEnough('2030-01-01', 0, new Date('2024-01-01T00:00:00Z'))).toBe(false);
  });

  it('grows by exactly one on each birthday and not before (SPEC §5)', () => {
    const day = fc.date({
      min: new Date('1900-01-01T00:00:00Z'),
      max: new Date('2100-12-31T00:00:00Z'),
      noInvalidDate: true,
    });
    fc.assert(
      fc.property(day, fc.integer({ min: 1, max: 100 }), (birth, years) => {
        const b = birth.toISOString().slice(0, 10);
        const [y, m, d] = b.split('-').map(Number) as [number, number, number];
        if (m === 2 && d === 29) return; // covered above
        const birthday = `${y + years}-${b.slice(5)}`;
        const eve = new Date(Date.UTC(y + years, m - 1, d - 1)).toISOString().slice(0, 10);
        expect(ageOn(b, birthday)).toBe(years);
        expect(ageOn(b, eve)).toBe(years - 1);
      }),
    );
  });

  it('rejects a birth date that is not a real ISO date (SPEC §5)', () => {
    expect(() => isOldEnough('31.02.2000')).toThrow(RangeError);
  });
});
