import { formatDateTime } from '@alda/contract/format/date';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import type { Locale } from '@alda/contract/locale';

/**
 * The unlock e-mail (issue 32, ADR 0076): when the lock opens, and the one-tap cancel link. In
 * both languages, as provisioning's `sendEmails` takes it (it picks the reader's).
 */
export function unlockEmailText(
  msisdn: string,
  unlockAt: Date,
  cancelUrl: string,
): { subject: Record<Locale, string>; body: Record<Locale, string> } {
  const number = formatPhoneNumber(msisdn);
  const at = formatDateTime(unlockAt);
  return {
    subject: { fo: 'Nummarið verður latið upp', en: 'Your number will be unlocked' },
    body: {
      fo: `Nummarið ${number} verður latið upp ${at}. Eftir tað kann tað flytast til ein annan veitara ella fáa nýtt SIM.\n\nVar tað ikki tú? Steðga upplæsingini við einum trýsti: ${cancelUrl}`,
      en: `Your number ${number} will be unlocked at ${at}. After that it can be moved to another provider or get a new SIM.\n\nNot you? Cancel the unlock with one tap: ${cancelUrl}`,
    },
  };
}
