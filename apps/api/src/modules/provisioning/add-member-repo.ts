import { and, asc, eq, gte, lt, ne, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { accounts, type AccountRow } from '../../db/schema/accounts';
import { orders, type OrderRow } from '../../db/schema/orders';
import { phoneLines, type PhoneLineRow } from '../../db/schema/phone-lines';

/* What adding family members reads beyond the sign-up's rows (ADR 0056 "Family members"). */

/** Locks an account for the rest of the transaction. */
export async function lockAccountForMembers(db: Db, id: string): Promise<AccountRow | undefined> {
  const [row] = await db.select().from(accounts).where(eq(accounts.id, id)).for('update');
  return row;
}

/** The owner's family account that is not cancelled (active or being set up), if any. */
export async function findOwnFamilyAccount(
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

/** Lines of the account that are not cancelled. */
export async function findAccountLines(db: Db, accountId: string): Promise<PhoneLineRow[]> {
  return db
    .select()
    .from(phoneLines)
    .where(and(eq(phoneLines.accountId, accountId), ne(phoneLines.status, 'cancelled')));
}

/**
 * Open orders that concern the account's seats: those placed on it (members being added, its
 * own changes) and transfers that move a number onto it.
 */
export async function findOpenOrdersOnAccount(db: Db, accountId: string): Promise<OrderRow[]> {
  return db
    .select()
    .from(orders)
    .where(
      and(
        or(eq(orders.accountId, accountId), eq(orders.targetAccountId, accountId)),
        eq(orders.isComplete, false),
        eq(orders.isCancelled, false),
      ),
    );
}

/**
 * The `add_member` orders one request placed, in the order of its members: they share the
 * customer, the request hash and consecutive creation instants from the first one's.
 */
export async function findMemberBatch(db: Db, first: OrderRow, size: number): Promise<OrderRow[]> {
  if (first.requestHash === null) return [first];
  return db
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.userId, first.userId),
        eq(orders.kind, 'add_member'),
        eq(orders.requestHash, first.requestHash),
        gte(orders.createdAt, first.createdAt),
        lt(orders.createdAt, new Date(first.createdAt.getTime() + Math.max(1, size))),
      ),
    )
    .orderBy(asc(orders.createdAt), asc(orders.id));
}
