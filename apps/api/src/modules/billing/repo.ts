import { and, asc, desc, eq, isNotNull, ne, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { accounts, type AccountRow } from '../../db/schema/accounts';
import { orders, type OrderRow } from '../../db/schema/orders';

/** Accounts the customer owns and pays for (not cancelled), oldest first. */
export async function findOwnedAccounts(db: Db, userId: string): Promise<AccountRow[]> {
  return db
    .select()
    .from(accounts)
    .where(and(eq(accounts.ownerUserId, userId), ne(accounts.status, 'cancelled')))
    .orderBy(asc(accounts.createdAt), asc(accounts.id));
}

/** The customer's newest `subscription_payment` order of a month (`YYYY-MM`) matching `also`. */
async function findMonthOrder(
  db: Db,
  userId: string,
  period: string,
  ...also: SQL[]
): Promise<OrderRow | undefined> {
  const [row] = await db
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.userId, userId),
        eq(orders.kind, 'subscription_payment'),
        eq(orders.billingPeriod, period),
        ...also,
      ),
    )
    .orderBy(desc(orders.createdAt))
    .limit(1);
  return row;
}

/** The customer's paid `subscription_payment` order of a month (`YYYY-MM`), if any. */
export function findPaidMonthOrder(db: Db, userId: string, period: string) {
  return findMonthOrder(db, userId, period, eq(orders.paymentStatus, 'paid'));
}

/**
 * The customer's `subscription_payment` order of a month whose payment is still open (placed by
 * a request with an Idempotency-Key), newest first.
 */
export function findOpenMonthOrder(db: Db, userId: string, period: string) {
  return findMonthOrder(
    db,
    userId,
    period,
    eq(orders.paymentStatus, 'pending'),
    eq(orders.isCancelled, false),
    isNotNull(orders.idempotencyKey),
  );
}
