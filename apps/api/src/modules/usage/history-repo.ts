import { and, asc, eq, gte, lte } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { lineEuAllowanceMb, lineIsPrepaid, linePlanJoin } from '../../db/line-facts';
import { accounts } from '../../db/schema/accounts';
import { lineBalances, usageDaily } from '../../db/schema/balances';
import { plans } from '../../db/schema/catalog';
import { phoneLines } from '../../db/schema/phone-lines';

/** What the usage history draws its use against (ADR 0066): the line's plan as it is today. */
export interface HistoryFacts {
  msisdn: string;
  /** The plan's monthly data; null when the line has no plan yet. */
  planDataMb: number | null;
  /** Talutíð: prepaid data is bought, not a monthly allowance. */
  isPrepaid: boolean;
  /** The EU package's monthly data when the account has the package, else null. */
  euAllowanceMb: number | null;
  /** When the usage feed last moved the line's balance. */
  updatedAt: Date | null;
  /** The roaming cap set on the line and the balance's roaming month (ADR 0078). */
  roamingCapOere: number | null;
  roamingCapOff: boolean;
  roamingChargedOere: number | null;
  roamingChargedMb: number | null;
  roamingStoppedAt: Date | null;
}

export async function findHistoryFacts(db: Db, lineId: string): Promise<HistoryFacts | undefined> {
  const [row] = await db
    .select({
      msisdn: phoneLines.msisdn,
      planDataMb: plans.dataMb,
      isPrepaid: lineIsPrepaid(),
      euAllowanceMb: lineEuAllowanceMb(),
      updatedAt: lineBalances.updatedAt,
      roamingCapOere: phoneLines.roamingCapOere,
      roamingCapOff: phoneLines.roamingCapOff,
      roamingChargedOere: lineBalances.roamingChargedOere,
      roamingChargedMb: lineBalances.roamingChargedMb,
      roamingStoppedAt: lineBalances.roamingStoppedAt,
    })
    .from(phoneLines)
    .leftJoin(accounts, eq(phoneLines.accountId, accounts.id))
    .leftJoin(plans, linePlanJoin())
    .leftJoin(lineBalances, eq(lineBalances.lineId, phoneLines.id))
    .where(eq(phoneLines.id, lineId));
  return row;
}

/** One stored day of the daily aggregates. */
export interface DailyUseRow {
  /** `yyyy-mm-dd`, a Faroese calendar day. */
  day: string;
  domesticMb: number;
  euMb: number;
  /** Roaming charges of the day, øre (ADR 0078). */
  roamingChargedOere: number;
}

/**
 * The line's daily aggregates from `from` to `to` (both `yyyy-mm-dd`, inclusive), oldest first:
 * at most one row per day, so at most ~186 rows for six months. Never the raw usage records.
 */
export async function findDailyUse(
  db: Db,
  lineId: string,
  from: string,
  to: string,
): Promise<DailyUseRow[]> {
  return db
    .select({
      day: usageDaily.day,
      domesticMb: usageDaily.domesticMb,
      euMb: usageDaily.euMb,
      roamingChargedOere: usageDaily.roamingChargedOere,
    })
    .from(usageDaily)
    .where(and(eq(usageDaily.lineId, lineId), gte(usageDaily.day, from), lte(usageDaily.day, to)))
    .orderBy(asc(usageDaily.day));
}
