import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { orders, type OrderRow } from '../db/schema/orders';
import { payments } from '../db/schema/payments';

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
