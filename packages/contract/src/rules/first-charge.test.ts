import { describe, expect, it } from 'vitest';
import { firstChargeDate, isChargedInMonthOf } from './first-charge';

describe('first charge of a new subscription (SPEC §9 Commitment, ADR 0055)', () => {
  it('is the first day of the next Faroese month', () => {
    // 22 Nov 2026 14:00 UTC (Atlantic/Faroe is UTC+0 in winter) → 1 Dec 2026 00:00 local
    expect(firstChargeDate(new Date('2026-11-22T14:00:00Z')).toISOString()).toBe(
      '2026-12-01T00:00:00.000Z',
    );
    // 31 Jul 2026 23:30 UTC is already 1 Aug 00:30 in Tórshavn (UTC+1): charged from 1 Sep
    expect(firstChargeDate(new Date('2026-07-31T23:30:00Z')).toISOString()).toBe(
      '2026-08-31T23:00:00.000Z',
    );
  });

  it('leaves the month of activation out of billing, and charges every month after', () => {
    const activated = new Date('2026-11-22T14:00:00Z');
    expect(isChargedInMonthOf(activated, new Date('2026-11-30T12:00:00Z'))).toBe(false);
    expect(isChargedInMonthOf(activated, new Date('2026-12-01T12:00:00Z'))).toBe(true);
    expect(isChargedInMonthOf(null, new Date('2026-11-30T12:00:00Z'))).toBe(true);
  });
});
