import { describe, expect, it } from 'vitest';
import { historyCalendar } from './history-service';

describe('historyCalendar (issue 16, ADR 0066)', () => {
  it('counts six months back across a new year, oldest first', () => {
    expect(historyCalendar('2026-02-03')).toEqual({
      month: '2026-02',
      days: ['2026-02-01', '2026-02-02', '2026-02-03'],
      months: ['2025-09', '2025-10', '2025-11', '2025-12', '2026-01', '2026-02'],
      from: '2025-09-01',
    });
  });

  it('has every day of the month up to the last one', () => {
    const { days, months } = historyCalendar('2028-12-31');
    expect(days).toHaveLength(31);
    expect(days.at(-1)).toBe('2028-12-31');
    expect(months).toEqual(['2028-07', '2028-08', '2028-09', '2028-10', '2028-11', '2028-12']);
  });
});
