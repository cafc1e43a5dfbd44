import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { WebhookVerificationError } from '../provider';

/*
 * Vipps MobilePay's webhook request authentication (Webhooks API, "Request authentication"; the
 * scheme is quoted in apps/api/test/contracts/vipps-mobilepay/README.md):
 *
 *   x-ms-content-sha256: base64(SHA-256(raw body))
 *   x-ms-date:           RFC 1123 date of the request
 *   host:                the host the request was sent to
 *   authorization:       HMAC-SHA256 SignedHeaders=x-ms-date;host;x-ms-content-sha256&Signature=<s>
 *
 *   s = base64(HMAC-SHA256(secret, "POST\n<path and query>\n<x-ms-date>;<host>;<content hash>"))
 *
 * The secret is the one the Webhooks API answered when the webhook was registered.
 *
 * How old a request may be (ADR 0081 "Guidelines: polling, 429, webhooks"): their Webhooks API
 * guide says a failed notification is "retried with an exponential backoff for up to 7 days", and
 * documents no new `x-ms-date` for a retry. A retry that keeps its first date must still pass, or
 * one refused delivery would hold back every later event of that payment for a week (their
 * deliveries are in order per payment). A replay of a genuine request changes nothing: the event
 * id is the body's hash, recorded once.
 */

/** How long after its `x-ms-date` a request is taken: their retry span, 7 days, and an hour. */
export const WEBHOOK_MAX_AGE_S = 7 * 86_400 + 3_600;
/** How far ahead of our clock an `x-ms-date` may be (two clocks never agree exactly). */
export const WEBHOOK_CLOCK_SKEW_S = 300;

const AUTHORIZATION =
  /^HMAC-SHA256 SignedHeaders=x-ms-date;host;x-ms-content-sha256&Signature=([A-Za-z0-9+/=]+)$/;

function header(headers: IncomingHttpHeaders, name: string): string {
  const value = headers[name];
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) throw new WebhookVerificationError(`missing ${name} header`);
  return text;
}

const sameBytes = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b);

/** The base64 SHA-256 of a body, as `x-ms-content-sha256` carries it. */
export function contentHash(rawBody: Buffer): string {
  return createHash('sha256').update(rawBody).digest('base64');
}

/** The signature of one request with one secret. */
export function webhookSignature(input: {
  secret: string;
  method: string;
  pathAndQuery: string;
  date: string;
  host: string;
  contentHash: string;
}): string {
  const toSign = `${input.method}\n${input.pathAndQuery}\n${input.date};${input.host};${input.contentHash}`;
  return createHmac('sha256', input.secret).update(toSign, 'utf8').digest('base64');
}

/**
 * Checks a webhook request: the body's hash, the date's age and the HMAC with any of the
 * registered secrets (a second registration while rotating). Throws
 * {@link WebhookVerificationError} saying what was wrong.
 */
export function verifyVippsWebhook(input: {
  rawBody: Buffer;
  headers: IncomingHttpHeaders;
  pathAndQuery: string;
  secrets: readonly string[];
  now: Date;
}): void {
  const { rawBody, headers, secrets } = input;
  const hash = header(headers, 'x-ms-content-sha256');
  const date = header(headers, 'x-ms-date');
  const host = header(headers, 'host');
  const match = AUTHORIZATION.exec(header(headers, 'authorization'));
  if (!match?.[1]) throw new WebhookVerificationError('authorization header is not HMAC-SHA256');
  if (!sameBytes(Buffer.from(contentHash(rawBody)), Buffer.from(hash))) {
    throw new WebhookVerificationError('body does not match x-ms-content-sha256');
  }
  const sentAt = Date.parse(date);
  if (Number.isNaN(sentAt)) throw new WebhookVerificationError('x-ms-date is not a date');
  const age = input.now.getTime() - sentAt;
  if (age > WEBHOOK_MAX_AGE_S * 1000) {
    throw new WebhookVerificationError('x-ms-date is older than their retries last');
  }
  if (-age > WEBHOOK_CLOCK_SKEW_S * 1000) {
    throw new WebhookVerificationError('x-ms-date is in the future');
  }
  if (secrets.length === 0) throw new WebhookVerificationError('no webhook is registered');
  const given = Buffer.from(match[1]);
  const signedBy = secrets.find((secret) =>
    sameBytes(
      Buffer.from(
        webhookSignature({
          secret,
          method: 'POST',
          pathAndQuery: input.pathAndQuery,
          date,
          host,
          contentHash: hash,
        }),
      ),
      given,
    ),
  );
  if (!signedBy) throw new WebhookVerificationError('signature does not match');
}
