import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  staffRecoveryCodes,
  staffSessions,
  staffUsers,
  type StaffSessionRow,
  type StaffUserRow,
} from '../../db/schema/staff';

export async function findStaffByEmail(db: Db, email: string): Promise<StaffUserRow | undefined> {
  const [row] = await db.select().from(staffUsers).where(eq(staffUsers.email, email));
  return row;
}

export async function findStaffById(db: Db, id: string): Promise<StaffUserRow | undefined> {
  const [row] = await db.select().from(staffUsers).where(eq(staffUsers.id, id));
  return row;
}

export async function listStaff(db: Db): Promise<StaffUserRow[]> {
  return db.select().from(staffUsers).orderBy(asc(staffUsers.email));
}

export async function insertStaff(
  db: Db,
  values: typeof staffUsers.$inferInsert,
): Promise<StaffUserRow | undefined> {
  const [row] = await db
    .insert(staffUsers)
    .values(values)
    .onConflictDoNothing({ target: staffUsers.email })
    .returning();
  return row;
}

export async function updateStaff(
  db: Db,
  id: string,
  values: Partial<typeof staffUsers.$inferInsert>,
): Promise<StaffUserRow | undefined> {
  const [row] = await db.update(staffUsers).set(values).where(eq(staffUsers.id, id)).returning();
  return row;
}

/**
 * Accepts a TOTP time step for the account only if it is later than the last one accepted, in
 * one statement: of two sign-ins with the same code at the same moment, exactly one wins.
 */
export async function claimTotpStep(db: Db, id: string, step: number): Promise<boolean> {
  const rows = await db
    .update(staffUsers)
    .set({ totpLastStep: step })
    .where(
      and(
        eq(staffUsers.id, id),
        sql`(${staffUsers.totpLastStep} is null or ${staffUsers.totpLastStep} < ${step})`,
      ),
    )
    .returning({ id: staffUsers.id });
  return rows.length > 0;
}

export async function replaceRecoveryCodes(
  db: Db,
  staffUserId: string,
  hashes: string[],
): Promise<void> {
  await db.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.staffUserId, staffUserId));
  await db.insert(staffRecoveryCodes).values(hashes.map((codeHash) => ({ staffUserId, codeHash })));
}

/** Spends an unused recovery code: true once, false for an unknown or used code. */
export async function spendRecoveryCode(
  db: Db,
  staffUserId: string,
  codeHash: string,
  at: Date,
): Promise<boolean> {
  const rows = await db
    .update(staffRecoveryCodes)
    .set({ usedAt: at })
    .where(
      and(
        eq(staffRecoveryCodes.staffUserId, staffUserId),
        eq(staffRecoveryCodes.codeHash, codeHash),
        isNull(staffRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: staffRecoveryCodes.id });
  return rows.length > 0;
}

export async function insertSession(
  db: Db,
  values: typeof staffSessions.$inferInsert,
): Promise<StaffSessionRow> {
  const [row] = await db.insert(staffSessions).values(values).returning();
  if (!row) throw new Error('staff_sessions insert returned no row');
  return row;
}

/**
 * The live session of a token, touched: its idle clock restarts. Null when unknown, revoked,
 * past its absolute end, idle for longer than `idleSince` allows, or its account is disabled.
 */
export async function touchLiveSession(
  db: Db,
  tokenHash: string,
  at: Date,
  idleSince: Date,
  touch = true,
): Promise<{ session: StaffSessionRow; staff: StaffUserRow } | null> {
  const live = and(
    eq(staffSessions.tokenHash, tokenHash),
    isNull(staffSessions.revokedAt),
    gt(staffSessions.expiresAt, at),
    gt(staffSessions.lastSeenAt, idleSince),
  );
  const [row] = touch
    ? await db.update(staffSessions).set({ lastSeenAt: at }).where(live).returning()
    : await db.select().from(staffSessions).where(live);
  if (!row) return null;
  const staff = await findStaffById(db, row.staffUserId);
  if (!staff || staff.disabledAt) return null;
  return { session: row, staff };
}

export async function revokeSessionByToken(db: Db, tokenHash: string, at: Date): Promise<void> {
  await db
    .update(staffSessions)
    .set({ revokedAt: at })
    .where(and(eq(staffSessions.tokenHash, tokenHash), isNull(staffSessions.revokedAt)));
}

export async function revokeAllSessions(db: Db, staffUserId: string, at: Date): Promise<number> {
  const rows = await db
    .update(staffSessions)
    .set({ revokedAt: at })
    .where(and(eq(staffSessions.staffUserId, staffUserId), isNull(staffSessions.revokedAt)))
    .returning({ id: staffSessions.id });
  return rows.length;
}
