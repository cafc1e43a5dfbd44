import { isUnlimited } from '@alda/contract/format/data';
import { usageHistoryPath } from '@alda/contract/app-paths';
import { buyPackage } from './billing';
import { DAY, HOUR, MINUTE, type CalendarDay } from './calendar';
import { notify, type GenContext } from './context';
import { extraPackage, plan, userOfLine, type Line } from './model';
import { RATIOS } from './ratios';
import { SPECS } from './tables';

/*
 * A line's data use over the history (ADR 0066): a `usage_daily` row per day with use, raw
 * `usage_records` for the last days, this month's balance (equal to this month's days, as the
 * usage feed keeps them), the usage alerts at 80 and 100 %, and the extra packages bought when
 * the data ran out. Generated day by day from the line's habits; nothing is stored per day but
 * the rows.
 */

/** Data moved between family members this month (decided before the use, see activity.ts). */
export interface MonthGifts {
  receivedMb: number;
  givenMb: number;
}

interface Habit {
  /** A usual day's domestic use, MB. */
  dailyMb: number;
  /** Share of days without use. */
  idle: number;
  /** Each month's level (0.85–1.15). */
  monthFactor: number[];
  /** Trips abroad: first and last index into the calendar's days, MB a day in the EU. */
  trips: { from: number; to: number; euMb: number }[];
}

interface Bucket {
  totalMb: number;
  usedMb: number;
  raised: Set<number>;
}

const THRESHOLDS = [80, 100] as const;
const PACKAGES_WHEN_OUT = [
  ['data-1', 25],
  ['data-5', 60],
  ['data-20', 15],
] as const;

function habitOf(ctx: GenContext, line: Line, euMonths: ReadonlySet<number>): Habit {
  const p = plan(line.planId);
  const r = ctx.random;
  const monthlyMb = line.isPrepaid
    ? r.int(150, 2_500)
    : isUnlimited(p.dataMb)
      ? r.int(8, 60) * 1024
      : Math.round(p.dataMb * (0.35 + 0.8 * r.next()));
  const trips: Habit['trips'] = [];
  const { days, months } = ctx.cal;
  for (const month of months) {
    const current = month.index === months.length - 1;
    if (!euMonths.has(month.index) || !r.chance(current ? 0.06 : 0.12)) continue;
    const monthDays = days.filter((d) => d.month === month.index);
    const first = days.indexOf(monthDays[0] as CalendarDay);
    const length = r.int(3, 9);
    const from = first + r.int(0, Math.max(0, monthDays.length - length));
    trips.push({
      from,
      to: Math.min(first + monthDays.length - 1, from + length - 1),
      euMb: r.int(100, 700),
    });
  }
  return {
    dailyMb: monthlyMb / 30.4,
    idle: line.isPrepaid ? 0.45 : 0.03,
    monthFactor: months.map(() => 0.85 + 0.3 * r.next()),
    trips,
  };
}

/** The first day of the history the line was in service. */
function firstDay(ctx: GenContext, line: Line): number {
  const since = line.activatedMs ?? line.createdMs;
  const i = ctx.cal.days.findIndex((d) => d.startMs + DAY > since);
  return i === -1 ? ctx.cal.days.length : i;
}

/** The months the account has the EU package (allowance) in. */
function euMonthsOf(ctx: GenContext, line: Line): Set<number> {
  const { account } = line;
  if (!account.euPackage) return new Set();
  const from = account.euSinceMs === null ? 0 : ctx.cal.monthIndexAt(account.euSinceMs);
  return new Set(ctx.cal.months.filter((m) => m.index >= from).map((m) => m.index));
}

