import { luhnCheckDigit } from '@alda/contract/rules/iccid';
import type { NewOrderRow } from '../db/schema/orders';
import type { NewProvisioningStepRow } from '../db/schema/provisioning';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/*
 * The demo's two orders still being set up are provisioned like any other order (ADR 0055), and
 * wait for what a real order would wait for, days rather than seconds, so that the demo (and the
 * journeys that show a number "being set up") keeps them processing for a while:
 * - Bárður's number on the Joensen family plan: the SIM card was sent home yesterday; the line
 *   becomes active when he confirms the card works, or by itself two days from the seed;
 * - Guðrun's second number is ported from another provider on an eSIM: the other provider has set
 *   the port date two days from the seed; the number moves then and the line becomes active one
 *   PROVISIONING_STEP_S later.
 * `npm run operator -- advance <order id>` moves either on at once.
 */

const portedIccid = (() => {
  const payload = '892980299001742163';
  return `${payload}${luhnCheckDigit(payload)}`;
})();

/** The provisioning columns and steps of the processing demo orders (by order id). */
export function demoProvisioning(
  now: Date,
  ids: { bardur: string; gudrunSecond: string },
  shipping: { address: string; postCode: string; city: string },
): { columns: Map<string, Partial<NewOrderRow>>; steps: NewProvisioningStepRow[] } {
  const at = (ms: number) => new Date(now.getTime() + ms);
  const step = (
    n: number,
    orderId: string,
    s: NewProvisioningStepRow['step'],
    when: Date,
    actor = 'network',
  ): NewProvisioningStepRow => ({
    id: `6a1d0c3e-0000-4f00-9a00-${String(n).padStart(12, '0')}`,
    orderId,
    step: s,
    at: when,
    actor,
  });
  const portDate = at(2 * DAY);
  return {
    columns: new Map<string, Partial<NewOrderRow>>([
      [
        ids.bardur,
        {
          simDelivery: 'home',
          shippingAddress: shipping.address,
          shippingPostCode: shipping.postCode,
          shippingCity: shipping.city,
          isPorting: false,
          provisioningWaitingFor: 'customer_sim',
          provisioningNextAt: at(2 * DAY),
        },
      ],
      [
        ids.gudrunSecond,
        {
          simDelivery: 'esim',
          isPorting: true,
          portingSimcardNumber: portedIccid,
          esimMatchingId: 'T4RM-8QZC-1WNE-6HDA',
          provisioningWaitingFor: 'network',
          provisioningNextAt: portDate,
          portDate,
        },
      ],
    ]),
    steps: [
      step(1, ids.bardur, 'received', at(-2 * DAY), 'customer'),
      step(2, ids.bardur, 'sim_sent', at(-1 * DAY)),
      step(3, ids.gudrunSecond, 'received', at(-1 * DAY), 'customer'),
      step(4, ids.gudrunSecond, 'esim_ready', at(-1 * DAY + HOUR)),
      step(5, ids.gudrunSecond, 'port_requested', at(-1 * DAY + 2 * HOUR)),
      step(6, ids.gudrunSecond, 'port_date_set', at(-1 * DAY + 5 * HOUR)),
    ],
  };
}
