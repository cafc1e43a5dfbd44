import { and, desc, eq, inArray, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { accounts } from '../../db/schema/accounts';
import { orders, type OrderRow } from '../../db/schema/orders';

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

/** One order by id (null-safe for ids that are not uuids: the caller checks the format). */
export async function findOrder(db: Db, id: string): Promise<OrderRow | undefined> {
  const [row] = await db.select().from(orders).where(eq(orders.id, id));
  return row;
}

/** Whether the customer owns this account. */
export async function ownsAccount(db: Db, userId: string, accountId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.id, accountId), eq(accounts.ownerUserId, userId)));
  return row !== undefined;
}
