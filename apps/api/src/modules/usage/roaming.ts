import { isUnlimited } from '@alda/contract/format/data';
import { capReached } from '@alda/contract/rules/roaming';
import type { UsageKind } from '@alda/contract/schemas/usage';
import type { DataBuckets } from './balance';

/*
 * Rating data abroad against the roaming spend cap (issue 33 §2,
 * docs/decisions/0078-roaming-spend-cap.md). Use in the EU comes out of the EU package first and
 * then out of the domestic data ("roam like at home", `applyUsage`); what is beyond both is
 * charged per MB — except on an unlimited plan, whose domestic data covers it. The record that
 * reaches the cap is charged (it was used), then roaming stops; chargeable use booked while
 * stopped is written off (the network would have refused it).
 */

/** A record as the rating sees it. */
export interface RatedUsage {
  recordId: string;
  usedMb: number;
  kind: UsageKind;
  /** ISO 8601 instant the use happened. */
  occurredAt: string;
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
 * the month's new roaming totals; the buckets themselves are moved by `applyUsage`, which this
 * walks through record by record to know what is left before each one.
 *
 * A cap is never passed by more than one record's charge: a record is charged only while the
 * month's charges are below the cap.
 */
export function rateRoaming(
  month: RoamingMonth,
  records: readonly RatedUsage[],
  pricePerMbOere: number,
): { charges: RecordCharge[]; month: Omit<RoamingMonth, 'buckets'> } {
  const unlimited = isUnlimited(month.buckets.domesticTotalMb);
  let euRoom =
    month.buckets.euAllowanceMb === null
      ? 0
      : Math.max(0, month.buckets.euAllowanceMb - month.buckets.euUsedMb);
  let domesticRoom = month.buckets.domesticRemainingMb;
  let { chargedOere, chargedMb, writtenOffMb, stopped } = month;
  const charges: RecordCharge[] = [];
  for (const record of ratingOrder(records)) {
    let beyond = 0;
    if (record.kind === 'domestic') {
      if (!unlimited) domesticRoom = Math.max(0, domesticRoom - record.usedMb);
    } else {
      const fromEu = Math.min(record.usedMb, euRoom);
      euRoom -= fromEu;
      const rest = record.usedMb - fromEu;
      if (!unlimited) {
        const fromDomestic = Math.min(rest, domesticRoom);
        domesticRoom -= fromDomestic;
        beyond = rest - fromDomestic;
      }
    }
    const charge = { recordId: record.recordId, chargedMb: 0, chargeOere: 0, writtenOffMb: 0 };
    if (beyond > 0) {
      // A cap lowered to what is already charged stops roaming as well.
      if (stopped || capReached(chargedOere, month.capOere)) {
        stopped = true;
        charge.writtenOffMb = beyond;
        writtenOffMb += beyond;
      } else {
        charge.chargedMb = beyond;
        charge.chargeOere = beyond * pricePerMbOere;
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
