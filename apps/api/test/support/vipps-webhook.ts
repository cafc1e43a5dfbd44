import type { InjectOptions } from 'fastify';
import {
  contentHash,
  webhookSignature,
} from '../../src/adapters/payments/vipps-mobilepay/signature';

/*
 * Vipps MobilePay webhooks as their Webhooks API sends them, for the tests of the adapter: an
 * ePayment event body (`WebhookEvent`) and the signed request that carries it (x-ms-date, host,
 * x-ms-content-sha256 and the HMAC-SHA256 Authorization header; signature.ts is the other side);
 * and the approved payment a GET answers when its webhook was lost.
 */

export const VIPPS_WEBHOOK_PATH = '/api/payments/webhooks/vipps-mobilepay';

/** An ePayment event of `name` (AUTHORIZED, CAPTURED, …) for our payment `reference`. */
export function epaymentEvent(
  reference: string,
  name: string,
  value: number,
  at: Date,
  extra: Record<string, unknown> = {},
) {
  return {
    msn: '123456',
    reference,
    pspReference: `psp-${name}-${reference.slice(0, 8)}`,
    name,
    amount: { currency: 'DKK', value },
    timestamp: at.toISOString(),
    idempotencyKey: null,
    success: true,
    ...extra,
  };
}

/**
 * An ePayment as `GET /epayment/v1/payments/{reference}` answers once the customer approved it in
 * MobilePay: `example` (Prism's answer) made AUTHORIZED for `value` øre, `captured` of it captured.
 */
export function authorizedPayment(example: unknown, value: number, captured = 0) {
  const money = (oere: number) => ({ currency: 'DKK', value: oere });
  return {
    ...(example as object),
    state: 'AUTHORIZED',
    amount: money(value),
    aggregate: {
      authorizedAmount: money(value),
      capturedAmount: money(captured),
      cancelledAmount: money(0),
      refundedAmount: money(0),
    },
  };
}

/**
 * The request that delivers `body`, signed with `secret` at `signedAt` for `host`; `sent` is a
 * body sent instead of the one signed (altered on the way).
 */
export function signedWebhook(
  body: Record<string, unknown>,
  options: { secret: string; signedAt: Date; host: string; sent?: string },
): InjectOptions {
  const raw = Buffer.from(JSON.stringify(body));
  const date = options.signedAt.toUTCString();
  const hash = contentHash(raw);
  const signature = webhookSignature({
    secret: options.secret,
    method: 'POST',
    pathAndQuery: VIPPS_WEBHOOK_PATH,
    date,
    host: options.host,
    contentHash: hash,
  });
  return {
    method: 'POST',
    url: VIPPS_WEBHOOK_PATH,
    headers: {
      host: options.host,
      'content-type': 'application/json',
      'x-ms-date': date,
      'x-ms-content-sha256': hash,
      authorization: `HMAC-SHA256 SignedHeaders=x-ms-date;host;x-ms-content-sha256&Signature=${signature}`,
    },
    payload: options.sent ?? raw,
  };
}
