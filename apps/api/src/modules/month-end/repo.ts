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
 * in line id order): balances another instance is moving right now are left to it.
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
    .orderBy(asc(lineBalances.lineId))
    .limit(limit)
    .for('update', { of: lineBalances, skipLocked: true });
}

/**
 * Starts a line's balance over for the month beginning at `periodStart` with `rolloverMb` carried
 * (already counted in the buckets' total and remaining).
 */
export async function resetBalance(
  db: Db,
  lineId: string,
  periodStart: Date,
  buckets: DataBuckets,
  rolloverMb: number,
  at: Date,
): Promise<void> {
  await db
    .update(lineBalances)
    .set({
      ...buckets,
      periodStart,
      rolloverMb,
      // The roaming charges and the stop are the month's (ADR 0078); month end has just kept the
      // month's charges owed (`roaming_charges`), and they stay on its records and days.
      roamingChargedOere: 0,
      roamingChargedMb: 0,
      roamingWrittenOffMb: 0,
      roamingStoppedAt: null,
      updatedAt: at,
    })
    .where(eq(lineBalances.lineId, lineId));
}

/** Removes the balances of these lines (cancelled lines whose last month is over). */
export async function deleteBalances(db: Db, lineIds: readonly string[]): Promise<void> {
  if (lineIds.length === 0) return;
  await db.delete(lineBalances).where(inArray(lineBalances.lineId, [...lineIds]));
}
