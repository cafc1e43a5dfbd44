import { execFileSync } from 'node:child_process';
import { generateKeyPairSync, randomBytes, randomUUID, type KeyObject } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import {
  constants,
  createSecureServer,
  type IncomingHttpHeaders,
  type ServerHttp2Session,
  type ServerHttp2Stream,
} from 'node:http2';
import { createServer, type Server } from 'node:https';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { decodeProtectedHeader, jwtVerify, type JWTPayload } from 'jose';
import { z } from 'zod';

/*
 * Stand-ins for Apple Push Notification service and Firebase Cloud Messaging HTTP v1, for the
 * native push adapters' tests (issue 64): real TLS with a CA made for the run, and the checks the
 * real services make on what we send — the provider token's ES256 signature, `kid` and `iss`
 * (APNs), the OAuth 2.0 JWT assertion's RS256 signature and claims and the bearer token (FCM),
 * the headers and the payload. Each records what it received, so a test asserts on the wire.
 */

/** A test clock that never reads the wall clock: the same run on any date. */
export function fixedClock(start = '2031-05-04T09:00:00.000Z') {
  let current = new Date(start);
  return {
    now: () => current,
    advanceMinutes(minutes: number) {
      current = new Date(current.getTime() + minutes * 60_000);
    },
  };
}
export type FixedClock = ReturnType<typeof fixedClock>;

