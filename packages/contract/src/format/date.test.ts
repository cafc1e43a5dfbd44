import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TIME_ZONE } from '../constants';
import {
  endOfMonth,
  faroeDateTime,
  faroeMonth,
  faroeOffsetMs,
  formatDate,
  formatDateTime,
  fromFaroeWallClock,
  startOfMonth,
  todayInFaroe,
} from './date';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The offset the platform's time-zone data gives Atlantic/Faroe at `at` (Intl, as before ADR 0092). */
const platformParts = new Intl.DateTimeFormat('en-US', {
  timeZone: TIME_ZONE,
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
  hourCycle: 'h23',
});
function platformOffset(at: number): number {
  const p = Object.fromEntries(
    platformParts.formatToParts(at).map((part) => [part.type, Number(part.value)]),
  );
  const wall = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour! % 24, p.minute!, p.second!);
  return wall - Math.floor(at / 1000) * 1000;
}
const instant = fc.date({
  min: new Date('1990-01-01T00:00:00Z'),
  max: new Date('2100-01-01T00:00:00Z'),
  noInvalidDate: true,
});

describe('dates in Atlantic/Faroe (SPEC §9 "DD.MM.YYYY", ARCHITECTURE time zone)', () => {
  it("keeps the zone's rule of the platform's time-zone data, on every day from 1975 to 2045 (ADR 0092)", () => {
    // Every day at noon; in the months of a change (March, September, October), also on both
    // sides of 01:00 UTC, when Faroe's clocks change.
    const mismatches: string[] = [];
    for (let day = Date.UTC(1975, 0, 1); day < Date.UTC(2046, 0, 1); day += DAY) {
      const change = [2, 8, 9].includes(new Date(day).getUTCMonth());
      for (const at of change ? [day + HOUR - 1, day + HOUR, day + 12 * HOUR] : [day + 12 * HOUR]) {
        if (faroeOffsetMs(at) !== platformOffset(at)) mismatches.push(new Date(at).toISOString());
      }
    }
    expect(mismatches.slice(0, 5)).toEqual([]);
  });

  it('formats DD.MM.YYYY in Faroese time, not UTC (SPEC §9)', () => {
    expect(formatDate('2024-06-17T12:00:00Z')).toBe('17.06.2024');
    // Summer: 23:30 UTC is 00:30 the next day in Tórshavn.
    expect(formatDate('2024-03-31T23:30:00Z')).toBe('01.04.2024');
    // Winter: Faroe is on UTC.
    expect(formatDate('2024-01-31T23:30:00Z')).toBe('31.01.2024');
    expect(formatDateTime(new Date('2024-07-01T09:05:00Z'))).toBe('01.07.2024 10:05');
  });

  it('changes to summer time at 01:00 UTC on the last Sunday of March (SPEC §9)', () => {
    expect(faroeOffsetMs('2024-03-31T00:59:59Z')).toBe(0);
    expect(faroeOffsetMs('2024-03-31T01:00:00Z')).toBe(HOUR);
    expect(faroeDateTime('2024-03-31T01:00:00Z')).toMatchObject({ day: 31, hour: 2, minute: 0 });
  });

  it('changes back at 01:00 UTC on the last Sunday of October (SPEC §9)', () => {
    expect(faroeOffsetMs('2024-10-27T00:59:59Z')).toBe(HOUR);
    expect(faroeOffsetMs('2024-10-27T01:00:00Z')).toBe(0);
    expect(faroeDateTime('2024-10-27T00:30:00Z')).toMatchObject({ day: 27, hour: 1, minute: 30 });
    expect(faroeDateTime('2024-10-27T01:30:00Z')).toMatchObject({ day: 27, hour: 1, minute: 30 });
  });

  it('ends March at 22:59:59.999Z, after the switch to summer time (SPEC §4 month end)', () => {
    expect(endOfMonth(new Date('2024-03-10T12:00:00Z')).toISOString()).toBe(
      '2024-03-31T22:59:59.999Z',
    );
  });

  it('ends October at 23:59:59.999Z, after the switch back to winter time (SPEC §4 month end)', () => {
    expect(endOfMonth(new Date('2024-10-27T00:30:00Z')).toISOString()).toBe(
      '2024-10-31T23:59:59.999Z',
    );
  });

  it('ends February on the 29th in leap years and December on the 31st (SPEC §4)', () => {
    expect(endOfMonth(new Date('2024-02-10T00:00:00Z')).toISOString()).toBe(
      '2024-02-29T23:59:59.999Z',
    );
    expect(endOfMonth(new Date('2023-02-10T00:00:00Z')).toISOString()).toBe(
      '2023-02-28T23:59:59.999Z',
    );
    expect(endOfMonth(new Date('2024-12-31T23:59:59Z')).toISOString()).toBe(
      '2024-12-31T23:59:59.999Z',
    );
    expect(endOfMonth(new Date('2024-06-15T00:00:00Z')).toISOString()).toBe(
      '2024-06-30T22:59:59.999Z',
    );
  });

  it('uses the Faroese month of the instant: 23:30Z on 31 March is already April (SPEC §4)', () => {
    expect(endOfMonth(new Date('2024-03-31T23:30:00Z')).toISOString()).toBe(
      '2024-04-30T22:59:59.999Z',
    );
  });

  it('puts month end in the same Faroese month, with the 1st one millisecond later (SPEC §4)', () => {
    fc.assert(
      fc.property(instant, (d) => {
        const end = endOfMonth(d);
        const local = faroeDateTime(d);
        const localEnd = faroeDateTime(end);
        expect(end.getTime()).toBeGreaterThanOrEqual(d.getTime());
        expect([localEnd.year, localEnd.month]).toEqual([local.year, local.month]);
        expect(localEnd).toMatchObject({ hour: 23, minute: 59, second: 59, millisecond: 999 });
        const next = faroeDateTime(end.getTime() + 1);
        expect(next).toMatchObject({ day: 1, hour: 0, minute: 0, second: 0 });
        expect(endOfMonth(end).getTime()).toBe(end.getTime());
        expect(startOfMonth(end.getTime() + 1).getTime()).toBe(end.getTime() + 1);
      }),
    );
  });

  it('converts Faroese wall-clock times back to the same instant (SPEC §9)', () => {
    fc.assert(
      fc.property(instant, (d) => {
        const t = faroeDateTime(d);
        // Skip the repeated hour at the autumn change, which has two instants.
        if (t.month === 10 && t.hour === 1 && t.day >= 25) return;
        const back = fromFaroeWallClock(
          t.year,
          t.month,
          t.day,
          t.hour,
          t.minute,
          t.second,
          t.millisecond,
        );
        expect(back.getTime()).toBe(d.getTime());
      }),
    );
  });

  it('tells the Faroese calendar day (SPEC §5 age check)', () => {
    expect(todayInFaroe(new Date('2024-07-01T23:30:00Z'))).toBe('2024-07-02');
    expect(todayInFaroe(new Date('2024-01-01T23:30:00Z'))).toBe('2024-01-01');
    expect(() => formatDate('not a date')).toThrow(RangeError);
  });

  it('keys monthly counters by the Faroese month, which starts at local midnight (SPEC §5, §4)', () => {
    // 31 July 23:30 UTC is already 1 August in Tórshavn (UTC+1 in summer).
    expect(faroeMonth(new Date('2024-07-31T23:30:00Z'))).toBe('2024-08');
    expect(faroeMonth(new Date('2024-12-31T23:30:00Z'))).toBe('2024-12');
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }),
        (d) => {
          expect(faroeMonth(startOfMonth(d))).toBe(faroeMonth(d));
          expect(faroeMonth(endOfMonth(d))).toBe(faroeMonth(d));
        },
      ),
    );
  });

  it('answers the month of each instant, however instants follow one another (the last month is kept, issue 13)', () => {
    /** The month worked out from scratch, as before it was kept. */
    const fresh = (at: number) => {
      const t = faroeDateTime(at);
      const start = fromFaroeWallClock(t.year, t.month, 1).getTime();
      const next =
        t.month === 12
          ? fromFaroeWallClock(t.year + 1, 1, 1).getTime()
          : fromFaroeWallClock(t.year, t.month + 1, 1).getTime();
      return [start, next - 1, `${t.year}-${String(t.month).padStart(2, '0')}`];
    };
    const around = instant.chain((d) =>
      fc.constantFrom(
        d.getTime(),
        startOfMonthFresh(d.getTime()) - 1,
        startOfMonthFresh(d.getTime()),
        startOfMonthFresh(d.getTime()) + 1,
      ),
    );
    fc.assert(
      fc.property(fc.array(around, { minLength: 1, maxLength: 20 }), (instants) => {
        for (const at of instants) {
          expect([startOfMonth(at).getTime(), endOfMonth(at).getTime(), faroeMonth(at)]).toEqual(
            fresh(at),
          );
        }
      }),
    );
  });
});

/** 00:00 on the 1st in Tórshavn, from the wall clock alone. */
function startOfMonthFresh(at: number): number {
  const t = faroeDateTime(at);
  return fromFaroeWallClock(t.year, t.month, 1).getTime();
}
