import { formatData } from '@alda/contract/format/data';
import { formatKr } from '@alda/contract/format/money';
import type { Locale } from '@alda/contract/locale';
import type { ActionType } from '@alda/contract/schemas/actions';
import type { ActionPayload, ActionRow } from '../../db/schema/actions';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import { formatDevice } from '@alda/contract/format/device';
import { formatDateTime } from '@alda/contract/format/date';
import { isPortOutRefusal, type PortOutRefusalCode } from '@alda/contract/rules/number-protection';

/** What a sentence of the activity log is made from. */
interface Parts {
  plan: string;
  package: string;
  name: string;
  data: string;
  amount: string;
  /** The amount went back to the customer (a refund: `amount_oere` negative). */
  refund: boolean;
  enabled: boolean;
  device: string;
  /** When a waiting unlock opens (Faroese wall clock), ADR 0076. */
  at: string;
  /** Who asked for a port-out (the other provider) and why it was refused (an error code). */
  provider: string;
  reason: string;
  /** A passkey's name (ADR 0097). */
  passkey: string;
}

type Sentences = Record<ActionType, (p: Parts) => string>;

/** Why a port-out was refused (the error code kept in the entry), as the log says it (ADR 0076). */
const PORT_OUT_REFUSAL_WORDS: Record<Locale, Record<PortOutRefusalCode, string>> = {
  fo: {
    NUMBER_LOCKED: 'nummarið er læst',
    PORT_OUT_CODE_INVALID: 'flytikodan var skeiv, brúkt ella útgingin',
    ORDER_PROCESSING: 'ein bílegging á nummarinum er í gongd',
    TOO_MANY_ATTEMPTS: 'ov nógvar skeivar kodur',
  },
  en: {
    NUMBER_LOCKED: 'the number is locked',
    PORT_OUT_CODE_INVALID: 'the code was wrong, used or expired',
    ORDER_PROCESSING: 'an order on the number is in progress',
    TOO_MANY_ATTEMPTS: 'too many wrong codes',
  },
};
const refusalWords = (reason: string, locale: Locale) =>
  isPortOutRefusal(reason) ? PORT_OUT_REFUSAL_WORDS[locale][reason] : reason;

/*
 * The activity log speaks in full sentences in the reader's language (contract `action.text`);
 * the structured fields beside it let the app format amounts itself. Kept here, not in the web's
 * locale files, because the server composes them from stored parameters.
 */
