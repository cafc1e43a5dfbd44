import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { lineBalances, type LineBalanceRow } from '../../db/schema/balances';
import { phoneLines, type PhoneLineRow } from '../../db/schema/phone-lines';

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
