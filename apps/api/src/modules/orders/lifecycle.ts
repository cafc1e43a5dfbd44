import { and, asc, desc, eq, inArray, ne, or } from 'drizzle-orm';
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

/**
 * The open orders that stand in the way of a change (SPEC §4 "Plan changes are blocked while orders
 * are processing", ADR 0056): neither complete nor cancelled, placed on these accounts, moving a
 * number onto them, or on these lines — oldest first. A card order whose payment is still pending
 * does not count: an abandoned card page must not block changes for ever.
 */
export async function findOpenOrders(
  db: Db,
  where: { accountIds?: readonly string[]; lineIds?: readonly string[] },
): Promise<OrderRow[]> {
  const accountIds = [...new Set(where.accountIds ?? [])];
  const lineIds = [...new Set(where.lineIds ?? [])];
  const scopes = [
    ...(accountIds.length > 0
      ? [inArray(orders.accountId, accountIds), inArray(orders.targetAccountId, accountIds)]
      : []),
    ...(lineIds.length > 0 ? [inArray(orders.lineId, lineIds)] : []),
  ];
  if (scopes.length === 0) return [];
  return db
    .select()
    .from(orders)
    .where(
      and(
        or(...scopes),
        eq(orders.isComplete, false),
        eq(orders.isCancelled, false),
        ne(orders.paymentStatus, 'pending'),
      ),
    )
    .orderBy(asc(orders.createdAt), asc(orders.id));
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
