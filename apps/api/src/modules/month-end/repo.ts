import { asc, eq, inArray, lt } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { lineEuAllowanceMb, linePlanJoin } from '../../db/line-facts';
import { accounts } from '../../db/schema/accounts';
import { lineBalances } from '../../db/schema/balances';
import { plans } from '../../db/schema/catalog';
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

/** Starts a line's balance over for the month beginning at `periodStart`; no rollover. */
export async function resetBalance(
  db: Db,
  lineId: string,
  periodStart: Date,
  buckets: DataBuckets,
  at: Date,
): Promise<void> {
  await db
    .update(lineBalances)
    .set({ ...buckets, periodStart, rolloverMb: 0, updatedAt: at })
    .where(eq(lineBalances.lineId, lineId));
}

/** Removes the balances of these lines (cancelled lines whose last month is over). */
export async function deleteBalances(db: Db, lineIds: readonly string[]): Promise<void> {
  if (lineIds.length === 0) return;
  await db.delete(lineBalances).where(inArray(lineBalances.lineId, [...lineIds]));
}
