import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APNS_TOKEN_REFRESH_MS,
  createApnsSender,
  type ApnsOptions,
} from '../src/adapters/push/apns';
import { FCM_SCOPE, createFcmSender, type FcmOptions } from '../src/adapters/push/fcm';
import type { PushMessage, PushSender } from '../src/adapters/push/push-sender';
import {
  apnsKeyPair,
  closedPort,
  fixedClock,
  makeTestCa,
  serviceAccount,
  startApnsServer,
  startFcmServer,
  type ApnsServer,
  type FcmServer,
  type TestCa,
} from './support/push-native-servers';

/*
 * The native push adapters (issue 64, ADR 0096) against stand-ins for APNs and FCM that check
 * what the real services check (support/push-native-servers.ts). Every test asserts what the
 * stand-in received, not only what the adapter returned. Timeouts are 200 ms where a test waits
 * for one, and generous elsewhere; the clock is our own, so the tests run the same on any date.
 */

const TEAM_ID = 'ALDATEAM01';
const KEY_ID = 'ALDAKEY001';
const TOPIC = 'fo.alda.app';
const PROJECT_ID = 'alda-test';
/** Long enough for a TLS handshake on a busy 2-core machine; no test waits for it. */
const GENEROUS_MS = 10_000;
const SHORT_MS = 200;

let tls: TestCa;
const senders: PushSender[] = [];

beforeAll(() => {
  tls = makeTestCa();
});
afterAll(async () => {
  await Promise.all(senders.map((sender) => sender.close()));
  tls?.remove();
});

let deviceCounter = 0;
/** An APNs device token (64 hex digits) or an FCM registration token, new per call. */
const apnsToken = () => (deviceCounter += 1).toString(16).padStart(64, 'a');
const fcmToken = () => `fcm-device-${(deviceCounter += 1)}:APA91b${'x'.repeat(100)}`;

function message(
  platform: 'apns' | 'fcm',
  address: string,
  overrides: Partial<Pick<PushMessage, 'urgent' | 'ttlS'>> = {},
): PushMessage {
  return {
    device: { platform, address, p256dh: null, auth: null },
    payload: {
      id: `0199a7c2-5b1e-7d4f-9c3a-${String((deviceCounter += 1)).padStart(12, '0')}`,
      kind: 'usage',
      title: 'Dátunýtsla',
      body: 'Tú hevur brúkt 80 % av dátunum í mánaðinum.',
      link: '/notifications',
    },
    urgent: false,
    ttlS: 3600,
    ...overrides,
  };
}

