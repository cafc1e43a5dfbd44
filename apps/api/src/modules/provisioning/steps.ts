import type { OrderKind } from '@alda/contract/schemas/orders';
import type {
  ProvisioningStepKey,
  ProvisioningWaitingFor,
  SimDelivery,
} from '@alda/contract/schemas/provisioning';

/*
 * The steps of an order (docs/decisions/0055-provisioning.md), as pure rules:
 *
 * | order                   | steps                                                         |
 * | new number, eSIM        | received → esim_ready → active (the customer installs it)     |
 * | new number, shop / home | received → sim_ready_for_pickup / sim_sent → active           |
 * | new number, own card    | received → active                                             |
 * | porting                 | received → (SIM step) → port_requested → port_date_set →      |
 * |                         | number_moved → active                                         |
 *
 * A rejected port (`port_rejected`) is asked again (`port_requested`) once the customer has
 * corrected the SIM card number; a `failed` step stops the order until an operator retries it.
 */

/** Order kinds the provisioning worker carries out. */
export const PROVISIONED_KINDS: readonly OrderKind[] = [
  'new_subscription',
  'add_member',
  'sim_change',
];

export interface PlanOf {
  simDelivery: SimDelivery | null;
  isPorting: boolean;
}

const SIM_STEP: Record<SimDelivery, ProvisioningStepKey[]> = {
  esim: ['esim_ready'],
  pickup: ['sim_ready_for_pickup'],
  home: ['sim_sent'],
  own_card: [],
};

/** Every step the order goes through when nothing goes wrong, `received` first, `active` last. */
export function stepPlan(order: PlanOf): ProvisioningStepKey[] {
  return [
    'received',
    ...SIM_STEP[order.simDelivery ?? 'own_card'],
    ...(order.isPorting ? (['port_requested', 'port_date_set', 'number_moved'] as const) : []),
    'active',
  ];
}

/**
 * The step to perform next, given the steps done so far (oldest first); null when the order is
 * complete. A failure is ignored here (a retry performs the step that was due), a rejected port
 * is asked again.
 */
export function nextStep(
  order: PlanOf,
  done: readonly ProvisioningStepKey[],
): ProvisioningStepKey | null {
  if (done.includes('active')) return null;
  const last = [...done].reverse().find((s) => s !== 'failed');
  if (last === undefined) return 'received';
  if (last === 'port_rejected') return 'port_requested';
  const plan = stepPlan(order);
  return plan[plan.indexOf(last) + 1] ?? null;
}

/**
 * The steps still to come, in order: empty when complete. (An order stopped by a failure waits
 * on no one; callers show nothing to come while `waitingFor` is `none`.)
 */
export function upcomingSteps(
  order: PlanOf,
  done: readonly ProvisioningStepKey[],
): ProvisioningStepKey[] {
  const next = nextStep(order, done);
  if (next === null) return [];
  const plan = stepPlan(order);
  return plan.slice(plan.indexOf(next));
}

export interface Timing {
  stepS: number;
  simConfirmS: number;
}

/**
 * Who the order waits on after `step` and when the worker acts next (null: it does not, until
 * the customer or an operator does something).
 */
export function waitAfter(
  order: PlanOf,
  step: ProvisioningStepKey,
  now: Date,
  timing: Timing,
  portDate: Date | null,
): { waitingFor: ProvisioningWaitingFor; nextAt: Date | null } {
  const after = (s: number) => new Date(now.getTime() + s * 1000);
  switch (step) {
    case 'active':
    case 'failed':
      return { waitingFor: 'none', nextAt: null };
    case 'port_rejected':
      return { waitingFor: 'customer_correction', nextAt: null };
    case 'port_date_set':
      return { waitingFor: 'network', nextAt: portDate ?? after(timing.stepS) };
    case 'esim_ready':
    case 'sim_sent':
    case 'sim_ready_for_pickup':
      // The SIM is in the customer's hands (an eSIM to install, a card to put in): the line
      // becomes active when they confirm it works, or by itself after `simConfirmS`. When a port
      // follows, the network goes on with it instead.
      if (nextStep(order, ['received', step]) === 'active')
        return { waitingFor: 'customer_sim', nextAt: after(timing.simConfirmS) };
      return { waitingFor: 'network', nextAt: after(timing.stepS) };
    default:
      return { waitingFor: 'network', nextAt: after(timing.stepS) };
  }
}
