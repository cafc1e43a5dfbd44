import { createPrivateKey, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import { Agent, type Dispatcher } from 'undici';
import { z } from 'zod';
import { retryAfterSeconds, secureContextWith } from './http-common';
import type { PushMessage, PushOutcome, PushSender } from './push-sender';

/*
 * Firebase Cloud Messaging, HTTP v1 API (ADR 0096): `POST /v1/projects/<id>/messages:send` with
 * an OAuth 2.0 access token that the service account's own `token_uri` gives for a signed JWT
 * (RFC 7523 JWT bearer grant), cached until shortly before it expires.
 *
 * Our own code on undici and jose, not google-auth-library or firebase-admin (docs/architecture.md
 * "Our own code where a library exists"): google-auth-library sends every assertion to
 * `https://oauth2.googleapis.com/token`, whatever the key's `token_uri`; firebase-admin sends to
 * `fcm.googleapis.com` only, waits a fixed 15 s and resends a push that timed out.
 *
 * undici's dispatcher (not the global fetch) so that the connection carries our CA and a request
 * that never left (`retry`) is told from one sent without an answer (`unknown`); the
 * OpenTelemetry undici instrumentation sees it as any fetch.
 */

export interface FcmOptions {
  /** The Firebase project id. */
  projectId: string;
  /** The JSON text of the service account's key (`client_email`, `private_key`, `token_uri`). */
  serviceAccount: string;
  /** The HTTP v1 API, `https://fcm.googleapis.com` by default, or a stand-in. */
  url?: string | undefined;
  /** PEM of a CA to trust besides Node's bundled ones, for FCM and the token endpoint. */
  ca?: string | undefined;
  /** Longest wait for a connection, then for the answer once the request was sent. */
  timeoutMs: number;
  /** The clock of the JWT assertion and of the access token's expiry (tests move it). */
  now?: () => Date;
}

export const FCM_SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
/** A new access token this long before the endpoint said it expires (at most half its life). */
const TOKEN_MARGIN_MS = 5 * 60_000;
/** FCM's and the token endpoint's answers are small JSON; anything longer is cut off. */
const MAX_ANSWER_BYTES = 64 * 1024;

const serviceAccountJson = z.object({
  client_email: z.string().min(1),
  private_key: z.string().min(1),
  token_uri: z.url({ protocol: /^https?$/ }),
  private_key_id: z.string().optional(),
});
type ServiceAccount = z.infer<typeof serviceAccountJson> & { key: KeyObject };

/** The service account, read once at start: a wrong one stops the start, not every push. */
function serviceAccountOf(text: string): ServiceAccount {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error('FCM service account: not JSON');
  }
  const parsed = serviceAccountJson.safeParse(json);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((issue) => issue.path.join('.')).join(', ');
    throw new Error(`FCM service account: missing or invalid ${fields}`);
  }
  const key = createPrivateKey(parsed.data.private_key);
  if (key.asymmetricKeyType !== 'rsa') throw new Error('FCM service account: not an RSA key');
  return { ...parsed.data, key };
}

type AnswerHeaders = Record<string, string | string[] | undefined>;

/** How far one request got (as in apns.ts): an answer, never sent, or sent without an answer. */
type Exchange =
  | { kind: 'answer'; status: number; headers: AnswerHeaders; body: string }
  | { kind: 'not-sent'; reason: string }
  | { kind: 'no-answer'; reason: string };

const accessTokenAnswer = z.object({
  access_token: z.string().min(1),
  /** Seconds (Google sends a number; a numeric string is taken too). */
  expires_in: z.coerce.number().positive(),
});

interface AccessToken {
  value: string;
  /** Our clock's ms after which a new one is fetched. */
  renewAtMs: number;
}

/** FCM's error answer (google.rpc.Status with FcmError and BadRequest details). */
const fcmErrorAnswer = z.object({
  error: z.object({
    message: z.string().optional(),
    status: z.string().optional(),
    details: z
      .array(
        z.object({
          '@type': z.string().optional(),
          errorCode: z.string().optional(),
          fieldViolations: z.array(z.object({ field: z.string().optional() })).optional(),
        }),
      )
      .optional(),
  }),
});

interface FcmError {
  message: string;
  status: string;
  /** The FcmError detail's code (UNREGISTERED, INVALID_ARGUMENT, …). */
  errorCode: string | undefined;
  /** The fields a google.rpc.BadRequest detail names. */
  badFields: string[];
}

/** FCM's error answer read for the outcome; a body that is not one (a proxy's page) in `message`. */
function fcmErrorOf(body: string): FcmError {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = null;
  }
  const parsed = fcmErrorAnswer.safeParse(json);
  if (!parsed.success) {
    return { message: body.slice(0, 200), status: '', errorCode: undefined, badFields: [] };
  }
  const { message = '', status = '', details = [] } = parsed.data.error;
  return {
    message,
    status,
    errorCode: details.find((d) => d['@type']?.endsWith('google.firebase.fcm.v1.FcmError'))
      ?.errorCode,
    badFields: details
      .filter((d) => d['@type']?.endsWith('google.rpc.BadRequest'))
      .flatMap((d) => d.fieldViolations ?? [])
      .flatMap((v) => (v.field ? [v.field] : [])),
  };
}

