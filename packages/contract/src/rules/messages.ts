import type { z } from 'zod/mini';
import type { Locale } from '../locale';
import en from '../locales/validation.en.json' with { type: 'json' };
import fo from '../locales/validation.fo.json' with { type: 'json' };

/**
 * Stable message keys of the SPEC §5 validation rules. A failing zod schema of the contract puts
 * one of these keys in `issue.message`; the web translates it with its own i18n, the API with
 * {@link validationMessage}. Keys never change meaning; add new ones instead.
 */
export const VALIDATION_KEYS = [
  'REQUIRED',
  'INVALID',
  'TOO_LONG',
  'INVALID_EMAIL',
  'INVALID_DATE',
  'INVALID_POSTCODE',
  'UNKNOWN_POSTCODE',
  'INVALID_PHONE',
  'PASSWORD_TOO_WEAK',
  'PASSWORDS_DO_NOT_MATCH',
  'TOO_YOUNG',
  'INVALID_PIN',
  'MUST_ACCEPT',
  'INVALID_SIMCARD_NUMBER',
  /** The city is not a place with the given postal code (locality list, SPEC §3). */
  'CITY_POSTCODE_MISMATCH',
  /** A NUL byte or a lone UTF-16 surrogate: no text a person types (issue 14). */
  'INVALID_CHARACTERS',
] as const;

export type ValidationKey = (typeof VALIDATION_KEYS)[number];

/** The localized text of every validation key, per locale (`locales/validation.<lang>.json`). */
export const VALIDATION_MESSAGES: Record<Locale, Record<ValidationKey, string>> = { fo, en };

/** True when `value` is one of {@link VALIDATION_KEYS}. */
export const isValidationKey = (value: unknown): value is ValidationKey =>
  typeof value === 'string' && (VALIDATION_KEYS as readonly string[]).includes(value);

/** The text of a validation key in the given locale. */
export function validationMessage(key: ValidationKey, locale: Locale): string {
  return VALIDATION_MESSAGES[locale][key];
}

/** One failed field, as the API reports it inside the error envelope. */
export interface FieldIssue {
  /** Dotted path of the field, e.g. `porting.phoneNumber`; '' for the whole payload. */
  path: string;
  key: ValidationKey;
  message: string;
}

/**
 * Turns zod issues into localized field issues, the first one per field. Messages that are not
 * validation keys (zod's own texts for unexpected shapes) become the generic `INVALID`, so no
 * English zod text leaks to a Faroese user.
 */
export function toFieldIssues(issues: readonly z.core.$ZodIssue[], locale: Locale): FieldIssue[] {
  const byPath = new Map<string, FieldIssue>();
  for (const issue of issues) {
    const path = issue.path.map(String).join('.');
    if (byPath.has(path)) continue;
    const key: ValidationKey = isValidationKey(issue.message) ? issue.message : 'INVALID';
    byPath.set(path, { path, key, message: validationMessage(key, locale) });
  }
  return [...byPath.values()];
}
