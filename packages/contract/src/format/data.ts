import { DATA_UNIT, UNLIMITED_DATA_MB } from '../constants';
import type { Locale } from '../locale';
import { formatNumber } from './number';

/** MB → GB with 1024 MB per GB (SPEC §9 "Data unit"). */
export function mbToGb(mb: number): number {
  return mb / DATA_UNIT;
}

/** GB → MB (whole MB, rounded), for plan and package definitions written in GB. */
export function gbToMb(gb: number): number {
  return Math.round(gb * DATA_UNIT);
}

/** SPEC §9 "Unlimited display": 1,024,000 MB or more is shown as unlimited. */
export function isUnlimited(mb: number): boolean {
  return mb >= UNLIMITED_DATA_MB;
}

/** A data amount ready for a translated template: 'Unlimited', '{value} GB' or '{value} MB'. */
export type DataAmountDisplay =
  { kind: 'unlimited' } | { kind: 'gb'; value: number } | { kind: 'mb'; value: number };

/**
 * Decides how an amount in MB is shown: unlimited at ≥ 1,024,000 MB, GB (at most 2 decimals) from
 * 1024 MB, otherwise whole MB. The kind picks the translation, the value fills it.
 * @throws RangeError for negative or non-finite amounts.
 */
export function describeData(mb: number): DataAmountDisplay {
  if (!Number.isFinite(mb) || mb < 0) throw new RangeError(`Not a data amount: ${mb}`);
  if (isUnlimited(mb)) return { kind: 'unlimited' };
  if (mb >= DATA_UNIT) return { kind: 'gb', value: Math.round(mbToGb(mb) * 100) / 100 };
  return { kind: 'mb', value: Math.round(mb) };
}

/** Words for the unlimited amount and the units, per locale. */
export const DATA_UNIT_LABELS: Record<Locale, { unlimited: string; gb: string; mb: string }> = {
  fo: { unlimited: 'Óavmarkað', gb: 'GB', mb: 'MB' },
  en: { unlimited: 'Unlimited', gb: 'GB', mb: 'MB' },
};

/**
 * A data amount as text: '1,5 GB' (fo), '1.5 GB' (en), '500 MB', 'Óavmarkað'/'Unlimited'. For
 * places without a translation template (e-mails, receipts, logs); screens use
 * {@link describeData} with their own strings.
 */
export function formatData(mb: number, locale: Locale): string {
  const display = describeData(mb);
  const labels = DATA_UNIT_LABELS[locale];
  if (display.kind === 'unlimited') return labels.unlimited;
  return `${formatNumber(display.value, locale)} ${labels[display.kind]}`;
}
