import { createPrivateKey, type KeyObject } from 'node:crypto';
import {
  connect,
  constants,
  type ClientHttp2Session,
  type ClientHttp2Stream,
  type IncomingHttpHeaders,
  type OutgoingHttpHeaders,
} from 'node:http2';
import type { SecureContext } from 'node:tls';
import { SignJWT } from 'jose';
import { retryAfterSeconds, secureContextWith } from './http-common';
import type { PushMessage, PushOutcome, PushSender } from './push-sender';

/*
 * Apple Push Notification service, the HTTP/2 provider API with token-based authentication
 * (ADR 0096): one HTTP/2 session to APNs kept open (opened again when it closes), one stream per
 * push, `POST /3/device/<token>` with a provider token, an ES256 JWT of the team's `.p8` key.
 *
 * Our own code on node:http2 and jose, not a library (docs/architecture.md "Our own code where a
 * library exists"): `apns2` 12.2 connects to `https://<host>:443` only, with no CA, and reads its
 * `requestTimeout` option nowhere; `@parse/node-apn` 8.1 looks for `Retry-After` under a name
 * HTTP/2 never delivers, deletes it before its caller sees it, resends 429s and 5xx itself, and
 * rejects a time-out without a status, as it does a connection that failed.
 *
 * Whether a push may be sent again (the `PushOutcome`s of push-sender.ts) is decided by how far it
 * got: no connection, or a stream the server refused unprocessed (REFUSED_STREAM, RFC 9113 §8.7),
 * and it never left — `retry`; a stream that was sent and got no answer — `unknown`.
 */

export interface ApnsOptions {
  /** The Key ID of the `.p8` key (Apple developer account → Keys): the JWT header's `kid`. */
  keyId: string;
  /** The Team ID that owns the key: the JWT's `iss`. */
  teamId: string;
  /** The PEM text of the `.p8` key (PKCS #8, P-256). */
  key: string;
  /** The app's bundle id, sent as `apns-topic`. */
  topic: string;
  /** `https://api.push.apple.com`, `https://api.sandbox.push.apple.com`, or a stand-in. */
  url: string;
  /**
   * PEM of a CA to trust besides Node's bundled ones (the tests' CA, an operator's TLS-inspecting
   * proxy). Verification is never turned off.
   */
  ca?: string | undefined;
  /** Longest wait for the connection, and then for APNs' answer once the push was sent. */
  timeoutMs: number;
  /** The clock of the provider token and of `apns-expiration` (tests move it). */
  now?: () => Date;
}

/**
 * A provider token is made again after 50 minutes: APNs refuses one older than 60 minutes
 * (`ExpiredProviderToken`) and answers a new one more often than every 20 minutes with
 * `TooManyProviderTokenUpdates` ("Establishing a token-based connection to APNs").
 */
export const APNS_TOKEN_REFRESH_MS = 50 * 60_000;

/** An APNs error answer is `{ "reason": "…" }`; anything longer is cut off. */
const MAX_ANSWER_BYTES = 64 * 1024;

/** The `reason`s of a 400 that mean the device token is no good (besides 410 Unregistered). */
const GONE_REASONS = new Set(['BadDeviceToken', 'DeviceTokenNotForTopic']);

/**
 * How far one request got: an answer (any status), never sent (no connection, refused
 * unprocessed: safe to send again), or sent without an answer (it may have arrived).
 */
type Exchange =
  | { kind: 'answer'; status: number; headers: IncomingHttpHeaders; body: string }
  | { kind: 'not-sent'; reason: string }
  | { kind: 'no-answer'; reason: string };

/** The `.p8` key, read once at start so that a wrong one stops the start, not every push. */
function apnsKey(pem: string): KeyObject {
  const key = createPrivateKey(pem);
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    throw new Error('APNs key: not a P-256 private key (an Apple .p8 key is one)');
  }
  return key;
}

interface ProviderToken {
  jwt: string;
  issuedMs: number;
}

/**
 * The provider token, made when there is none or it is {@link APNS_TOKEN_REFRESH_MS} old (or the
 * clock went back past it), and shared by every push meanwhile. `expire` drops the one APNs
 * called expired; pushes that saw the same one then share one new token.
 */
function providerTokens(options: {
  keyId: string;
  teamId: string;
  key: KeyObject;
  now: () => Date;
}) {
  let current: ProviderToken | null = null;
  let signing: Promise<ProviderToken> | null = null;

  async function sign(): Promise<ProviderToken> {
    const issuedMs = options.now().getTime();
    const jwt = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: options.keyId })
      .setIssuer(options.teamId)
      .setIssuedAt(Math.floor(issuedMs / 1000))
      .sign(options.key);
    current = { jwt, issuedMs };
    return current;
  }

  return {
    get(): Promise<ProviderToken> {
      const age = options.now().getTime() - (current?.issuedMs ?? 0);
      if (current && age >= 0 && age < APNS_TOKEN_REFRESH_MS) return Promise.resolve(current);
      signing ??= sign().finally(() => {
        signing = null;
      });
      return signing;
    },
    expire(token: ProviderToken): void {
      if (current === token) current = null;
    },
  };
}

