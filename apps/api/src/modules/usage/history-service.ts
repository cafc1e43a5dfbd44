import { isUnlimited } from '@alda/contract/format/data';
import { todayInFaroe } from '@alda/contract/format/date';
import type { UsageHistoryResponse } from '@alda/contract/schemas/usage';
import type { Db } from '../../db/client';
import { AppError } from '../../errors';
import type { SubscriptionService } from '../subscriptions/service';
import { roamingCapOf, type RoamingSettings } from '@alda/contract/rules/roaming';
import {
  findDailyUse,
  findHistoryFacts,
  type DailyUseRow,
  type HistoryFacts,
} from './history-repo';

/** How many Faroese months the usage history covers, the current one included. */
export const HISTORY_MONTHS = 6;

export interface UsageHistoryServiceDeps {
  db: Db;
  now: () => Date;
  /** Who may read a line: the same check as the number's detail (SPEC §6). */
  lines: Pick<SubscriptionService, 'readableLine'>;
  /** The roaming cap's default and price (ADR 0078). */
  roaming: RoamingSettings;
}

/** The days and months the history of `today` shows, all on the Faroese calendar. */
export interface HistoryCalendar {
  /** `yyyy-mm`, the month of `today`. */
  month: string;
  /** Every day of that month up to `today`, `yyyy-mm-dd`. */
  days: string[];
  /** The last {@link HISTORY_MONTHS} months, `yyyy-mm`, oldest first, ending with `month`. */
  months: string[];
  /** The first day of the oldest month. */
  from: string;
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * The calendar of a history read on the Faroese day `today` (`yyyy-mm-dd`). Pure calendar
 * arithmetic: the time zone is already applied by the caller's `todayInFaroe`.
 */
export function historyCalendar(today: string): HistoryCalendar {
  const [year = NaN, month = NaN, day = NaN] = today.split('-').map(Number);
  const key = `${year}-${pad(month)}`;
  const days = Array.from({ length: day }, (_, i) => `${key}-${pad(i + 1)}`);
  const months: string[] = [];
  for (let back = HISTORY_MONTHS - 1; back >= 0; back -= 1) {
    // Months counted from year 0: (year * 12 + month - 1) - back, back to year and month.
    const index = year * 12 + month - 1 - back;
    months.push(`${Math.floor(index / 12)}-${pad((index % 12) + 1)}`);
  }
  return { month: key, days, months, from: `${months[0]}-01` };
}

/**
 * The answer of GET /api/subscriptions/{id}/usage-history from the line's facts and its daily
 * aggregates (`rows`, within the calendar's range): days without a row are 0, months are the
 * sums of their days. The allowance is today's plan's (plans are not kept per month).
 */
export function assembleHistory(
  facts: HistoryFacts,
  rows: readonly DailyUseRow[],
  calendar: HistoryCalendar,
  roaming: RoamingSettings,
): UsageHistoryResponse {
  const byDay = new Map(rows.map((row) => [row.day, row]));
  const byMonth = new Map(
    calendar.months.map((month) => [month, { domesticMb: 0, euMb: 0, roamingChargedOere: 0 }]),
  );
  for (const row of rows) {
    const sum = byMonth.get(row.day.slice(0, 7));
    if (!sum) continue;
    sum.domesticMb += row.domesticMb;
    sum.euMb += row.euMb;
    sum.roamingChargedOere += row.roamingChargedOere;
  }
  const plan = facts.planDataMb;
  return {
    phoneNumber: facts.msisdn,
    month: calendar.month,
    allowanceMb: facts.isPrepaid || plan === null || isUnlimited(plan) ? null : plan,
    euAllowanceMb: facts.euAllowanceMb,
    days: calendar.days.map((date) => ({
      date,
      domesticMb: byDay.get(date)?.domesticMb ?? 0,
      euMb: byDay.get(date)?.euMb ?? 0,
    })),
    months: calendar.months.map((month) => ({
      month,
      domesticMb: byMonth.get(month)?.domesticMb ?? 0,
      euMb: byMonth.get(month)?.euMb ?? 0,
      roamingChargedOere: byMonth.get(month)?.roamingChargedOere ?? 0,
    })),
    updatedAt: facts.updatedAt?.toISOString() ?? null,
    roaming: roamingCapOf(
      facts,
      facts.roamingChargedOere === null
        ? null
        : {
            roamingChargedOere: facts.roamingChargedOere,
            roamingChargedMb: facts.roamingChargedMb ?? 0,
            roamingStoppedAt: facts.roamingStoppedAt,
          },
      roaming,
    ),
  };
}

/**
 * A line's usage history (ADR 0066): this Faroese month day by day and the last six months,
 * read from the daily aggregates the usage feed writes when it books records — never from the
 * raw records, so a read costs one indexed range of at most ~186 rows.
 */
export function createUsageHistoryService(deps: UsageHistoryServiceDeps) {
  const { db, now, lines, roaming } = deps;
  return {
    /** GET /api/subscriptions/{id}/usage-history, for whom the number's detail allows. */
    async history(userId: string, lineId: string): Promise<UsageHistoryResponse> {
      const { line } = await lines.readableLine(userId, lineId);
      const calendar = historyCalendar(todayInFaroe(now()));
      const [facts, rows] = await Promise.all([
        findHistoryFacts(db, line.id),
        findDailyUse(db, line.id, calendar.from, calendar.days.at(-1) ?? calendar.from),
      ]);
      // The access check read the line just now; a line deleted in between is not found.
      if (!facts) throw new AppError('NOT_FOUND', { field: 'id', detail: `no line ${lineId}` });
      return assembleHistory(facts, rows, calendar, roaming);
    },
  };
}

export type UsageHistoryService = ReturnType<typeof createUsageHistoryService>;
