import { createHash, timingSafeEqual } from 'node:crypto';
import { tmf641CallbackSegment } from '../../../config';

/*
 * The address the OSS posts its TMF641 events to (docs/decisions/0082-network-tmf641.md,
 * "Events an OSS can send"). TMF641's `EventSubscriptionInput` is only `callback` and `query`:
 * an OSS cannot be told to send a header of ours, so the callback itself carries the secret —
 *
 *   <APP_URL>/tmf-api/listener/serviceOrdering/v4/<segment>
 *
 * where `segment` is HMAC-SHA256(TMF641_LISTENER_SECRET, "alda-tmf641-callback") in hex (64
 * characters, 256 bits; config.ts derives `tmf641CallbackUrl` with it). Derived, not stored: every instance behind the load balancer knows it
 * from its configuration without a database read, and a forged event costs a hash. Rotating
 * TMF641_LISTENER_SECRET rotates it (the next start registers the new callback and removes the
 * old subscription at the hub). The same value by hand:
 *
 *   printf %s alda-tmf641-callback | openssl dgst -sha256 -hmac "$TMF641_LISTENER_SECRET" -r | cut -c1-64
 *
 * The callback is secret: logs, the database and the audit log get the form of log-privacy.ts's
 * `urlWithoutCallbackSecret`: its secret segment replaced by `[secret <8 hex>]`, the start of the
 * segment's SHA-256 — enough to tell two secrets apart, nothing to post with. The same function
 * masks every request's URL in the log (`serializeRequest`).
 */

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * A check of presented values against `expected`, in constant time: both are hashed first, so
 * neither their content nor their length shows in the time taken.
 */
export function constantTimeMatch(expected: string): (presented: string) => boolean {
  const wanted = digest(expected);
  return (presented) => timingSafeEqual(digest(presented), wanted);
}

/** A check of a presented segment against the secret's, in constant time. */
export function segmentGuard(secret: string): (presented: string) => boolean {
  return constantTimeMatch(tmf641CallbackSegment(secret));
}
