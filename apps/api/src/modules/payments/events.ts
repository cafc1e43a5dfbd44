import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';

/**
 * The seam between payments and the payment hub. Whoever changes a payment's state calls
 * `notifyPaymentUpdated` inside the same transaction; PostgreSQL delivers the NOTIFY only when
 * that transaction commits (never for a rolled-back change), to every API instance that LISTENs
 * on the channel (PGlite: the one in-process listener). The hub then reads the order and sends
 * PaymentUpdated to the connections listening to it (SPEC §4 "Payment flow", §7 "Payment hub").
 * The payload stays tiny (ids only) because NOTIFY payloads are limited to 8000 bytes.
 */
export const PAYMENT_UPDATED_CHANNEL = 'payment_updated';

export interface PaymentUpdatedNotice {
  orderId: string;
  userId: string;
}

export async function notifyPaymentUpdated(db: Db | Tx, notice: PaymentUpdatedNotice) {
  const payload = JSON.stringify({ orderId: notice.orderId, userId: notice.userId });
  await db.execute(sql`select pg_notify(${PAYMENT_UPDATED_CHANNEL}, ${payload})`);
}

export function parsePaymentUpdatedNotice(payload: string): PaymentUpdatedNotice | null {
  try {
    const value: unknown = JSON.parse(payload);
    if (
      typeof value === 'object' &&
      value !== null &&
      'orderId' in value &&
      'userId' in value &&
      typeof value.orderId === 'string' &&
      typeof value.userId === 'string'
    ) {
      return { orderId: value.orderId, userId: value.userId };
    }
  } catch {
    // fall through: a malformed notice is ignored
  }
  return null;
}
