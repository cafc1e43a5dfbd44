import { toWireNumber } from '@alda/contract/rules/phone';
import { SmsDeliveryError, type SmsSender } from './sms-sender';

export interface HttpSmsGatewayOptions {
  url: string;
  token: string | undefined;
  /** `from` of every message: an alphanumeric sender id or a number. */
  sender: string;
  /** Whole request, connect to last byte; a code that arrives after minutes is useless anyway. */
  timeoutMs?: number;
  fetch?: typeof globalThis.fetch;
}

const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * An SMS provider behind a small JSON API: `POST <url>` with
 * `{ "to": "298xxxxxx", "from": "<sender>", "text": "…" }`, `Authorization: Bearer <token>`.
 * Any 2xx is accepted. Network failures, timeouts and 5xx/429 are temporary
 * {@link SmsDeliveryError}s; other 4xx are permanent (bad token, bad sender, refused number).
 * The body of an error answer is kept (shortened) for the log, never shown to the customer.
 */
export function createHttpSmsGateway(options: HttpSmsGatewayOptions): SmsSender {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return {
    kind: 'http-gateway',
    async send(message) {
      const body = JSON.stringify({
        to: toWireNumber(message.to),
        from: options.sender,
        text: message.text,
      });
      let response: Response;
      try {
        response = await fetchImpl(options.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json',
            ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          },
          body,
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
        throw new SmsDeliveryError(
          timedOut
            ? `SMS gateway did not answer within ${timeoutMs} ms`
            : 'SMS gateway unreachable',
          { cause: error },
        );
      }
      let detail = '';
      try {
        detail = (await response.text()).slice(0, 300);
      } catch {
        // A body that breaks off after a 2xx status does not undo the acceptance.
      }
      if (!response.ok) {
        const permanent =
          response.status >= 400 && response.status < 500 && response.status !== 429;
        throw new SmsDeliveryError(`SMS gateway answered ${response.status}: ${detail}`, {
          permanent,
          status: response.status,
        });
      }
    },
  };
}
