import { isUnlimited } from '@alda/contract/format/data';
import { capReached } from '@alda/contract/rules/roaming';
import type { UsageKind } from '@alda/contract/schemas/usage';
import { applyUsage, sumUsage, type DataBuckets } from './balance';

/*
 * Rating data abroad against the roaming spend cap (issue 33 §2,
 * docs/decisions/0078-roaming-spend-cap.md). Use in the EU comes out of the EU package first and
 * then out of the domestic data ("roam like at home", `applyUsage`); what is beyond both is
 * charged per MB (at the charging system's own rate when it sent one, ADR 0083) — except on an
 * unlimited plan, whose domestic data covers it. The record that reaches the cap is charged (it
 * was used), then roaming stops; chargeable use booked while stopped is written off (the network
 * would have refused it).
 */

/** A record as the rating sees it. */
export interface RatedUsage {
  recordId: string;
  usedMb: number;
  kind: UsageKind;
  /** ISO 8601 instant the use happened. */
  occurredAt: string;
  /**
   * What the charging system rated the whole record at, øre with VAT (a TMF635 Usage's
   * `ratedProductUsage`, ADR 0083). It prices the record's chargeable MB in place of
   * ROAMING_PRICE_PER_MB, pro rata when the allowances cover part of the record; which MB are
   * chargeable stays ours to say (the buckets are here). Absent: the configured price.
   */
  ratedOere?: number;
}

/** Where a line's month stands for the rating: its buckets and its roaming totals. */
export interface RoamingMonth {
  buckets: DataBuckets;
  /** The cap, øre with VAT; null when turned off. */
  capOere: number | null;
  chargedOere: number;
  chargedMb: number;
  writtenOffMb: number;
  /** Roaming data is stopped (the cap was reached earlier this month). */
  stopped: boolean;
}

/** One record's rating: MB charged, their price and MB written off. */
export interface RecordCharge {
  recordId: string;
  chargedMb: number;
  chargeOere: number;
  writtenOffMb: number;
}

/** Records in the order they are rated: when they happened, then by record id. */
export function ratingOrder<R extends { occurredAt: string; recordId: string }>(
  records: readonly R[],
): R[] {
  return [...records].sort((a, b) => {
    const at = Date.parse(a.occurredAt) - Date.parse(b.occurredAt);
    if (at !== 0) return at;
    return a.recordId < b.recordId ? -1 : a.recordId > b.recordId ? 1 : 0;
  });
}

/**
 * Rates a batch of one line's records (any order in; rated in {@link ratingOrder}) from the
 * month as it stood before them. Answers each record's charge (records without any too) and
 * the month's new roaming totals; it walks `applyUsage` record by record to know what is left
 * before each one (the service moves the stored buckets with the batch's sum, which is the same).
 *
 * A cap is never passed by more than one record's charge: a record is charged only while the
 * month's charges are below the cap.
 */
export function rateRoaming(
  month: RoamingMonth,
  records: readonly RatedUsage[],
  pricePerMbOere: number,
): { charges: RecordCharge[]; month: Omit<RoamingMonth, 'buckets'> } {
  let buckets = month.buckets;
  let { chargedOere, chargedMb, writtenOffMb, stopped } = month;
  const charges: RecordCharge[] = [];
  for (const record of ratingOrder(records)) {
    // What the buckets cannot cover, by the one rule that draws on them (`applyUsage`): EU use
    // beyond the EU package and the domestic data left. An unlimited plan covers it all.
    const next = applyUsage(buckets, sumUsage([record]));
    const covered =
      next.euUsedMb - buckets.euUsedMb + (buckets.domesticRemainingMb - next.domesticRemainingMb);
    const beyond =
      record.kind === 'eu' && !isUnlimited(buckets.domesticTotalMb) ? record.usedMb - covered : 0;
    buckets = next;
    const charge = { recordId: record.recordId, chargedMb: 0, chargeOere: 0, writtenOffMb: 0 };
    if (beyond > 0) {
      // A cap lowered to what is already charged stops roaming as well.
      if (stopped || capReached(chargedOere, month.capOere)) {
        stopped = true;
        charge.writtenOffMb = beyond;
        writtenOffMb += beyond;
      } else {
        charge.chargedMb = beyond;
        charge.chargeOere =
          record.ratedOere === undefined
            ? beyond * pricePerMbOere
            : Math.round((record.ratedOere * beyond) / record.usedMb);
        chargedMb += beyond;
        chargedOere += charge.chargeOere;
        if (capReached(chargedOere, month.capOere)) stopped = true;
      }
    }
    charges.push(charge);
  }
  return {
    charges,
    month: { capOere: month.capOere, chargedOere, chargedMb, writtenOffMb, stopped },
  };
}
