import type { ErrorCode } from './errors';
import type { Locale } from './locale';
import en from './locales/errors.en.json' with { type: 'json' };
import fo from './locales/errors.fo.json' with { type: 'json' };

/** The localized message of every error code, per locale (`locales/errors.<lang>.json`). */
export const ERROR_MESSAGES: Record<Locale, Record<ErrorCode, string>> = { fo, en };

/** The message of an error code in the given locale, as the API puts it in the error envelope. */
export function errorMessage(code: ErrorCode, locale: Locale): string {
  return ERROR_MESSAGES[locale][code];
}
