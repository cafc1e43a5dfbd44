import { desc, eq, ne, and } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { paymentAgreements, type PaymentAgreementRow } from '../../db/schema/agreements';

/**
 * The customer's current agreement: the newest one that is not cancelled (pending, active, or
 * expired — an expired card is worth showing so the customer can replace it).
 */
export async function findCurrentAgreement(
  db: Db,
  userId: string,
): Promise<PaymentAgreementRow | undefined> {
  const [row] = await db
    .select()
    .from(paymentAgreements)
    .where(and(eq(paymentAgreements.userId, userId), ne(paymentAgreements.status, 'cancelled')))
    .orderBy(desc(paymentAgreements.createdAt), desc(paymentAgreements.id))
    .limit(1);
  return row;
}

/**
 * Cancels one agreement unless it is cancelled already (a card check paid meanwhile replaced
 * it). Answers the row when this call cancelled it.
 */
export async function cancelAgreement(
  db: Db,
  id: string,
  at: Date,
): Promise<PaymentAgreementRow | undefined> {
  const [row] = await db
    .update(paymentAgreements)
    .set({ status: 'cancelled', updatedAt: at })
    .where(and(eq(paymentAgreements.id, id), ne(paymentAgreements.status, 'cancelled')))
    .returning();
  return row;
}
