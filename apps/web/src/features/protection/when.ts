import { formatDateTime } from '@alda/contract/format/date';

/** An instant as the lock screen says it: `{ time: 'HH:mm', date: 'DD.MM' }` on the Faroese clock. */
export function unlockWhen(instant: string | Date): { time: string; date: string } {
  // The contract's `DD.MM.YYYY HH:mm`, without the year.
  const [date = '', time = ''] = formatDateTime(instant).split(' ');
  return { time, date: date.slice(0, 5) };
}
