import type { Order } from '../schemas/orders';

type OrderFlags = Pick<Order, 'isComplete' | 'isCancelled' | 'isMainSubscription'>;

/** SPEC §4 "An order is processing while isComplete is false" (a cancelled one is not). */
export function isProcessing(order: Pick<Order, 'isComplete' | 'isCancelled'>): boolean {
  return !order.isComplete && !order.isCancelled;
}

/** SPEC §3 "Cancelled orders are hidden": the orders to show, in the given order. */
export function visibleOrders<O extends Pick<Order, 'isCancelled'>>(orders: readonly O[]): O[] {
  return orders.filter((o) => !o.isCancelled);
}

/**
 * SPEC §3 "The first main-subscription order that is not complete is kept as a backup": the
 * first (in the given order) main-subscription order that is still processing, or null. A
 * cancelled order is hidden (SPEC §3), so it is never the backup.
 */
export function backupMainOrder<O extends OrderFlags>(orders: readonly O[]): O | null {
  return orders.find((o) => o.isMainSubscription && isProcessing(o)) ?? null;
}

/**
 * SPEC §4 "Plan changes are blocked while orders are processing": true when any order that is
 * not cancelled is still incomplete.
 */
export function hasProcessingOrders(
  orders: readonly Pick<Order, 'isComplete' | 'isCancelled'>[],
): boolean {
  return orders.some(isProcessing);
}
