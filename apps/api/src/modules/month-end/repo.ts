import { and, asc, eq, gt, inArray, lt, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { lineEuAllowanceMb, lineIsPrepaid, linePlanJoin } from '../../db/line-facts';
import { accounts } from '../../db/schema/accounts';
import { lineBalances } from '../../db/schema/balances';
import { plans } from '../../db/schema/catalog';
import { orders } from '../../db/schema/orders';
import { phoneLines } from '../../db/schema/phone-lines';
import type { DataBuckets } from '../usage/balance';

/** A balance of a past month, locked for the month-end move, with what its line gets next. */
export interface StaleBalance {
  lineId: string;
  status: 'active' | 'processing' | 'cancelled';
  /** The line's user and the account owner: whose change version moves (ADR 0041). */
  userId: string | null;
  ownerUserId: string | null;
  /** The current plan's monthly data (the line's plan, else the account's); null: no plan. */
  dataMb: number | null;
  /** The plan's EU package data when the account has the EU package, else null. */
  euAllowanceMb: number | null;
  /** What the line had left of its month (the rollover is made from it). */
  remainingMb: number;
  /** A talutíð number: no rollover. */
  prepaid: boolean;
  msisdn: string;
  /** The roaming cap stopped the number's data abroad last month (ADR 0078). */
  roamingStopped: boolean;
  /** Start of the balance's month, the account the line is on, and the month's roaming charges. */
  periodStart: Date;
  accountId: string | null;
  roamingChargedOere: number;
  roamingChargedMb: number;
  /**
   * A smaller plan took effect on the line's account at this month end (a completed
   * `plan_downgrade` due after the balance's month began): no rollover into the new month.
   */
  downgraded: boolean;
}

/**
 * Locks up to `limit` balances whose month began before `monthStart` (`for update skip locked`,
 * in month and line id order): balances another instance is moving right now are left to it.
 * The order is the index `line_balances_period_start_line_id_idx`'s (ADR 0093): the stale
 * balances come first in it, so each batch reads its own rows and not the lines already moved
 * before them, and a round with nothing to move reads one index entry.
 */
export async function lockStaleBalances(
  db: Db,
  monthStart: Date,
  limit: number,
): Promise<StaleBalance[]> {
  return db
    .select({
      lineId: lineBalances.lineId,
      status: phoneLines.status,
      userId: phoneLines.userId,
      ownerUserId: accounts.ownerUserId,
      dataMb: plans.dataMb,
      euAllowanceMb: lineEuAllowanceMb(),
      remainingMb: lineBalances.domesticRemainingMb,
      prepaid: lineIsPrepaid(),
      msisdn: phoneLines.msisdn,
      roamingStopped: sql<boolean>`${lineBalances.roamingStoppedAt} is not null`,
      periodStart: lineBalances.periodStart,
      accountId: phoneLines.accountId,
      roamingChargedOere: lineBalances.roamingChargedOere,
      roamingChargedMb: lineBalances.roamingChargedMb,
      downgraded: sql<boolean>`exists (${db
        .select({ one: sql`1` })
        .from(orders)
        .where(
          and(
            eq(orders.accountId, phoneLines.accountId),
            eq(orders.lifecycleAction, 'plan_downgrade'),
            eq(orders.isComplete, true),
            gt(orders.effectiveAt, lineBalances.periodStart),
            lte(orders.effectiveAt, monthStart),
          ),
        )})`,
    })
    .from(lineBalances)
    .innerJoin(phoneLines, eq(phoneLines.id, lineBalances.lineId))
    .leftJoin(accounts, eq(phoneLines.accountId, accounts.id))
    .leftJoin(plans, linePlanJoin())
    .where(lt(lineBalances.periodStart, monthStart))
    .orderBy(asc(lineBalances.periodStart), asc(lineBalances.lineId))
    .limit(limit)
    .for('update', { of: lineBalances, skipLocked: true });
}

/** A line's balance started over: the new month's buckets with `rolloverMb` carried. */
export interface BalanceReset {
  lineId: string;
  buckets: DataBuckets;
  /** Already counted in the buckets' total and remaining. */
  rolloverMb: number;
}

/**
 * Starts the batch's balances over for the month beginning at `periodStart`, in one statement
 * (ADR 0093): the rows travel as one JSON parameter.
 */
export async function resetBalances(
  db: Db,
  resets: readonly BalanceReset[],
  periodStart: Date,
  at: Date,
): Promise<void> {
  if (resets.length === 0) return;
  const values = JSON.stringify(
    resets.map(({ lineId, buckets, rolloverMb }) => ({
      line_id: lineId,
      domestic_total_mb: buckets.domesticTotalMb,
      domestic_remaining_mb: buckets.domesticRemainingMb,
      domestic_used_mb: buckets.domesticUsedMb,
      eu_allowance_mb: buckets.euAllowanceMb,
      eu_used_mb: buckets.euUsedMb,
      rollover_mb: rolloverMb,
    })),
  );
  // The roaming charges and the stop are the month's (ADR 0078); month end has just kept the
  // month's charges owed (`roaming_charges`), and they stay on its records and days.
  await db.execute(sql`
    update ${lineBalances} as b set
      domestic_total_mb = v.domestic_total_mb,
      domestic_remaining_mb = v.domestic_remaining_mb,
      domestic_used_mb = v.domestic_used_mb,
      eu_allowance_mb = v.eu_allowance_mb,
      eu_used_mb = v.eu_used_mb,
      rollover_mb = v.rollover_mb,
      period_start = ${periodStart.toISOString()}::timestamptz,
      roaming_charged_oere = 0,
      roaming_charged_mb = 0,
      roaming_written_off_mb = 0,
      roaming_stopped_at = null,
      updated_at = ${at.toISOString()}::timestamptz
    from jsonb_to_recordset(${values}::jsonb) as v(
      line_id uuid, domestic_total_mb integer, domestic_remaining_mb integer,
      domestic_used_mb integer, eu_allowance_mb integer, eu_used_mb integer, rollover_mb integer)
    where b.line_id = v.line_id`);
}

/** Removes the balances of these lines (cancelled lines whose last month is over). */
export async function deleteBalances(db: Db, lineIds: readonly string[]): Promise<void> {
  if (lineIds.length === 0) return;
  await db.delete(lineBalances).where(inArray(lineBalances.lineId, [...lineIds]));
}