/**
 * One HTTP/2 session to `origin`, opened on first use and again after it closed or received a
 * GOAWAY (the old one finishes its streams). `request` sends one POST and tells how far it got.
 */
function http2Connection(
  origin: string,
  secureContext: SecureContext | undefined,
  timeoutMs: number,
) {
  let session: ClientHttp2Session | null = null;
  let opening: Promise<ClientHttp2Session> | null = null;
  let closed = false;

  function open(): Promise<ClientHttp2Session> {
    if (closed) return Promise.reject(new Error('the APNs sender is closed'));
    if (session && !session.closed && !session.destroyed) return Promise.resolve(session);
    if (opening) return opening;
    const next = connect(origin, secureContext ? { secureContext } : {});
    let lastError: Error | undefined;
    next.on('error', (error: Error) => {
      lastError = error;
    });
    const forget = () => {
      if (session === next) session = null;
    };
    next.once('goaway', forget);
    next.once('close', forget);
    opening = new Promise<ClientHttp2Session>((resolve, reject) => {
      const timer = setTimeout(() => {
        next.destroy();
        reject(new Error(`no connection within ${timeoutMs} ms`));
      }, timeoutMs);
      next.once('connect', () => {
        clearTimeout(timer);
        session = next;
        resolve(next);
      });
      next.once('close', () => {
        clearTimeout(timer);
        reject(lastError ?? new Error('connection closed'));
      });
    }).finally(() => {
      opening = null;
    });
    return opening;
  }

  /**
   * Waits for the answer. A stream that got no id never left, nor did one refused unprocessed
   * (`refused`: sent again once, on a new session when the old one is going away); one that did
   * leave may have arrived.
   */
  function exchange(
    stream: ClientHttp2Stream,
    body: string,
  ): Promise<Exchange & { refused?: true }> {
    return new Promise((resolve) => {
      let status: number | undefined;
      let headers: IncomingHttpHeaders = {};
      let ended = false;
      let timedOut = false;
      let size = 0;
      const chunks: Buffer[] = [];
      const timer = setTimeout(() => {
        timedOut = true;
        stream.close(constants.NGHTTP2_CANCEL);
      }, timeoutMs);
      stream.on('response', (answer) => {
        headers = answer;
        status = Number(answer[':status']);
      });
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= MAX_ANSWER_BYTES) chunks.push(chunk);
      });
      stream.on('end', () => {
        ended = true;
      });
      // What happened is read at 'close', which always follows.
      stream.on('error', () => {});
      stream.on('close', () => {
        clearTimeout(timer);
        if (status !== undefined) {
          // The status is APNs' answer even when the body broke off.
          resolve({
            kind: 'answer',
            status,
            headers,
            body: Buffer.concat(chunks).toString('utf8'),
          });
        } else if (stream.pending || stream.rstCode === constants.NGHTTP2_REFUSED_STREAM) {
          resolve({
            kind: 'not-sent',
            reason: stream.pending
              ? `stream never opened${timedOut ? ` within ${timeoutMs} ms` : ''}`
              : 'stream refused before it was processed (REFUSED_STREAM)',
            // Sent again at once, unless it already had all of its time.
            ...(timedOut ? {} : { refused: true as const }),
          });
        } else {
          resolve({
            kind: 'no-answer',
            reason: timedOut
              ? `no answer within ${timeoutMs} ms`
              : `stream closed without an answer (${ended ? 'ended' : `code ${stream.rstCode}`})`,
          });
        }
      });
      stream.end(body);
    });
  }

  async function requestOnce(path: string, headers: OutgoingHttpHeaders, body: string) {
    let current: ClientHttp2Session;
    try {
      current = await open();
    } catch (error) {
      return {
        kind: 'not-sent',
        reason: `no connection to APNs: ${(error as Error).message}`,
      } as const;
    }
    let stream: ClientHttp2Stream;
    try {
      stream = current.request({ ':method': 'POST', ':path': path, ...headers });
    } catch (error) {
      // The session closed between open() and here (ERR_HTTP2_INVALID_SESSION, GOAWAY).
      return {
        kind: 'not-sent',
        reason: `no session to APNs: ${(error as Error).message}`,
      } as const;
    }
    return exchange(stream, body);
  }

  return {
    /** One POST; a stream APNs refused unprocessed (a GOAWAY crossing it) is sent once more. */
    async request(path: string, headers: OutgoingHttpHeaders, body: string): Promise<Exchange> {
      const first = await requestOnce(path, headers, body);
      if (first.kind !== 'not-sent' || !('refused' in first)) return first;
      return requestOnce(path, headers, body);
    },

    /** Closes the session once its streams are done (each ends within `timeoutMs`). */
    async close(): Promise<void> {
      closed = true;
      const pending = opening;
      if (pending) await pending.catch(() => undefined);
      const current = session;
      session = null;
      if (!current || current.destroyed) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => current.destroy(), timeoutMs * 2);
        current.close(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };
}

