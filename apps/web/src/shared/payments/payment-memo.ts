import type { CheckoutMethod } from '@alda/contract/schemas/orders';

/**
 * What the app remembers about a payment it started, kept in sessionStorage so it survives the
 * round trip through the provider's hosted card page (a full page load of this tab). The order
 * itself comes from the API; the memo only adds what the order does not carry.
 */
export interface PaymentMemo {
  /** What was bought, as shown on the purchase screen (e.g. '5 GB'). */
  itemName?: string;
  /**
   * The call that placed the order, so a declined payment can be placed again (a new
   * Idempotency-Key: it is a new attempt, not a retry of the old request) the way the customer
   * chose — the card page or MobilePay; a declined agreement by its kind's checkout (`paidWith`).
   */
  retry?: { path: string; body: Record<string, unknown> };
  /**
   * What the customer pays with: a card (the card page or a card on file) or MobilePay (the
   * wallet or a MobilePay agreement). The status screen's words follow it ("the card was
   * declined" / "the payment was declined"); `usePurchase` fills it from a checkout `payWith`.
   */
  paidWith?: CheckoutMethod;
  /** The purchase screen to go back to (used when there is no `retry`). */
  returnTo?: string;
  /**
   * Where the customer carries on once the payment is through, e.g. the sign-up's confirm step
   * after registering the card on file (ADR 0055). Only followed when `safeAppPath`
   * (shared/config/safe-app-path.ts) accepts it, as sessionStorage is not ours alone.
   */
  continueTo?: string;
}

const PREFIX = 'alda.payment.';

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    // Storage can be disabled (private mode, sandboxed frames): the screen then says less.
    return null;
  }
}

export function rememberPayment(orderId: string, memo: PaymentMemo): void {
  try {
    storage()?.setItem(PREFIX + orderId, JSON.stringify(memo));
  } catch {
    // Full or refused storage only costs the item name on the status screen.
  }
}

export function recallPayment(orderId: string): PaymentMemo | null {
  const raw = storage()?.getItem(PREFIX + orderId);
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(raw);
    return value && typeof value === 'object' ? (value as PaymentMemo) : null;
  } catch {
    return null;
  }
}
