import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../db/client';
import { orders, type OrderRow } from '../db/schema/orders';
import { payments } from '../db/schema/payments';
import { sessions } from '../db/schema/sessions';

export interface OrderWithPayment {
  order: OrderRow;
  /** When the order's payment last changed; null for an order without a payment. */
  paymentUpdatedAt: Date | null;
}

/** An order and when its payment last changed (one query, for a PaymentUpdated). */
export async function findOrderWithPayment(
  db: Db,
  orderId: string,
): Promise<OrderWithPayment | null> {
  const [row] = await db
    .select({ order: orders, paymentUpdatedAt: payments.updatedAt })
    .from(orders)
    .leftJoin(payments, eq(payments.orderId, orders.id))
    .where(eq(orders.id, orderId))
    .limit(1);
  return row ?? null;
}

/** Which of these sessions are still signed in (not revoked), in one query. */
export async function findActiveSessionIds(
  db: Db,
  sessionIds: readonly string[],
): Promise<Set<string>> {
  if (sessionIds.length === 0) return new Set();
  const rows = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(inArray(sessions.id, [...sessionIds]), isNull(sessions.revokedAt)));
  return new Set(rows.map((row) => row.id));
}
