import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { WebhookVerificationError } from './provider';

/** Header of the test provider's webhooks: `t=<unix seconds>,v1=<hex HMAC-SHA256>`. */
export const SIGNATURE_HEADER = 'alda-signature';

/** A webhook signed longer ago than this is refused (replay protection, like Stripe's). */
export const SIGNATURE_TOLERANCE_S = 300;

/** HMAC-SHA256(secret, `${t}.${rawBody}`) in hex. */
export function signatureOf(secret: string, timestamp: number, rawBody: Buffer | string): string {
  return createHmac('sha256', secret)
    .update(`${timestamp}.`)
    .update(typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody)
    .digest('hex');
}

/** The header value for a body signed at `at`. */
export function signatureHeader(secret: string, at: Date, rawBody: Buffer | string): string {
  const timestamp = Math.floor(at.getTime() / 1000);
  return `t=${timestamp},v1=${signatureOf(secret, timestamp, rawBody)}`;
}

/**
 * Checks `Alda-Signature` over the raw body: one `t`, at least one `v1` (several are allowed while
 * a secret is rotated), and a timestamp at most {@link SIGNATURE_TOLERANCE_S} from `now` in
 * either direction. Throws {@link WebhookVerificationError}.
 */
export function verifySignature(
  secret: string,
  rawBody: Buffer,
  headers: IncomingHttpHeaders,
  now: Date,
): void {
  const header = headers[SIGNATURE_HEADER];
  if (typeof header !== 'string' || header.length > 1024) {
    throw new WebhookVerificationError('missing signature header');
  }
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const [key, value] = part.trim().split('=', 2);
    if (key === 't' && value && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    if (key === 'v1' && value && /^[0-9a-f]{64}$/.test(value)) signatures.push(value);
  }
  if (timestamp === undefined || signatures.length === 0) {
    throw new WebhookVerificationError('malformed signature header');
  }
  if (Math.abs(now.getTime() / 1000 - timestamp) > SIGNATURE_TOLERANCE_S) {
    throw new WebhookVerificationError('signature timestamp outside the tolerance');
  }
  const expected = Buffer.from(signatureOf(secret, timestamp, rawBody), 'hex');
  const matches = signatures.some((candidate) =>
    timingSafeEqual(Buffer.from(candidate, 'hex'), expected),
  );
  if (!matches) throw new WebhookVerificationError('signature does not match');
}
