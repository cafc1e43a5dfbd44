import { asc, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  lineBalances,
  type LineBalanceRow,
  type NewLineBalanceRow,
} from '../../db/schema/balances';

// Public to other modules: every move of data locks and creates balances through these, in line id order.

/** Creates the month's balance of lines that have none yet (first use after going live). */
export async function insertMissingBalances(db: Db, rows: NewLineBalanceRow[]): Promise<void> {
  if (rows.length === 0) return;
  const sorted = [...rows].sort((a, b) => (a.lineId < b.lineId ? -1 : 1));
  await db.insert(lineBalances).values(sorted).onConflictDoNothing();
}

/**
 * Locks the balances of these lines for the rest of the transaction (`select … for update`), in
 * line id order so that two transactions never wait for each other in a circle.
 */
export async function lockBalances(db: Db, lineIds: readonly string[]): Promise<LineBalanceRow[]> {
  if (lineIds.length === 0) return [];
  return db
    .select()
    .from(lineBalances)
    .where(inArray(lineBalances.lineId, [...lineIds]))
    .orderBy(asc(lineBalances.lineId))
    .for('update');
}
