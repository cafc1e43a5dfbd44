import { and, asc, inArray, ne } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { phoneLines, type PhoneLineRow } from '../../db/schema/phone-lines';

// Public to other modules: the lines of accounts (billing prices them).

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
