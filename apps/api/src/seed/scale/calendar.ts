import { faroeDateTime, faroeMonth, fromFaroeWallClock } from '@alda/contract/format/date';
import { historyCalendar } from '../../modules/usage/history-service';

/*
 * The seeded history's calendar: the Faroese months the usage history shows (HISTORY_MONTHS, the
 * current one included) and their days up to today, as the app reads them. Times are epoch
 * milliseconds while generating and ISO strings in the rows.
 */

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
export const YEAR = 365 * DAY;

export interface CalendarMonth {
  /** `yyyy-mm` */
  key: string;
  /** 0 = the oldest month of the history; the last is the current month. */
  index: number;
  startMs: number;
  /** The first instant of the next month. */
  endMs: number;
  /** Days in the month. */
  length: number;
}

export interface CalendarDay {
  /** `yyyy-mm-dd`, Faroese. */
  date: string;
  /** Faroese midnight, epoch ms. */
  startMs: number;
  /** The month's index in {@link Calendar.months}. */
  month: number;
  weekend: boolean;
}

const pad = (n: number) => String(n).padStart(2, '0');

export class Calendar {
  readonly nowMs: number;
  readonly months: CalendarMonth[];
  /** Every day of the history, oldest first, today last. */
  readonly days: CalendarDay[];
  /** The share of today gone by on the Faroese clock (today's use is not a whole day yet). */
  readonly partOfToday: number;

  constructor(now: Date) {
    this.nowMs = now.getTime();
    const today = faroeDateTime(now);
    const calendar = historyCalendar(`${today.year}-${pad(today.month)}-${pad(today.day)}`);
    this.months = calendar.months.map((key, index) => monthOf(key, index));
    this.days = this.months.flatMap((month) => daysOf(month, this.nowMs));
    this.partOfToday = Math.max(0.1, (today.hour * 60 + today.minute + 1) / (24 * 60));
  }

  get current(): CalendarMonth {
    const month = this.months[this.months.length - 1];
    if (!month) throw new Error('a history has months');
    return month;
  }

  get startMs(): number {
    return this.months[0]?.startMs ?? this.nowMs;
  }

  /** The history month of an instant, or -1 before the history. */
  monthIndexAt(ms: number): number {
    for (let i = this.months.length - 1; i >= 0; i -= 1) {
      if (ms >= (this.months[i]?.startMs ?? Infinity)) return i;
    }
    return -1;
  }
}

function monthOf(key: string, index: number): CalendarMonth {
  const [year = NaN, month = NaN] = key.split('-').map(Number);
  const startMs = fromFaroeWallClock(year, month, 1).getTime();
  const next = month === 12 ? [year + 1, 1] : [year, month + 1];
  const endMs = fromFaroeWallClock(next[0] ?? year, next[1] ?? 1, 1).getTime();
  const length = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return { key, index, startMs, endMs, length };
}

function daysOf(month: CalendarMonth, nowMs: number): CalendarDay[] {
  const [year = NaN, m = NaN] = month.key.split('-').map(Number);
  const days: CalendarDay[] = [];
  for (let d = 1; d <= month.length; d += 1) {
    const startMs = fromFaroeWallClock(year, m, d).getTime();
    if (startMs > nowMs) break;
    const weekday = new Date(Date.UTC(year, m - 1, d)).getUTCDay();
    days.push({
      date: `${month.key}-${pad(d)}`,
      startMs,
      month: month.index,
      weekend: weekday === 0 || weekday === 6,
    });
  }
  return days;
}

/** `yyyy-mm` of an instant, Faroese. */
export const monthKeyAt = (ms: number): string => faroeMonth(ms);

const dayCache = new Map<number, string>();

/**
 * An instant as ISO 8601 (UTC), like Date#toISOString but with the date part cached: the
 * generator writes tens of millions of timestamps, most of them on a few hundred days.
 */
export function iso(ms: number): string {
  const t = Math.floor(ms);
  const day = Math.floor(t / DAY);
  let prefix = dayCache.get(day);
  if (prefix === undefined) {
    prefix = new Date(day * DAY).toISOString().slice(0, 11);
    dayCache.set(day, prefix);
  }
  let rest = t - day * DAY;
  const h = Math.floor(rest / HOUR);
  rest -= h * HOUR;
  const m = Math.floor(rest / MINUTE);
  rest -= m * MINUTE;
  const s = Math.floor(rest / 1000);
  const msPart = rest - s * 1000;
  return `${prefix}${pad(h)}:${pad(m)}:${pad(s)}.${String(msPart).padStart(3, '0')}Z`;
}
