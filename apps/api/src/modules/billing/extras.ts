import type { Db } from '../../db/client';
import { findUnchargedFees, markFeesCharged } from '../phone-lines/number-fees';
import { findRoamingCharges, markRoamingCharged } from '../usage/roaming-charges';

/*
 * The extra lines of a monthly payment: charges owed once, beside the plans' monthly prices —
 * an easy number's one-off price (ADR 0077) and a month's roaming charges (ADR 0078). Each is a
 * row of its own kind that the payment marks as charged (`charged_order_id`) in the transaction
 * that moves the payment to paid, and only when the amount paid held it. A kind added here gets
 * its line on the monthly price and on the receipt from `monthlyPriceLines`.
 */

export type ExtraCharge =
  | { kind: 'number_fee'; lineId: string; msisdn: string; oere: number }
  | {
      kind: 'roaming';
      lineId: string;
      msisdn: string;
      oere: number;
      /** The Faroese month of the use, `yyyy-mm`: billed with a later month's payment. */
      month: string;
      mb: number;
    };

/** One owned account as the extras are looked up: its id and its numbers charged this month. */
export interface ExtrasQuery {
  accountId: string;
  /** An easy number's price goes with the first payment that charges the number (ADR 0077). */
  chargedLineIds: readonly string[];
}

/**
 * The extra charges of these accounts not charged yet — and, with `chargedBy` (the order that
 * paid the month), also those it charged — per account id. Roaming months are the account's
 * whatever became of the number since (a cancelled number's last month is still owed).
 */
export async function findExtraCharges(
  db: Db,
  accounts: readonly ExtrasQuery[],
  chargedBy: string | null = null,
): Promise<Map<string, ExtraCharge[]>> {
  const [fees, roaming] = await Promise.all([
    findUnchargedFees(
      db,
      accounts.flatMap((a) => a.chargedLineIds),
      chargedBy,
    ),
    findRoamingCharges(
      db,
      accounts.map((a) => a.accountId),
      chargedBy,
    ),
  ]);
  const byAccount = new Map<string, ExtraCharge[]>();
  for (const { accountId, chargedLineIds } of accounts) {
    byAccount.set(accountId, [
      ...fees
        .filter((f) => chargedLineIds.includes(f.lineId))
        .map((f) => ({
          kind: 'number_fee' as const,
          lineId: f.lineId,
          msisdn: f.msisdn,
          oere: f.priceOere,
        })),
      ...roaming
        .filter((r) => r.accountId === accountId)
        .map((r) => ({
          kind: 'roaming' as const,
          lineId: r.lineId,
          msisdn: r.msisdn,
          oere: r.chargeOere,
          month: r.month,
          mb: r.chargedMb,
        })),
    ]);
  }
  return byAccount;
}

/**
 * Records that the payment `orderId` charged these extras, in its transaction. Each row is
 * marked only while no payment has charged it, so an extra is charged once.
 */
export async function markExtrasCharged(
  tx: Db,
  extras: readonly ExtraCharge[],
  orderId: string,
  at: Date,
): Promise<void> {
  await markFeesCharged(
    tx,
    extras.filter((e) => e.kind === 'number_fee').map((e) => e.lineId),
    orderId,
    at,
  );
  await markRoamingCharged(
    tx,
    extras.flatMap((e) => (e.kind === 'roaming' ? [{ lineId: e.lineId, month: e.month }] : [])),
    orderId,
    at,
  );
}
