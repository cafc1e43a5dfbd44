import { formatDateTime } from '@alda/contract/format/date';
import { formatKr } from '@alda/contract/format/money';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import type { Locale } from '@alda/contract/locale';
import type { SupportSubject } from '@alda/contract/schemas/support';
import type { SupportSavedReply } from '@alda/contract/schemas/staff-support';

/*
 * How the support area shows times, money, numbers and subjects: as the rest of the console does
 * (the contract's formatters: `DD.MM.YYYY HH:mm` on the Tórshavn clock, '39,00 kr.', '55 78 12'),
 * so a due time reads the same whatever the time zone of the computer at the desk.
 */

export { formatDateTime, formatKr, formatPhoneNumber };

/** How long ago something happened, in the unit a person would say it in. */
export type Age = { unit: 'justNow' } | { unit: 'minutes' | 'hours' | 'days'; count: number };

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** `since` → "just now", minutes up to an hour, hours up to two days, then days. */
export function ageOf(since: string, now: number): Age {
  const ms = Math.max(0, now - Date.parse(since));
  if (ms < MINUTE) return { unit: 'justNow' };
  if (ms < HOUR) return { unit: 'minutes', count: Math.floor(ms / MINUTE) };
  if (ms < 2 * DAY) return { unit: 'hours', count: Math.floor(ms / HOUR) };
  return { unit: 'days', count: Math.floor(ms / DAY) };
}

/**
 * The item's reference as people write it: a number (lines, orders and payments are known by
 * theirs) in pairs — `557813` → `55 78 13`; a receipt's number as it is.
 */
export function referenceText(subject: SupportSubject): string {
  if (!subject.reference) return '';
  return subject.type === 'receipt' ? subject.reference : formatPhoneNumber(subject.reference);
}

/**
 * The saved reply's text in the customer's language (their account's language; Faroese when it
 * is not known — an anonymised customer, or the context not fetched yet).
 */
export function replyBodyFor(reply: SupportSavedReply, locale: Locale | null | undefined): string {
  return locale === 'en' ? reply.bodyEn : reply.bodyFo;
}

/** Puts `insert` into a draft: the draft alone when empty, else after it, a blank line between. */
export function insertIntoDraft(draft: string, insert: string): string {
  const kept = draft.trimEnd();
  return kept ? `${kept}\n\n${insert}` : insert;
}