describe('APNs over HTTP/2 with a provider token (issue 64)', () => {
  const clock = fixedClock();
  const key = apnsKeyPair();
  let apns: ApnsServer;

  beforeAll(async () => {
    apns = await startApnsServer({
      tls,
      teamId: TEAM_ID,
      keyId: KEY_ID,
      publicKey: key.publicKey,
      topic: TOPIC,
      clock,
    });
  });
  afterAll(async () => {
    await apns?.stop();
  });

  function apnsSender(overrides: Partial<ApnsOptions> = {}): PushSender {
    const sender = createApnsSender({
      keyId: KEY_ID,
      teamId: TEAM_ID,
      key: key.p8,
      topic: TOPIC,
      url: apns.url,
      ca: tls.ca,
      timeoutMs: GENEROUS_MS,
      now: clock.now,
      ...overrides,
    });
    senders.push(sender);
    return sender;
  }

  it('delivers a push with its texts, link, id and kind to the topic at priority 5, over one session and one provider token', async () => {
    const sender = apnsSender();
    const sessionsBefore = apns.sessionsOpened;
    const [first, second] = [apnsToken(), apnsToken()];
    const push = message('apns', first, { ttlS: 7200 });
    expect(await sender.send(push)).toEqual({ kind: 'sent' });
    expect(await sender.send(message('apns', second))).toEqual({ kind: 'sent' });

    const [got] = apns.to(first);
    expect(got?.answered).toBe(200);
    expect(got?.headers).toMatchObject({
      ':method': 'POST',
      ':path': `/3/device/${first}`,
      'apns-topic': TOPIC,
      'apns-push-type': 'alert',
      'apns-priority': '5',
      'apns-expiration': String(clock.now().getTime() / 1000 + 7200),
      'apns-collapse-id': push.payload.id,
    });
    expect(got?.body).toEqual({
      aps: {
        alert: { title: 'Dátunýtsla', body: 'Tú hevur brúkt 80 % av dátunum í mánaðinum.' },
        sound: 'default',
        'thread-id': 'usage',
      },
      link: '/notifications',
      id: push.payload.id,
      kind: 'usage',
    });
    // The stand-in verified the token's signature, kid and iss before it took the push.
    expect(got?.claims).toEqual({ iss: TEAM_ID, iat: clock.now().getTime() / 1000 });
    expect(apns.to(second)[0]?.jwt).toBe(got?.jwt);
    expect(apns.sessionsOpened - sessionsBefore).toBe(1);
  });

  it('shares one provider token and one session among pushes sent at once', async () => {
    const sender = apnsSender();
    const sessionsBefore = apns.sessionsOpened;
    const devices = Array.from({ length: 6 }, apnsToken);
    const outcomes = await Promise.all(devices.map((d) => sender.send(message('apns', d))));
    expect(outcomes.every((o) => o.kind === 'sent')).toBe(true);
    expect(new Set(devices.map((d) => apns.to(d)[0]?.jwt)).size).toBe(1);
    expect(apns.sessionsOpened - sessionsBefore).toBe(1);
  });

  it('sends an urgent (security) push at priority 10', async () => {
    const device = apnsToken();
    const outcome = await apnsSender().send(message('apns', device, { urgent: true }));
    expect(outcome).toEqual({ kind: 'sent' });
    expect(apns.to(device)[0]?.headers['apns-priority']).toBe('10');
  });

  it('answers 410 Unregistered and 400 BadDeviceToken / DeviceTokenNotForTopic as gone, and another 400 as refused', async () => {
    const sender = apnsSender();
    const cases = [
      [{ status: 410, reason: 'Unregistered' }, 'gone'],
      [{ status: 400, reason: 'BadDeviceToken' }, 'gone'],
      [{ status: 400, reason: 'DeviceTokenNotForTopic' }, 'gone'],
      [{ status: 400, reason: 'BadCollapseId' }, 'refused'],
    ] as const;
    for (const [answer, kind] of cases) {
      const device = apnsToken();
      apns.answer(device, answer);
      const outcome = await sender.send(message('apns', device));
      expect(outcome).toMatchObject({ kind, reason: expect.stringContaining(answer.reason) });
      expect(apns.to(device).map((r) => r.answered)).toEqual([answer.status]);
    }
  });

  it('answers 429 as retry after its Retry-After, and 500 and 503 as retry', async () => {
    const sender = apnsSender();
    const busy = apnsToken();
    apns.answer(busy, { status: 429, reason: 'TooManyRequests', retryAfter: '120' });
    expect(await sender.send(message('apns', busy))).toEqual({
      kind: 'retry',
      reason: expect.stringContaining('429 TooManyRequests'),
      retryAfterS: 120,
    });
    for (const [status, reason] of [
      [500, 'InternalServerError'],
      [503, 'ServiceUnavailable'],
    ] as const) {
      const device = apnsToken();
      apns.answer(device, { status, reason });
      const outcome = await sender.send(message('apns', device));
      expect(outcome).toEqual({ kind: 'retry', reason: expect.stringContaining(reason) });
      expect(apns.to(device)).toHaveLength(1);
    }
  });

  it('gives a push that APNs took but never answered up as unknown after timeoutMs', async () => {
    const sender = apnsSender({ timeoutMs: SHORT_MS });
    const device = apnsToken();
    apns.answer(device, 'hang');
    const started = performance.now();
    const outcome = await sender.send(message('apns', device));
    expect(outcome).toEqual({ kind: 'unknown', reason: `no answer within ${SHORT_MS} ms` });
    expect(performance.now() - started).toBeGreaterThanOrEqual(SHORT_MS - 5);
    expect(apns.to(device).map((r) => r.answered)).toEqual(['hang']);
    // The session stays usable.
    const next = apnsToken();
    expect(await sender.send(message('apns', next))).toEqual({ kind: 'sent' });
  });

  it('counts a stream reset after sending as unknown; sends a stream refused unprocessed once more, then answers retry', async () => {
    const sender = apnsSender();
    const reset = apnsToken();
    apns.answer(reset, 'reset');
    expect(await sender.send(message('apns', reset))).toMatchObject({ kind: 'unknown' });
    const refused = apnsToken();
    apns.answer(refused, 'refuse-stream');
    expect(await sender.send(message('apns', refused))).toMatchObject({ kind: 'retry' });
    expect(apns.to(reset)).toHaveLength(1);
    expect(apns.to(refused).map((r) => r.answered)).toEqual(['refuse-stream', 'refuse-stream']);
  });

  it('answers retry when nothing listens, and sends nothing to a server whose certificate it cannot verify', async () => {
    const port = await closedPort();
    const nobody = await apnsSender({ url: `https://127.0.0.1:${port}` }).send(
      message('apns', apnsToken()),
    );
    expect(nobody).toMatchObject({
      kind: 'retry',
      reason: expect.stringContaining('ECONNREFUSED'),
    });

    // Without our CA the stand-in's certificate is checked against Node's bundled CAs only.
    const device = apnsToken();
    const untrusted = await apnsSender({ ca: undefined }).send(message('apns', device));
    expect(untrusted).toMatchObject({
      kind: 'retry',
      reason: expect.stringContaining('no connection'),
    });
    expect(apns.to(device)).toEqual([]);
  });

  it('reuses the provider token for 50 minutes, then makes a new one', async () => {
    const sender = apnsSender();
    const first = apnsToken();
    await sender.send(message('apns', first));
    clock.advanceMinutes(49);
    const second = apnsToken();
    await sender.send(message('apns', second));
    clock.advanceMinutes(2);
    const third = apnsToken();
    expect(await sender.send(message('apns', third))).toEqual({ kind: 'sent' });

    const [a, b, c] = [apns.to(first)[0], apns.to(second)[0], apns.to(third)[0]];
    expect(b?.jwt).toBe(a?.jwt);
    expect(c?.jwt).not.toBe(a?.jwt);
    // Apple's limits: no new token within 20 minutes, none older than 60.
    const gapS = Number(c?.claims?.iat) - Number(a?.claims?.iat);
    expect(gapS).toBe(51 * 60);
    expect(gapS * 1000).toBeGreaterThanOrEqual(APNS_TOKEN_REFRESH_MS);
    expect([a, b, c].map((r) => r?.answered)).toEqual([200, 200, 200]);
  });

  it('makes a new provider token when APNs calls its token expired, and sends again at once', async () => {
    const sender = apnsSender();
    await sender.send(message('apns', apnsToken()));
    apns.expireTokensSeen();
    clock.advanceMinutes(21);
    const device = apnsToken();
    expect(await sender.send(message('apns', device))).toEqual({ kind: 'sent' });
    const [refused, accepted] = apns.to(device);
    expect(refused).toMatchObject({ answered: 403, reason: 'ExpiredProviderToken' });
    expect(accepted?.answered).toBe(200);
    expect(accepted?.jwt).not.toBe(refused?.jwt);
    // The next push uses the new token.
    const next = apnsToken();
    await sender.send(message('apns', next));
    expect(apns.to(next)[0]?.jwt).toBe(accepted?.jwt);
  });

  it('is refused by APNs for another topic or when signed with another key under the same key id (the stand-in checks)', async () => {
    const other = apnsToken();
    expect(await apnsSender({ topic: 'fo.alda.other' }).send(message('apns', other))).toMatchObject(
      {
        kind: 'refused',
        reason: expect.stringContaining('400 BadTopic'),
      },
    );
    const device = apnsToken();
    const outcome = await apnsSender({ key: apnsKeyPair().p8 }).send(message('apns', device));
    expect(outcome).toMatchObject({
      kind: 'refused',
      reason: expect.stringContaining('403 InvalidProviderToken'),
    });
    expect(apns.to(device)).toMatchObject([
      { answered: 403, reason: 'InvalidProviderToken', claims: null },
    ]);
  });

  it('opens a new session when APNs ends the old one, and close() ends it', async () => {
    const sender = apnsSender();
    await sender.send(message('apns', apnsToken()));
    const opened = apns.sessionsOpened;
    apns.closeSessions();
    const device = apnsToken();
    expect(await sender.send(message('apns', device))).toEqual({ kind: 'sent' });
    expect(apns.sessionsOpened).toBe(opened + 1);
    expect(apns.to(device)).toHaveLength(1);
    await sender.close();
    await expect.poll(() => apns.sessionsOpen, { timeout: GENEROUS_MS }).toBe(0);
    expect(await sender.send(message('apns', apnsToken()))).toMatchObject({ kind: 'retry' });
  });

  it('refuses to start with a key that is not a P-256 private key', () => {
    expect(() => apnsSender({ key: 'not a key' })).toThrow();
    expect(() => apnsSender({ key: serviceAccountKeyPem() })).toThrow(/P-256/);
  });
});

