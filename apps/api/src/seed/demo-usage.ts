import { faroeDateTime, todayInFaroe } from '@alda/contract/format/date';
import type { Db } from '../db/client';
import { usageDaily } from '../db/schema/balances';
import { historyCalendar } from '../modules/usage/history-service';
import { insertDemoRows, type DemoRemap } from './demo-remap';
import { DEMO_LINE_IDS } from './demo-users';

/*
 * The demo lines' daily data use (ADR 0066), so the usage history has six months to show on a
 * fresh demo. Deterministic: every figure comes from a hash of the line and the day, never from
 * Math.random, so the same `now` always seeds the same rows. This month's days add up exactly to
 * the seeded balances' used data; earlier months follow each person's habits.
 */

const GB = 1024;
const LINE = DEMO_LINE_IDS;

/** How a demo customer uses data in a month they have behind them. */
interface Habit {
  /** A usual month's domestic use, MB (each month varies from 85 % to 115 % of it). */
  monthlyMb: number;
  /** Share of days without any use (a phone left at home, a talutíð number kept for calls). */
  idleDays: number;
  /** Trips abroad: months back (1 = last month), first and last day, EU data used. */
  trips?: { monthsBack: number; from: number; to: number; euMb: number }[];
  /** Days at the end of this month spent abroad, over which this month's EU use is spread. */
  tripDaysNow?: number;
  /**
   * This month's EU use without an EU package to take it (counted in the balance's domestic use,
   * and charged beyond the domestic data, ADR 0078).
   */
  abroadNowMb?: number;
}

const HABITS: Record<string, Habit> = {
  // The family owner: a steady user; the family's summer trip three months ago.
  [LINE.joannes]: {
    monthlyMb: 14 * GB,
    idleDays: 0,
    trips: [{ monthsBack: 3, from: 8, to: 14, euMb: 2_600 }],
    tripDaysNow: 3,
  },
  // The teenager: close to the family plan's 20 GB most months.
  [LINE.sunneva]: {
    monthlyMb: 18 * GB,
    idleDays: 0,
    trips: [{ monthsBack: 3, from: 8, to: 14, euMb: 1_900 }],
  },
  // The work phone: weekdays, well inside its 5 GB; this month a work trip without the EU
  // package, part of it charged (ADR 0078).
  [LINE.joannesWork]: { monthlyMb: 2_600, idleDays: 0.1, tripDaysNow: 5, abroadNowMb: 6_500 },
  [LINE.gudrun]: {
    monthlyMb: 15 * GB,
    idleDays: 0,
    trips: [{ monthsBack: 2, from: 18, to: 24, euMb: 4_100 }],
    tripDaysNow: 4,
  },
  // Talutíð: a little data now and then.
  [LINE.roi]: { monthlyMb: 800, idleDays: 0.35 },
};

/** A number in [0, 1) from a text: FNV-1a, 32 bits. */
function hash01(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) / 2 ** 32;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The number of days of a `yyyy-mm` month. */
const daysIn = (month: string): number => {
  const [year = NaN, m = NaN] = month.split('-').map(Number);
  return new Date(Date.UTC(year, m, 0)).getUTCDate();
};

/**
 * Splits `total` MB over days in proportion to `weights`, in whole MB that add up to `total`
 * exactly (the largest remainders get the leftover MB).
 */
function split(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (total <= 0 || sum <= 0) return weights.map(() => 0);
  const exact = weights.map((w) => (total * w) / sum);
  const whole = exact.map(Math.floor);
  let left = total - whole.reduce((a, b) => a + b, 0);
  const order = exact
    .map((value, i) => ({ i, rest: value - Math.floor(value) }))
    .sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    whole[i] = (whole[i] ?? 0) + 1;
    left -= 1;
  }
  return whole;
}

/** How much of a day's use falls on `date`: more at weekends, none on an idle day. */
function dayWeight(lineId: string, date: string, habit: Habit): number {
  const roll = hash01(`${lineId}:${date}`);
  if (roll < habit.idleDays) return 0;
  const weekday = new Date(`${date}T12:00:00Z`).getUTCDay();
  const weekend = weekday === 0 || weekday === 6;
  return 0.55 + hash01(`${date}:${lineId}`) + (weekend ? 0.45 : 0);
}