/**
 * Whether a 400 INVALID_ARGUMENT is about the device token, not our message. FCM answers both
 * with the same code and status ("FCM error codes", firebase.google.com/docs/cloud-messaging/
 * error-codes): a bad token with an FcmError detail and the message "The registration token is
 * not a valid FCM registration token", a bad payload with a google.rpc.BadRequest detail naming
 * the field. So: FcmError INVALID_ARGUMENT, and either a BadRequest naming `message.token` or no
 * BadRequest and the registration token named in the message. Anything else is refused, so that
 * an error of ours never removes a device.
 */
function fcmTokenIsInvalid(error: FcmError): boolean {
  if (error.errorCode !== 'INVALID_ARGUMENT') return false;
  if (error.badFields.length > 0) return error.badFields.includes('message.token');
  return /registration token/i.test(error.message);
}

/**
 * FCM's answer as a {@link PushOutcome} (ErrorCode, firebase.google.com/docs/reference/fcm/rest/
 * v1/ErrorCode): 200 sent; UNREGISTERED (404) and an invalid token (400, {@link
 * fcmTokenIsInvalid}) gone; 429 (QUOTA_EXCEEDED) and 5xx (UNAVAILABLE, INTERNAL) retry after
 * `Retry-After`; any other answer refused. A 404 without UNREGISTERED (a wrong project id) is
 * refused too, not gone.
 */
function fcmOutcome(exchange: Exchange, now: Date): PushOutcome {
  if (exchange.kind === 'not-sent') return { kind: 'retry', reason: exchange.reason };
  if (exchange.kind === 'no-answer') return { kind: 'unknown', reason: exchange.reason };
  const { status } = exchange;
  if (status >= 200 && status < 300) return { kind: 'sent' };
  const error = fcmErrorOf(exchange.body);
  const reason = `FCM ${status} ${error.errorCode ?? error.status}: ${error.message}`.slice(0, 300);
  if ((status === 404 || status === 400) && error.errorCode === 'UNREGISTERED') {
    return { kind: 'gone', reason };
  }
  if (status === 400 && fcmTokenIsInvalid(error)) return { kind: 'gone', reason };
  if (status === 429 || status >= 500) {
    const retryAfterS = retryAfterSeconds(exchange.headers['retry-after'], now);
    return { kind: 'retry', reason, ...(retryAfterS === undefined ? {} : { retryAfterS }) };
  }
  return { kind: 'refused', reason };
}

/** The message as FCM v1 takes it; `data` reaches the app's Capacitor plugin. */
function fcmMessage(message: PushMessage) {
  const { id, kind, title, body, link } = message.payload;
  return {
    message: {
      token: message.device.address,
      notification: { title, body },
      data: { id, kind, link },
      android: {
        priority: message.urgent ? 'HIGH' : 'NORMAL',
        ttl: `${message.ttlS}s`,
        collapse_key: id,
        notification: { tag: id },
      },
    },
  };
}

/**
 * The FCM {@link PushSender}. A 401 fetches a new access token and sends once more (FCM took
 * nothing); a second 401 is refused. A token that cannot be had is the push's outcome: `retry`
 * when the endpoint was unreachable or busy, `refused` when it refused our assertion.
 */
