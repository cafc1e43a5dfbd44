import type { Locale } from '../locale';

/** Decimal and grouping marks per locale: Faroese writes 1.234,5; English 1,234.5. */
export const NUMBER_SEPARATORS: Record<Locale, { decimal: string; group: string }> = {
  fo: { decimal: ',', group: '.' },
  en: { decimal: '.', group: ',' },
};

export interface NumberFormatOptions {
  /** Decimals always shown (default 0). */
  minimumFractionDigits?: number;
  /** Decimals at most; the value is rounded half away from zero (default 2). */
  maximumFractionDigits?: number;
  /** Digit grouping of thousands (default true). */
  useGrouping?: boolean;
}

/**
 * Formats a number for fo (decimal comma: '1.234,5') or en ('1,234.5'). Written out rather than
 * left to `Intl.NumberFormat('fo')` because not every browser ships Faroese locale data, and the
 * server and the app must print the same text.
 * @throws RangeError for NaN or infinities.
 */
export function formatNumber(
  value: number,
  locale: Locale,
  options: NumberFormatOptions = {},
): string {
  if (!Number.isFinite(value)) throw new RangeError(`Cannot format ${value}`);
  const { minimumFractionDigits = 0, useGrouping = true } = options;
  const maximumFractionDigits = Math.max(options.maximumFractionDigits ?? 2, minimumFractionDigits);
  const { decimal, group } = NUMBER_SEPARATORS[locale];

  const scale = 10 ** maximumFractionDigits;
  // toPrecision strips binary noise first, so 1.005 rounds to 1.01 as a person expects.
  const scaled = Math.round(Number((Math.abs(value) * scale).toPrecision(15)));
  const digits = String(scaled).padStart(maximumFractionDigits + 1, '0');
  const whole = digits.slice(0, digits.length - maximumFractionDigits) || '0';
  let fraction = digits.slice(digits.length - maximumFractionDigits);
  while (fraction.length > minimumFractionDigits && fraction.endsWith('0')) {
    fraction = fraction.slice(0, -1);
  }
  const grouped = useGrouping ? whole.replace(/\B(?=(\d{3})+(?!\d))/g, group) : whole;
  const sign = value < 0 && scaled !== 0 ? '-' : '';
  return `${sign}${grouped}${fraction ? decimal + fraction : ''}`;
}
