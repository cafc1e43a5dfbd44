import { formatData } from '@alda/contract/format/data';
import type { Locale } from '@alda/contract/locale';
import type { NotificationType } from '@alda/contract/schemas/notifications';
import type { NotificationParams } from '../../db/schema/data-transfers';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import { formatDateTime } from '@alda/contract/format/date';
import { formatKr } from '@alda/contract/format/money';

interface Texts {
  title: string;
  body: string;
}

type Builders = Record<
  NotificationType,
  (p: { who: string; data: string }, raw: NotificationParams) => Texts
>;

/*
 * A usage alert (ADR 0066): `who` is the number (with the member's name when the owner is told
 * about a member's line), `data` what is left of the bucket; `threshold` 80 or 100, `kind` the
 * bucket.
 */
const usageAlert: Record<
  Locale,
  (p: { who: string; data: string }, raw: NotificationParams) => Texts
> = {
  fo: (p, raw) => {
    const eu = raw.kind === 'eu';
    if (raw.threshold === 100) {
      return eu
        ? {
            title: 'ES-pakkin er brúktur',
            body: `${p.who}: ES-pakkin er brúktur í hesum mánaði. Data, ið tú brúkar í ES, verður nú tikið av datanum heima.`,
          }
        : {
            title: 'Alt datað er brúkt',
            body: `${p.who}: alt datað í hesum mánaði er brúkt. Keyp ein eykapakka ella bið onnur um data fyri at halda fullari ferð.`,
          };
    }
    return eu
      ? {
          title: '80 % av ES-pakkanum er brúkt',
          body: `${p.who}: 80 % av ES-pakkanum í hesum mánaði er brúkt. ${p.data} eru eftir.`,
        }
      : {
          title: '80 % av datanum er brúkt',
          body: `${p.who}: 80 % av datanum í hesum mánaði er brúkt. ${p.data} eru eftir.`,
        };
  },
  en: (p, raw) => {
    const eu = raw.kind === 'eu';
    if (raw.threshold === 100) {
      return eu
        ? {
            title: 'EU package used up',
            body: `${p.who}: this month's EU package is used up. Data you use in the EU now comes out of your data at home.`,
          }
        : {
            title: 'Data used up',
            body: `${p.who}: all of this month's data is used. Buy an extra package or ask others for data to keep full speed.`,
          };
    }
    return eu
      ? {
          title: '80% of the EU package used',
          body: `${p.who}: 80% of this month's EU package is used. ${p.data} left.`,
        }
      : {
          title: '80% of your data used',
          body: `${p.who}: 80% of this month's data is used. ${p.data} left.`,
        };
  },
};

/*
 * A roaming cap notification (ADR 0078): `who` as in a usage alert, `chargedOere` and `capOere`
 * the month's roaming charges and the cap, `threshold` 80 or 100; `canRaise` whether the reader
 * owns the account (raises the cap) or must ask the owner. Short enough for one SMS.
 */
const roamingCap: Record<
  Locale,
  (p: { who: string; data: string }, raw: NotificationParams) => Texts
> = {
  fo: (p, raw) => {
    const charged = formatKr(raw.chargedOere ?? 0, 'fo', { decimals: 'auto' });
    const cap = formatKr(raw.capOere ?? 0, 'fo', { decimals: 'auto' });
    if (raw.threshold === 100) {
      return {
        title: 'Data uttanlands er steðgað',
        body: `${p.who}: útreiðsluloftið uttanlands á ${cap} er nátt, og data uttanlands er steðgað. ${
          raw.canRaise
            ? 'Hækka loftið í appini fyri at halda fram.'
            : 'Bið eigaran av kontuni hækka loftið.'
        } Heima virkar alt sum vant.`,
      };
    }
    return {
      title: '80 % av útreiðsluloftinum uttanlands',
      body: `${p.who}: data uttanlands hevur kostað ${charged} av ${cap} í hesum mánaði. Við ${cap} steðgar data uttanlands.`,
    };
  },
  en: (p, raw) => {
    const charged = formatKr(raw.chargedOere ?? 0, 'en', { decimals: 'auto' });
    const cap = formatKr(raw.capOere ?? 0, 'en', { decimals: 'auto' });
    if (raw.threshold === 100) {
      return {
        title: 'Data abroad stopped',
        body: `${p.who}: the roaming spend cap of ${cap} is reached and data abroad has stopped. ${
          raw.canRaise
            ? 'Raise the cap in the app to go on.'
            : 'Ask the account owner to raise the cap.'
        } At home everything works as usual.`,
      };
    }
    return {
      title: '80% of your roaming spend cap',
      body: `${p.who}: data abroad has cost ${charged} of ${cap} this month. At ${cap} data abroad stops.`,
    };
  },
};

/** The package a request is about, in the reader's language (ADR 0068). */
const packageOf = (raw: NotificationParams, locale: Locale) => raw.packageName?.[locale] ?? '';
const numberOf = (raw: NotificationParams) =>
  raw.phoneNumber ? formatPhoneNumber(raw.phoneNumber) : '';

