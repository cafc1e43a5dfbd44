import { and, eq, inArray, isNull, or } from 'drizzle-orm';
import { owedOrChargedBy } from '../../db/charged';
import type { Db } from '../../db/client';
import { roamingCharges, type RoamingChargeRow } from '../../db/schema/balances';

// Public to other modules: a month's roaming charges owed per line (issue 33 §2, ADR 0078
// "Billing") — written by month end (month-end), charged with the next monthly payment
// (billing's extra lines).

/** One line's month as month end closes it: what its balance had charged. */
export interface ClosedRoamingMonth {
  lineId: string;
  /** The Faroese month, `yyyy-mm`. */
  month: string;
  accountId: string | null;
  msisdn: string;
  chargeOere: number;
  chargedMb: number;
}

/**
 * Keeps the months' charges that month end is about to start over (in its transaction, before
 * the reset). A month with nothing charged writes nothing; a month already written (line, month)
 * is left as it is, so a second round never adds to it.
 */
export async function insertRoamingCharges(
  tx: Db,
  months: readonly ClosedRoamingMonth[],
  at: Date,
): Promise<void> {
  const owed = months.filter((m) => m.chargeOere > 0);
  if (owed.length === 0) return;
  await tx
    .insert(roamingCharges)
    .values(owed.map((m) => ({ ...m, createdAt: at })))
    .onConflictDoNothing();
}

/**
 * The roaming charges of these accounts that no payment has charged yet, and, when `chargedBy`
 * is given, those that payment charged (a paid month still shows what it paid). Oldest month
 * first.
 */
export async function findRoamingCharges(
  db: Db,
  accountIds: readonly string[],
  chargedBy: string | null = null,
): Promise<RoamingChargeRow[]> {
  if (accountIds.length === 0) return [];
  return db
    .select()
    .from(roamingCharges)
    .where(
      and(
        inArray(roamingCharges.accountId, [...accountIds]),
        owedOrChargedBy(roamingCharges.chargedOrderId, chargedBy),
      ),
    )
    .orderBy(roamingCharges.month, roamingCharges.msisdn);
}

/** Records that the payment `orderId` charged these months (in its transaction); once only. */
export async function markRoamingCharged(
  tx: Db,
  charges: readonly { lineId: string; month: string }[],
  orderId: string,
  at: Date,
): Promise<void> {
  if (charges.length === 0) return;
  await tx
    .update(roamingCharges)
    .set({ chargedOrderId: orderId, chargedAt: at })
    .where(
      and(
        isNull(roamingCharges.chargedOrderId),
        or(
          ...charges.map((c) =>
            and(eq(roamingCharges.lineId, c.lineId), eq(roamingCharges.month, c.month)),
          ),
        ),
      ),
    );
}
