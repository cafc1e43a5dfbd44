import { faroeDateTime } from '@alda/contract/format/date';

export type DayPart = 'morning' | 'day' | 'evening';

/** Morning until 10, day until 18, then evening — on the Faroese clock. */
export function dayPart(now: Date = new Date()): DayPart {
  const { hour } = faroeDateTime(now);
  if (hour >= 5 && hour < 10) return 'morning';
  if (hour >= 10 && hour < 18) return 'day';
  return 'evening';
}