/** What a line's balance used this month: the figures this month's days must add up to. */
export interface UsedThisMonth {
  lineId: string;
  domesticUsedMb: number;
  euUsedMb: number;
  /** This month's roaming charges, øre (ADR 0078): spread over the days abroad. */
  roamingChargedOere?: number;
}

/**
 * The demo lines' `usage_daily` rows: six earlier Faroese months and this month up to today.
 * This month's days add up to `balances` (domestic and EU); today gets only the part of a day's
 * use that the clock has reached.
 */
export function demoUsageDaily(now: Date, balances: readonly UsedThisMonth[]) {
  const today = todayInFaroe(now);
  const calendar = historyCalendar(today);
  const [, , todayDay = 1] = today.split('-').map(Number);
  // The part of today gone by, on the Faroese clock (today's bar is not a whole day yet).
  const partOfToday = Math.max(0.15, (faroeDateTime(now).hour + 1) / 24);
  const [year = NaN, month = NaN] = calendar.month.split('-').map(Number);
  const monthBack = (back: number) => {
    const index = year * 12 + month - 1 - back;
    return `${Math.floor(index / 12)}-${pad((index % 12) + 1)}`;
  };

  const rows: {
    lineId: string;
    day: string;
    domesticMb: number;
    euMb: number;
    roamingChargedOere?: number;
  }[] = [];
  for (const used of balances) {
    const habit = HABITS[used.lineId];
    if (!habit) continue;
    // Earlier months: a usual month, give or take 15 %, spread over the month's days.
    for (let back = 6; back >= 1; back -= 1) {
      const key = monthBack(back);
      const dates = Array.from({ length: daysIn(key) }, (_, i) => `${key}-${pad(i + 1)}`);
      const total = Math.round(habit.monthlyMb * (0.85 + 0.3 * hash01(`${used.lineId}:${key}`)));
      const domestic = split(
        total,
        dates.map((date) => dayWeight(used.lineId, date, habit)),
      );
      const trip = habit.trips?.find((t) => t.monthsBack === back);
      const eu = trip
        ? split(
            trip.euMb,
            dates.map((_, i) => (i + 1 >= trip.from && i + 1 <= trip.to ? 1 : 0)),
          )
        : dates.map(() => 0);
      dates.forEach((day, i) => {
        const domesticMb = domestic[i] ?? 0;
        const euMb = eu[i] ?? 0;
        if (domesticMb > 0 || euMb > 0) rows.push({ lineId: used.lineId, day, domesticMb, euMb });
      });
    }
    // This month: exactly the balance's figures, up to and including today.
    const dates = calendar.days;
    const abroadMb = habit.abroadNowMb ?? 0;
    const domestic = split(
      used.domesticUsedMb - abroadMb,
      dates.map(
        (date, i) =>
          (dayWeight(used.lineId, date, habit) || (i + 1 === todayDay ? 0.3 : 0)) *
          (i + 1 === todayDay ? partOfToday : 1),
      ),
    );
    const abroad = Math.min(habit.tripDaysNow ?? 1, dates.length);
    const abroadDays = dates.map((_, i) => (i >= dates.length - abroad ? 1 : 0));
    const eu = split(used.euUsedMb + abroadMb, abroadDays);
    const charged = split(used.roamingChargedOere ?? 0, abroadDays);
    dates.forEach((day, i) => {
      const domesticMb = domestic[i] ?? 0;
      const euMb = eu[i] ?? 0;
      const roamingChargedOere = charged[i] ?? 0;
      if (domesticMb > 0 || euMb > 0)
        rows.push({ lineId: used.lineId, day, domesticMb, euMb, roamingChargedOere });
    });
  }
  return rows;
}

/**
 * Inserts the demo's daily use (missing days only, like every demo seed). `balances` are the
 * demo's own (its line ids pick the habits); a copy's `remap` then gives the rows its lines.
 */
export async function seedDemoUsage(
  db: Db,
  now: Date,
  balances: readonly UsedThisMonth[],
  remap?: DemoRemap,
): Promise<void> {
  await insertDemoRows(db, usageDaily, demoUsageDaily(now, balances), remap);
}
