import type { FastifyRequest } from 'fastify';
import type { ErrorCode } from '@alda/contract/errors';
import { pickLocale, type Locale } from '@alda/contract/locale';
import errorsEn from '@alda/contract/locales/errors.en.json';
import errorsFo from '@alda/contract/locales/errors.fo.json';

/*
 * The API localizes only what it says itself: error messages. Their wording lives in the
 * contract's locale files, the one home shared with the web app.
 */
const ERROR_MESSAGES: Record<Locale, Readonly<Record<string, string>>> = {
  fo: errorsFo,
  en: errorsEn,
};

/** The request's language from `Accept-Language` (Faroese unless English is preferred). */
export function requestLocale(request: Pick<FastifyRequest, 'headers'>): Locale {
  return pickLocale(request.headers['accept-language']);
}

/**
 * The localized message for an error code. A code another engineer has just added may not have
 * a translation yet; fall back to the other language, then to the code, rather than send nothing.
 */
export function errorMessage(code: ErrorCode, locale: Locale): string {
  return ERROR_MESSAGES[locale][code] ?? ERROR_MESSAGES.en[code] ?? ERROR_MESSAGES.fo[code] ?? code;
}

/** Whether both locale files carry a message for the code (used by a completeness test). */
export function hasErrorMessage(code: ErrorCode, locale: Locale): boolean {
  return Object.hasOwn(ERROR_MESSAGES[locale], code);
}