export function emitUsage(ctx: GenContext, line: Line, gifts: MonthGifts): void {
  const euMonths = euMonthsOf(ctx, line);
  const habit = habitOf(ctx, line, euMonths);
  const { days, months } = ctx.cal;
  const lastMonth = months.length - 1;
  const start = firstDay(ctx, line);
  const recordsFrom = days.length - RATIOS.recordDays;
  const pausedFrom = line.dataPausedMs ?? Infinity;
  let month = -1;
  let domestic: Bucket = { totalMb: 0, usedMb: 0, raised: new Set() };
  let eu: Bucket | null = null;
  let bought = 0;
  let recordSeq = 0;
  for (let i = start; i < days.length; i += 1) {
    const day = days[i] as CalendarDay;
    if (day.month !== month) {
      month = day.month;
      const p = plan(planAt(line, day.startMs));
      const gift = month === lastMonth ? gifts.receivedMb - gifts.givenMb : 0;
      domestic = { totalMb: p.dataMb + gift, usedMb: 0, raised: new Set() };
      const allowance = euMonths.has(month) ? (p.euPackageDataMb ?? null) : null;
      eu = allowance === null ? null : { totalMb: allowance, usedMb: 0, raised: new Set() };
      bought = 0;
    }
    const today = i === days.length - 1;
    const share = today ? ctx.cal.partOfToday : 1;
    const trip = habit.trips.find((t) => i >= t.from && i <= t.to);
    let dom = 0;
    if (day.startMs < pausedFrom && !ctx.random.chance(habit.idle)) {
      const level = habit.dailyMb * (habit.monthFactor[month] ?? 1) * (day.weekend ? 1.25 : 1);
      dom = Math.round(level * (0.4 + 1.2 * ctx.random.next()) * share * (trip ? 0.15 : 1));
    }
    // The plan's data runs out: a package bought that day (postpaid), or nothing more.
    if (!isUnlimited(domestic.totalMb) && domestic.usedMb + dom > domestic.totalMb) {
      if (!line.isPrepaid && bought < 2 && ctx.random.chance(RATIOS.packageWhenOut)) {
        const packageId = ctx.random.weighted(PACKAGES_WHEN_OUT);
        const atMs = Math.min(ctx.cal.nowMs - MINUTE, day.startMs + ctx.random.int(8, 22) * HOUR);
        if (buyPackage(ctx, line, packageId, atMs))
          domestic.totalMb += extraPackage(packageId).dataMb;
        bought += 1;
      }
      dom = Math.max(0, Math.min(dom, domestic.totalMb - domestic.usedMb));
    }
    let euMb = 0;
    if (trip && eu) euMb = Math.min(Math.round(trip.euMb * share), eu.totalMb - eu.usedMb);
    domestic.usedMb += dom;
    if (eu) eu.usedMb += euMb;
    if (dom > 0 || euMb > 0) ctx.out.values(SPECS.usageDaily, [line.id, day.date, dom, euMb, 0]);
    alerts(ctx, line, day, 'domestic', domestic, month);
    if (eu) alerts(ctx, line, day, 'eu', eu, month);
    if (i >= recordsFrom) recordSeq = records(ctx, line, day, dom, euMb, recordSeq);
  }
  if (start < days.length) balance(ctx, line, domestic, eu);
  if (gifts.givenMb > 0) {
    ctx.out.row(SPECS.givenDataCounters, {
      lineId: line.id,
      month: ctx.cal.current.key,
      givenMb: gifts.givenMb,
      maxMb: plan(line.planId).giftMaxMb,
      updatedAt: ctx.cal.nowMs - ctx.random.int(1, 48) * HOUR,
    });
  }
}

/** The line's plan at an instant (before this month's upgrade: the previous one). */
function planAt(line: Line, atMs: number): string {
  return line.planChangedMs !== null && line.previousPlanId !== null && atMs < line.planChangedMs
    ? line.previousPlanId
    : line.planId;
}

/** Usage alerts a bucket passed today, once a month each; told for the last two months. */
function alerts(
  ctx: GenContext,
  line: Line,
  day: CalendarDay,
  kind: 'domestic' | 'eu',
  bucket: Bucket,
  month: number,
): void {
  if (bucket.totalMb <= 0 || isUnlimited(bucket.totalMb)) return;
  for (const threshold of THRESHOLDS) {
    if (bucket.raised.has(threshold) || bucket.usedMb * 100 < threshold * bucket.totalMb) continue;
    bucket.raised.add(threshold);
    const atMs = Math.min(ctx.cal.nowMs - MINUTE, day.startMs + ctx.random.int(9, 23) * HOUR);
    const monthKey = ctx.cal.months[month]?.key ?? ctx.cal.current.key;
    ctx.out.row(SPECS.usageAlerts, {
      lineId: line.id,
      month: monthKey,
      kind,
      threshold,
      raisedAt: atMs,
    });
    if (month < ctx.cal.months.length - 2) continue;
    const user = userOfLine(line);
    const on = threshold === 100 ? user.usageAlert100 : user.usageAlert80;
    if (!on || !user.userId) continue;
    notify(ctx, {
      userId: user.userId,
      type: 'usage_alert',
      params: {
        phoneNumber: line.msisdn,
        name: null,
        dataMb: Math.max(0, bucket.totalMb - bucket.usedMb),
        totalMb: bucket.totalMb,
        threshold,
        kind,
      },
      link: usageHistoryPath(line.id),
      atMs,
    });
  }
}

