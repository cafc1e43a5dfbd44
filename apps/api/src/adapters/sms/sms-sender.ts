/**
 * Sending SMS (one-time codes, alerts). The built-in outbox keeps them in the database for
 * development; the HTTP gateway adapter hands them to a provider's JSON API
 * (docs/decisions/0025-messaging-adapters.md); the SMPP adapter queues them in the outbox table
 * and submits them to the operator's SMSC (docs/decisions/0084-sms-smpp.md).
 */
export interface SmsMessage {
  /** The 6-digit national number; adapters add the 298 prefix where the wire needs it. */
  to: string;
  text: string;
  /**
   * A one-time code the customer is waiting for: an adapter that queues (SMPP) resolves only
   * once the SMSC has accepted it, and after this many seconds gives up for good — the message
   * is never sent later. Unset: a queuing adapter resolves as soon as the message is queued.
   * Adapters that hand the message over at once (outbox, HTTP gateway) ignore it.
   */
  deadlineS?: number;
  /**
   * How long the content is of use (a one-time code's life, from now). An adapter that can asks
   * the network to drop the message undelivered after that (SMPP: `validity_period`), so a late
   * SMS never arrives with a dead code. Unset: the SMSC's own default validity.
   */
  validityS?: number;
}

export interface SmsSender {
  /** Which implementation, for the start-up log. */
  readonly kind: 'outbox' | 'http-gateway' | 'smpp';
  /** Resolves once the message is accepted for delivery; rejects with {@link SmsDeliveryError}. */
  send(message: SmsMessage): Promise<void>;
  /** Connects and starts background work (SMPP: the session and the dispatcher); at app start. */
  start?(): Promise<void>;
  /** Ends it gracefully (SMPP: unbind); at app close, before the database closes. */
  close?(): Promise<void>;
  /** Running counts for the metrics: handed over to the gateway or SMSC, or given up. */
  readonly stats?: Readonly<SmsStats>;
}

export interface SmsStats {
  /** Accepted by the gateway, the SMSC (submit_sm_resp OK) or the outbox. */
  sent: number;
  /** Refused or given up (a gateway error, an SMSC refusal, a code past its deadline). */
  failed: number;
}

/** The message was not accepted. `permanent` failures (4xx) point at configuration or input. */
export class SmsDeliveryError extends Error {
  override name = 'SmsDeliveryError';
  readonly permanent: boolean;
  readonly status: number | undefined;

  constructor(
    message: string,
    options: { permanent?: boolean; status?: number; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.permanent = options.permanent ?? false;
    this.status = options.status;
  }
}
