import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { faroeDateTime, fromFaroeWallClock } from '../format/date';
import { QUIET_HOURS_DEFAULT } from '../schemas/push';
import { isQuiet, pushDueAt } from './quiet-hours';

const faroe = (iso: string) => {
  const [date, time] = iso.split('T') as [string, string];
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [h, min] = time.split(':').map(Number) as [number, number];
  return fromFaroeWallClock(y, m, d, h, min);
};

describe('quiet hours (ADR 0096)', () => {
  it('holds a push made at 23:30 until 08:00 the next morning, Faroe time', () => {
    expect(pushDueAt(faroe('2026-11-28T23:30'), QUIET_HOURS_DEFAULT)).toEqual(
      faroe('2026-11-29T08:00'),
    );
  });

  it('holds a push made at 03:10 until 08:00 the same morning', () => {
    expect(pushDueAt(faroe('2026-07-01T03:10'), QUIET_HOURS_DEFAULT)).toEqual(
      faroe('2026-07-01T08:00'),
    );
  });

  it('sends at once in the day, and at once at 08:00 and until 21:59', () => {
    for (const at of ['2026-07-01T08:00', '2026-07-01T12:00', '2026-07-01T21:59']) {
      expect(pushDueAt(faroe(at), QUIET_HOURS_DEFAULT)).toEqual(faroe(at));
    }
  });

  it('crosses a year end and 29 February', () => {
    expect(pushDueAt(faroe('2026-12-31T22:00'), QUIET_HOURS_DEFAULT)).toEqual(
      faroe('2027-01-01T08:00'),
    );
    expect(pushDueAt(faroe('2028-02-28T23:00'), QUIET_HOURS_DEFAULT)).toEqual(
      faroe('2028-02-29T08:00'),
    );
  });

  it('keeps 08:00 on the night summer time starts and ends', () => {
    // 29 March 2026 and 25 October 2026: the clocks change at 01:00 UTC.
    expect(pushDueAt(faroe('2026-03-28T23:00'), QUIET_HOURS_DEFAULT).toISOString()).toBe(
      '2026-03-29T07:00:00.000Z',
    );
    expect(pushDueAt(faroe('2026-10-24T23:00'), QUIET_HOURS_DEFAULT).toISOString()).toBe(
      '2026-10-25T08:00:00.000Z',
    );
  });

  it('a window within one day (13:00–14:00) and quiet hours switched off', () => {
    const lunch = { on: true, from: 13 * 60, to: 14 * 60 };
    expect(pushDueAt(faroe('2026-07-01T13:30'), lunch)).toEqual(faroe('2026-07-01T14:00'));
    expect(pushDueAt(faroe('2026-07-01T14:00'), lunch)).toEqual(faroe('2026-07-01T14:00'));
    const off = { ...QUIET_HOURS_DEFAULT, on: false };
    expect(pushDueAt(faroe('2026-07-01T23:30'), off)).toEqual(faroe('2026-07-01T23:30'));
  });

  it('never holds a push for a day or more, and what it gives is never quiet', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2000-01-01'), max: new Date('2060-01-01'), noInvalidDate: true }),
        fc.integer({ min: 0, max: 1439 }),
        fc.integer({ min: 0, max: 1439 }),
        (at, from, to) => {
          fc.pre(from !== to);
          const quiet = { on: true, from, to };
          const due = pushDueAt(at, quiet);
          expect(due.getTime()).toBeGreaterThanOrEqual(at.getTime());
          expect(due.getTime() - at.getTime()).toBeLessThan(24 * 3_600_000 + 3_600_000);
          const wall = faroeDateTime(due);
          expect(isQuiet(wall.hour * 60 + wall.minute, quiet)).toBe(false);
        },
      ),
    );
  });
});
