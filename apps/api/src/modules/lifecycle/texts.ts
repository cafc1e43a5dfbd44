import { formatDate } from '@alda/contract/format/date';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import { lastDayBefore } from '@alda/contract/rules/lifecycle';
import type { LifecycleAction } from '@alda/contract/schemas/orders';

/*
 * What the customer is told about a change of their subscription (ADR 0056), in Faroese and
 * English: when it is placed (naming the number and the day it takes effect) and when it has
 * taken effect. The in-app notification stores both languages; the e-mail goes in the reader's.
 */

export interface Bilingual {
  fo: string;
  en: string;
}

export interface LifecycleMessage {
  title: Bilingual;
  body: Bilingual;
}

export interface LifecycleTextContext {
  action: LifecycleAction;
  msisdn: string | null;
  /** The plan it goes to, when it sets one. */
  planName: Bilingual | null;
  /** When it takes effect (placement for changes made at once). */
  effectiveAt: Date;
  /** It takes effect at once (not at a month end). */
  atOnce: boolean;
}

function numberOf(msisdn: string | null): Bilingual {
  return msisdn
    ? { fo: formatPhoneNumber(msisdn), en: formatPhoneNumber(msisdn) }
    : { fo: 'haldið', en: 'your subscription' };
}

/** The notification (and e-mail) when a change is placed. */
export function placedMessage(c: LifecycleTextContext): LifecycleMessage {
  const n = numberOf(c.msisdn);
  const day = formatDate(c.effectiveAt);
  const lastDay = formatDate(lastDayBefore(c.effectiveAt));
  const plan = c.planName ?? { fo: 'nýggja haldið', en: 'the new plan' };
  switch (c.action) {
    case 'plan_upgrade':
      return {
        title: { fo: 'Haldið verður broytt', en: 'Plan change ordered' },
        body: {
          fo: `Vit broyta haldið á ${n.fo} til ${plan.fo}. Broytingin fær gildi beinanvegin (${day}), og tú fært meira data longu hendan mánaðin.`,
          en: `We are changing the plan of ${n.en} to ${plan.en}. The change takes effect right away (${day}), and you get the extra data this month.`,
        },
      };
    case 'plan_downgrade':
      return {
        title: { fo: 'Haldið verður broytt', en: 'Plan change ordered' },
        body: {
          fo: `Haldið á ${n.fo} verður broytt til ${plan.fo} ${day}. Út mánaðin hevur tú tað, sum tú hevur goldið fyri. Data, sum er eftir, verður ikki flutt við inn í nýggja mánaðin.`,
          en: `The plan of ${n.en} changes to ${plan.en} on ${day}. Until then you keep what you have paid for. Data left over is not carried into the new month.`,
        },
      };
    case 'cancel_subscription':
      return {
        title: { fo: 'Haldið er sagt upp', en: 'Subscription cancelled' },
        body: {
          fo: `Haldið á ${n.fo} er sagt upp. Seinasti dagur er ${lastDay}. Eftir tað verður nummarið talutíð, so tú kanst framvegis brúka tað og fylla á, tá ið tú vilt.`,
          en: `The subscription of ${n.en} is cancelled. Its last day is ${lastDay}. After that the number becomes prepaid (talutíð): you keep it and top it up when you like.`,
        },
      };
    case 'port_out':
      return {
        title: { fo: 'Nummarið verður flutt', en: 'Your number is moving' },
        body: {
          fo: `${n.fo} verður flutt til ein annan veitara ${day}. Haldið hjá okkum endar tá; bindingartíðin og tað, ið er ógoldið, standa við.`,
          en: `${n.en} moves to another provider on ${day}. Your subscription with us ends then; the commitment and anything unpaid still stand.`,
        },
      };
    case 'deactivate_plan':
      return {
        title: { fo: 'Nummarið fer úr haldinum', en: 'Number leaves the plan' },
        body: {
          fo: `${n.fo} fer úr haldinum ${day} (seinasti dagur er ${lastDay}). Nummarið verður talutíð og verður verandi hjá sama brúkara.`,
          en: `${n.en} leaves the plan on ${day} (its last day is ${lastDay}). The number becomes prepaid (talutíð) and stays with the same person.`,
        },
      };
    case 'delete_number':
      return c.atOnce
        ? {
            title: { fo: 'Nummarið er strikað', en: 'Number deleted' },
            body: {
              fo: `${n.fo} er strikað ${day}. Tað, sum var eftir á talutíðini, er burturfallið.`,
              en: `${n.en} was deleted on ${day}. Any credit left on it is forfeited.`,
            },
          }
        : {
            title: { fo: 'Nummarið verður strikað', en: 'Number to be deleted' },
            body: {
              fo: `${n.fo} verður strikað ${day} (seinasti dagur er ${lastDay}). Fram til tá virkar tað sum vanligt.`,
              en: `${n.en} will be deleted on ${day} (its last day is ${lastDay}). Until then it works as usual.`,
            },
          };
    case 'move_to_own_account':
      return {
        title: { fo: 'Nummarið verður flutt', en: 'Number being moved' },
        body: {
          fo: `Vit flyta ${n.fo} til sítt egna hald (${plan.fo}). Broytingin fær gildi ${day}.`,
          en: `We are moving ${n.en} to its own plan (${plan.en}). The change takes effect on ${day}.`,
        },
      };
    case 'move_to_family_account':
      return {
        title: { fo: 'Nummarið verður flutt', en: 'Number being moved' },
        body: {
          fo: `Vit flyta ${n.fo} inn í familjuhaldið. Broytingin fær gildi ${day}.`,
          en: `We are moving ${n.en} into the family plan. The change takes effect on ${day}.`,
        },
      };
    case 'hand_over':
      return {
        title: { fo: 'Nummarið verður handað víðari', en: 'Number being handed over' },
        body: {
          fo: `Vit flyta ${n.fo} til nýggja eigaran (${plan.fo}). Broytingin fær gildi ${day}.`,
          en: `We are moving ${n.en} to its new owner (${plan.en}). The change takes effect on ${day}.`,
        },
      };
  }
}