/** An RSA private key's PEM, for the APNs key check. */
function serviceAccountKeyPem(): string {
  return (
    JSON.parse(serviceAccount('https://oauth2.googleapis.com/token').json) as {
      private_key: string;
    }
  ).private_key;
}

describe('FCM HTTP v1 with an OAuth 2.0 service account (issue 64)', () => {
  const clock = fixedClock();
  let fcm: FcmServer;
  let account: ReturnType<typeof serviceAccount>;

  beforeAll(async () => {
    fcm = await startFcmServer({ tls, projectId: PROJECT_ID, clock, tokenLifeS: 3600 });
    account = serviceAccount(fcm.tokenUri);
    fcm.trust(account);
  });
  afterAll(async () => {
    await fcm?.stop();
  });

  function fcmSender(overrides: Partial<FcmOptions> = {}): PushSender {
    const sender = createFcmSender({
      projectId: PROJECT_ID,
      serviceAccount: account.json,
      url: fcm.url,
      ca: tls.ca,
      timeoutMs: GENEROUS_MS,
      now: clock.now,
      ...overrides,
    });
    senders.push(sender);
    return sender;
  }

  it('gets an access token for a signed assertion and delivers the push with its texts, data, priority and ttl', async () => {
    const tokensBefore = fcm.tokenRequests.length;
    const device = fcmToken();
    const push = message('fcm', device, { ttlS: 7200 });
    expect(await fcmSender().send(push)).toEqual({ kind: 'sent' });

    const tokenRequests = fcm.tokenRequests.slice(tokensBefore);
    expect(tokenRequests).toHaveLength(1);
    const nowS = clock.now().getTime() / 1000;
    expect(tokenRequests[0]?.header).toEqual({ alg: 'RS256', typ: 'JWT', kid: account.keyId });
    expect(tokenRequests[0]?.claims).toEqual({
      iss: account.clientEmail,
      scope: FCM_SCOPE,
      aud: fcm.tokenUri,
      iat: nowS,
      exp: nowS + 3600,
    });
    const [got] = fcm.to(device);
    expect(got?.bearer).toBe(tokenRequests[0]?.issued);
    expect(got?.answered).toBe(200);
    expect(got?.body).toEqual({
      message: {
        token: device,
        notification: {
          title: 'Dátunýtsla',
          body: 'Tú hevur brúkt 80 % av dátunum í mánaðinum.',
        },
        data: { id: push.payload.id, kind: 'usage', link: '/notifications' },
        android: {
          priority: 'NORMAL',
          ttl: '7200s',
          collapse_key: push.payload.id,
          notification: { tag: push.payload.id },
        },
      },
    });
  });

  it('fetches one access token for pushes sent at once', async () => {
    const sender = fcmSender();
    const before = fcm.tokenRequests.length;
    const devices = Array.from({ length: 6 }, fcmToken);
    const outcomes = await Promise.all(devices.map((d) => sender.send(message('fcm', d))));
    expect(outcomes.every((o) => o.kind === 'sent')).toBe(true);
    expect(fcm.tokenRequests.length - before).toBe(1);
    expect(new Set(devices.map((d) => fcm.to(d)[0]?.bearer)).size).toBe(1);
  });

  it('sends an urgent (security) push at HIGH priority', async () => {
    const device = fcmToken();
    expect(await fcmSender().send(message('fcm', device, { urgent: true }))).toEqual({
      kind: 'sent',
    });
    expect(fcm.to(device)[0]?.body).toMatchObject({ message: { android: { priority: 'HIGH' } } });
  });

  it('reuses the access token until shortly before it expires, then fetches a new one', async () => {
    const sender = fcmSender();
    const before = fcm.tokenRequests.length;
    const devices = [fcmToken(), fcmToken(), fcmToken()];
    await sender.send(message('fcm', devices[0] ?? ''));
    clock.advanceMinutes(54);
    await sender.send(message('fcm', devices[1] ?? ''));
    expect(fcm.tokenRequests.length - before).toBe(1);
    clock.advanceMinutes(2);
    expect(await sender.send(message('fcm', devices[2] ?? ''))).toEqual({ kind: 'sent' });
    expect(fcm.tokenRequests.length - before).toBe(2);
    const bearers = devices.map((d) => fcm.to(d)[0]?.bearer);
    expect(bearers[1]).toBe(bearers[0]);
    expect(bearers[2]).not.toBe(bearers[0]);
  });

  it('fetches a new token once on a 401 and sends again; a second 401 is refused', async () => {
    const sender = fcmSender();
    await sender.send(message('fcm', fcmToken()));
    fcm.revokeAccessTokens();
    const before = fcm.tokenRequests.length;
    const device = fcmToken();
    expect(await sender.send(message('fcm', device))).toEqual({ kind: 'sent' });
    expect(fcm.tokenRequests.length - before).toBe(1);
    expect(fcm.to(device).map((s) => s.answered)).toEqual([401, 200]);

    const refusing = fcmToken();
    fcm.answer(refusing, 'unauthorized');
    expect(await sender.send(message('fcm', refusing))).toMatchObject({
      kind: 'refused',
      reason: expect.stringContaining('401 UNAUTHENTICATED'),
    });
    expect(fcm.to(refusing)).toHaveLength(2);
    expect(fcm.tokenRequests.length - before).toBe(2);
  });

  it('answers UNREGISTERED and an invalid registration token as gone, but a bad payload (same code) as refused', async () => {
    const sender = fcmSender();
    const cases = [
      ['unregistered', 'gone', 404],
      ['invalidToken', 'gone', 400],
      ['badPayload', 'refused', 400],
    ] as const;
    for (const [error, kind, status] of cases) {
      const device = fcmToken();
      fcm.answer(device, { error });
      expect(await sender.send(message('fcm', device)), error).toMatchObject({ kind });
      expect(fcm.to(device).map((s) => s.answered)).toEqual([status]);
    }
  });

  it('answers 429 and 503 as retry after their Retry-After (seconds or a date), and 500 as retry', async () => {
    const sender = fcmSender();
    const quota = fcmToken();
    fcm.answer(quota, { error: 'quotaExceeded', retryAfter: '60' });
    expect(await sender.send(message('fcm', quota))).toEqual({
      kind: 'retry',
      reason: expect.stringContaining('429 QUOTA_EXCEEDED'),
      retryAfterS: 60,
    });
    const unavailable = fcmToken();
    const inTwoMinutes = new Date(clock.now().getTime() + 120_000).toUTCString();
    fcm.answer(unavailable, { error: 'unavailable', retryAfter: inTwoMinutes });
    expect(await sender.send(message('fcm', unavailable))).toMatchObject({
      kind: 'retry',
      retryAfterS: 120,
    });
    const internal = fcmToken();
    fcm.answer(internal, { error: 'internal' });
    expect(await sender.send(message('fcm', internal))).toEqual({
      kind: 'retry',
      reason: expect.stringContaining('500 INTERNAL'),
    });
    expect([quota, unavailable, internal].map((d) => fcm.to(d).length)).toEqual([1, 1, 1]);
  });

  it('gives a push that FCM took but never answered up as unknown after timeoutMs', async () => {
    const sender = fcmSender({ timeoutMs: SHORT_MS });
    const device = fcmToken();
    fcm.answer(device, 'hang');
    const started = performance.now();
    expect(await sender.send(message('fcm', device))).toMatchObject({
      kind: 'unknown',
      reason: expect.stringContaining(`no answer within ${SHORT_MS} ms`),
    });
    expect(performance.now() - started).toBeGreaterThanOrEqual(SHORT_MS - 5);
    expect(fcm.to(device).map((s) => s.answered)).toEqual(['hang']);
  });

  it('is refused when the assertion is signed with another key (the token endpoint checks), and sends nothing', async () => {
    const sendsBefore = fcm.sends.length;
    const before = fcm.tokenRequests.length;
    const wrong = JSON.stringify({
      ...(JSON.parse(account.json) as object),
      private_key: serviceAccountKeyPem(),
    });
    const outcome = await fcmSender({ serviceAccount: wrong }).send(message('fcm', fcmToken()));
    expect(outcome).toMatchObject({
      kind: 'refused',
      reason: expect.stringContaining('invalid_grant'),
    });
    expect(fcm.tokenRequests.slice(before)).toMatchObject([
      { error: expect.stringContaining('invalid_grant'), issued: null },
    ]);
    expect(fcm.sends.length).toBe(sendsBefore);
  });

  it('answers retry when the token endpoint or FCM cannot be reached, and sends nothing to a server it cannot verify', async () => {
    const port = await closedPort();
    const noTokenEndpoint = JSON.stringify({
      ...(JSON.parse(account.json) as object),
      token_uri: `https://127.0.0.1:${port}/token`,
    });
    expect(
      await fcmSender({ serviceAccount: noTokenEndpoint }).send(message('fcm', fcmToken())),
    ).toMatchObject({
      kind: 'retry',
      reason: expect.stringContaining('ECONNREFUSED'),
    });
    expect(
      await fcmSender({ url: `https://127.0.0.1:${port}` }).send(message('fcm', fcmToken())),
    ).toMatchObject({ kind: 'retry', reason: expect.stringContaining('ECONNREFUSED') });
    const sendsBefore = fcm.sends.length;
    const tokensBefore = fcm.tokenRequests.length;
    expect(await fcmSender({ ca: undefined }).send(message('fcm', fcmToken()))).toMatchObject({
      kind: 'retry',
      reason: expect.stringContaining('no connection'),
    });
    expect(fcm.tokenRequests.length).toBe(tokensBefore);
    expect(fcm.sends.length).toBe(sendsBefore);
  });

  it('answers retry once closed, and closes twice without an error', async () => {
    const sender = fcmSender();
    const device = fcmToken();
    expect(await sender.send(message('fcm', device))).toEqual({ kind: 'sent' });
    await sender.close();
    expect(await sender.send(message('fcm', device))).toMatchObject({ kind: 'retry' });
    await expect(sender.close()).resolves.toBeUndefined();
    expect(fcm.to(device)).toHaveLength(1);
  });

  it('refuses to start with a service account that is not one', () => {
    expect(() => fcmSender({ serviceAccount: 'not json' })).toThrow(/not JSON/);
    expect(() => fcmSender({ serviceAccount: JSON.stringify({ client_email: 'x' }) })).toThrow(
      /private_key, token_uri/,
    );
  });
});
