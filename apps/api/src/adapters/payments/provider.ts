import type { IncomingHttpHeaders } from 'node:http';
import type { Locale } from '@alda/contract/locale';

/**
 * A card payment provider as the payments module sees it (docs/decisions/0050-payments.md). The
 * built-in test provider implements it; a real one (Nets, Stripe, Adyen …) would too. Amounts
 * are øre including VAT. `reference` is always our payment id, so every answer and every event
 * can be tied back to one payment row.
 */
export interface PaymentProvider {
  /** The adapter's name: stored on each payment and the `:provider` of the webhook URL. */
  readonly name: string;
  /**
   * A hosted card page for one payment. With `saveCard` (card registration) it is a zero-amount
   * card check that stores the card and reports its `agreementRef` on success.
   */
  createCheckout(input: CreateCheckoutInput): Promise<{
    providerPaymentId: string;
    checkoutUrl: string;
  }>;
  /** Charges a stored card without the customer; the outcome arrives by webhook. */
  chargeAgreement(input: ChargeAgreementInput): Promise<{ providerPaymentId: string }>;
  /**
   * Checks the signature (and its age) of a webhook over the raw body and parses the event.
   * Throws {@link WebhookVerificationError} when anything is wrong.
   */
  verifyWebhook(rawBody: Buffer, headers: IncomingHttpHeaders): ProviderEvent;
  /** The provider's current view of a payment (reconciliation); null when it does not know it. */
  getPayment(providerPaymentId: string): Promise<ProviderPaymentView | null>;
  /**
   * Pays a succeeded charge back, in full or in part (`amountOere`, at most the charge). The same
   * `idempotencyKey` answers the first refund again instead of paying twice. Throws
   * {@link PaymentProviderError} when it cannot.
   */
  refund(input: RefundInput): Promise<{ providerRefundId: string }>;
}

export interface RefundInput {
  providerPaymentId: string;
  /** Øre with VAT to pay back: all of the charge, or a part of it. */
  amountOere: number;
  /** Our refund's id: a retry (or a second instance) with it is not a second refund. */
  idempotencyKey: string;
}

export interface CreateCheckoutInput {
  reference: string;
  amountOere: number;
  description: string;
  /** Where the card page sends the customer afterwards (the app's payment status screen). */
  returnUrl: string;
  saveCard: boolean;
  /** The language the customer uses the app in: the card page speaks it. */
  locale: Locale;
}

export interface ChargeAgreementInput {
  reference: string;
  amountOere: number;
  description: string;
  /** The provider's reference of the stored card (payment_agreements.provider_reference). */
  agreementRef: string;
}

export interface ProviderCard {
  brand: string;
  last4: string;
  /** `MM/YY`. */
  expiry: string;
}

export const PROVIDER_EVENT_TYPES = [
  'payment.pending',
  'payment.succeeded',
  'payment.failed',
] as const;
export type ProviderEventType = (typeof PROVIDER_EVENT_TYPES)[number];

/** A webhook event, as every provider adapter hands it to the payments module. */
export interface ProviderEvent {
  /** Unique per event; redeliveries of one event carry the same id. */
  id: string;
  type: ProviderEventType;
  providerPaymentId: string;
  reference: string;
  occurredAt: string;
  card?: ProviderCard | undefined;
  agreementRef?: string | undefined;
  /** For `payment.failed`: `declined`, `cancelled`, `expired`, … */
  failureReason?: string | undefined;
}

/**
 * Where the provider says a payment stands: `created` (card page not submitted yet), `pending`
 * (being processed), `succeeded` or `failed` (with a reason; `cancelled` and `expired` mean
 * the customer gave up, which we record as cancelled).
 */
export interface ProviderPaymentView {
  state: 'created' | 'pending' | 'succeeded' | 'failed';
  card?: ProviderCard | undefined;
  agreementRef?: string | undefined;
  failureReason?: string | undefined;
}

/** The provider could not be reached or refused the request: the purchase answers 503. */
export class PaymentProviderError extends Error {
  override name = 'PaymentProviderError';
}

/** A webhook that must not be trusted: bad or missing signature, too old, or not an event. */
export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
}
