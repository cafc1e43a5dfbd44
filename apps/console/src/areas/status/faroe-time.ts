import { faroeDateTime, fromFaroeWallClock } from '@alda/contract/format/date';

/*
 * The compose form's `datetime-local` fields hold Faroese wall-clock time (Atlantic/Faroe),
 * whatever the time zone of the computer the console runs on: a desk abroad still schedules in
 * the time the customers live in.
 */

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/** `2026-06-15T13:00` of an instant, as the Faroese clock shows it (a datetime-local value). */
export function toFaroeInput(instant: Date | string | number): string {
  const t = faroeDateTime(instant);
  return `${pad(t.year, 4)}-${pad(t.month)}-${pad(t.day)}T${pad(t.hour)}:${pad(t.minute)}`;
}

/** The instant a datetime-local value names in Faroese time; null when empty or not a time. */
export function fromFaroeInput(value: string): Date | null {
  const match = LOCAL.exec(value.trim());
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59) return null;
  const date = fromFaroeWallClock(year, month, day, hour, minute);
  // 31 February and the like roll over: not a time anyone meant.
  return toFaroeInput(date) === value.trim() ? date : null;
}
