import type { PushPayload } from '@alda/contract/schemas/push';

/** The push platforms a device can be on (ADR 0096). */
export type PushPlatform = 'web' | 'apns' | 'fcm';

/** One push to one device. */
export interface PushMessage {
  device: {
    platform: PushPlatform;
    /** Web push: the subscription's endpoint (RFC 8030); APNs / FCM: the device token. */
    address: string;
    /** Web push only (RFC 8291): the browser's P-256 public key and auth secret, base64url. */
    p256dh: string | null;
    auth: string | null;
  };
  /** What the app shows and opens; its `id` (the notification's) is the collapse key / tag. */
  payload: PushPayload;
  /** Security pushes: high priority / urgency. */
  urgent: boolean;
  /** How long the push service keeps it for a device that is offline, seconds. */
  ttlS: number;
}

/**
 * How a push ended, as the push service answered:
 * - `sent`: accepted (web push 201, APNs 200, FCM 200);
 * - `gone`: the address is no longer valid (web push 404/410, APNs 410 or 400 BadDeviceToken,
 *   FCM 404 UNREGISTERED): the device is removed at once;
 * - `retry`: not accepted this time and safe to send again (429, 5xx, no connection before the
 *   request left), after `retryAfterS` when the service said so;
 * - `refused`: refused for good (another 4xx: a bad payload, a wrong key);
 * - `unknown`: the request may have reached the service but no answer came back (a timeout, a
 *   connection reset after sending): never sent again, so a device gets it at most once.
 */
export type PushOutcome =
  | { kind: 'sent' }
  | { kind: 'gone'; reason: string }
  | { kind: 'retry'; reason: string; retryAfterS?: number }
  | { kind: 'refused'; reason: string }
  | { kind: 'unknown'; reason: string };

export interface PushSender {
  platform: PushPlatform;
  send(message: PushMessage): Promise<PushOutcome>;
  /** Closes connections (APNs keeps an HTTP/2 session open). */
  close(): Promise<void>;
}
