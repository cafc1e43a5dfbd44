import { faroeDateTime, fromFaroeWallClock } from '../format/date';
import type { QuietHours } from '../schemas/push';

/** Minutes after midnight on the Faroese wall clock at `at`. */
function faroeMinuteOfDay(at: Date): number {
  const wall = faroeDateTime(at);
  return wall.hour * 60 + wall.minute;
}

/** Whether the Faroese wall-clock minute `minute` falls in the quiet hours (`from` inclusive). */
export function isQuiet(minute: number, quiet: QuietHours): boolean {
  if (!quiet.on) return false;
  return quiet.from < quiet.to
    ? minute >= quiet.from && minute < quiet.to
    : minute >= quiet.from || minute < quiet.to;
}

/**
 * When a non-urgent push made at `at` may go (ADR 0096): `at` itself outside the quiet hours,
 * else the instant the quiet hours end on the Faroese wall clock (the next `to`, today or
 * tomorrow). Security pushes never ask.
 */
export function pushDueAt(at: Date, quiet: QuietHours): Date {
  const minute = faroeMinuteOfDay(at);
  if (!isQuiet(minute, quiet)) return at;
  const wall = faroeDateTime(at);
  // Before `to` on the same day (the morning part), else tomorrow's `to`.
  const dayOffset = minute < quiet.to ? 0 : 1;
  const day = new Date(Date.UTC(wall.year, wall.month - 1, wall.day + dayOffset));
  return fromFaroeWallClock(
    day.getUTCFullYear(),
    day.getUTCMonth() + 1,
    day.getUTCDate(),
    Math.floor(quiet.to / 60),
    quiet.to % 60,
  );
}