/** This month's balance: the days' use, what is left, the EU allowance. */
function balance(ctx: GenContext, line: Line, domestic: Bucket, eu: Bucket | null): void {
  ctx.out.row(SPECS.lineBalances, {
    lineId: line.id,
    periodStart: ctx.cal.current.startMs,
    domesticTotalMb: domestic.totalMb,
    domesticRemainingMb: Math.max(0, domestic.totalMb - domestic.usedMb),
    domesticUsedMb: domestic.usedMb,
    euAllowanceMb: eu?.totalMb ?? null,
    euUsedMb: eu?.usedMb ?? 0,
    rolloverMb: 0,
    updatedAt: ctx.cal.nowMs - ctx.random.int(1, 30) * MINUTE,
  });
}

const OTHER_PREFIXES = ['2', '5', '7', '9', '3', '4'];

/** Calls or texts on a day: 0–4 around `mean`. */
function countAround(ctx: GenContext, mean: number): number {
  const u = ctx.random.next();
  if (u < Math.exp(-mean)) return 0;
  if (u < Math.exp(-mean) * (1 + mean)) return 1;
  if (u < Math.exp(-mean) * (1 + mean + (mean * mean) / 2)) return 2;
  return u < 0.97 ? 3 : 4;
}

/**
 * The day's raw records as the charging system sent them: one data record per zone with the
 * day's MB, calls (seconds) and SMS (count) to other numbers; priced on prepaid lines.
 */
function records(
  ctx: GenContext,
  line: Line,
  day: CalendarDay,
  dom: number,
  euMb: number,
  seq: number,
): number {
  const r = ctx.random;
  const endMs = Math.min(day.startMs + DAY, ctx.cal.nowMs);
  const span = endMs - day.startMs;
  const prefix = `s${ctx.seed.toString(36)}-${line.seq.toString(36).padStart(6, '0')}-`;
  let n = seq;
  const record = (
    type: string,
    quantity: number,
    unit: 'MB' | 's' | 'count',
    kind: 'domestic' | 'eu',
    rated: number | null,
  ) => {
    const occurred = day.startMs + Math.floor(span * (0.3 + 0.7 * r.next()));
    const received = Math.min(ctx.cal.nowMs, occurred + r.int(1, 20) * MINUTE);
    const other = type === 'data' ? null : `${r.pick(OTHER_PREFIXES)}${r.digits(5)}`;
    ctx.out.values(SPECS.usageRecords, [
      `${prefix}${(n++).toString(36).padStart(3, '0')}`,
      line.id,
      line.msisdn,
      type,
      quantity,
      unit,
      other,
      rated,
      type === 'data' ? quantity : 0,
      kind,
      // Epoch ms: the table is loaded in binary COPY format (tables.ts).
      occurred,
      received,
    ]);
  };
  if (span <= 0) return n;
  if (dom > 0) record('data', dom, 'MB', 'domestic', null);
  if (euMb > 0) record('data', euMb, 'MB', 'eu', null);
  const zone = euMb > 0 ? 'eu' : 'domestic';
  for (let c = countAround(ctx, RATIOS.callsPerDay); c > 0; c -= 1) {
    const seconds = Math.round(15 + 900 * r.next() ** 2);
    record('voice', seconds, 's', zone, line.isPrepaid ? Math.ceil(seconds / 60) * 99 : null);
  }
  for (let c = countAround(ctx, RATIOS.smsPerDay); c > 0; c -= 1) {
    record('sms', 1, 'count', zone, line.isPrepaid ? 49 : null);
  }
  return n;
}
