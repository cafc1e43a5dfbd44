/** How long ago something happened, in the largest whole unit a person would say. */
export type Age = { unit: 'now'; count: 0 } | { unit: 'minutes' | 'hours' | 'days'; count: number };

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * The age of `since` at `now` (both ms): under a minute is "now", then whole minutes, hours and
 * days, each rounded down ("updated 2 hours ago" until the third hour is full). A time in the
 * future (a clock put back) is "now".
 */
export function ageOf(since: number, now: number): Age {
  const ms = now - since;
  if (ms < MINUTE) return { unit: 'now', count: 0 };
  if (ms < HOUR) return { unit: 'minutes', count: Math.floor(ms / MINUTE) };
  if (ms < DAY) return { unit: 'hours', count: Math.floor(ms / HOUR) };
  return { unit: 'days', count: Math.floor(ms / DAY) };
}
