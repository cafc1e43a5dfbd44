import type { OrderPlacedResponse } from '@alda/contract/schemas/orders';
import { PAYMENT_PATHS } from './paths';
import { rememberPayment, type PaymentMemo } from './payment-memo';

/** How the app leaves for the provider's hosted card page (replaced in tests). */
export const paymentRedirect = {
  assign: (url: string) => window.location.assign(url),
};

export type PaymentNavigate = (to: string, options?: { replace?: boolean }) => unknown;

/**
 * Continues a purchase once the API has placed the order (every purchase answers
 * `orderPlacedResponse`): with a `paymentUrl` the customer pays on the provider's hosted card page,
 * which returns to `/betaling/:orderId`; without one (card on file, nothing to pay) the app goes to
 * `/betaling/:orderId` at once. That screen follows the payment live (SPEC §4 "Payment flow").
 *
 * `memo` is what the status screen cannot learn from the order: the item's name and how to place
 * the purchase again after a decline.
 */
export function startPayment(
  placed: OrderPlacedResponse,
  navigate: PaymentNavigate,
  memo: PaymentMemo = {},
): void {
  rememberPayment(placed.order.id, memo);
  if (placed.paymentUrl) {
    paymentRedirect.assign(placed.paymentUrl);
    return;
  }
  void navigate(PAYMENT_PATHS.status(placed.order.id));
}