/** The notification (and e-mail) when the change has taken effect. */
export function appliedMessage(c: LifecycleTextContext): LifecycleMessage {
  const n = numberOf(c.msisdn);
  const plan = c.planName ?? { fo: 'nýggja haldið', en: 'the new plan' };
  switch (c.action) {
    case 'plan_upgrade':
    case 'plan_downgrade':
      return {
        title: { fo: 'Haldið er broytt', en: 'Plan changed' },
        body: {
          fo: `${n.fo} er nú á ${plan.fo}.`,
          en: `${n.en} is now on ${plan.en}.`,
        },
      };
    case 'cancel_subscription':
    case 'deactivate_plan':
      return {
        title: { fo: 'Nummarið er nú talutíð', en: 'The number is now prepaid' },
        body: {
          fo: `Haldið á ${n.fo} er endað. Nummarið er nú talutíð: tú fyllir á, tá ið tú vilt.`,
          en: `The subscription of ${n.en} has ended. The number is now prepaid (talutíð): top it up when you like.`,
        },
      };
    case 'port_out':
      return {
        title: { fo: 'Nummarið er flutt', en: 'Number moved away' },
        body: {
          fo: `${n.fo} er flutt til ein annan veitara og er ikki longur hjá Alda.`,
          en: `${n.en} has moved to another provider and is no longer with Alda.`,
        },
      };
    case 'delete_number':
      return {
        title: { fo: 'Nummarið er strikað', en: 'Number deleted' },
        body: {
          fo: `${n.fo} er strikað og virkar ikki longur.`,
          en: `${n.en} has been deleted and no longer works.`,
        },
      };
    case 'move_to_own_account':
    case 'move_to_family_account':
    case 'hand_over':
      return {
        title: { fo: 'Nummarið er flutt', en: 'Number moved' },
        body: {
          fo: `${n.fo} er nú á ${plan.fo}.`,
          en: `${n.en} is now on ${plan.en}.`,
        },
      };
  }
}

/** The notification (and e-mail) when a change waiting for its month end is undone. */
export function withdrawnMessage(action: LifecycleAction, msisdn: string | null): LifecycleMessage {
  const n = numberOf(msisdn);
  const cancelling =
    action === 'cancel_subscription' || action === 'deactivate_plan' || action === 'delete_number';
  return cancelling
    ? {
        title: { fo: 'Uppsøgnin er tikin aftur', en: 'Cancellation withdrawn' },
        body: {
          fo: `Uppsøgnin av ${n.fo} er tikin aftur. Haldið heldur fram sum áður.`,
          en: `The cancellation of ${n.en} is withdrawn. The subscription carries on as before.`,
        },
      }
    : {
        title: { fo: 'Broytingin er tikin aftur', en: 'Change withdrawn' },
        body: {
          fo: `Broytingin av haldinum á ${n.fo} er tikin aftur. Haldið heldur fram sum áður.`,
          en: `The plan change of ${n.en} is withdrawn. The plan stays as it is.`,
        },
      };
}

/** Whether the number stops being a subscription with this action (for the activity log). */
export function endsSubscription(action: LifecycleAction): boolean {
  return (
    action === 'cancel_subscription' || action === 'deactivate_plan' || action === 'delete_number'
  );
}
