import { formatDate } from '@alda/contract/format/date';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import type { Locale } from '@alda/contract/locale';
import type { OrderKind } from '@alda/contract/schemas/orders';
import type { ProvisioningStepKey } from '@alda/contract/schemas/provisioning';

/*
 * What the customer is told at each step of an order (docs/decisions/0055-provisioning.md), in
 * Faroese and English: the in-app notification stores both (it is read in the reader's
 * language), the e-mail goes in the customer's own language.
 */

export interface Bilingual {
  fo: string;
  en: string;
}

/**
 * The code of a step the network failed (a TMF641 order `failed`, `partial`, … — ADR 0082). The
 * step's `reason_text` then holds the network's own words, which are for staff: the customer
 * reads this code's text instead.
 */
export const NETWORK_ORDER_FAILED = 'NETWORK_ORDER_FAILED';

/** Why a step went wrong, by the network's reason code. */
const REASONS: Record<string, Bilingual> = {
  PORT_SIMCARD_MISMATCH: {
    fo: 'SIM-kortnummarið passar ikki við tað, sum núverandi veitarin hevur skrásett.',
    en: "The SIM card number does not match your current provider's records.",
  },
  [NETWORK_ORDER_FAILED]: {
    fo: 'Netið kundi ikki gera hetta stigið. Vit hyggja eftir tí og seta okkum í samband við teg.',
    en: 'The network could not carry out this step. We are looking into it and will be in touch.',
  },
};

/** Codes whose step's own words are the network's, shown to staff only. */
const STAFF_ONLY_WORDS: ReadonlySet<string> = new Set([NETWORK_ORDER_FAILED]);

/** What the customer is told of a network code, in both languages (null for an unknown code). */
export function customerReason(code: string): Bilingual | null {
  return REASONS[code] ?? null;
}

/**
 * The reason of a step in `locale` as the customer reads it: an operator's own words, or the
 * text of a network code (a failed network order's own words are for staff; they read the
 * step's `reasonText` directly).
 */
export function reasonText(
  step: { reasonCode: string | null; reasonText: string | null },
  locale: Locale,
): string | null {
  if (step.reasonText && !(step.reasonCode && STAFF_ONLY_WORDS.has(step.reasonCode)))
    return step.reasonText;
  if (step.reasonCode) return REASONS[step.reasonCode]?.[locale] ?? step.reasonCode;
  return null;
}

/** "in Klaksvík": Faroese place names take their own preposition and case. */
const FO_AT: Record<string, string> = {
  Tórshavn: 'í Tórshavn',
  Klaksvík: 'í Klaksvík',
  Runavík: 'í Runavík',
  Vágur: 'í Vági',
  Tvøroyri: 'á Tvøroyri',
};

export interface StepContext {
  kind: OrderKind;
  msisdn: string;
  /** The pickup shop (town and street address), for `sim_ready_for_pickup`. */
  shop?: { name: string; address: string } | null;
  /** Where a card is sent, for `sim_sent`. */
  shippingAddress?: string | null;
  portDate?: Date | null;
  /** The step waits for the customer to confirm the SIM works. */
  confirmSim?: boolean;
  reason?: Bilingual | null;
}

export interface StepMessage {
  title: Bilingual;
  body: Bilingual;
}

