import type { Locale } from '@alda/contract/locale';
import { supportThreadPath } from '@alda/contract/app-paths';
import { plainEmail } from '../../adapters/email/plain-email';
import type { Messaging } from '../../adapters/messaging';
import type { Db } from '../../db/client';
import { findCustomer } from './repo';

/*
 * "An answer is waiting" (issue 46): when the app did not show a desk answer, the customer gets
 * an e-mail, or an SMS when they have no e-mail, with a link to the thread and nothing of the
 * answer itself (an e-mail or SMS can be read by others; the app needs a sign-in).
 */

const TEXTS: Record<
  Locale,
  { title: string; body: (link: string) => string; sms: (link: string) => string }
> = {
  fo: {
    title: 'Tú hevur fingið svar',
    body: (link) => `Kundatænastan hjá Alda hevur svarað tær. Les svarið í appini:\n${link}`,
    sms: (link) => `Alda: Tú hevur fingið svar frá kundatænastuni. Les tað í appini: ${link}`,
  },
  en: {
    title: 'You have an answer',
    body: (link) =>
      `Alda's customer service has answered you. Read the answer in the app:\n${link}`,
    sms: (link) => `Alda: customer service has answered you. Read it in the app: ${link}`,
  },
};

export function createAnswerNotice(deps: {
  db: Db;
  messaging: Pick<Messaging, 'email' | 'sms'>;
  appUrl: string;
}) {
  return async (userId: string, conversationId: string): Promise<void> => {
    const user = await findCustomer(deps.db, userId);
    if (!user) return;
    const locale: Locale = user.locale === 'en' ? 'en' : 'fo';
    const texts = TEXTS[locale];
    const link = `${deps.appUrl}${supportThreadPath(conversationId)}`;
    if (user.email) {
      await deps.messaging.email.send({
        to: user.email,
        ...plainEmail(locale, user.firstname, texts.title, texts.body(link)),
      });
    } else if (user.phoneNumber) {
      await deps.messaging.sms.send({ to: user.phoneNumber, text: texts.sms(link) });
    }
  };
}
