import { formatPhoneNumber } from '@alda/contract/format/phone';
import type { Locale } from '@alda/contract/locale';

/*
 * The alerts of a SIM change (issue 32, ADR 0076). They name Alda's customer service number
 * (SUPPORT_PHONE) when it is configured, and otherwise ask the customer to contact customer
 * service — never a made-up number.
 */

/** "Not you? …" in the customer's language: call the number, or contact customer service. */
function notYou(locale: Locale, supportPhone: string | undefined): string {
  if (supportPhone) {
    const support = formatPhoneNumber(supportPhone);
    return locale === 'en'
      ? `Not you? Call Alda at ${support} at once.`
      : `Var tað ikki tú? Ring til Alda á ${support} beinan vegin.`;
  }
  return locale === 'en'
    ? "Not you? Contact Alda's customer service at once."
    : 'Var tað ikki tú? Set teg í samband við kundatænastuna hjá Alda beinan vegin.';
}

/** The SMS to the number itself (the old SIM) when a new SIM is ordered for it. */
export function simChangeSmsText(
  locale: Locale,
  msisdn: string,
  supportPhone: string | undefined,
): string {
  const number = formatPhoneNumber(msisdn);
  return locale === 'en'
    ? `Alda: a new SIM has been ordered for ${number}. ${notYou(locale, supportPhone)}`
    : `Alda: nýtt SIM er bílagt til ${number}. ${notYou(locale, supportPhone)}`;
}

/** The e-mail to the number's user when a new SIM is ordered for it. */
export function simChangeEmailText(
  locale: Locale,
  msisdn: string,
  supportPhone: string | undefined,
): { title: string; body: string } {
  const number = formatPhoneNumber(msisdn);
  return locale === 'en'
    ? {
        title: 'A new SIM was ordered',
        body: `A new SIM has been ordered for ${number}. When it is active, the old SIM stops working.\n\n${notYou(locale, supportPhone)}`,
      }
    : {
        title: 'Nýtt SIM er bílagt',
        body: `Nýtt SIM er bílagt til ${number}. Tá tað er virkið, steðgar gamla SIM-kortið.\n\n${notYou(locale, supportPhone)}`,
      };
}