/** The notification (and e-mail) of a step; null for steps that say nothing new. */
export function stepMessage(step: ProvisioningStepKey, c: StepContext): StepMessage | null {
  const n = formatPhoneNumber(c.msisdn);
  const confirm: Bilingual = c.confirmSim
    ? {
        fo: ' Set kortið í telefonina og vátta í appini, at tað virkar.',
        en: ' Put it in your phone and confirm in the app that it works.',
      }
    : { fo: '', en: '' };
  switch (step) {
    case 'received':
      return c.kind === 'sim_change'
        ? {
            title: { fo: 'Nýtt SIM-kort bílagt', en: 'New SIM ordered' },
            body: {
              fo: `Vit hava móttikið bíleggingina av nýggjum SIM-korti til ${n}. Gamla kortið virkar, til tað nýggja er klárt.`,
              en: `We have received your order of a new SIM for ${n}. The old one works until the new one is ready.`,
            },
          }
        : {
            title: { fo: 'Bílegging móttikin', en: 'Order received' },
            body: {
              fo: `Takk fyri! Vit hava móttikið bíleggingina av ${n} og boða tær frá, so hvørt sum vit koma víðari.`,
              en: `Thank you! We have received your order for ${n} and will let you know as it moves along.`,
            },
          };
    case 'esim_ready':
      return {
        title: { fo: 'eSIM er klárt at leggja inn', en: 'eSIM ready to install' },
        body: {
          fo: `eSIM-profilurin til ${n} er klárur. Skanna QR-kotuna undir SIM-kort í appini fyri at leggja hann inn á telefonina.${c.confirmSim ? ' Vátta síðan í appini, at tað virkar.' : ''}`,
          en: `The eSIM profile for ${n} is ready. Scan the QR code under SIM card in the app to install it on your phone.${c.confirmSim ? ' Then confirm in the app that it works.' : ''}`,
        },
      };
    case 'sim_ready_for_pickup': {
      const shop = c.shop;
      const foAt = shop ? ` ${FO_AT[shop.name] ?? `(${shop.name})`}` : '';
      const where = shop ? ` (${shop.address})` : '';
      return {
        title: { fo: 'SIM-kortið liggur klárt', en: 'SIM card ready for pickup' },
        body: {
          fo: `SIM-kortið til ${n} liggur klárt í handlinum${foAt}${where}. Tak samleikaprógv við.${confirm.fo}`,
          en: `The SIM card for ${n} is ready at our shop${shop ? ` in ${shop.name}` : ''}${where}. Please bring ID.${confirm.en}`,
        },
      };
    }
    case 'sim_sent':
      return {
        title: { fo: 'SIM-kortið er sent', en: 'SIM card sent' },
        body: {
          fo: `SIM-kortið til ${n} er sent${c.shippingAddress ? ` til ${c.shippingAddress}` : ''}. Tað kemur vanliga innan 1–2 dagar.${confirm.fo}`,
          en: `The SIM card for ${n} is on its way${c.shippingAddress ? ` to ${c.shippingAddress}` : ''}. It usually arrives within 1–2 days.${confirm.en}`,
        },
      };
    case 'port_requested':
      return {
        title: { fo: 'Biðið er um nummarflyting', en: 'Number transfer requested' },
        body: {
          fo: `Vit hava biðið núverandi veitaran hjá tær um at flyta ${n} til Alda.`,
          en: `We have asked your current provider to move ${n} to Alda.`,
        },
      };
    case 'port_date_set': {
      const date = c.portDate ? formatDate(c.portDate) : '';
      return {
        title: { fo: 'Dagur fyri nummarflyting er settur', en: 'Transfer date set' },
        body: {
          fo: `${n} verður flutt til Alda ${date}. Fram til tá virkar gamla SIM-kortið.`,
          en: `${n} moves to Alda on ${date}. Until then your old SIM keeps working.`,
        },
      };
    }
    case 'port_rejected':
      return {
        title: { fo: 'Nummarflytingin varð avvíst', en: 'Number transfer rejected' },
        body: {
          fo: `Nummarflytingin av ${n} varð avvíst. ${c.reason?.fo ?? REASONS.PORT_SIMCARD_MISMATCH?.fo} Rætta SIM-kortnummarið á bíleggingini í appini, so royna vit aftur.`,
          en: `The transfer of ${n} was rejected. ${c.reason?.en ?? REASONS.PORT_SIMCARD_MISMATCH?.en} Correct the SIM card number on the order in the app and we will try again.`,
        },
      };
    case 'number_moved':
      return {
        title: { fo: 'Nummarið er flutt', en: 'Number moved' },
        body: {
          fo: `${n} er nú flutt til Alda. Vit gera haldið virkið í løtuni.`,
          en: `${n} has now moved to Alda. We are activating your subscription.`,
        },
      };
    case 'active':
      return c.kind === 'sim_change'
        ? {
            title: { fo: 'Nýggja SIM-kortið virkar', en: 'New SIM active' },
            body: {
              fo: `Nýggja SIM-kortið til ${n} virkar nú. Gamla kortið virkar ikki longur.`,
              en: `The new SIM for ${n} is now active. The old one no longer works.`,
            },
          }
        : {
            title: { fo: 'Haldið er virkið', en: 'Your subscription is active' },
            body: {
              fo: `${n} virkar nú. Vælkomin til Alda!`,
              en: `${n} is now active. Welcome to Alda!`,
            },
          };
    case 'failed':
      return {
        title: { fo: 'Bíleggingin er steðgað', en: 'Order stopped' },
        body: {
          fo: `Vit kunnu ikki gera bíleggingina av ${n} lidna${c.reason ? `: ${c.reason.fo}` : ''}. Ring til okkara, um tú hevur spurningar.`,
          en: `We could not complete your order for ${n}${c.reason ? `: ${c.reason.en}` : ''}. Call us if you have questions.`,
        },
      };
  }
}
