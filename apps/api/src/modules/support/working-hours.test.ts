import { describe, expect, it } from 'vitest';
import { addWorkingHours, isWorkingHour } from './working-hours';

const at = (iso: string) => new Date(iso);

describe('the desk’s working hours (issue 46: SUPPORT_FIRST_REPLY_H working hours)', () => {
  it('counts Monday to Friday 08:00–16:00 Faroe time, winter (UTC+0) and summer (UTC+1)', () => {
    expect(isWorkingHour(at('2026-11-25T08:00:00Z'))).toBe(true); // Wednesday 08:00 WET
    expect(isWorkingHour(at('2026-11-25T07:59:00Z'))).toBe(false);
    expect(isWorkingHour(at('2026-11-25T16:00:00Z'))).toBe(false);
    expect(isWorkingHour(at('2026-07-01T07:00:00Z'))).toBe(true); // 08:00 WEST
    expect(isWorkingHour(at('2026-07-01T15:00:00Z'))).toBe(false); // 16:00 WEST
    expect(isWorkingHour(at('2026-11-28T10:00:00Z'))).toBe(false); // Saturday
  });

  it('adds 8 hours inside one working day', () => {
    expect(addWorkingHours(at('2026-11-25T08:00:00Z'), 8).toISOString()).toBe(
      '2026-11-25T16:00:00.000Z',
    );
  });

  it('carries over the night and the weekend', () => {
    // Friday 14:30 + 8 h: 1.5 h on Friday, 6.5 h on Monday from 08:00.
    expect(addWorkingHours(at('2026-11-27T14:30:00Z'), 8).toISOString()).toBe(
      '2026-11-30T14:30:00.000Z',
    );
    // Written on Saturday night: the clock starts on Monday at 08:00.
    expect(addWorkingHours(at('2026-11-28T22:13:00Z'), 8).toISOString()).toBe(
      '2026-11-30T16:00:00.000Z',
    );
  });

  it('crosses the year end and 29 February', () => {
    // Thursday 31 December 2026, 15:00: one hour that day, 1 January (a Friday) is counted.
    expect(addWorkingHours(at('2026-12-31T15:00:00Z'), 8).toISOString()).toBe(
      '2027-01-01T15:00:00.000Z',
    );
    // Tuesday 29 February 2028 at 12:00: 4 h that day, 4 h on 1 March.
    expect(addWorkingHours(at('2028-02-29T12:00:00Z'), 8).toISOString()).toBe(
      '2028-03-01T12:00:00.000Z',
    );
  });

  it('follows the change to summer time (last Sunday of March)', () => {
    // Friday 27 March 2026 15:00 UTC = 15:00 WET: 1 h; Monday 30 March opens 07:00 UTC (WEST).
    expect(addWorkingHours(at('2026-03-27T15:00:00Z'), 8).toISOString()).toBe(
      '2026-03-30T14:00:00.000Z',
    );
  });
});
