import {
  and,
  asc,
  desc,
  eq,
  exists,
  gt,
  isNotNull,
  lte,
  ne,
  notExists,
  sql,
  type SQL,
} from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { accounts, type AccountRow } from '../../db/schema/accounts';
import { paymentAgreements } from '../../db/schema/agreements';
import { orders, type OrderRow } from '../../db/schema/orders';

/** A customer: their id, or the column holding it (in a query over customers). */
type UserRef = string | PgColumn;

/** Accounts a customer owns and pays for: not cancelled. */
const billedAccountOf = (userId: UserRef) =>
  and(eq(accounts.ownerUserId, userId), ne(accounts.status, 'cancelled'));

/** A customer's `subscription_payment` order of a month (`YYYY-MM`). */
const monthOrderOf = (userId: UserRef, period: string) =>
  and(
    eq(orders.userId, userId),
    eq(orders.kind, 'subscription_payment'),
    eq(orders.billingPeriod, period),
  );

/** The month's order is paid: that order is the record of the paid month (ADR 0052). */
const paid = () => eq(orders.paymentStatus, 'paid');

/** Accounts the customer owns and pays for (not cancelled), oldest first. */
export async function findOwnedAccounts(db: Db, userId: string): Promise<AccountRow[]> {
  return db
    .select()
    .from(accounts)
    .where(billedAccountOf(userId))
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
    .where(and(monthOrderOf(userId, period), ...also))
    .orderBy(desc(orders.createdAt))
    .limit(1);
  return row;
}

/** The customer's paid `subscription_payment` order of a month (`YYYY-MM`), if any. */
export function findPaidMonthOrder(db: Db, userId: string, period: string) {
  return findMonthOrder(db, userId, period, paid());
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

/**
 * Customers whose month (`period`) the month-end charge may have to charge, in id order after
 * `after` and up to `upTo` (either may be null), at most `limit`: an active payment agreement
 * the provider knows (a reference), an account they own and pay for, the month not paid, and no
 * order placed with their charge's Idempotency-Key (`keyPrefix` + user id + `:` + period) — one
 * that failed stays (the customer pays that month in the app), one the provider never took
 * released its key. The rest of the rule (the total, a payment still open) is `pay`'s own.
 */
export async function findMonthChargeCandidates(
  db: Db,
  query: {
    period: string;
    keyPrefix: string;
    /** Only agreements this payment provider holds (null: any). */
    provider: string | null;
    after: string | null;
    upTo: string | null;
    limit: number;
  },
): Promise<string[]> {
  const userId = paymentAgreements.userId;
  const rows = await db
    .select({ userId })
    .from(paymentAgreements)
    .where(
      and(
        eq(paymentAgreements.status, 'active'),
        isNotNull(paymentAgreements.providerReference),
        query.provider === null
          ? undefined
          : sql`coalesce(${paymentAgreements.provider}, 'test') = ${query.provider}`,
        query.after === null ? undefined : gt(userId, query.after),
        query.upTo === null ? undefined : lte(userId, query.upTo),
        exists(
          db
            .select({ one: sql`1` })
            .from(accounts)
            .where(billedAccountOf(userId)),
        ),
        notExists(
          db
            .select({ one: sql`1` })
            .from(orders)
            .where(and(monthOrderOf(userId, query.period), paid())),
        ),
        notExists(
          db
            .select({ one: sql`1` })
            .from(orders)
            .where(
              and(
                eq(orders.userId, userId),
                eq(
                  orders.idempotencyKey,
                  sql`${query.keyPrefix} || ${userId}::text || ${`:${query.period}`}`,
                ),
              ),
            ),
        ),
      ),
    )
    .orderBy(asc(userId))
    .limit(query.limit);
  return rows.map((r) => r.userId);
}
