import { and, count, countDistinct, desc, eq, gt, isNotNull, isNull, sql } from 'drizzle-orm';
import type { StaffRole } from '@alda/contract/schemas/staff';
import type { Db } from '../../db/client';
import { passkeys, staffRolePolicies, type PasskeyRow } from '../../db/schema/passkeys';
import { staffUsers } from '../../db/schema/staff';

/*
 * Staff passkeys and the roles that require them (ADR 0097): the queries of
 * passkeys-service.ts and of the sign-in (service.ts).
 */

/** A staff member's passkeys, newest first; `lock` takes them FOR UPDATE. */
export async function passkeysOfStaff(
  db: Db,
  staffUserId: string,
  lock = false,
): Promise<PasskeyRow[]> {
  const query = db
    .select()
    .from(passkeys)
    .where(eq(passkeys.staffUserId, staffUserId))
    .orderBy(desc(passkeys.createdAt), desc(passkeys.id));
  return lock ? query.for('update') : query;
}

/** The passkey of this credential ID if it is this staff member's, locked FOR UPDATE. */
export async function lockStaffCredential(
  db: Db,
  staffUserId: string,
  credentialId: string,
): Promise<PasskeyRow | undefined> {
  const [row] = await db
    .select()
    .from(passkeys)
    .where(and(eq(passkeys.credentialId, credentialId), eq(passkeys.staffUserId, staffUserId)))
    .for('update');
  return row;
}

/** How many passkeys each staff member has (members without one are missing). */
export async function passkeyCountsOfStaff(db: Db): Promise<Map<string, number>> {
  const rows = await db
    .select({ staffUserId: passkeys.staffUserId, n: count() })
    .from(passkeys)
    .where(isNotNull(passkeys.staffUserId))
    .groupBy(passkeys.staffUserId);
  return new Map(rows.map((row) => [row.staffUserId ?? '', row.n]));
}

/** Whether `role`'s members must sign in with a passkey (no row: they need not). */
export async function passkeyRequired(db: Db, role: StaffRole): Promise<boolean> {
  const [row] = await db
    .select({ requirePasskey: staffRolePolicies.requirePasskey })
    .from(staffRolePolicies)
    .where(eq(staffRolePolicies.role, role));
  return row?.requirePasskey ?? false;
}

export async function listRolePolicies(db: Db) {
  return db.select().from(staffRolePolicies);
}

export async function upsertRolePolicy(
  db: Db,
  role: StaffRole,
  requirePasskey: boolean,
  at: Date,
): Promise<void> {
  await db
    .insert(staffRolePolicies)
    .values({ role, requirePasskey, updatedAt: at })
    .onConflictDoUpdate({
      target: staffRolePolicies.role,
      set: { requirePasskey, updatedAt: at },
    });
}

/** Per role: its active (not disabled) members, and how many of them have no passkey. */
export async function roleMemberCounts(
  db: Db,
): Promise<Map<StaffRole, { members: number; withoutPasskey: number }>> {
  const rows = await db
    .select({
      role: staffUsers.role,
      members: countDistinct(staffUsers.id),
      withoutPasskey:
        sql<number>`count(distinct ${staffUsers.id}) filter (where ${passkeys.id} is null)`.mapWith(
          Number,
        ),
    })
    .from(staffUsers)
    .leftJoin(passkeys, eq(passkeys.staffUserId, staffUsers.id))
    .where(isNull(staffUsers.disabledAt))
    .groupBy(staffUsers.role);
  return new Map(
    rows.map((row) => [row.role, { members: row.members, withoutPasskey: row.withoutPasskey }]),
  );
}

/**
 * Takes the break-glass of `npm run operator -- staff allow-totp` (ADR 0097) if it is still open
 * at `at`: true once, then it is gone (two sign-ins racing for it: one wins).
 */
export async function claimTotpAllowance(db: Db, staffUserId: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(staffUsers)
    .set({ totpAllowedUntil: null })
    .where(and(eq(staffUsers.id, staffUserId), gt(staffUsers.totpAllowedUntil, at)))
    .returning({ id: staffUsers.id });
  return rows.length > 0;
}
