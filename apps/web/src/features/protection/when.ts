import { faroeDateTime } from '@alda/contract/format/date';

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant as the lock screen says it: `{ time: 'HH:MM', date: 'DD.MM' }` on the Faroese clock. */
export function unlockWhen(instant: string | Date): { time: string; date: string } {
  const at = faroeDateTime(instant);
  return { time: `${pad(at.hour)}:${pad(at.minute)}`, date: `${pad(at.day)}.${pad(at.month)}` };
}
