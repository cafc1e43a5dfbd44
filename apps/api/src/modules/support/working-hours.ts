/*
 * The desk's working hours (issue 46 "first-reply due time", ADR 0088): Monday to Friday,
 * 08:00–16:00 in the Faroes. Public holidays are not counted out; the due time is a goal the
 * console shows, not a promise to the customer.
 */

const OPENS_AT_HOUR = 8;
const CLOSES_AT_HOUR = 16;
const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

const faroeClock = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Atlantic/Faroe',
  weekday: 'short',
  hour: '2-digit',
  hourCycle: 'h23',
});

/** Whether the hour that `at` falls in is a working hour in the Faroes. */
export function isWorkingHour(at: Date): boolean {
  const parts = faroeClock.formatToParts(at);
  const weekday = parts.find((p) => p.type === 'weekday')?.value;
  const hour = Number(parts.find((p) => p.type === 'hour')?.value);
  if (weekday === 'Sat' || weekday === 'Sun') return false;
  return hour >= OPENS_AT_HOUR && hour < CLOSES_AT_HOUR;
}

/**
 * The instant `hours` working hours after `from`. The Faroes' offset from UTC is a whole hour
 * (0 or +1), so local hours begin where UTC hours do, and the walk goes one UTC hour at a time.
 */
export function addWorkingHours(from: Date, hours: number): Date {
  let remaining = Math.round(hours * 60) * MINUTE_MS;
  let at = from.getTime();
  while (remaining > 0) {
    const hourEnd = Math.floor(at / HOUR_MS) * HOUR_MS + HOUR_MS;
    if (isWorkingHour(new Date(at))) {
      const step = Math.min(remaining, hourEnd - at);
      at += step;
      remaining -= step;
    } else at = hourEnd;
  }
  return new Date(at);
}
