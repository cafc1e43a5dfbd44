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

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** 01:00 UTC on the last Sunday of `month` (1–12) of `year`, in UTC milliseconds. */
function lastSundayAt0100Utc(year: number, month: number): number {
  // Day 0 of the next month is the last day of this one.
  const lastDay = Date.UTC(year, month, 0, 1);
  return lastDay - new Date(lastDay).getUTCDay() * DAY_MS;
}

/**
 * Offset of Atlantic/Faroe from UTC at `instant`, in milliseconds (0 in winter, 3,600,000 in
 * summer). Worked out from the rule the zone has kept since 1981, the EU's summer time (the IANA
 * time-zone database's "EU" rule for Atlantic/Faroe): UTC+1 from 01:00 UTC on the last Sunday of
 * March to 01:00 UTC on the last Sunday of October (of September until 1995); before 1981, UTC.
 * Not `Intl.DateTimeFormat` with `timeZone`: the first such formatter loads the browser's
 * calendar and time-zone data, 60–100 ms of home's first render at a phone's speed (issue 45,
 * ADR 0092). date.test.ts checks this rule against the platform's time-zone data, hour by hour.
 */
export function faroeOffsetMs(instant: Date | string | number): number {
  const at = toDate(instant).getTime();
  const year = new Date(at).getUTCFullYear();
  if (year < 1981) return 0;
  const summerStarts = lastSundayAt0100Utc(year, 3);
  const summerEnds = lastSundayAt0100Utc(year, year <= 1995 ? 9 : 10);
  return at >= summerStarts && at < summerEnds ? HOUR_MS : 0;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function toDate(instant: Date | string | number): Date {
  const date = instant instanceof Date ? instant : new Date(instant);
  if (Number.isNaN(date.getTime())) throw new RangeError(`Invalid instant: ${String(instant)}`);
  return date;
}

/** The wall-clock date and time of `instant` in Atlantic/Faroe (the zone of SPEC, ARCHITECTURE). */
export function faroeDateTime(instant: Date | string | number): FaroeDateTime {
  const date = toDate(instant);
  const wall = new Date(date.getTime() + faroeOffsetMs(date));
  return {
    year: wall.getUTCFullYear(),
    month: wall.getUTCMonth() + 1,
    day: wall.getUTCDate(),
    hour: wall.getUTCHours(),
    minute: wall.getUTCMinutes(),
    second: wall.getUTCSeconds(),
    millisecond: wall.getUTCMilliseconds(),
  };
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
 * The month of the last instant asked about. Working a month out takes five passes through the
 * zone's offset, and the API asks on every read that depends on the month (the packages'
 * validity, the subscriptions' and transfers' monthly counters, issue 13); the answer changes
 * twelve times a year.
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
