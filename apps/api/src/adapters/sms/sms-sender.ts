/**
 * Sending SMS (one-time codes of phone login). The built-in outbox keeps them in the database
 * for development; the HTTP gateway adapter hands them to a real SMS provider
 * (docs/decisions/0025-messaging-adapters.md).
 */
export interface SmsMessage {
  /** The 6-digit national number; adapters add the 298 prefix where the wire needs it. */
  to: string;
  text: string;
}

export interface SmsSender {
  /** Which implementation, for the start-up log. */
  readonly kind: 'outbox' | 'http-gateway';
  /** Resolves once the message is accepted for delivery; rejects with {@link SmsDeliveryError}. */
  send(message: SmsMessage): Promise<void>;
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
