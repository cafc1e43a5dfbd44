import { and, desc, eq, inArray, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { orders, type NewOrderRow, type OrderRow } from '../../db/schema/orders';

// Public to other modules: orders are read, added and completed in the transaction of the change they carry.

/**
 * Orders on these accounts and transfers onto them (for processing members and capacity),
 * newest first.
 */
export async function findOrdersOfAccounts(
  db: Db,
  accountIds: readonly string[],
): Promise<OrderRow[]> {
  if (accountIds.length === 0) return [];
  return db
    .select()
    .from(orders)
    .where(
      or(
        inArray(orders.accountId, [...accountIds]),
        inArray(orders.targetAccountId, [...accountIds]),
      ),
    )
    .orderBy(desc(orders.createdAt), desc(orders.id));
}

/** Inserts orders whose id is new (a retried change places its order once). */
export async function insertMissingOrders(db: Db, rows: NewOrderRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.insert(orders).values(rows).onConflictDoNothing();
}

/** Marks an order complete (idempotent: a completed order keeps its first completion time). */
export async function completeOrder(db: Db, id: string, at: Date): Promise<void> {
  await db
    .update(orders)
    .set({ isComplete: true, completedAt: at })
    .where(and(eq(orders.id, id), eq(orders.isComplete, false), eq(orders.isCancelled, false)));
}

/** The caller's order placed with this Idempotency-Key, if any. */
export async function findOrderByIdempotencyKey(
  db: Db,
  userId: string,
  key: string,
): Promise<OrderRow | undefined> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.idempotencyKey, key)));
  return row;
}
