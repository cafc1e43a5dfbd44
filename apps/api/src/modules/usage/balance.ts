import { isUnlimited } from '@alda/contract/format/data';

/** The data buckets of a line that usage draws from (db line_balances). */
export interface DataBuckets {
  domesticTotalMb: number;
  domesticRemainingMb: number;
  domesticUsedMb: number;
  /** The EU package's allowance; null without an EU package. */
  euAllowanceMb: number | null;
  euUsedMb: number;
}

/** Usage to apply, in MB, summed per kind. */
export interface UsageAmounts {
  domesticMb: number;
  euMb: number;
}

/**
 * Applies data use to a line's buckets. Use in the EU comes out of the EU package first and,
 * beyond it (or without one), out of the domestic data as at home (EU "roam like at home").
 * Domestic data never goes below zero (the network slows the line down instead), and on an
 * unlimited plan (total ≥ 1,024,000 MB, SPEC §9) the remainder does not shrink; the use is still
 * counted in `domesticUsedMb`. The result does not depend on how the use is split into records
 * or in which order they arrive — which is what lets the usage service add up a batch per line.
 */
export function applyUsage(buckets: DataBuckets, usage: UsageAmounts): DataBuckets {
  if (usage.domesticMb < 0 || usage.euMb < 0) throw new RangeError('Usage cannot be negative');
  const euRoom =
    buckets.euAllowanceMb === null ? 0 : Math.max(0, buckets.euAllowanceMb - buckets.euUsedMb);
  const fromEu = Math.min(usage.euMb, euRoom);
  const fromDomestic = usage.domesticMb + (usage.euMb - fromEu);
  const unlimited = isUnlimited(buckets.domesticTotalMb);
  return {
    ...buckets,
    domesticRemainingMb: unlimited
      ? buckets.domesticRemainingMb
      : Math.max(0, buckets.domesticRemainingMb - fromDomestic),
    domesticUsedMb: buckets.domesticUsedMb + fromDomestic,
    euUsedMb: buckets.euUsedMb + fromEu,
  };
}

/** Adds up records per kind. */
export function sumUsage(
  records: readonly { usedMb: number; kind: 'domestic' | 'eu' }[],
): UsageAmounts {
  let domesticMb = 0;
  let euMb = 0;
  for (const r of records) {
    if (r.kind === 'eu') euMb += r.usedMb;
    else domesticMb += r.usedMb;
  }
  return { domesticMb, euMb };
}

/**
 * The buckets of a line at the start of a month (or when it first goes into service): the
 * plan's data untouched and the EU allowance, if the account has the EU package, unused.
 */
export function initialBuckets(dataMb: number, euAllowanceMb: number | null): DataBuckets {
  return {
    domesticTotalMb: dataMb,
    domesticRemainingMb: dataMb,
    domesticUsedMb: 0,
    euAllowanceMb,
    euUsedMb: 0,
  };
}
