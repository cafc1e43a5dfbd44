import type { Order } from '@alda/contract/schemas/orders';

/** How often an order being set up is read again while its screen is open (a step can land). */
const PROCESSING_REFRESH_MS = 30_000;
/** The soonest it is read again when the next step is due sooner than that. */
const MIN_REFRESH_MS = 1_000;

/**
 * When to read a processing order again: just after its next step is expected (so the screen
 * moves with it), at most every {@link PROCESSING_REFRESH_MS}.
 */
export function refreshDelay(order: Order, now = Date.now()): number {
  const expected = order.provisioning?.expectedAt;
  if (!expected || order.provisioning?.waitingFor !== 'network') return PROCESSING_REFRESH_MS;
  const untilDue = Date.parse(expected) - now + 500;
  return Math.min(PROCESSING_REFRESH_MS, Math.max(MIN_REFRESH_MS, untilDue));
}
