import { formatData } from '@alda/contract/format/data';
import type { Locale } from '@alda/contract/locale';
import type { NotificationType } from '@alda/contract/schemas/notifications';
import type { NotificationParams } from '../../db/schema/data-transfers';
import { formatPhoneNumber } from '@alda/contract/format/phone';

interface Texts {
  title: string;
  body: string;
}

type Builders = Record<
  NotificationType,
  (p: { who: string; data: string }, raw: NotificationParams) => Texts
>;

const free = (raw: NotificationParams, locale: Locale, fallback: Texts): Texts => ({
  title: raw.title?.[locale] ?? fallback.title,
  body: raw.body?.[locale] ?? fallback.body,
});

/*
 * Notification texts are made when read, in the reader's language (Accept-Language), from the
 * stored type and parameters — so a notification reads right after the customer switches language.
 */
const TEXTS: Record<Locale, Builders> = {
  fo: {
    data_request: (p) => ({
      title: 'Umbøn um data',
      body: `${p.who} biður teg um ${p.data}.`,
    }),
    data_received: (p) => ({ title: 'Tú hevur fingið data', body: `${p.who} gav tær ${p.data}.` }),
    order_completed: (_p, raw) =>
      free(raw, 'fo', { title: 'Bílegging liðug', body: 'Bíleggingin hjá tær er liðug.' }),
    payment: (_p, raw) => free(raw, 'fo', { title: 'Gjald', body: 'Gjaldið hjá tær er móttikið.' }),
    package: (_p, raw) =>
      free(raw, 'fo', { title: 'Eykapakki', body: 'Eykapakkin er settur til.' }),
    subscription: (_p, raw) =>
      free(raw, 'fo', { title: 'Haldið', body: 'Haldið hjá tær er broytt.' }),
    system: (_p, raw) => free(raw, 'fo', { title: 'Alda', body: '' }),
  },
  en: {
    data_request: (p) => ({ title: 'Data request', body: `${p.who} asks you for ${p.data}.` }),
    data_received: (p) => ({ title: 'You received data', body: `${p.who} gave you ${p.data}.` }),
    order_completed: (_p, raw) =>
      free(raw, 'en', { title: 'Order completed', body: 'Your order is complete.' }),
    payment: (_p, raw) => free(raw, 'en', { title: 'Payment', body: 'Your payment was received.' }),
    package: (_p, raw) =>
      free(raw, 'en', { title: 'Extra package', body: 'Your extra package is active.' }),
    subscription: (_p, raw) =>
      free(raw, 'en', { title: 'Subscription', body: 'Your subscription has changed.' }),
    system: (_p, raw) => free(raw, 'en', { title: 'Alda', body: '' }),
  },
};

/** Title and body of a notification in `locale`. */
export function notificationTexts(
  type: NotificationType,
  params: NotificationParams,
  locale: Locale,
): Texts {
  // A number is written as people write it (21 44 55) when there is no name to show.
  const who = params.name ?? (params.phoneNumber ? formatPhoneNumber(params.phoneNumber) : '');
  const data = params.dataMb === undefined ? '' : formatData(params.dataMb, locale);
  return TEXTS[locale][type]({ who, data }, params);
}
