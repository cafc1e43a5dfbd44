import { and, eq, inArray, ne, not, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { supportAttachments, supportConversations } from '../../db/schema/support';
import { lineIsPrepaid } from '../../db/line-facts';
import { accounts } from '../../db/schema/accounts';
import { billItems, bills } from '../../db/schema/bills';
import { receipts } from '../../db/schema/payments';
import { phoneLines } from '../../db/schema/phone-lines';
import { sessions } from '../../db/schema/sessions';
import { users, type UserRow } from '../../db/schema/users';
import { notifySessionsRevoked } from '../auth/session-events';

/** The user row, locked until the transaction ends (delete and password changes). */
export async function lockUser(db: Db, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).for('update');
  return row;
}

/**
 * Deletes the user; sessions, tokens, codes and reservations go with it (foreign keys). The
 * sessions' deletion is announced like a revocation, so no instance keeps accepting their
 * access tokens from memory (ADR 0057).
 */
export async function deleteUser(db: Db, id: string): Promise<boolean> {
  const ended = await db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, id));
  const deleted = await db.delete(users).where(eq(users.id, id)).returning({ id: users.id });
  await notifySessionsRevoked(
    db,
    ended.map((s) => s.id),
  );
  return deleted.length > 0;
}

/**
 * What keeps the user from being deleted (SPEC §6, ADR 0056): accounts they own that are not
 * cancelled and not talutíð, and subscription lines of theirs in service or being set up (a
 * pending cancellation still counts: it works to month end). Talutíð numbers do not count.
 */
export async function countSubscriptionsOfUser(db: Db, userId: string): Promise<number> {
  const [owned, lines] = await Promise.all([
    db.$count(
      accounts,
      and(
        eq(accounts.ownerUserId, userId),
        ne(accounts.status, 'cancelled'),
        ne(accounts.type, 'prepaid'),
      ),
    ),
    db
      .select({ id: phoneLines.id })
      .from(phoneLines)
      .leftJoin(accounts, eq(phoneLines.accountId, accounts.id))
      .where(
        and(
          eq(phoneLines.userId, userId),
          inArray(phoneLines.status, ['active', 'processing']),
          not(lineIsPrepaid()),
        ),
      ),
  ]);
  return owned + lines.length;
}

/**
 * Before the user goes, what outlives them is let go of them explicitly (ADR 0056), so the
 * delete's cascades never meet a row that still points at something they remove: their talutíð
 * numbers are kept as anonymous prepaid numbers (marked prepaid, then without account and
 * user), every line of their accounts and every line of theirs is detached, their receipts
 * are kept without user, order and payment (bookkeeping), and their support conversations are
 * kept anonymised.
 */
export async function releaseKeptRecords(db: Db, userId: string): Promise<void> {
  const owned = () =>
    db.select({ id: accounts.id }).from(accounts).where(eq(accounts.ownerUserId, userId));
  const prepaid = db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.ownerUserId, userId), eq(accounts.type, 'prepaid')));
  await db
    .update(phoneLines)
    .set({ isPrepaid: true })
    .where(and(inArray(phoneLines.accountId, prepaid), ne(phoneLines.status, 'cancelled')));
  await db
    .update(phoneLines)
    .set({ accountId: null })
    .where(inArray(phoneLines.accountId, owned()));
  await db.update(phoneLines).set({ userId: null }).where(eq(phoneLines.userId, userId));
  await db
    .update(receipts)
    .set({ userId: null, orderId: null, paymentId: null })
    .where(eq(receipts.userId, userId));
  // Bills stay for the bookkeeping act's five years (ADR 0098), without the person: no name,
  // address or e-mail on their own bills, and no first name on another's bill.
  await db
    .update(bills)
    .set({
      customerName: null,
      customerAddress: null,
      customerEmail: null,
      anonymisedAt: sql`now()`,
    })
    .where(eq(bills.payerUserId, userId));
  await db.update(billItems).set({ holder: null }).where(eq(billItems.lineUserId, userId));
  // Support conversations stay with the desk for the retention period of the privacy text,
  // anonymised (issue 46): no customer, and no item of theirs (a number names a person).
  await db
    .update(supportConversations)
    .set({ userId: null, subjectId: null, subjectReference: null })
    .where(eq(supportConversations.userId, userId));
  await db
    .update(supportAttachments)
    .set({ userId: null })
    .where(eq(supportAttachments.userId, userId));
}
