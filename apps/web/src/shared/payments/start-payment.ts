import type { OrderPlacedResponse } from '@alda/contract/schemas/orders';
import { openExternalUrl } from '@/shared/native/browser';
import { isNativePlatform } from '@/shared/native/platform';
import { rememberPayment, type PaymentMemo } from './payment-memo';
import { href, ROUTES } from '@/shared/config/paths';

/**
 * How the app shows the provider's hosted card page (replaced in tests). The web leaves for it in
 * this tab (it returns to `/betaling/:orderId`); the native shell opens it in the in-app browser
 * over the app, which must not leave its own WebView (ADR 0054).
 */
export const paymentRedirect = {
  assign: (url: string) => window.location.assign(url),
  openInApp: (url: string) => openExternalUrl(url),
};

export type PaymentNavigate = (to: string, options?: { replace?: boolean }) => unknown;

/**
 * Continues a purchase once the API has placed the order (every purchase answers
 * `orderPlacedResponse`): with a `paymentUrl` the customer pays on the provider's hosted page (the
 * card page, or MobilePay's), which returns to `/betaling/:orderId` (native: in the in-app browser over that screen); without one (card on file, nothing to pay) the app goes to
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
  if (placed.paymentUrl && !isNativePlatform()) {
    paymentRedirect.assign(placed.paymentUrl);
    return;
  }
  // Native: the status screen waits under the card page and follows the payment live. MobilePay
  // (`payWith: 'mobilepay'`) goes the same way: its page in the in-app browser hands over to the
  // MobilePay app by a universal link (the API chose the app-switch flow by X-Alda-Platform), and
  // MobilePay returns by the app link `/betaling/<order>` (useDeepLinks), which closes the browser.
  if (placed.paymentUrl) void paymentRedirect.openInApp(placed.paymentUrl);
  void navigate(href(ROUTES.paymentStatus, { orderId: placed.order.id }));
}