/** A CA of our own and a server certificate it signed for 127.0.0.1, made with openssl. */
export function makeTestCa(prefix = 'alda-push-native-') {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const file = (name: string) => path.join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'ignore' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(
    ...['req', '-x509', ...ec, '-days', '2', '-subj', '/CN=Alda push test CA'],
    ...['-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign'],
    ...['-keyout', file('ca.key'), '-out', file('ca.pem')],
  );
  openssl(
    'req',
    ...ec,
    '-subj',
    '/CN=push.test',
    '-keyout',
    file('server.key'),
    '-out',
    file('server.csr'),
  );
  writeFileSync(file('server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  openssl(
    ...['x509', '-req', '-in', file('server.csr'), '-CA', file('ca.pem'), '-CAkey', file('ca.key')],
    ...[
      '-CAcreateserial',
      '-days',
      '1',
      '-extfile',
      file('server.ext'),
      '-out',
      file('server.pem'),
    ],
  );
  return {
    /** The CA's certificate: what a client must trust; and its file (PUSH_TLS_CA). */
    ca: readFileSync(file('ca.pem'), 'utf8'),
    caFile: file('ca.pem'),
    key: readFileSync(file('server.key'), 'utf8'),
    cert: readFileSync(file('server.pem'), 'utf8'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
export type TestCa = ReturnType<typeof makeTestCa>;

/** An APNs signing key as Apple hands it out: a `.p8` file (PKCS #8 PEM, P-256). */
export function apnsKeyPair() {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { p8: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), publicKey };
}

/** A Google service account's JSON key, its `token_uri` pointing at the stand-in. */
export function serviceAccount(
  tokenUri: string,
  clientEmail = 'alda-push@alda-test.iam.gserviceaccount.com',
) {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keyId = randomBytes(20).toString('hex');
  const json = JSON.stringify({
    type: 'service_account',
    project_id: 'alda-test',
    private_key_id: keyId,
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    client_email: clientEmail,
    client_id: '100000000000000000001',
    auth_uri: 'https://accounts.google.com/o/oauth2/auth',
    token_uri: tokenUri,
  });
  return { json, publicKey, clientEmail, keyId };
}

async function listen(server: {
  listen(port: number, host: string, done: () => void): unknown;
  address(): unknown;
}) {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

function plainHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).flatMap(([name, value]) =>
      typeof value === 'string'
        ? [[name, value]]
        : Array.isArray(value)
          ? [[name, value.join(', ')]]
          : [],
    ),
  );
}

// ---------------------------------------------------------------------------------------------
// APNs

/** How the APNs stand-in answers a device token: a status and reason, or no answer at all. */
export type ApnsAnswer =
  | { status: number; reason?: string; retryAfter?: string }
  /** Reads the push, never answers. */
  | 'hang'
  /** Reads the push, then resets the stream (RST_STREAM INTERNAL_ERROR). */
  | 'reset'
  /** Refuses the stream unprocessed (RST_STREAM REFUSED_STREAM, RFC 9113 §8.7). */
  | 'refuse-stream';

export interface ApnsRequest {
  deviceToken: string;
  headers: Record<string, string>;
  /** The JSON body, parsed. */
  body: unknown;
  /** The provider token as sent, and its claims once verified (null when it was refused). */
  jwt: string;
  claims: JWTPayload | null;
  /** What the stand-in answered: a status, or the stream's fate. */
  answered: number | 'hang' | 'reset' | 'refuse-stream';
  reason: string;
}

const APNS_PATH = /^\/3\/device\/([0-9a-f]{64})$/;
const APNS_PUSH_TYPES = ['alert', 'background', 'voip', 'complication', 'fileprovider', 'mdm'];

/**
 * APNs over HTTP/2 and TLS, as Apple documents it ("Sending notification requests to APNs",
 * "Establishing a token-based connection to APNs"): the provider token must verify with the
 * team's public key, carry the key's `kid` and the team as `iss`, and be at most an hour old;
 * then `apns-topic`, `apns-push-type`, `apns-priority`, `apns-expiration`, `apns-collapse-id`
 * and the payload are checked. `answers` picks the answer per device token (200 by default).
 */
export async function startApnsServer(options: {
  tls: TestCa;
  teamId: string;
  keyId: string;
  publicKey: KeyObject;
  topic: string;
  clock: FixedClock;
}) {
  const received: ApnsRequest[] = [];
  const answers = new Map<string, ApnsAnswer>();
  const revoked = new Set<string>();
  const sessions = new Set<ServerHttp2Session>();
  const hanging = new Set<ServerHttp2Stream>();
  let sessionsOpened = 0;

  async function check(headers: IncomingHttpHeaders, text: string) {
    const refuse = (status: number, reason: string) => ({
      status,
      reason,
      claims: null,
      body: null,
    });
    if (headers[':method'] !== 'POST') return refuse(405, 'MethodNotAllowed');
    if (!/^\/3\/device\//.test(headers[':path'] ?? '')) return refuse(404, 'BadPath');
    if (!APNS_PATH.test(headers[':path'] ?? '')) return refuse(400, 'BadDeviceToken');
    const jwt = /^bearer (\S+)$/.exec(headers.authorization ?? '')?.[1];
    if (!jwt) return refuse(403, 'MissingProviderToken');
    let claims: JWTPayload;
    try {
      const header = decodeProtectedHeader(jwt);
      if (header.alg !== 'ES256' || header.kid !== options.keyId) throw new Error('alg or kid');
      ({ payload: claims } = await jwtVerify(jwt, options.publicKey, {
        algorithms: ['ES256'],
        issuer: options.teamId,
        currentDate: options.clock.now(),
      }));
    } catch {
      return refuse(403, 'InvalidProviderToken');
    }
    const nowS = options.clock.now().getTime() / 1000;
    if (typeof claims.iat !== 'number' || claims.iat > nowS + 60) {
      return refuse(403, 'InvalidProviderToken');
    }
    if (nowS - claims.iat > 3600 || revoked.has(jwt)) {
      return { status: 403, reason: 'ExpiredProviderToken', claims, body: null };
    }
    const fail = (status: number, reason: string) => ({ status, reason, claims, body: null });
    if (!headers['apns-topic']) return fail(400, 'MissingTopic');
    if (headers['apns-topic'] !== options.topic) return fail(400, 'BadTopic');
    // The optional headers, when sent, must be valid (the tests assert that ours are sent).
    const pushType = headers['apns-push-type'];
    if (pushType !== undefined && !APNS_PUSH_TYPES.includes(String(pushType))) {
      return fail(400, 'InvalidPushType');
    }
    const priority = headers['apns-priority'];
    if (priority !== undefined && !['1', '5', '10'].includes(String(priority))) {
      return fail(400, 'BadPriority');
    }
    const expiration = headers['apns-expiration'];
    if (expiration !== undefined && !/^\d+$/.test(String(expiration))) {
      return fail(400, 'BadExpirationDate');
    }
    if (Buffer.byteLength(String(headers['apns-collapse-id'] ?? '')) > 64) {
      return fail(400, 'BadCollapseId');
    }
    if (Buffer.byteLength(text) > 4096) return fail(413, 'PayloadTooLarge');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return fail(400, 'PayloadEmpty');
    }
    const aps = z.object({ alert: z.object({ title: z.string(), body: z.string() }) });
    if (!z.object({ aps }).safeParse(body).success) return fail(400, 'PayloadEmpty');
    return { status: 200, reason: '', claims, body };
  }

  const server = createSecureServer({ key: options.tls.key, cert: options.tls.cert });
  server.on('session', (session) => {
    sessionsOpened += 1;
    sessions.add(session);
    session.on('error', () => {});
    session.on('close', () => sessions.delete(session));
  });
  server.on('stream', (stream, headers) => {
    stream.on('error', () => {});
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      void (async () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const checked = await check(headers, text);
        const deviceToken = APNS_PATH.exec(headers[':path'] ?? '')?.[1] ?? '';
        const planned: ApnsAnswer =
          checked.status === 200 ? (answers.get(deviceToken) ?? { status: 200 }) : checked;
        const record: ApnsRequest = {
          deviceToken,
          headers: plainHeaders(headers),
          body: checked.body,
          jwt: /^bearer (\S+)$/.exec(headers.authorization ?? '')?.[1] ?? '',
          claims: checked.claims,
          answered: typeof planned === 'string' ? planned : planned.status,
          reason: typeof planned === 'string' ? '' : (planned.reason ?? ''),
        };
        received.push(record);
        if (planned === 'hang') {
          hanging.add(stream);
          return;
        }
        if (planned === 'reset') return stream.close(constants.NGHTTP2_INTERNAL_ERROR);
        if (planned === 'refuse-stream') return stream.close(constants.NGHTTP2_REFUSED_STREAM);
        stream.respond({
          ':status': planned.status,
          'apns-id': randomUUID(),
          ...(planned.retryAfter ? { 'retry-after': planned.retryAfter } : {}),
          ...(planned.status === 200 ? {} : { 'content-type': 'application/json' }),
        });
        stream.end(planned.status === 200 ? undefined : JSON.stringify({ reason: planned.reason }));
      })();
    });
  });
  const port = await listen(server);

  return {
    url: `https://127.0.0.1:${port}`,
    received,
    /** The requests for one device token. */
    to: (deviceToken: string) => received.filter((r) => r.deviceToken === deviceToken),
    answer(deviceToken: string, answer: ApnsAnswer) {
      answers.set(deviceToken, answer);
    },
    /** Every provider token seen so far is answered `403 ExpiredProviderToken` from now on. */
    expireTokensSeen() {
      for (const r of received) revoked.add(r.jwt);
    },
    /** HTTP/2 sessions (connections) opened so far, and those open now. */
    get sessionsOpened() {
      return sessionsOpened;
    },
    get sessionsOpen() {
      return sessions.size;
    },
    /** Ends every session gracefully (GOAWAY), as APNs does now and then. */
    closeSessions() {
      for (const session of sessions) session.close();
    },
    async stop() {
      for (const stream of hanging) stream.close(constants.NGHTTP2_CANCEL);
      for (const session of sessions) session.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
export type ApnsServer = Awaited<ReturnType<typeof startApnsServer>>;

// ---------------------------------------------------------------------------------------------
// FCM

/** The FCM v1 errors the stand-in can answer with (firebase.google.com/docs/cloud-messaging/error-codes). */
export const FCM_ERRORS = {
  unregistered: {
    status: 404,
    body: {
      code: 404,
      message: 'Requested entity was not found.',
      status: 'NOT_FOUND',
      details: [
        {
          '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError',
          errorCode: 'UNREGISTERED',
        },
      ],
    },
  },
  /** "Example 2" of FCM's error codes page: an invalid registration token. */
  invalidToken: {
    status: 400,
    body: {
      code: 400,
      message: 'The registration token is not a valid FCM registration token',
      status: 'INVALID_ARGUMENT',
      details: [
        {
          '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError',
          errorCode: 'INVALID_ARGUMENT',
        },
      ],
    },
  },
  /** "Example 1": a bad value in the message — the same code and status, a BadRequest detail. */
  badPayload: {
    status: 400,
    body: {
      code: 400,
      message: "Invalid value at 'message.data[0].value' (TYPE_STRING), 12",
      status: 'INVALID_ARGUMENT',
      details: [
        {
          '@type': 'type.googleapis.com/google.rpc.BadRequest',
          fieldViolations: [
            {
              field: 'message.data[0].value',
              description: "Invalid value at 'message.data[0].value' (TYPE_STRING), 12",
            },
          ],
        },
      ],
    },
  },
  quotaExceeded: {
    status: 429,
    body: {
      code: 429,
      message: 'Quota exceeded for quota metric.',
      status: 'RESOURCE_EXHAUSTED',
      details: [
        {
          '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError',
          errorCode: 'QUOTA_EXCEEDED',
        },
      ],
    },
  },
  unavailable: {
    status: 503,
    body: {
      code: 503,
      message: 'The service is currently unavailable.',
      status: 'UNAVAILABLE',
      details: [
        {
          '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError',
          errorCode: 'UNAVAILABLE',
        },
      ],
    },
  },
  internal: {
    status: 500,
    body: {
      code: 500,
      message: 'Internal error encountered.',
      status: 'INTERNAL',
      details: [
        { '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode: 'INTERNAL' },
      ],
    },
  },
} as const;

/** How the FCM stand-in answers a registration token. */
export type FcmAnswer =
  | 'ok'
  | { error: keyof typeof FCM_ERRORS; retryAfter?: string }
  /** 401 UNAUTHENTICATED whatever the bearer (a token FCM keeps refusing). */
  | 'unauthorized'
  | 'hang';

export interface FcmTokenRequest {
  /** The assertion's header and claims, verified; null when refused. */
  header: Record<string, unknown> | null;
  claims: JWTPayload | null;
  /** The access token issued, or the OAuth error. */
  issued: string | null;
  error: string | null;
}

export interface FcmSend {
  bearer: string;
  body: unknown;
  answered: number | 'hang';
}

/** The message the adapter sends, as strictly as FCM takes it: an unknown field is a 400. */
const fcmSendBody = z.strictObject({
  message: z.strictObject({
    token: z.string().min(1),
    notification: z.strictObject({ title: z.string(), body: z.string() }),
    data: z.record(z.string(), z.string()),
    android: z.strictObject({
      priority: z.enum(['HIGH', 'NORMAL']),
      ttl: z.string().regex(/^\d+(\.\d{1,9})?s$/),
      collapse_key: z.string(),
      notification: z.strictObject({ tag: z.string() }),
    }),
  }),
});

const FCM_SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';

/**
 * FCM HTTP v1 and a Google OAuth 2.0 token endpoint in one HTTPS server. `POST /token` takes the
 * JWT bearer grant (RFC 7523): the assertion must verify with the service account's public key,
 * name it as `iss`, this endpoint as `aud`, the messaging scope, and live at most an hour; it
 * issues an access token for `tokenLifeS`. `POST /v1/projects/<id>/messages:send` takes only a
 * live bearer token of ours and a message of the shape above; `answers` picks the answer per
 * registration token ('ok' by default).
 */
export async function startFcmServer(options: {
  tls: TestCa;
  projectId: string;
  clock: FixedClock;
  tokenLifeS?: number;
}) {
  const tokenRequests: FcmTokenRequest[] = [];
  const sends: FcmSend[] = [];
  const answers = new Map<string, FcmAnswer>();
  /** Access tokens issued, with the clock's ms when each expires. */
  const issued = new Map<string, number>();
  const hanging = new Set<ServerResponse>();
  let account: { publicKey: KeyObject; clientEmail: string; keyId: string } | null = null;
  let origin = '';
  let sent = 0;

  const json = (
    response: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ) => {
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    response.end(JSON.stringify(body));
  };
  const unauthenticated = (response: ServerResponse) =>
    json(response, 401, {
      error: {
        code: 401,
        message: 'Request had invalid authentication credentials. Expected OAuth 2 access token.',
        status: 'UNAUTHENTICATED',
      },
    });

  async function token(text: string, response: ServerResponse) {
    const form = new URLSearchParams(text);
    const record: FcmTokenRequest = { header: null, claims: null, issued: null, error: null };
    tokenRequests.push(record);
    const refuse = (error: string, description: string) => {
      record.error = `${error}: ${description}`;
      json(response, 400, { error, error_description: description });
    };
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') {
      return refuse('unsupported_grant_type', 'Invalid grant_type');
    }
    const assertion = form.get('assertion') ?? '';
    if (!account) return refuse('invalid_client', 'no service account');
    try {
      const header = decodeProtectedHeader(assertion);
      if (header.alg !== 'RS256' || header.kid !== account.keyId) throw new Error('alg or kid');
      const { payload } = await jwtVerify(assertion, account.publicKey, {
        algorithms: ['RS256'],
        issuer: account.clientEmail,
        audience: `${origin}/token`,
        currentDate: options.clock.now(),
        requiredClaims: ['iat', 'exp'],
      });
      if ((payload.exp ?? 0) - (payload.iat ?? 0) > 3600)
        throw new Error('exp more than 1 h after iat');
      if (
        !String(payload.scope ?? '')
          .split(' ')
          .includes(FCM_SCOPE)
      )
        throw new Error('scope');
      record.header = { ...header };
      record.claims = payload;
    } catch {
      return refuse('invalid_grant', 'Invalid JWT Signature.');
    }
    const accessToken = `ya29.${randomBytes(24).toString('base64url')}`;
    const lifeS = options.tokenLifeS ?? 3599;
    issued.set(accessToken, options.clock.now().getTime() + lifeS * 1000);
    record.issued = accessToken;
    json(response, 200, { access_token: accessToken, expires_in: lifeS, token_type: 'Bearer' });
  }

  function send(authorization: string, text: string, response: ServerResponse) {
    const bearer = /^Bearer (\S+)$/.exec(authorization)?.[1] ?? '';
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      // Answered below.
    }
    const record: FcmSend = { bearer, body, answered: 401 };
    sends.push(record);
    const expiresAt = issued.get(bearer);
    if (expiresAt === undefined || options.clock.now().getTime() >= expiresAt) {
      return unauthenticated(response);
    }
    const parsed = fcmSendBody.safeParse(body);
    if (!parsed.success) {
      const field = ['', ...(parsed.error.issues[0]?.path ?? [])].join('.').slice(1);
      record.answered = 400;
      return json(response, 400, {
        error: {
          code: 400,
          message: `Invalid JSON payload received. ${parsed.error.issues[0]?.message ?? ''}`,
          status: 'INVALID_ARGUMENT',
          details: [
            {
              '@type': 'type.googleapis.com/google.rpc.BadRequest',
              fieldViolations: [{ field, description: 'invalid' }],
            },
          ],
        },
      });
    }
    const answer = answers.get(parsed.data.message.token) ?? 'ok';
    if (answer === 'hang') {
      record.answered = 'hang';
      hanging.add(response);
      return;
    }
    if (answer === 'unauthorized') return unauthenticated(response);
    if (answer === 'ok') {
      record.answered = 200;
      sent += 1;
      return json(response, 200, { name: `projects/${options.projectId}/messages/0:${sent}` });
    }
    const error = FCM_ERRORS[answer.error];
    record.answered = error.status;
    json(
      response,
      error.status,
      { error: error.body },
      answer.retryAfter ? { 'retry-after': answer.retryAfter } : {},
    );
  }

  const server: Server = createServer(
    { key: options.tls.key, cert: options.tls.cert },
    (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        if (request.method === 'POST' && request.url === '/token')
          return void token(text, response);
        if (
          request.method === 'POST' &&
          request.url === `/v1/projects/${options.projectId}/messages:send`
        ) {
          return send(request.headers.authorization ?? '', text, response);
        }
        json(response, 404, { error: { code: 404, message: 'Not found', status: 'NOT_FOUND' } });
      });
    },
  );
  const port = await listen(server);
  origin = `https://127.0.0.1:${port}`;

  return {
    url: origin,
    tokenUri: `${origin}/token`,
    tokenRequests,
    sends,
    /** The service account whose assertions the token endpoint takes. */
    trust(key: { publicKey: KeyObject; clientEmail: string; keyId: string }) {
      account = key;
    },
    answer(registrationToken: string, answer: FcmAnswer) {
      answers.set(registrationToken, answer);
    },
    /** Every access token issued so far is refused (401) from now on. */
    revokeAccessTokens() {
      for (const accessToken of issued.keys()) issued.set(accessToken, 0);
    },
    /** The sends with one registration token. */
    to: (registrationToken: string) =>
      sends.filter(
        (s) =>
          (s.body as { message?: { token?: string } } | null)?.message?.token === registrationToken,
      ),
    async stop() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
export type FcmServer = Awaited<ReturnType<typeof startFcmServer>>;

/** A port on 127.0.0.1 with nothing listening (bound, then closed). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  const port = await listen(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
