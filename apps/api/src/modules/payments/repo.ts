import { and, asc, eq, gt, inArray, lt, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { orders, type NewOrderRow, type OrderRow } from '../../db/schema/orders';
import {
  paymentWebhookEvents,
  payments,
  type NewPaymentRow,
  type PaymentRow,
} from '../../db/schema/payments';

export async function findOrder(db: Db, id: string): Promise<OrderRow | undefined> {
  const [row] = await db.select().from(orders).where(eq(orders.id, id));
  return row;
}

export async function insertOrder(db: Db, row: NewOrderRow): Promise<OrderRow> {
  const [inserted] = await db.insert(orders).values(row).returning();
  if (!inserted) throw new Error('order not inserted');
  return inserted;
}

export async function updateOrder(
  db: Db,
  id: string,
  values: Partial<NewOrderRow>,
): Promise<OrderRow> {
  const [row] = await db.update(orders).set(values).where(eq(orders.id, id)).returning();
  if (!row) throw new Error(`order ${id} vanished`);
  return row;
}

export async function lockOrder(db: Db, id: string): Promise<OrderRow | undefined> {
  const [row] = await db.select().from(orders).where(eq(orders.id, id)).for('update');
  return row;
}

export async function insertPayment(db: Db, row: NewPaymentRow): Promise<PaymentRow> {
  const [inserted] = await db.insert(payments).values(row).returning();
  if (!inserted) throw new Error('payment not inserted');
  return inserted;
}

export async function findPayment(db: Db, id: string): Promise<PaymentRow | undefined> {
  const [row] = await db.select().from(payments).where(eq(payments.id, id));
  return row;
}

export async function findPaymentOfOrder(db: Db, orderId: string): Promise<PaymentRow | undefined> {
  const [row] = await db.select().from(payments).where(eq(payments.orderId, orderId));
  return row;
}

/** Locks a payment row; with `skipLocked`, undefined when another transaction holds it. */
export async function lockPayment(
  db: Db,
  id: string,
  options: { skipLocked?: boolean } = {},
): Promise<PaymentRow | undefined> {
  const [row] = await db
    .select()
    .from(payments)
    .where(eq(payments.id, id))
    .for('update', options.skipLocked ? { skipLocked: true } : {});
  return row;
}

export async function updatePayment(
  db: Db,
  id: string,
  values: Partial<NewPaymentRow>,
): Promise<PaymentRow> {
  const [row] = await db.update(payments).set(values).where(eq(payments.id, id)).returning();
  if (!row) throw new Error(`payment ${id} vanished`);
  return row;
}

/**
 * Records a webhook event as handled; false when it already was (the unique key of provider and
 * event id). Runs in the transaction of the state change it causes.
 */
export async function recordWebhookEvent(
  db: Db,
  row: typeof paymentWebhookEvents.$inferInsert,
): Promise<boolean> {
  const inserted = await db
    .insert(paymentWebhookEvents)
    .values(row)
    .onConflictDoNothing({ target: [paymentWebhookEvents.provider, paymentWebhookEvents.eventId] })
    .returning({ eventId: paymentWebhookEvents.eventId });
  return inserted.length > 0;
}

/**
 * Payments still open (created/pending) and unchanged since `before`, oldest first, a page at a
 * time: `after` is the last row of the previous page (keyset paging on updated_at, id).
 */
export async function findStuckPayments(
  db: Db,
  before: Date,
  limit: number,
  after?: { updatedAt: Date; id: string },
): Promise<PaymentRow[]> {
  return db
    .select()
    .from(payments)
    .where(
      and(
        inArray(payments.state, ['created', 'pending']),
        lt(payments.updatedAt, before),
        after
          ? or(
              gt(payments.updatedAt, after.updatedAt),
              and(eq(payments.updatedAt, after.updatedAt), gt(payments.id, after.id)),
            )
          : undefined,
      ),
    )
    .orderBy(asc(payments.updatedAt), asc(payments.id))
    .limit(limit);
}
