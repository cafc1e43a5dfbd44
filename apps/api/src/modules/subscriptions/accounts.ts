import { and, asc, eq, inArray, ne } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { accounts, type AccountRow } from '../../db/schema/accounts';
import { phoneLines, type PhoneLineRow } from '../../db/schema/phone-lines';

// Public to other modules: the lines of accounts (billing prices them, the lifecycle moves them)
// and an owner's family account.

/** Lines on these accounts that are not cancelled, oldest first. */
export async function findLinesOfAccounts(
  db: Db,
  accountIds: readonly string[],
): Promise<PhoneLineRow[]> {
  if (accountIds.length === 0) return [];
  return db
    .select()
    .from(phoneLines)
    .where(and(inArray(phoneLines.accountId, [...accountIds]), ne(phoneLines.status, 'cancelled')))
    .orderBy(asc(phoneLines.createdAt), asc(phoneLines.id));
}

/**
 * The owner's family account that is not cancelled (active or being set up): at most one, by the
 * unique index `accounts_one_family_per_owner_uq`.
 */
export async function findLiveFamilyAccountOf(
  db: Db,
  ownerUserId: string,
): Promise<AccountRow | undefined> {
  const [row] = await db
    .select()
    .from(accounts)
    .where(
      and(
        eq(accounts.ownerUserId, ownerUserId),
        eq(accounts.type, 'family_plan'),
        ne(accounts.status, 'cancelled'),
      ),
    );
  return row;
}

/**
 * Everyone who sees this user's name or lines in their subscriptions (ADR 0057): the user, the
 * owners of the accounts the user owns or has a line on, and the users of those accounts' lines.
 * Their change versions move when the user's profile does.
 */
export async function findUsersSharingAccountsWith(db: Db, userId: string): Promise<string[]> {
  const [owned, used] = await Promise.all([
    db.select({ id: accounts.id }).from(accounts).where(eq(accounts.ownerUserId, userId)),
    db.select({ id: phoneLines.accountId }).from(phoneLines).where(eq(phoneLines.userId, userId)),
  ]);
  const accountIds = [...new Set([...owned, ...used].flatMap((r) => (r.id ? [r.id] : [])))];
  if (accountIds.length === 0) return [userId];
  const [owners, lineUsers] = await Promise.all([
    db.select({ id: accounts.ownerUserId }).from(accounts).where(inArray(accounts.id, accountIds)),
    db
      .select({ id: phoneLines.userId })
      .from(phoneLines)
      .where(inArray(phoneLines.accountId, accountIds)),
  ]);
  const ids = new Set([userId]);
  for (const row of [...owners, ...lineUsers]) if (row.id) ids.add(row.id);
  return [...ids];
}

/**
 * Everyone who sees these lines in their subscriptions (data use, phone-book choice): the lines'
 * users and the owners and line users of the accounts the lines are on (a family sees each
 * member's data). ADR 0057.
 */
export async function findViewersOfLines(db: Db, lineIds: readonly string[]): Promise<string[]> {
  if (lineIds.length === 0) return [];
  // The lines first, then their accounts' owners and users by the accounts' ids: each read on
  // an index, however many lines a usage batch names (ADR 0093).
  const lines = await db
    .select({ userId: phoneLines.userId, accountId: phoneLines.accountId })
    .from(phoneLines)
    .where(inArray(phoneLines.id, [...lineIds]));
  const accountIds = [...new Set(lines.flatMap((l) => (l.accountId ? [l.accountId] : [])))];
  const [owners, users] =
    accountIds.length === 0
      ? [[], []]
      : await Promise.all([
          db
            .select({ id: accounts.ownerUserId })
            .from(accounts)
            .where(inArray(accounts.id, accountIds)),
          db
            .select({ id: phoneLines.userId })
            .from(phoneLines)
            .where(inArray(phoneLines.accountId, accountIds)),
        ]);
  const own = lines.map((l) => ({ id: l.userId }));
  return [...new Set([...owners, ...users, ...own].flatMap((r) => (r.id ? [r.id] : [])))];
}
