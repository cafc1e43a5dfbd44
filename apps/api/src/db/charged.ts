import { eq, isNull, or, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/**
 * A charge owed once with a monthly payment (an easy number's fee, a roaming month; billing's
 * extra lines): not charged by any payment yet, or — with `chargedBy`, the order that paid a
 * month — charged by that one, so a paid month still shows what it paid.
 */
export function owedOrChargedBy(chargedOrderId: AnyPgColumn, chargedBy: string | null): SQL {
  const owed = isNull(chargedOrderId);
  return chargedBy === null ? owed : (or(owed, eq(chargedOrderId, chargedBy)) ?? owed);
}
