import { formatKr } from '@alda/contract/format/money';
import { formatNumber, NUMBER_SEPARATORS } from '@alda/contract/format/number';
import type { Locale } from '@alda/contract/locale';

/*
 * Amounts of the payments area: shown as the customer app shows money (the contract's `formatKr`,
 * SPEC §9: '39,00 kr.' / '39.00 kr.'), typed in kroner and sent in øre.
 */

export { formatKr };

/** Kroner for an input field, without the currency: 3,900 øre → '39,00' (fo) / '39.00' (en). */
export function kronerInput(oere: number, locale: Locale): string {
  return formatNumber(oere / 100, locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

/**
 * Øre of kroner typed by a person: '39', '39,5', '39,50', '1.234,50' (fo), '1,234.50' (en), with
 * or without 'kr.' and spaces. The last ',' or '.' followed by one or two digits is the decimal
 * mark (so '39.50' is understood in Faroese too); any other mark must be the language's grouping
 * mark ('.' in Faroese, ',' in English) before three digits. Null when it is not an amount
 * (letters, a sign, three decimals, a misplaced group mark).
 */
export function parseKroner(text: string, locale: Locale): number | null {
  const compact = text.replace(/\s+/g, '').replace(/kr\.?$/i, '');
  if (!/^\d[\d.,]*$/.test(compact)) return null;
  const decimal = /[.,](\d{1,2})$/.exec(compact);
  const wholePart = decimal ? compact.slice(0, decimal.index) : compact;
  const fraction = decimal?.[1] ?? '';
  const group = NUMBER_SEPARATORS[locale].group;
  if (/[.,]/.test(wholePart)) {
    const grouped = group === '.' ? /^\d{1,3}(\.\d{3})+$/ : /^\d{1,3}(,\d{3})+$/;
    if (!grouped.test(wholePart)) return null;
  }
  const kroner = Number(wholePart.replace(/[.,]/g, ''));
  const oere = kroner * 100 + Number(fraction.padEnd(2, '0') || '0');
  return Number.isSafeInteger(oere) ? oere : null;
}
