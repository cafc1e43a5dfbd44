import type { Locale } from '../locale';
import { COUNTRY_NAMES_FO } from './country-names-fo';

/**
 * The name of a country from its ISO 3166-1 alpha-2 code in the reader's language ("Føroyar",
 * "Faroe Islands"): the place of a sign-in in the list of devices and the new-device e-mail
 * (ADR 0059). Faroese from our own table (browsers have no Faroese region names), English for a
 * code it lacks; other languages from `Intl.DisplayNames`. Null for no code; the code itself when
 * there is no name for it.
 */
export function countryName(
  code: string | null | undefined,
  locale: Locale | string,
): string | null {
  if (!code) return null;
  if (locale === 'fo' || locale.startsWith('fo-')) {
    return COUNTRY_NAMES_FO[code] ?? regionName(code, 'en');
  }
  return regionName(code, locale);
}

function regionName(code: string, locale: string): string {
  try {
    return new Intl.DisplayNames([locale], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}
