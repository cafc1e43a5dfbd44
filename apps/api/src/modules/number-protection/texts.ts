import { formatDateTime } from '@alda/contract/format/date';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import type { Locale } from '@alda/contract/locale';

/** The unlock e-mail (issue 32, ADR 0076): when the lock opens, and the one-tap cancel link. */
export function unlockEmailText(
  locale: Locale,
  msisdn: string,
  unlockAt: Date,
  cancelUrl: string,
): { title: string; body: string } {
  const number = formatPhoneNumber(msisdn);
  const at = formatDateTime(unlockAt);
  return locale === 'en'
    ? {
        title: 'Your number will be unlocked',
        body: `Your number ${number} will be unlocked at ${at}. After that it can be moved to another provider or get a new SIM.\n\nNot you? Cancel the unlock with one tap: ${cancelUrl}`,
      }
    : {
        title: 'Nummarið verður latið upp',
        body: `Nummarið ${number} verður latið upp ${at}. Eftir tað kann tað flytast til ein annan veitara ella fáa nýtt SIM.\n\nVar tað ikki tú? Steðga upplæsingini við einum trýsti: ${cancelUrl}`,
      };
}
