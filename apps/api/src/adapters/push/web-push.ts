import https from 'node:https';
import webpush, { WebPushError } from 'web-push';
import { retryAfterSeconds, trustedCas } from './http-common';
import type { PushOutcome, PushSender } from './push-sender';

export interface WebPushOptions {
  /** VAPID (RFC 8292): the application server's P-256 key pair, base64url, and its contact. */
  vapid: { publicKey: string; privateKey: string; subject: string };
  /** PEM of extra CA certificates to trust for the push services (tests, an operator's proxy). */
  ca?: string;
  timeoutMs: number;
}

/** Network errors raised before the request could have reached the push service. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * Web push (RFC 8030) with the `web-push` library: the payload encrypted for the browser's keys
 * (RFC 8291, aes128gcm), signed with our VAPID key (RFC 8292). `Topic` is the notification's id,
 * so a push service that still holds an earlier copy for an offline browser replaces it;
 * `Urgency: high` for security pushes.
 */
export function createWebPushSender(options: WebPushOptions): PushSender {
  // An extra CA is trusted besides Node's bundled ones (a `ca` alone would replace them).
  const agent = new https.Agent({
    keepAlive: true,
    ca: options.ca ? trustedCas(options.ca) : undefined,
    maxSockets: 16,
  });
  return {
    platform: 'web',
    async send(message): Promise<PushOutcome> {
      const { device, payload } = message;
      if (!device.p256dh || !device.auth)
        return { kind: 'refused', reason: 'no subscription keys' };
      try {
        await webpush.sendNotification(
          { endpoint: device.address, keys: { p256dh: device.p256dh, auth: device.auth } },
          JSON.stringify(payload),
          {
            vapidDetails: options.vapid,
            TTL: message.ttlS,
            urgency: message.urgent ? 'high' : 'normal',
            topic: payload.id.replaceAll('-', ''),
            contentEncoding: 'aes128gcm',
            timeout: options.timeoutMs,
            agent,
          },
        );
        return { kind: 'sent' };
      } catch (error) {
        if (error instanceof WebPushError) {
          const status = error.statusCode;
          const reason = `${status} ${error.body}`.slice(0, 300);
          if (status === 404 || status === 410) return { kind: 'gone', reason };
          if (status === 429 || status >= 500) {
            return {
              kind: 'retry',
              reason,
              retryAfterS: retryAfterSeconds(error.headers['retry-after'], new Date()),
            };
          }
          return { kind: 'refused', reason };
        }
        const code = (error as NodeJS.ErrnoException).code;
        const reason = `${code ?? ''} ${(error as Error).message}`.trim();
        if (code && NOT_SENT.has(code)) return { kind: 'retry', reason };
        return { kind: 'unknown', reason };
      }
    },
    async close() {
      agent.destroy();
    },
  };
}

/** A VAPID key pair for one process (demo mode: browsers subscribe again after a restart). */
export function generateVapidKeys(): { publicKey: string; privateKey: string } {
  return webpush.generateVAPIDKeys();
}