export function createFcmSender(options: FcmOptions): PushSender {
  const now = options.now ?? (() => new Date());
  const account = serviceAccountOf(options.serviceAccount);
  const { timeoutMs } = options;
  const secureContext = secureContextWith(options.ca);
  const agent = new Agent({
    connect: { timeout: timeoutMs, ...(secureContext ? { secureContext } : {}) },
  });
  const base = (options.url ?? 'https://fcm.googleapis.com').replace(/\/+$/, '');
  const sendUrl = `${base}/v1/projects/${encodeURIComponent(options.projectId)}/messages:send`;
  let token: AccessToken | null = null;
  let fetching: Promise<AccessToken | PushOutcome> | null = null;
  let closing: Promise<void> | null = null;

  /**
   * One POST through the agent, told apart by how far it got: undici calls `onRequestStart` on a
   * connected socket right before it writes the request, so an error before it (no connection, a
   * certificate that fails verification, the connect timeout) is `not-sent`, and anything after
   * it without a status is `no-answer`. The answer (headers and body) has `timeoutMs` from then.
   */
  function post(url: string, headers: Record<string, string>, body: string): Promise<Exchange> {
    const target = new URL(url);
    return new Promise((resolve) => {
      let written = false;
      let status: number | undefined;
      let answerHeaders: AnswerHeaders = {};
      let size = 0;
      const chunks: Buffer[] = [];
      let timer: NodeJS.Timeout | undefined;
      const answer = (): Exchange => ({
        kind: 'answer',
        status: status ?? 0,
        headers: answerHeaders,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const handler: Dispatcher.DispatchHandler = {
        onRequestStart(controller) {
          written = true;
          timer = setTimeout(
            () => controller.abort(new Error(`no answer within ${timeoutMs} ms`)),
            timeoutMs,
          );
        },
        onResponseStart(_controller, statusCode, responseHeaders) {
          status = statusCode;
          answerHeaders = responseHeaders;
        },
        onResponseData(_controller, chunk) {
          size += chunk.length;
          if (size <= MAX_ANSWER_BYTES) chunks.push(chunk);
        },
        onResponseEnd() {
          clearTimeout(timer);
          resolve(answer());
        },
        onResponseError(_controller, error) {
          clearTimeout(timer);
          const code = (error as { code?: unknown }).code;
          const words = `${typeof code === 'string' ? `${code} ` : ''}${error.message}`;
          if (status !== undefined) {
            // The status is the answer; the body broke off.
            resolve(answer());
          } else if (written) {
            resolve({ kind: 'no-answer', reason: `${target.host}: ${words}` });
          } else {
            resolve({ kind: 'not-sent', reason: `no connection to ${target.host}: ${words}` });
          }
        },
      };
      try {
        agent.dispatch(
          {
            origin: target.origin,
            path: `${target.pathname}${target.search}`,
            method: 'POST',
            headers,
            body,
          },
          handler,
        );
      } catch (error) {
        resolve({
          kind: 'not-sent',
          reason: `not sent to ${target.host}: ${(error as Error).message}`,
        });
      }
    });
  }

  /** A new access token for a signed assertion (RFC 7523 §2.1), or the push's outcome. */
  async function fetchToken(): Promise<AccessToken | PushOutcome> {
    const issuedS = Math.floor(now().getTime() / 1000);
    const assertion = await new SignJWT({ scope: FCM_SCOPE })
      .setProtectedHeader({
        alg: 'RS256',
        typ: 'JWT',
        ...(account.private_key_id ? { kid: account.private_key_id } : {}),
      })
      .setIssuer(account.client_email)
      .setAudience(account.token_uri)
      .setIssuedAt(issuedS)
      .setExpirationTime(issuedS + 3600)
      .sign(account.key);
    const exchange = await post(
      account.token_uri,
      { 'content-type': 'application/x-www-form-urlencoded' },
      new URLSearchParams({ grant_type: JWT_BEARER, assertion }).toString(),
    );
    if (exchange.kind !== 'answer') {
      // Either way no push left: it can be sent again.
      return { kind: 'retry', reason: `access token: ${exchange.reason}` };
    }
    // An error answer is `{ error, error_description }` (RFC 6749 §5.2); a 200's body is a secret.
    const said =
      exchange.status === 200 ? 'no access_token and expires_in' : exchange.body.slice(0, 200);
    const reason = `access token: ${exchange.status} ${said}`;
    if (exchange.status === 429 || exchange.status >= 500) {
      const retryAfterS = retryAfterSeconds(exchange.headers['retry-after'], now());
      return { kind: 'retry', reason, ...(retryAfterS === undefined ? {} : { retryAfterS }) };
    }
    let json: unknown = null;
    try {
      json = JSON.parse(exchange.body);
    } catch {
      // Refused below.
    }
    const parsed = accessTokenAnswer.safeParse(json);
    if (exchange.status !== 200 || !parsed.success) return { kind: 'refused', reason };
    const lifeMs = parsed.data.expires_in * 1000;
    token = {
      value: parsed.data.access_token,
      renewAtMs: now().getTime() + lifeMs - Math.min(TOKEN_MARGIN_MS, lifeMs / 2),
    };
    return token;
  }

  /** The cached access token, or one fetched for every push waiting on it. */
  function accessToken(): Promise<AccessToken | PushOutcome> {
    if (token && now().getTime() < token.renewAtMs) return Promise.resolve(token);
    fetching ??= fetchToken().finally(() => {
      fetching = null;
    });
    return fetching;
  }

  return {
    platform: 'fcm',
    async send(message) {
      const body = JSON.stringify(fcmMessage(message));
      for (let attempt = 1; ; attempt += 1) {
        const current = await accessToken();
        if ('kind' in current) return current;
        const exchange = await post(
          sendUrl,
          {
            authorization: `Bearer ${current.value}`,
            'content-type': 'application/json; charset=utf-8',
          },
          body,
        );
        const unauthorized =
          exchange.kind === 'answer' &&
          exchange.status === 401 &&
          // An APNs certificate or web push key FCM holds, not our token.
          fcmErrorOf(exchange.body).errorCode !== 'THIRD_PARTY_AUTH_ERROR';
        if (unauthorized && attempt === 1) {
          if (token === current) token = null;
          continue;
        }
        return fcmOutcome(exchange, now());
      }
    },
    // undici rejects a second close(); the sender's may be called twice (shutdown paths).
    close: () => (closing ??= agent.close().then(() => undefined)),
  };
}
