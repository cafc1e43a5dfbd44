import type { IncomingHttpHeaders } from 'node:http';
import type { Locale } from '@alda/contract/locale';
import type { CheckoutMethod } from '@alda/contract/schemas/orders';

/**
 * A card payment provider as the payments module sees it (docs/decisions/0050-payments.md). The
 * built-in test provider implements it; a real one (Nets, Stripe, Adyen …) would too. Amounts
 * are øre including VAT. `reference` is always our payment id, so every answer and every event
 * can be tied back to one payment row.
 */
export interface PaymentProvider {
  /** The adapter's name: stored on each payment and the `:provider` of the webhook URL. */
  readonly name: string;
  /** How a customer can pay on the provider's side, in the order the app offers them. */
  readonly checkoutMethods: readonly CheckoutMethod[];
  /** How the customer approves a payment agreement (card check, or an agreement in MobilePay). */
  readonly agreementVia: CheckoutMethod;
  /**
   * A charge on the agreement is taken days later, not at once (Vipps MobilePay's Recurring
   * charges are due two days ahead): then only the month's payment may be charged to it.
   */
  readonly agreementChargesLater?: boolean;
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
  verifyWebhook(
    rawBody: Buffer,
    headers: IncomingHttpHeaders,
    /** The path and query the request was sent to (some providers sign it). */
    pathAndQuery: string,
  ): ProviderEvent | Promise<ProviderEvent>;
  /** The provider's current view of a payment (reconciliation); null when it does not know it. */
  getPayment(providerPaymentId: string): Promise<ProviderPaymentView | null>;
  /**
   * Pays a succeeded charge back, in full or in part (`amountOere`, at most the charge). The same
   * `idempotencyKey` answers the first refund again instead of paying twice. Throws
   * {@link PaymentProviderError} when it cannot.
   */
  refund(input: RefundInput): Promise<{ providerRefundId: string }>;
  /**
   * Ends a payment agreement at the provider, so it can never be charged again. Idempotent: an
   * agreement already ended answers as ended. Throws {@link PaymentProviderError} when it cannot.
   */
  stopAgreement(agreementRef: string): Promise<void>;
  /**
   * Reserve → capture providers: takes the reserved amount of a payment the provider reports as
   * `authorized` (the goods are delivered at once, so all of it). The outcome arrives by webhook
   * or the next `getPayment`. Providers that charge at once leave it out.
   */
  capture?(input: CaptureInput): Promise<void>;
  /**
   * Reserve → capture providers: lets go of a reservation we will not capture (the payment was
   * already given up here when the customer approved it). Idempotent.
   */
  cancelReservation?(input: { providerPaymentId: string; idempotencyKey: string }): Promise<void>;
}

export interface CaptureInput {
  providerPaymentId: string;
  amountOere: number;
  /** Stable per payment: a retry is not a second capture. */
  idempotencyKey: string;
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
  /** Card on the provider's page, or the MobilePay wallet (one of `checkoutMethods`). */
  method: CheckoutMethod;
  /** The customer pays from the native shell: a wallet may switch to its app and back. */
  native: boolean;
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
  /** Null for a wallet (a MobilePay agreement shows no card). */
  last4: string | null;
  /** `MM/YY`. */
  expiry: string | null;
}

export const PROVIDER_EVENT_TYPES = [
  'payment.pending',
  'payment.authorized',
  'payment.succeeded',
  'payment.failed',
  /** An event that moves nothing here (created, refunded, a failed capture attempt): recorded. */
  'payment.other',
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
  /**
   * The amount the event is about, where the provider says it: the payments core refuses an
   * authorisation or charge whose amount or currency differs from the payment's.
   */
  amount?: { currency: string; oere: number } | undefined;
}

/**
 * Where the provider says a payment stands: `created` (card page not submitted yet), `pending`
 * (being processed), `authorized` (reserved, waiting for our capture: reserve → capture
 * providers only), `succeeded` or `failed` (with a reason; `cancelled` and `expired` mean
 * the customer gave up, which we record as cancelled).
 */
export interface ProviderPaymentView {
  state: 'created' | 'pending' | 'authorized' | 'succeeded' | 'failed';
  /** What the provider holds the payment to be for, where it says (checked against ours). */
  amount?: { currency: string; oere: number } | undefined;
  card?: ProviderCard | undefined;
  agreementRef?: string | undefined;
  failureReason?: string | undefined;
}

/** The provider could not be reached or refused the request: the purchase answers 503. */
export class PaymentProviderError extends Error {
  override name = 'PaymentProviderError';
}

/**
 * A call whose answer never arrived (a time-out, a dropped connection, a 5xx to a POST): the
 * provider may or may not have done it. Never "failed" until the provider says so (ADR 0081
 * "Lost answers"): the payment stays open with `providerPaymentId`, the id it has at the provider
 * if the call went through, and reconciliation reads it (a 404 there: never made). Where the
 * adapter cannot know that id, `providerPaymentId` is undefined.
 */
export class PaymentOutcomeUnknownError extends PaymentProviderError {
  override name = 'PaymentOutcomeUnknownError';
  readonly providerPaymentId: string | undefined;
  constructor(message: string, options: { cause?: unknown; providerPaymentId?: string } = {}) {
    super(message, { cause: options.cause });
    this.providerPaymentId = options.providerPaymentId;
  }
}

/** A webhook that must not be trusted: bad or missing signature, too old, or not an event. */
export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
}
