import type { Order } from '@alda/contract/schemas/orders';
import type { ProvisioningStepKey } from '@alda/contract/schemas/provisioning';

/**
 * The step an order being provisioned has reached (its latest), for "where is my order" lines on
 * home and the orders list (SPEC §4 "Subscription processing can take days"); null for orders
 * without provisioning. The text is `provisioning.step.<key>`.
 */
export function currentProvisioningStep(order: Order): ProvisioningStepKey | null {
  const steps = order.provisioning?.steps ?? [];
  return steps.at(-1)?.step ?? null;
}
