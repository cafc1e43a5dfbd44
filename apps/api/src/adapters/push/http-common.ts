import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';

// What the three push senders (web push, APNs, FCM) share: reading Retry-After, and trusting an
// extra CA without dropping Node's bundled ones.

/**
 * Seconds to wait from a `Retry-After` header (delay-seconds or an HTTP-date, RFC 9110 §10.2.3),
 * undefined when absent or unreadable. A date in the past is 0.
 */
export function retryAfterSeconds(
  value: string | string[] | undefined,
  now: Date,
): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text);
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now.getTime()) / 1000));
}

/**
 * Node's bundled CAs plus `ca`. A `ca` alone would replace them (node:tls), and the real push
 * services would then fail verification.
 */
export function secureContextWith(ca: string | undefined): SecureContext | undefined {
  return ca ? createSecureContext({ ca: trustedCas(ca) }) : undefined;
}

/** The CA list of an `https.Agent` that trusts `ca` besides Node's bundled CAs. */
export function trustedCas(ca: string): string[] {
  return [...rootCertificates, ca];
}
