import { CURRENCY_SUFFIX, VAT_PERCENT } from '../constants';
import type { Locale } from '../locale';
import { formatNumber } from './number';

/** An amount of money in øre (1 kr. = 100 øre), always an integer. */
export type Oere = number;

/** A price shown the SPEC §9 way: total with VAT and without, and the VAT between them. */
export interface VatSplit {
  /** Without VAT. */
  net: Oere;
  vat: Oere;
  /** With VAT; always net + vat. */
  gross: Oere;
}

function assertOere(value: number): void {
  if (!Number.isSafeInteger(value)) throw new RangeError(`Not an amount in øre: ${value}`);
}

/** Integer division rounding half away from zero, exact for safe integers. */
function divRound(numerator: number, denominator: number): number {
  const sign = Math.sign(numerator);
  const abs = Math.abs(numerator);
  const quotient = Math.floor(abs / denominator);
  const remainder = abs - quotient * denominator;
  return sign * (remainder * 2 >= denominator ? quotient + 1 : quotient);
}

/** Price with VAT (25 %, `VAT_PERCENT`) from a price without, rounded to whole øre. */
export function withVat(net: Oere): Oere {
  assertOere(net);
  return divRound(net * (100 + VAT_PERCENT), 100);
}

/** Price without VAT from a VAT-inclusive price, rounded to whole øre. */
export function withoutVat(gross: Oere): Oere {
  assertOere(gross);
  return divRound(gross * 100, 100 + VAT_PERCENT);
}

/**
 * Splits a VAT-inclusive price into net and VAT. The net is rounded and the VAT is the rest, so
 * the parts always add up to the price the customer pays: 14,900 → 11,920 + 2,980.
 */
export function splitVat(gross: Oere): VatSplit {
  const net = withoutVat(gross);
  return { net, vat: gross - net, gross };
}

/** The SPEC §9 view of a price entered without VAT: net, VAT and total. */
export function addVat(net: Oere): VatSplit {
  const gross = withVat(net);
  return { net, vat: gross - net, gross };
}

export interface KrFormatOptions {
  /** 'always' prefixes positive amounts with '+', as in '+49,00 kr.' for a next member's price. */
  sign?: 'auto' | 'always';
  /** 'auto' drops ',00' on whole kroner ('99 kr.'); 'always' (default) keeps two decimals. */
  decimals?: 'always' | 'auto';
}

/**
 * Money for display: 14,900 øre → '149,00 kr.' (fo) or '149.00 kr.' (en); 124,900 →
 * '1.249,00 kr.' / '1,249.00 kr.'. The currency suffix is 'kr.' in both languages (SPEC §9).
 */
export function formatKr(oere: Oere, locale: Locale, options: KrFormatOptions = {}): string {
  assertOere(oere);
  const { sign = 'auto', decimals = 'always' } = options;
  const whole = oere % 100 === 0;
  const minimumFractionDigits = decimals === 'auto' && whole ? 0 : 2;
  const text = formatNumber(oere / 100, locale, {
    minimumFractionDigits,
    maximumFractionDigits: 2,
  });
  const plus = sign === 'always' && oere > 0 ? '+' : '';
  return `${plus}${text} ${CURRENCY_SUFFIX}`;
}
