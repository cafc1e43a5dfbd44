import { and, asc, desc, eq, isNotNull, isNull, lte, ne } from 'drizzle-orm';
import type { LockColumns } from '@alda/contract/rules/number-protection';
import type { Db } from '../../db/client';
import { accounts, type AccountRow } from '../../db/schema/accounts';
import {
  portOutCodes,
  portOutRequests,
  type PortOutCodeRow,
} from '../../db/schema/number-protection';
import { phoneLines, type PhoneLineRow } from '../../db/schema/phone-lines';

/** The live line of a number, its row locked (the port-out's one decision point). */
export async function lockLiveLineByMsisdn(
  db: Db,
  msisdn: string,
): Promise<PhoneLineRow | undefined> {
  const [row] = await db
    .select()
    .from(phoneLines)
    .where(and(eq(phoneLines.msisdn, msisdn), ne(phoneLines.status, 'cancelled')))
    .for('update');
  return row;
}

export async function findAccount(db: Db, id: string): Promise<AccountRow | undefined> {
  const [row] = await db.select().from(accounts).where(eq(accounts.id, id));
  return row;
}

export async function updateLockColumns(
  db: Db,
  lineId: string,
  columns: LockColumns,
): Promise<void> {
  await db.update(phoneLines).set(columns).where(eq(phoneLines.id, lineId));
}

/**
 * Unlocks whose time has come, their rows locked; rows another instance holds are skipped
 * (SKIP LOCKED), so several instances share the work.
 */
export async function claimDueUnlocks(db: Db, at: Date, limit: number): Promise<PhoneLineRow[]> {
  return db
    .select()
    .from(phoneLines)
    .where(
      and(
        eq(phoneLines.numberLocked, true),
        isNotNull(phoneLines.unlockAt),
        lte(phoneLines.unlockAt, at),
      ),
    )
    .orderBy(asc(phoneLines.unlockAt))
    .limit(limit)
    .for('update', { skipLocked: true });
}

/** The line's newest code that is neither used nor revoked (it may have expired). */
export async function findOpenCodeOfLine(
  db: Db,
  lineId: string,
): Promise<PortOutCodeRow | undefined> {
  const [row] = await db
    .select()
    .from(portOutCodes)
    .where(
      and(
        eq(portOutCodes.lineId, lineId),
        isNull(portOutCodes.usedAt),
        isNull(portOutCodes.revokedAt),
      ),
    )
    .orderBy(desc(portOutCodes.createdAt))
    .limit(1);
  return row;
}

/** The code of this line with this hash, its row locked. */
export async function lockCodeOfLine(
  db: Db,
  lineId: string,
  codeHash: string,
): Promise<PortOutCodeRow | undefined> {
  const [row] = await db
    .select()
    .from(portOutCodes)
    .where(and(eq(portOutCodes.lineId, lineId), eq(portOutCodes.codeHash, codeHash)))
    .for('update');
  return row;
}

export async function revokeCodesOfLine(db: Db, lineId: string, at: Date): Promise<void> {
  await db
    .update(portOutCodes)
    .set({ revokedAt: at })
    .where(
      and(
        eq(portOutCodes.lineId, lineId),
        isNull(portOutCodes.usedAt),
        isNull(portOutCodes.revokedAt),
      ),
    );
}

export async function insertCode(
  db: Db,
  row: { lineId: string; userId: string; codeHash: string; createdAt: Date; expiresAt: Date },
): Promise<void> {
  await db.insert(portOutCodes).values(row);
}

export async function markCodeUsed(db: Db, id: string, at: Date): Promise<void> {
  await db.update(portOutCodes).set({ usedAt: at }).where(eq(portOutCodes.id, id));
}

export async function insertPortOutRequest(
  db: Db,
  row: typeof portOutRequests.$inferInsert,
): Promise<void> {
  await db.insert(portOutRequests).values(row);
}
