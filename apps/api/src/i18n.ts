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

/** Distinct Accept-Language values whose answer is kept; phones send a handful of them. */
const LOCALES_KEPT = 256;
const localeByHeader = new Map<string, Locale>();
/** The same for `machineLocale`, which reads a header otherwise. */
const machineLocaleByHeader = new Map<string, Locale>();

/** The locale `pick` reads from the header, kept per header value while there is room. */
function keptLocale(
  kept: Map<string, Locale>,
  header: string,
  pick: (header: string) => Locale,
): Locale {
  let locale = kept.get(header);
  if (locale === undefined) {
    locale = pick(header);
    // Values come from clients: a flood of made-up ones is parsed, not kept.
    if (kept.size < LOCALES_KEPT) kept.set(header, locale);
  }
  return locale;
}

/**
 * The request's language from `Accept-Language` (Faroese unless English is preferred). Every
 * request asks, and parsing the header's ranked list cost more than the rest of a 304 poll's own
 * work (issue 13), so the answer is kept per header value.
 */
export function requestLocale(request: Pick<FastifyRequest, 'headers'>): Locale {
  const header = request.headers['accept-language'];
  if (header === undefined) return pickLocale(header);
  return keptLocale(localeByHeader, header, pickLocale);
}

/** English added as the least wanted language (the header's first 256 characters read). */
const pickMachineLocale = (header: string) => pickLocale(`${header.slice(0, 256)}, en;q=0.001`);

/**
 * The language of an answer to a machine (the TM Forum APIs a charging system or an OSS calls,
 * ADR 0083): English, unless `Accept-Language` ranks Faroese above it. English is added as the
 * least wanted language, so a header that names neither gets English. Kept per header value like
 * `requestLocale`'s (every usage feed POST asks).
 */
export function machineLocale(request: Pick<FastifyRequest, 'headers'>): Locale {
  const header = request.headers['accept-language'];
  if (!header) return 'en';
  return keptLocale(machineLocaleByHeader, header, pickMachineLocale);
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
