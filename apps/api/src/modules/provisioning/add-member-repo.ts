import { and, asc, eq, gte, lt } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { accounts, type AccountRow } from '../../db/schema/accounts';
import { orders, type OrderRow } from '../../db/schema/orders';

/* What adding family members reads beyond the sign-up's rows (ADR 0056 "Family members"). */

/** Locks an account for the rest of the transaction. */
export async function lockAccountForMembers(db: Db, id: string): Promise<AccountRow | undefined> {
  const [row] = await db.select().from(accounts).where(eq(accounts.id, id)).for('update');
  return row;
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
