import { TIME_ZONE } from '../constants';

/** Wall-clock fields of an instant in Atlantic/Faroe. */
export interface FaroeDateTime {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

// One formatter, built once and only when first asked for: creating Intl formatters is the slow
// part, and this one loads the time-zone data (issue 45: ~60 ms at a phone's speed, spent as
// module code by every screen that imports this file, whether it shows a Faroese time or not).
let faroeParts: Intl.DateTimeFormat | null = null;
const faroePartsFormatter = () =>
  (faroeParts ??= new Intl.DateTimeFormat('en-US', {
    timeZone: TIME_ZONE,
    calendar: 'gregory',
    numberingSystem: 'latn',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
    hourCycle: 'h23',
  }));

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function toDate(instant: Date | string | number): Date {
  const date = instant instanceof Date ? instant : new Date(instant);
  if (Number.isNaN(date.getTime())) throw new RangeError(`Invalid instant: ${String(instant)}`);
  return date;
}

/** The wall-clock date and time of `instant` in Atlantic/Faroe (the zone of SPEC, ARCHITECTURE). */
export function faroeDateTime(instant: Date | string | number): FaroeDateTime {
  const date = toDate(instant);
  const parts: Record<string, number> = {};
  for (const part of faroePartsFormatter().formatToParts(date)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year ?? NaN,
    month: parts.month ?? NaN,
    day: parts.day ?? NaN,
    // Some engines print midnight as 24 even with h23; normalise.
    hour: (parts.hour ?? NaN) % 24,
    minute: parts.minute ?? NaN,
    second: parts.second ?? NaN,
    millisecond: date.getUTCMilliseconds(),
  };
}

/** Offset of Atlantic/Faroe from UTC at `instant`, in milliseconds (0 in winter, 3,600,000 in summer). */
export function faroeOffsetMs(instant: Date | string | number): number {
  const date = toDate(instant);
  const t = faroeDateTime(date);
  const asUtc = Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second, t.millisecond);
  return asUtc - date.getTime();
}

/**
 * The UTC instant at which the Faroese wall clock shows the given time. Faroe changes clocks at
 * 01:00 UTC, never at midnight, so the times this module asks for are never skipped or repeated.
 */
export function fromFaroeWallClock(
  year: number,
  month: number,
  day: number,
  hour = 0,
  minute = 0,
  second = 0,
  millisecond = 0,
): Date {
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second, millisecond);
  // Two passes: the offset at the first guess may differ from the offset at the answer.
  let guess = asUtc - faroeOffsetMs(asUtc);
  guess = asUtc - faroeOffsetMs(guess);
  return new Date(guess);
}

/** SPEC §9 date format: `DD.MM.YYYY` of `instant` as seen in Atlantic/Faroe. */
export function formatDate(instant: Date | string | number): string {
  const t = faroeDateTime(instant);
  return `${pad(t.day)}.${pad(t.month)}.${pad(t.year, 4)}`;
}

/** `DD.MM.YYYY HH:mm` in Atlantic/Faroe, for the activity log and notifications. */
export function formatDateTime(instant: Date | string | number): string {
  const t = faroeDateTime(instant);
  return `${formatDate(instant)} ${pad(t.hour)}:${pad(t.minute)}`;
}

/** The calendar day (ISO `yyyy-mm-dd`) that `now` falls on in Atlantic/Faroe. */
export function todayInFaroe(now: Date = new Date()): string {
  const t = faroeDateTime(now);
  return `${pad(t.year, 4)}-${pad(t.month)}-${pad(t.day)}`;
}

/** A Faroese calendar month: [start, next) as UTC milliseconds, and its `yyyy-mm`. */
interface FaroeMonth {
  start: number;
  next: number;
  key: string;
}

/**
 * The month of the last instant asked about. Working a month out takes three passes through
 * Intl's time-zone formatter (tens of microseconds), and the API asks on every read that depends
 * on the month (the packages' validity, the subscriptions' and transfers' monthly counters,
 * issue 13); the answer changes twelve times a year.
 */
let lastMonth: FaroeMonth | undefined;

function monthOf(instant: Date | string | number): FaroeMonth {
  const at = toDate(instant).getTime();
  if (lastMonth !== undefined && lastMonth.start <= at && at < lastMonth.next) return lastMonth;
  const t = faroeDateTime(at);
  const nextYear = t.month === 12 ? t.year + 1 : t.year;
  const nextMonth = t.month === 12 ? 1 : t.month + 1;
  lastMonth = {
    start: fromFaroeWallClock(t.year, t.month, 1).getTime(),
    next: fromFaroeWallClock(nextYear, nextMonth, 1).getTime(),
    key: `${pad(t.year, 4)}-${pad(t.month)}`,
  };
  return lastMonth;
}

/** The UTC instant at which the Faroese month containing `instant` begins (00:00 on the 1st). */
export function startOfMonth(instant: Date | string | number): Date {
  return new Date(monthOf(instant).start);
}

/**
 * The last moment (23:59:59.999 Faroese time on the last day) of the month that contains
 * `instant` in Atlantic/Faroe, as a UTC instant. Extra packages and cancelled subscriptions end
 * here (SPEC §1, §4). In summer this is 22:59:59.999Z, in winter 23:59:59.999Z.
 */
export function endOfMonth(instant: Date | string | number): Date {
  return new Date(monthOf(instant).next - 1);
}

/**
 * The Faroese calendar month of `instant` as `yyyy-mm` — the key of monthly counters such as
 * data given away (SPEC §5), which start again on the 1st in Atlantic/Faroe.
 */
export function faroeMonth(instant: Date | string | number): string {
  return monthOf(instant).key;
}

const MONTH_NAMES = {
  fo: [
    'januar',
    'februar',
    'mars',
    'apríl',
    'mai',
    'juni',
    'juli',
    'august',
    'september',
    'oktober',
    'november',
    'desember',
  ],
  en: [
    'January',
    'February',
    'March',
    'April',
    'May',
    'June',
    'July',
    'August',
    'September',
    'October',
    'November',
    'December',
  ],
} as const;

/** A `yyyy-mm` month as people write it: 'november 2026' (fo), 'November 2026' (en). */
export function formatMonth(period: string, locale: 'fo' | 'en'): string {
  const match = /^(\d{4})-(\d{2})$/.exec(period);
  const name = match ? MONTH_NAMES[locale][Number(match[2]) - 1] : undefined;
  return match && name ? `${name} ${match[1]}` : period;
}
