import { formatPhoneNumber } from '@alda/contract/format/phone';
import type { Locale } from '@alda/contract/locale';

/** Alda's customer service number, as the SIM-change alerts name it (issue 32, ADR 0076). */
export const ALDA_SUPPORT_PHONE = '212121';

/** The SMS to the number itself (the old SIM) when a new SIM is ordered for it. */
export function simChangeSmsText(locale: Locale, msisdn: string): string {
  const number = formatPhoneNumber(msisdn);
  const support = formatPhoneNumber(ALDA_SUPPORT_PHONE);
  return locale === 'en'
    ? `Alda: a new SIM has been ordered for ${number}. Not you? Call ${support} at once.`
    : `Alda: nýtt SIM er bílagt til ${number}. Var tað ikki tú? Ring ${support} beinan vegin.`;
}

/** The e-mail to the number's user when a new SIM is ordered for it. */
export function simChangeEmailText(
  locale: Locale,
  msisdn: string,
): { title: string; body: string } {
  const number = formatPhoneNumber(msisdn);
  const support = formatPhoneNumber(ALDA_SUPPORT_PHONE);
  return locale === 'en'
    ? {
        title: 'A new SIM was ordered',
        body: `A new SIM has been ordered for ${number}. When it is active, the old SIM stops working.\n\nNot you? Call Alda at ${support} at once.`,
      }
    : {
        title: 'Nýtt SIM er bílagt',
        body: `Nýtt SIM er bílagt til ${number}. Tá tað er virkið, steðgar gamla SIM-kortið.\n\nVar tað ikki tú? Ring til Alda á ${support} beinan vegin.`,
      };
}
