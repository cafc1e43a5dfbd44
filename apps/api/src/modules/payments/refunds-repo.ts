import { and, asc, eq, lte, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { paymentRefunds, type PaymentRefundRow } from '../../db/schema/payments';

/**
 * Asks for a refund of a payment, once: a second call for the same payment (a redelivered
 * webhook, another reconciliation round) finds it there and changes nothing. True when new.
 */
export async function requestRefund(
  db: Db,
  values: {
    paymentId: string;
    userId: string;
    providerPaymentId: string;
    amountOere: number;
    now: Date;
  },
): Promise<boolean> {
  const inserted = await db
    .insert(paymentRefunds)
    .values({
      paymentId: values.paymentId,
      userId: values.userId,
      providerPaymentId: values.providerPaymentId,
      amountOere: values.amountOere,
      createdAt: values.now,
      nextAttemptAt: values.now,
    })
    .onConflictDoNothing({
      target: paymentRefunds.paymentId,
      where: sql`${paymentRefunds.requestedBy} is null`,
    })
    .returning({ id: paymentRefunds.id });
  return inserted.length > 0;
}

/**
 * Claims refunds that are due, for `leaseMs`: their next attempt moves past the lease and the
 * attempt is counted, in one statement over rows locked with SKIP LOCKED, so two instances never
 * claim the same refund and a claim left by a dead process comes due again when the lease ends.
 */
export async function claimDueRefunds(
  db: Db,
  now: Date,
  leaseMs: number,
  limit: number,
): Promise<PaymentRefundRow[]> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: paymentRefunds.id })
      .from(paymentRefunds)
      .where(and(eq(paymentRefunds.state, 'pending'), lte(paymentRefunds.nextAttemptAt, now)))
      .orderBy(asc(paymentRefunds.nextAttemptAt))
      .limit(limit)
      .for('update', { skipLocked: true });
    if (due.length === 0) return [];
    const claimed: PaymentRefundRow[] = [];
    for (const { id } of due) {
      const [row] = await tx
        .update(paymentRefunds)
        .set({
          nextAttemptAt: new Date(now.getTime() + leaseMs),
          attempts: sql`${paymentRefunds.attempts} + 1`,
        })
        .where(eq(paymentRefunds.id, id))
        .returning();
      if (row) claimed.push(row);
    }
    return claimed;
  });
}

export async function updateRefund(
  db: Db,
  id: string,
  values: Partial<typeof paymentRefunds.$inferInsert>,
): Promise<void> {
  await db.update(paymentRefunds).set(values).where(eq(paymentRefunds.id, id));
}

/**
 * Øre of a payment's refunds that are paid back or on their way (pending); failed ones are not
 * money that left. Read under the payment's row lock, so two refunds cannot both count on it.
 */
export async function committedRefundOere(db: Db, paymentId: string): Promise<number> {
  const [row] = await db
    .select({ total: sql<string | number | null>`sum(${paymentRefunds.amountOere})` })
    .from(paymentRefunds)
    .where(and(eq(paymentRefunds.paymentId, paymentId), ne(paymentRefunds.state, 'failed')));
  return Number(row?.total ?? 0);
}

/** A refund asked for by a person (console or command): due at once for the refund job. */
export async function insertRequestedRefund(
  db: Db,
  values: {
    paymentId: string;
    userId: string;
    providerPaymentId: string;
    amountOere: number;
    requestedBy: string;
    reason: string;
    now: Date;
  },
): Promise<PaymentRefundRow> {
  const [row] = await db
    .insert(paymentRefunds)
    .values({
      paymentId: values.paymentId,
      userId: values.userId,
      providerPaymentId: values.providerPaymentId,
      amountOere: values.amountOere,
      requestedBy: values.requestedBy,
      reason: values.reason,
      createdAt: values.now,
      nextAttemptAt: values.now,
    })
    .returning();
  if (!row) throw new Error('payment_refunds insert returned no row');
  return row;
}