/** When a waiting unlock opens, on the Faroese wall clock (ADR 0076). */
const atOf = (raw: NotificationParams) => (raw.at ? formatDateTime(raw.at) : '');

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
    usage_alert: usageAlert.fo,
    data_paused: (_p, raw) => ({
      title: 'Mobildatað er steðgað',
      body: `Eigarin av kontuni hevur steðgað mobildatanum á ${numberOf(raw)}. Tú kanst framvegis ringja og senda SMS.`,
    }),
    data_resumed: (_p, raw) => ({
      title: 'Mobildatað er í gongd aftur',
      body: `Eigarin av kontuni hevur sett mobildatað á ${numberOf(raw)} í gongd aftur.`,
    }),
    package_request: (p, raw) => ({
      title: 'Umbøn um eykapakka',
      body: `${p.who} biður teg um at keypa eykapakkan ${packageOf(raw, 'fo')} til ${numberOf(raw)}.`,
    }),
    package_request_declined: (_p, raw) => ({
      title: 'Umbønin um eykapakka er avvíst',
      body: `Eigarin av kontuni keypti ikki eykapakkan ${packageOf(raw, 'fo')} til ${numberOf(raw)}.`,
    }),
    number_unlock_scheduled: (_p, raw) => ({
      title: 'Nummarið verður latið upp',
      body: `${numberOf(raw)} verður latið upp ${atOf(raw)}. Var tað ikki tú? Steðga upplæsingini her.`,
    }),
    number_unlocked: (_p, raw) => ({
      title: 'Nummarið er latið upp',
      body: `${numberOf(raw)} er ikki longur læst. Tú kanst læsa tað aftur, nær tú vilt.`,
    }),
    sim_changed: (_p, raw) => ({
      title: 'Nýtt SIM',
      body: `${numberOf(raw)} hevur fingið nýtt SIM. Var tað ikki tú? Ring til Alda beinan vegin.`,
    }),
    port_out: (_p, raw) =>
      raw.outcome === 'accepted'
        ? {
            title: 'Nummarið verður flutt',
            body: `${numberOf(raw)} verður flutt til ein annan veitara ${atOf(raw)}. Haldið hjá okkum endar tá; bindingartíðin og tað, ið er ógoldið, standa við.`,
          }
        : {
            title: 'Flyting av nummarinum avvíst',
            body: `Ein annar veitari bað um at flyta ${numberOf(raw)}. Vit avvístu umbønina. Var tað ikki tú, er nummarið trygt.`,
          },
    data_export_ready: () => ({
      title: 'Tínar dátur eru klárar',
      body: 'Tú kanst taka tínar dátur niður sum ZIP-fílu í 7 dagar.',
    }),
    roaming_cap: roamingCap.fo,
    support_answer: () => ({
      title: 'Svar frá Alda',
      body: 'Vit hava svarað tær. Lat samrøðuna upp í appini fyri at lesa svarið.',
    }),
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
    usage_alert: usageAlert.en,
    data_paused: (_p, raw) => ({
      title: 'Mobile data paused',
      body: `The account owner has paused mobile data on ${numberOf(raw)}. You can still call and text.`,
    }),
    data_resumed: (_p, raw) => ({
      title: 'Mobile data is back on',
      body: `The account owner has turned mobile data on ${numberOf(raw)} back on.`,
    }),
    package_request: (p, raw) => ({
      title: 'Extra package request',
      body: `${p.who} asks you to buy the extra package ${packageOf(raw, 'en')} for ${numberOf(raw)}.`,
    }),
    package_request_declined: (_p, raw) => ({
      title: 'Extra package request declined',
      body: `The account owner did not buy the extra package ${packageOf(raw, 'en')} for ${numberOf(raw)}.`,
    }),
    number_unlock_scheduled: (_p, raw) => ({
      title: 'Your number will be unlocked',
      body: `${numberOf(raw)} will be unlocked at ${atOf(raw)}. Not you? Cancel the unlock here.`,
    }),
    number_unlocked: (_p, raw) => ({
      title: 'Number unlocked',
      body: `${numberOf(raw)} is no longer locked. You can lock it again at any time.`,
    }),
    sim_changed: (_p, raw) => ({
      title: 'New SIM',
      body: `${numberOf(raw)} has a new SIM. Not you? Call Alda at once.`,
    }),
    port_out: (_p, raw) =>
      raw.outcome === 'accepted'
        ? {
            title: 'Your number is moving',
            body: `${numberOf(raw)} moves to another provider at ${atOf(raw)}. Your subscription with us ends then; the commitment and anything unpaid still stand.`,
          }
        : {
            title: 'Number move refused',
            body: `Another provider asked to move ${numberOf(raw)}. We refused. If it was not you, your number is safe.`,
          },
    data_export_ready: () => ({
      title: 'Your data is ready',
      body: 'You can download your data as a ZIP file for 7 days.',
    }),
    roaming_cap: roamingCap.en,
    support_answer: () => ({
      title: 'An answer from Alda',
      body: 'We have answered you. Open the conversation in the app to read it.',
    }),
  },
};

/** Title and body of a notification in `locale`. */
export function notificationTexts(
  type: NotificationType,
  params: NotificationParams,
  locale: Locale,
): Texts {
  // A number is written as people write it (21 44 55) when there is no name to show.
  const number = params.phoneNumber ? formatPhoneNumber(params.phoneNumber) : '';
  const who =
    type === 'usage_alert' || type === 'roaming_cap'
      ? params.name
        ? `${params.name} (${number})`
        : number
      : (params.name ?? number);
  const data = params.dataMb === undefined ? '' : formatData(params.dataMb, locale);
  return TEXTS[locale][type]({ who, data }, params);
}

/**
 * A notification as one SMS (the roaming cap's, ADR 0078): title and body in one line. Its
 * encoding and parts are checked for every case in apps/api/test/sms-texts.test.ts.
 */
export function notificationSms(texts: Texts): string {
  return `${texts.title}. ${texts.body}`;
}
