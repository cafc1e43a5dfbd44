import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, demoUser } from '../src/seed/demo-users';
import { usingPostgres } from './helper';
import {
  killAllStarted,
  postgresDatabases,
  startApi,
  type ApiProcess,
} from './support/api-process';
import { until } from './support/http-json';
import {
  apnsKeyPair,
  makeTestCa,
  serviceAccount,
  startApnsServer,
  startFcmServer,
  type ApnsServer,
  type FcmServer,
  type FixedClock,
  type TestCa,
} from './support/push-native-servers';

/*
 * At most once through a crash (issue 64, ADR 0096): the real API as a process sends a
 * notification to a phone on APNs and one on FCM, is killed with SIGKILL while both push
 * services hold the request unanswered, and starts again on the same database. The pushes whose
 * answer was lost become `unknown` when their lease runs out and are never sent again; the next
 * notification reaches both phones. Each stand-in must count exactly one push per device per
 * notification.
 */

const TEAM_ID = 'ALDATEAM01';
const KEY_ID = 'ALDAKEY001';
const TOPIC = 'fo.alda.selfcare';
const PROJECT_ID = 'alda-crash-test';
const FEED_TOKEN = 'push-crash-usage-feed-token-0123456789';
const METRICS_TOKEN = 'push-crash-metrics-token-0123456789';
/** The stand-ins check tokens against the real clock: the process runs on it. */
const realClock = { now: () => new Date(), advanceMinutes: () => undefined } as FixedClock;

const APNS_TOKEN = 'c0ffee'.padEnd(64, '0');
const FCM_TOKEN = `crash-phone:APA91b${'y'.repeat(120)}`;

describe('push through a kill -9 mid-send (issue 64)', () => {
  let dir = '';
  let tls: TestCa;
  let apns: ApnsServer;
  let fcm: FcmServer;
  let api: ApiProcess | undefined;
  const databases = usingPostgres ? postgresDatabases(process.env.DATABASE_URL ?? '') : null;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'alda-push-crash-'));
    tls = makeTestCa();
    const key = apnsKeyPair();
    apns = await startApnsServer({
      tls,
      teamId: TEAM_ID,
      keyId: KEY_ID,
      publicKey: key.publicKey,
      topic: TOPIC,
      clock: realClock,
    });
    fcm = await startFcmServer({ tls, projectId: PROJECT_ID, clock: realClock });
    const account = serviceAccount(fcm.tokenUri);
    fcm.trust(account);
    const file = (name: string, text: string) => {
      writeFileSync(path.join(dir, name), text);
      return path.join(dir, name);
    };
    const database = databases
      ? { databaseUrl: (await databases.create()).url }
      : { dataDir: path.join(dir, 'data') };
    api = await startApi({
      ...database,
      env: {
        APNS_KEY_ID: KEY_ID,
        APNS_TEAM_ID: TEAM_ID,
        APNS_KEY: file('AuthKey.p8', key.p8),
        APNS_TOPIC: TOPIC,
        APNS_URL: apns.url,
        FCM_PROJECT_ID: PROJECT_ID,
        FCM_SERVICE_ACCOUNT: file('service-account.json', account.json),
        FCM_URL: fcm.url,
        PUSH_TLS_CA: file('ca.pem', tls.ca),
        // Nothing waits on a clock a setting can shorten.
        PUSH_POLL_MS: '100',
        PUSH_LEASE_S: '1',
        PUSH_TIMEOUT_MS: '60000',
        USAGE_FEED_TOKEN: FEED_TOKEN,
        METRICS_TOKEN,
      },
    });
  }, 90_000);
  afterAll(async () => {
    await killAllStarted();
    await apns?.stop();
    await fcm?.stop();
    await databases?.dropAll();
    tls?.remove();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const call = async (method: string, url: string, body?: unknown, token?: string) => {
    const res = await fetch(`${api!.url}${url}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${text}`);
    return text ? (JSON.parse(text) as { data: Record<string, unknown> }).data : undefined;
  };
  const signIn = async () =>
    (await call('POST', '/api/auth/email-login', {
      email: demoUser('Jóannes').email,
      password: DEMO_PASSWORD,
    }))!.accessToken as string;
  let record = 0;
  /** A record on Sunneva's line: her owner Jóannes is told at 80 % and at 100 %. */
  const useData = (usedMb: number) =>
    call(
      'POST',
      '/api/usage/records',
      {
        records: [
          {
            recordId: `push-crash-${(record += 1)}`,
            phoneNumber: '214456',
            usedMb,
            kind: 'domestic',
            occurredAt: new Date().toISOString(),
          },
        ],
      },
      FEED_TOKEN,
    );
  const pushesOf = () => ({
    apns: apns.received
      .filter((r) => r.deviceToken === APNS_TOKEN)
      .map((r) => (r.body as { id: string }).id),
    fcm: fcm
      .to(FCM_TOKEN)
      .map((s) => (s.body as { message: { data: { id: string } } }).message.data.id),
  });
  const unknownCounted = async () => {
    const res = await fetch(`${api!.url}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    const line = (await res.text())
      .split('\n')
      .find((l) => l.startsWith('alda_push_messages_total{result="unknown"}'));
    return Number(line?.split(' ')[1] ?? 0);
  };

  it('gets exactly one push per device per notification on APNs and FCM, though the instance died mid-send', async () => {
    // Jóannes on his iPhone and on his Android tablet; pushes at any hour.
    const phone = await signIn();
    const tablet = await signIn();
    await call(
      'PATCH',
      '/api/notification-settings',
      { quietHours: { on: false, from: 1320, to: 480 } },
      phone,
    );
    await call('PUT', '/api/push/device', { platform: 'apns', token: APNS_TOKEN }, phone);
    await call('PUT', '/api/push/device', { platform: 'fcm', token: FCM_TOKEN }, tablet);

    // Both push services take the first push and never answer; the instance dies meanwhile.
    apns.answer(APNS_TOKEN, 'hang');
    fcm.answer(FCM_TOKEN, 'hang');
    await useData(5);
    const first = await until('the 80 % push held by both services', async () => {
      const got = pushesOf();
      return got.apns.length === 1 && got.fcm.length === 1 ? got : undefined;
    });
    expect(first.apns).toEqual(first.fcm);
    await api!.kill();

    // Up again: both services answer now.
    apns.answer(APNS_TOKEN, { status: 200 });
    fcm.answer(FCM_TOKEN, 'ok');
    api = await api!.restart();
    await until('the lost answers counted unknown', async () =>
      (await unknownCounted()) === 2 ? true : undefined,
    );
    // Sunneva's line passes 100 %: a new notification, sent once to each device.
    await useData(4_000);
    const second = await until('the 100 % push on both devices', async () => {
      const got = pushesOf();
      return got.apns.length === 2 && got.fcm.length === 2 ? got : undefined;
    });
    expect(second.apns[1]).not.toBe(second.apns[0]);
    // The first notification was not sent again: the lost pushes were settled as unknown first.
    expect(second.fcm).toEqual(second.apns);
    expect(await unknownCounted()).toBe(2);
  }, 120_000);
});
