import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { accounts } from '../../db/schema/accounts';
import { lineBalances, type LineBalanceRow } from '../../db/schema/balances';
import { phoneLines, type PhoneLineRow } from '../../db/schema/phone-lines';

/** Locks the line (`FOR UPDATE`) and reads its account's owner; undefined without an account. */
export async function lockCappedLine(
  db: Db,
  lineId: string,
): Promise<{ line: PhoneLineRow; ownerUserId: string } | undefined> {
  const [row] = await db
    .select({ line: phoneLines, ownerUserId: accounts.ownerUserId })
    .from(phoneLines)
    .innerJoin(accounts, eq(phoneLines.accountId, accounts.id))
    .where(eq(phoneLines.id, lineId))
    .for('update', { of: phoneLines });
  return row;
}

export async function setRoamingCap(
  db: Db,
  lineId: string,
  patch: Pick<PhoneLineRow, 'roamingCapOere' | 'roamingCapOff'>,
): Promise<void> {
  await db.update(phoneLines).set(patch).where(eq(phoneLines.id, lineId));
}

export async function setRoamingStopped(
  db: Db,
  lineId: string,
  stoppedAt: Date | null,
): Promise<Pick<LineBalanceRow, 'roamingChargedOere' | 'roamingChargedMb' | 'roamingStoppedAt'>> {
  const [row] = await db
    .update(lineBalances)
    .set({ roamingStoppedAt: stoppedAt })
    .where(eq(lineBalances.lineId, lineId))
    .returning();
  if (!row) throw new Error(`balance of ${lineId} vanished under its lock`);
  return row;
}
