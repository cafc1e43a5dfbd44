import { and, inArray, isNull } from 'drizzle-orm';
import { splitVat, type VatSplit } from '@alda/contract/format/money';
import { numberClass, numberClassOf, type NumberClass } from '@alda/contract/rules/number-picker';
import { owedOrChargedBy } from '../../db/charged';
import type { Db } from '../../db/client';
import { numberFees, numberPriceClasses, type NumberFeeRow } from '../../db/schema/number-picker';

// Public to other modules: the one-off price of easy numbers (ADR 0077) — the price list the
// picker and reservations read, the fee a new line carries (provisioning) and its charge with
// the first monthly payment (billing).

/** The price list: øre with VAT per class that has a price above 0 (the others are ordinary). */
export type NumberPrices = ReadonlyMap<NumberClass, number>;

export async function findNumberPrices(db: Db): Promise<NumberPrices> {
  const rows = await db.select().from(numberPriceClasses);
  return new Map(rows.filter((r) => r.priceOere > 0).map((r) => [r.numberClass, r.priceOere]));
}

/** A number's class and one-off price in øre by the price list, or null when it has none. */
export function oneOffOf(
  msisdn: string,
  prices: NumberPrices,
): { numberClass: NumberClass; priceOere: number } | null {
  const numberClass = numberClassOf(msisdn);
  const priceOere = numberClass ? prices.get(numberClass) : undefined;
  return numberClass && priceOere ? { numberClass, priceOere } : null;
}

/** The contract's `{ numberClass, oneOffPrice }` of a held one-off price (or of none). */
export function oneOffFields(
  held: { numberClass: string | null; priceOere: number | null } | null | undefined,
): { numberClass: NumberClass | null; oneOffPrice: VatSplit | null } {
  const parsed = numberClass.safeParse(held?.numberClass);
  if (!held?.priceOere || !parsed.success) return { numberClass: null, oneOffPrice: null };
  return { numberClass: parsed.data, oneOffPrice: splitVat(held.priceOere) };
}

/** Writes the fee of a new line whose number carries one (with the order that sets it up). */
export async function insertNumberFee(
  tx: Db,
  fee: { lineId: string; msisdn: string; numberClass: NumberClass; priceOere: number; at: Date },
): Promise<void> {
  await tx.insert(numberFees).values({
    lineId: fee.lineId,
    msisdn: fee.msisdn,
    numberClass: fee.numberClass,
    priceOere: fee.priceOere,
    createdAt: fee.at,
  });
}

/**
 * The fees of these lines that no payment has charged yet, and, when `chargedBy` is given, those
 * that payment charged (a paid month still shows what it paid).
 */
export async function findUnchargedFees(
  db: Db,
  lineIds: readonly string[],
  chargedBy: string | null = null,
): Promise<NumberFeeRow[]> {
  if (lineIds.length === 0) return [];
  return db
    .select()
    .from(numberFees)
    .where(
      and(
        inArray(numberFees.lineId, [...lineIds]),
        owedOrChargedBy(numberFees.chargedOrderId, chargedBy),
      ),
    );
}

/** Records that the payment `orderId` charged these lines' fees (in its transaction). */
export async function markFeesCharged(
  tx: Db,
  lineIds: readonly string[],
  orderId: string,
  at: Date,
): Promise<void> {
  if (lineIds.length === 0) return;
  await tx
    .update(numberFees)
    .set({ chargedOrderId: orderId, chargedAt: at })
    .where(and(inArray(numberFees.lineId, [...lineIds]), isNull(numberFees.chargedOrderId)));
}
