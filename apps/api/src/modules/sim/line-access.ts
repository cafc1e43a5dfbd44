import { and, eq, ne } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { accounts, type AccountRow } from '../../db/schema/accounts';
import { phoneLines, type PhoneLineRow } from '../../db/schema/phone-lines';
import { AppError } from '../../errors';
import { isUuid } from '../../uuid';

/*
 * Who may act on a number (SPEC §6), once for modules/sim and modules/number-protection: the
 * account owner for every number of the account, a member for their own number; another member of
 * the same account gets OWNER_ONLY and anyone else NOT_FOUND — as GET /api/subscriptions/{id}
 * decides.
 */

export interface LineAccess {
  line: PhoneLineRow;
  account: AccountRow | null;
  isOwner: boolean;
}

/** A line that is not cancelled, with its account (null when it is on none); `lock` takes the line's row lock. */
export async function findLineWithAccount(
  db: Db,
  lineId: string,
  lock = false,
): Promise<{ line: PhoneLineRow; account: AccountRow | null } | undefined> {
  const query = db
    .select({ line: phoneLines, account: accounts })
    .from(phoneLines)
    .leftJoin(accounts, eq(accounts.id, phoneLines.accountId))
    .where(and(eq(phoneLines.id, lineId), ne(phoneLines.status, 'cancelled')));
  const [row] = lock ? await query.for('update', { of: phoneLines }) : await query;
  return row;
}

/** Whether the user has a line (not cancelled) on this account: a member of it. */
async function isMemberOfAccount(db: Db, accountId: string, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: phoneLines.id })
    .from(phoneLines)
    .where(
      and(
        eq(phoneLines.accountId, accountId),
        eq(phoneLines.userId, userId),
        ne(phoneLines.status, 'cancelled'),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * The line the user may act on, with its account; `lock` takes the line's row lock. NOT_FOUND for
 * an unknown, cancelled or foreign line, OWNER_ONLY for another member's line of the same account.
 */
export async function lineAccess(
  db: Db,
  userId: string,
  lineId: string,
  lock = false,
): Promise<LineAccess> {
  const notFound = () => new AppError('NOT_FOUND', { field: 'id', detail: `no line ${lineId}` });
  if (!isUuid(lineId)) throw notFound();
  const found = await findLineWithAccount(db, lineId, lock);
  if (!found) throw notFound();
  const { line, account } = found;
  if (account?.status === 'cancelled') throw notFound();
  const isOwner = account?.ownerUserId === userId;
  if (isOwner || line.userId === userId) return { line, account, isOwner };
  if (account && (await isMemberOfAccount(db, account.id, userId)))
    throw new AppError('OWNER_ONLY', { detail: `line ${lineId} belongs to another member` });
  throw notFound();
}
