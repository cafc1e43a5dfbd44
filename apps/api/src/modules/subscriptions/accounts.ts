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
