import { describe, expect, it } from 'vitest';
import { compareCodeUnits } from './compare';

describe('compareCodeUnits (issue 45)', () => {
  it('orders phone numbers and ISO timestamps as localeCompare did', () => {
    expect(['298268348', '298244681', '298249322'].sort(compareCodeUnits)).toEqual([
      '298244681',
      '298249322',
      '298268348',
    ]);
    expect(['2026-11-27T10:00:00.000Z', '2026-02-01T23:59:59.000Z'].sort(compareCodeUnits)).toEqual(
      ['2026-02-01T23:59:59.000Z', '2026-11-27T10:00:00.000Z'],
    );
    expect(compareCodeUnits('a', 'a')).toBe(0);
  });
});