const SENTENCES: Record<Locale, Sentences> = {
  fo: {
    subscription_created: (p) => `Hald stovnað: ${p.plan}`,
    subscription_cancelled: () => 'Haldið er sagt upp og endar við mánaðarenda',
    plan_changed: (p) => `Haldið broytt til ${p.plan}`,
    member_added: (p) => `Nýggjur familjulimur: ${p.name}`,
    member_moved: (p) => `Familjulimur fluttur: ${p.name}`,
    member_removed: (p) => `Familjulimur tikin úr haldinum: ${p.name}`,
    package_purchased: (p) => `Eykapakki keyptur: ${p.package}`,
    eu_package_changed: (p) => (p.enabled ? 'ES-pakkin er settur til' : 'ES-pakkin er tikin frá'),
    data_given: (p) => `Tú gavst ${p.data} til ${p.name}`,
    data_received: (p) => `Tú fekst ${p.data} frá ${p.name}`,
    data_requested: (p) => `Tú bað ${p.name} um ${p.data}`,
    top_up: (p) => `Fylt á við ${p.amount}`,
    payment: (p) => (p.refund ? `Endurgoldið: ${p.amount}` : `Gjald goldið: ${p.amount}`),
    sim_changed: () => 'SIM-kortið er broytt',
    profile_updated: () => 'Brúkaraupplýsingar dagførdar',
    signed_in_new_device: (p) => `Innritað á nýggja eind: ${p.device}`,
    password_changed: () => 'Loyniorðið er broytt',
    pin_locked: () => 'SMS-kotan er stongd eftir ov nógvar skeivar royndir',
    number_locked: () => 'Nummarið er læst',
    number_unlock_requested: (p) => `Biðið um at lata nummarið upp; tað verður latið upp ${p.at}`,
    number_unlock_cancelled: () => 'Upplæsingin av nummarinum er steðgað',
    number_unlocked: () => 'Nummarið er latið upp',
    port_out_code_created: () => 'Nýggj flytikoda gjørd',
    port_out_refused: (p) =>
      `Umbøn frá ${p.provider} um at flyta nummarið er avvíst: ${refusalWords(p.reason, 'fo')}`,
    port_out_accepted: (p) => `Nummarið verður flutt til ${p.provider}`,
    data_export: () => 'Tínar dátur eru gjørdar klárar at taka niður',
    passkey_added: (p) => `Nýggj lykilkoda løgd afturat: ${p.passkey}`,
    signed_in_passkey: (p) => `Innritað við lykilkodu: ${p.passkey}`,
    passkey_removed: (p) => `Lykilkoda strikað: ${p.passkey}`,
  },
  en: {
    subscription_created: (p) => `Subscription started: ${p.plan}`,
    subscription_cancelled: () => 'Subscription cancelled; it ends at the end of the month',
    plan_changed: (p) => `Plan changed to ${p.plan}`,
    member_added: (p) => `New family member: ${p.name}`,
    member_moved: (p) => `Family member moved: ${p.name}`,
    member_removed: (p) => `Family member removed: ${p.name}`,
    package_purchased: (p) => `Extra package bought: ${p.package}`,
    eu_package_changed: (p) => (p.enabled ? 'EU package switched on' : 'EU package switched off'),
    data_given: (p) => `You gave ${p.data} to ${p.name}`,
    data_received: (p) => `You received ${p.data} from ${p.name}`,
    data_requested: (p) => `You asked ${p.name} for ${p.data}`,
    top_up: (p) => `Topped up ${p.amount}`,
    payment: (p) => (p.refund ? `Refunded: ${p.amount}` : `Payment made: ${p.amount}`),
    sim_changed: () => 'SIM changed',
    profile_updated: () => 'Profile updated',
    signed_in_new_device: (p) => `Signed in on a new device: ${p.device}`,
    password_changed: () => 'Password changed',
    pin_locked: () => 'SMS code blocked after too many wrong tries',
    number_locked: () => 'Number locked',
    number_unlock_requested: (p) => `Unlock of the number asked for; it unlocks ${p.at}`,
    number_unlock_cancelled: () => 'Unlock of the number cancelled',
    number_unlocked: () => 'Number unlocked',
    port_out_code_created: () => 'New port-out code made',
    port_out_refused: (p) =>
      `Request from ${p.provider} to move the number refused: ${refusalWords(p.reason, 'en')}`,
    port_out_accepted: (p) => `The number is moving to ${p.provider}`,
    data_export: () => 'Your data was prepared for download',
    passkey_added: (p) => `New passkey added: ${p.passkey}`,
    signed_in_passkey: (p) => `Signed in with a passkey: ${p.passkey}`,
    passkey_removed: (p) => `Passkey removed: ${p.passkey}`,
  },
};

function pick(name: ActionPayload['planName'], locale: Locale): string {
  return name ? name[locale] : '';
}

/** The sentence of one log entry in the reader's language. */
export function actionText(
  row: Pick<ActionRow, 'type' | 'payload' | 'dataMb' | 'amountOere'>,
  locale: Locale,
): string {
  const payload = row.payload;
  const parts: Parts = {
    plan: pick(payload.planName, locale),
    package: pick(payload.packageName, locale),
    name:
      payload.counterpart?.name ??
      (payload.counterpart?.phoneNumber ? formatPhoneNumber(payload.counterpart.phoneNumber) : ''),
    data: row.dataMb === null ? '' : formatData(row.dataMb, locale),
    amount: row.amountOere === null ? '' : formatKr(Math.abs(row.amountOere), locale),
    refund: row.amountOere !== null && row.amountOere < 0,
    enabled: payload.enabled ?? false,
    device: formatDevice(payload.device, locale),
    at: payload.at ? formatDateTime(payload.at) : '',
    provider: payload.provider ?? '',
    reason: payload.reason ?? '',
    passkey: payload.passkey ?? '',
  };
  return SENTENCES[locale][row.type](parts);
}
