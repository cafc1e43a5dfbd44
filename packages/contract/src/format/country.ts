import type { Locale } from '../locale';

/**
 * The name of a country from its ISO 3166-1 alpha-2 code in the reader's language ("Føroyar",
 * "Faroe Islands"): the place of a sign-in in the list of devices and the new-device e-mail
 * (ADR 0059). Null for no code; the code itself when the runtime has no name for it.
 */
export function countryName(
  code: string | null | undefined,
  locale: Locale | string,
): string | null {
  if (!code) return null;
  try {
    return new Intl.DisplayNames([locale], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}
