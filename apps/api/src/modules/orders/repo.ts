import { desc, eq, inArray, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { accounts } from '../../db/schema/accounts';
import { orders, type NewOrderRow, type OrderRow } from '../../db/schema/orders';

/**
 * Orders a customer sees: those they placed and those on accounts they own (a member's order on
 * the family account is the owner's business too). Newest first.
 */
export async function findOrdersOfUser(db: Db, userId: string): Promise<OrderRow[]> {
  const owned = db
    .select({ id: accounts.id })
    .from(accounts)
    .where(eq(accounts.ownerUserId, userId));
  return db
    .select()
    .from(orders)
    .where(or(eq(orders.userId, userId), inArray(orders.accountId, owned)))
    .orderBy(desc(orders.createdAt), desc(orders.id));
}

/** Orders on these accounts (for processing members and capacity), newest first. */
export async function findOrdersOfAccounts(
  db: Db,
  accountIds: readonly string[],
): Promise<OrderRow[]> {
  if (accountIds.length === 0) return [];
  return db
    .select()
    .from(orders)
    .where(inArray(orders.accountId, [...accountIds]))
    .orderBy(desc(orders.createdAt), desc(orders.id));
}

/** Inserts orders whose id is new (demo seed). */
export async function insertMissingOrders(db: Db, rows: NewOrderRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.insert(orders).values(rows).onConflictDoNothing();
}
