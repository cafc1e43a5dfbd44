import { eq, ne, and } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { paymentAgreements, type PaymentAgreementRow } from '../../db/schema/agreements';
import { users } from '../../db/schema/users';

// Public to other modules: the card on file is replaced by payments when a card check is paid, in that transaction.

/** The card a new agreement is made from (copied from the paid card check). */
export interface AgreementCard {
  cardBrand: string | null;
  cardLast4: string | null;
  cardExpiry: string | null;
  providerReference: string | null;
  /** The payment provider that holds it (the paid card check's `payments.provider`). */
  provider: string | null;
}

/**
 * Makes `card` the customer's active agreement: every earlier agreement that is not cancelled is
 * cancelled first (the partial unique index allows one pending or active agreement), then the new
 * one is inserted. Call inside the transaction that marks the card check paid.
 *
 * Two card checks of one customer paid at the same moment (two instances, webhook and
 * reconciliation) are serialised on the customer's row: without it, each cancels only the
 * agreements it can see and the second insert breaks the unique index (found by the payment
 * chaos property, issue 14). The second waits, then cancels the first's new agreement.
 */
export async function replaceAgreement(
  db: Db,
  userId: string,
  card: AgreementCard,
  at: Date,
): Promise<PaymentAgreementRow> {
  await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('no key update');
  await db
    .update(paymentAgreements)
    .set({ status: 'cancelled', updatedAt: at })
    .where(and(eq(paymentAgreements.userId, userId), ne(paymentAgreements.status, 'cancelled')));
  const [row] = await db
    .insert(paymentAgreements)
    .values({ userId, status: 'active', ...card, createdAt: at, updatedAt: at })
    .returning();
  if (!row) throw new Error('agreement insert returned nothing');
  return row;
}

/**
 * An agreement belongs to the payment provider that made it: only that provider can charge or
 * end it. One made before the provider column (null) was the built-in test provider's.
 */
export function agreementHeldBy(
  row: Pick<PaymentAgreementRow, 'provider'>,
  providerName: string,
): boolean {
  return (row.provider ?? 'test') === providerName;
}

/** The customer's active agreement, if any (what `payWith: 'agreement'` charges). */
export async function findActiveAgreement(
  db: Db,
  userId: string,
): Promise<PaymentAgreementRow | undefined> {
  const [row] = await db
    .select()
    .from(paymentAgreements)
    .where(and(eq(paymentAgreements.userId, userId), eq(paymentAgreements.status, 'active')));
  return row;
}
