import type { TFunction } from 'i18next';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import {
  SUPPORT_SUBJECT_TYPES,
  type SupportSubject,
  type SupportSubjectInput,
} from '@alda/contract/schemas/support';
import { QUERY } from '@/shared/config/paths';

/** A reference as the app shows it: a 6-digit number as a phone number ("55 78 13"). */
export const formatReference = (reference: string): string =>
  /^\d{6}$/.test(reference) ? formatPhoneNumber(reference) : reference;

/** What a conversation is about, as one line: "Um bílegging 55 78 13", "Almennur spurningur". */
export function subjectLine(
  t: TFunction,
  subject: Pick<SupportSubject, 'type' | 'reference'>,
): string {
  if (subject.type === 'general') return t('support.subject.general');
  return subject.reference
    ? t(`support.subject.with.${subject.type}`, { reference: formatReference(subject.reference) })
    : t(`support.subject.bare.${subject.type}`);
}

/**
 * The subject named by the query (`?subject=order&id=…`, from an item's "Write to us about
 * this"), with the reference to show until the server names it; general without one or with one
 * that is not well-formed. The server checks that the item is the customer's.
 */
export function subjectFromQuery(params: URLSearchParams): {
  subject: SupportSubjectInput;
  shown: Pick<SupportSubject, 'type' | 'reference'>;
} {
  const type = SUPPORT_SUBJECT_TYPES.find((known) => known === params.get(QUERY.supportSubject));
  const id = params.get(QUERY.supportSubjectId)?.trim() ?? '';
  if (!type || type === 'general' || id.length === 0 || id.length > 64)
    return { subject: { type: 'general' }, shown: { type: 'general', reference: null } };
  const numbered = type === 'line' || type === 'roaming_cap';
  const reference = params.get(QUERY.supportReference) || (numbered ? id : null);
  return { subject: { type, id }, shown: { type, reference } };
}
