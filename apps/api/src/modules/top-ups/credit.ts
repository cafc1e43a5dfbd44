import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { prepaidBalances } from '../../db/schema/balances';

// Public to other modules: prepaid credit is added when a top-up is paid, in that transaction.

/**
 * Adds credit to a prepaid line (a row is made on the first top-up). One statement: the row is
 * locked by the update itself, so concurrent top-ups of a line add up.
 */
export async function addPrepaidCredit(
  db: Db,
  lineId: string,
  oere: number,
  at: Date,
): Promise<void> {
  await db
    .insert(prepaidBalances)
    .values({ lineId, balanceOere: oere, updatedAt: at })
    .onConflictDoUpdate({
      target: prepaidBalances.lineId,
      set: { balanceOere: sql`${prepaidBalances.balanceOere} + ${oere}`, updatedAt: at },
    });
}