/** The notification as APNs and the app's Capacitor plugin read it: the alert, and our fields. */
function apnsPayload(message: PushMessage) {
  const { id, kind, title, body, link } = message.payload;
  return { aps: { alert: { title, body }, sound: 'default', 'thread-id': kind }, link, id, kind };
}

/** The `reason` of an APNs error answer (`{ "reason": "BadDeviceToken" }`), '' when none. */
function apnsReason(body: string): string {
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === 'object' && 'reason' in parsed) {
      return typeof parsed.reason === 'string' ? parsed.reason : '';
    }
  } catch {
    // Not JSON: a proxy's page, a cut-off body.
  }
  return '';
}

/**
 * APNs' answer as a {@link PushOutcome} ("Handling notification responses from APNs"): 200 sent;
 * 410 and a 400 for the device token gone; 429 and 5xx retry; any other 4xx refused (a wrong
 * key, topic or payload, `ExpiredProviderToken` still after a new token: a clock that is off).
 */
function apnsOutcome(exchange: Exchange, now: Date): PushOutcome {
  if (exchange.kind === 'not-sent') return { kind: 'retry', reason: exchange.reason };
  if (exchange.kind === 'no-answer') return { kind: 'unknown', reason: exchange.reason };
  const { status } = exchange;
  if (status === 200) return { kind: 'sent' };
  const apnsId = exchange.headers['apns-id'];
  const reason = `APNs ${status} ${apnsReason(exchange.body) || '(no reason)'}${
    typeof apnsId === 'string' ? ` apns-id ${apnsId}` : ''
  }`;
  if (status === 410 || (status === 400 && GONE_REASONS.has(apnsReason(exchange.body)))) {
    return { kind: 'gone', reason };
  }
  if (status === 429 || status >= 500) {
    const retryAfterS = retryAfterSeconds(exchange.headers['retry-after'], now);
    return { kind: 'retry', reason, ...(retryAfterS === undefined ? {} : { retryAfterS }) };
  }
  return { kind: 'refused', reason };
}

/**
 * The APNs {@link PushSender}: an alert push per device token, `apns-priority` 10 for urgent
 * (security) pushes and 5 otherwise, kept by APNs for `ttlS` (`apns-expiration`), collapsed by
 * the notification's id. A 403 `ExpiredProviderToken` makes a new provider token and sends once
 * more at once (APNs took nothing).
 */
export function createApnsSender(options: ApnsOptions): PushSender {
  const now = options.now ?? (() => new Date());
  const tokens = providerTokens({
    keyId: options.keyId,
    teamId: options.teamId,
    key: apnsKey(options.key),
    now,
  });
  const connection = http2Connection(
    new URL(options.url).origin,
    secureContextWith(options.ca),
    options.timeoutMs,
  );

  async function attempt(message: PushMessage, token: ProviderToken, body: string) {
    const headers: OutgoingHttpHeaders = {
      authorization: `bearer ${token.jwt}`,
      'apns-topic': options.topic,
      'apns-push-type': 'alert',
      'apns-priority': message.urgent ? '10' : '5',
      'apns-expiration': String(Math.floor(now().getTime() / 1000) + message.ttlS),
      'apns-collapse-id': message.payload.id,
      'content-type': 'application/json',
    };
    return connection.request(
      `/3/device/${encodeURIComponent(message.device.address)}`,
      headers,
      body,
    );
  }

  return {
    platform: 'apns',
    async send(message) {
      const body = JSON.stringify(apnsPayload(message));
      const token = await tokens.get();
      let exchange = await attempt(message, token, body);
      if (
        exchange.kind === 'answer' &&
        exchange.status === 403 &&
        apnsReason(exchange.body) === 'ExpiredProviderToken'
      ) {
        tokens.expire(token);
        exchange = await attempt(message, await tokens.get(), body);
      }
      return apnsOutcome(exchange, now());
    },
    close: () => connection.close(),
  };
}
