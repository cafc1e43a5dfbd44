import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope, errorEnvelope } from '@alda/contract/envelope';
import { tokens } from '@alda/contract/schemas/auth';
import { fromFaroeWallClock } from '@alda/contract/format/date';
import {
  notificationSettings,
  pushPayload,
  type NotificationSettings,
} from '@alda/contract/schemas/push';
import { notifications } from '../src/db/schema/data-transfers';
import { pushDeliveries, pushDevices } from '../src/db/schema/push';
import { insertNotifications } from '../src/modules/notifications/notify';
import { DEMO_PASSWORD, DEMO_USERS } from '../src/seed/demo-users';
import { seedDemoData } from '../src/seed/seed';
import { createDemoApp, sendUsage, USAGE_FEED_TOKEN, type DemoName } from './demo-accounts';
import { createTestApp, parse, type TestApp } from './helper';
import {
  browserSubscription,
  startPushService,
  type BrowserSubscription,
} from './support/web-push-service';
import { makeTestCa, type TestCa } from './support/push-native-servers';

/*
 * Push notifications (issue 64, ADR 0096), web push end to end: the app queues a push in the
 * notification's transaction, the dispatcher sends it through the `web-push` library to a local
 * HTTPS push service that checks the VAPID JWT and decrypts the aes128gcm payload with the
 * subscription's keys, as a browser does.
 */

const SUBJECT = 'mailto:drift@alda.fo';
const settingsAnswer = dataEnvelope(notificationSettings);

describe('push notifications: web push (issue 64)', () => {
  let tlsFiles: TestCa;
  let service: Awaited<ReturnType<typeof startPushService>>;
  /** Per subscription id, what the push service answers (201 when absent). */
  const answers = new Map<string, number | 'hang' | 'reset'>();
  let t: Awaited<ReturnType<typeof createDemoApp>>;
  let clock = new Date('2026-06-15T12:00:00.000Z');

  beforeAll(async () => {
    tlsFiles = makeTestCa('alda-push-');
    service = await startPushService(tlsFiles, {
      subject: SUBJECT,
      answer: (id) => answers.get(id) ?? 201,
    });
    t = await createDemoApp(
      {
        USAGE_FEED_TOKEN,
        PUSH_TLS_CA: tlsFiles.caFile,
        VAPID_SUBJECT: SUBJECT,
        PUSH_LEASE_S: '5',
      },
      { now: () => clock },
    );
  });
  afterAll(async () => {
    await t?.close();
    await service?.stop();
    tlsFiles?.remove();
  });

  const settingsOf = async (who: DemoName): Promise<NotificationSettings> =>
    parse(
      settingsAnswer,
      await t.app.inject({ method: 'GET', url: '/api/notification-settings', headers: t.as[who] }),
    ).data;
  const patchSettings = (who: DemoName, payload: unknown, lang = 'fo') =>
    t.app.inject({
      method: 'PATCH',
      url: '/api/notification-settings',
      headers: { ...t.as[who], 'accept-language': lang },
      payload: payload as Record<string, unknown>,
    });
  const register = (headers: Record<string, string>, subscription: BrowserSubscription) =>
    t.app.inject({
      method: 'PUT',
      url: '/api/push/device',
      headers,
      payload: { platform: 'web', endpoint: subscription.endpoint, keys: subscription.keys },
    });
  const subscriptionFor = (id: string) => browserSubscription(service.endpoint(id));
  /** What arrived for one subscription since `from`, decrypted and checked against the contract. */
  const arrived = (subscription: BrowserSubscription, id: string, from = 0) =>
    service.received
      .slice(from)
      .filter((r) => r.id === id)
      .map((r) => ({ ...r, payload: pushPayload.parse(JSON.parse(subscription.decrypt(r.body))) }));

  it('answers the settings: every kind on by push, security always, quiet hours 22–08, the VAPID key', async () => {
    const settings = await settingsOf('Rói');
    expect(settings.kinds.map((k) => k.kind)).toEqual([
      'usage',
      'roaming',
      'family',
      'payments',
      'orders',
      'support',
      'security',
      'status',
    ]);
    expect(settings.kinds.find((k) => k.kind === 'security')?.push).toEqual({
      on: true,
      mode: 'always',
    });
    expect(settings.kinds.find((k) => k.kind === 'usage')).toMatchObject({
      push: { on: true, mode: 'switch' },
      email: { on: false, mode: 'switch' },
    });
    expect(settings.kinds.find((k) => k.kind === 'roaming')?.email).toBeUndefined();
    expect(settings.quietHours).toEqual({ on: true, from: 22 * 60, to: 8 * 60 });
    expect(settings.vapidPublicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expect(settings).toMatchObject({ thisDeviceRegistered: false, devices: 0 });
  });

  it('switches per kind and channel; the usage e-mail is the profile’s switch; security cannot be switched off; nothing half-written', async () => {
    const changed = parse(
      settingsAnswer,
      await patchSettings('Rói', {
        channels: [
          { kind: 'orders', channel: 'push', on: false },
          { kind: 'usage', channel: 'email', on: true },
        ],
        quietHours: { on: true, from: 23 * 60, to: 7 * 60 + 30 },
      }),
    ).data;
    expect(changed.kinds.find((k) => k.kind === 'orders')?.push?.on).toBe(false);
    expect(changed.kinds.find((k) => k.kind === 'usage')?.email?.on).toBe(true);
    expect(changed.quietHours).toEqual({ on: true, from: 1380, to: 450 });
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: t.as.Rói });
    expect(me.json().data.usageAlerts.email).toBe(true);

    const security = await patchSettings(
      'Rói',
      {
        channels: [
          { kind: 'roaming', channel: 'push', on: false },
          { kind: 'security', channel: 'push', on: false },
        ],
      },
      'en',
    );
    expect(security.statusCode).toBe(422);
    expect(errorEnvelope.parse(security.json()).error).toMatchObject({
      code: 'CHANNEL_ALWAYS_ON',
      message: 'These notifications are always sent. They cannot be switched off.',
    });
    const noSuchChannel = await patchSettings('Rói', {
      channels: [{ kind: 'roaming', channel: 'sms', on: true }],
    });
    expect(noSuchChannel.statusCode).toBe(400);
    const sameTimes = await patchSettings('Rói', { quietHours: { on: true, from: 60, to: 60 } });
    expect(sameTimes.statusCode).toBe(400);
    // The refused PATCHes changed nothing: roaming is still on.
    expect((await settingsOf('Rói')).kinds.find((k) => k.kind === 'roaming')?.push?.on).toBe(true);
  });

  it('refuses a push address that is not https or has no browser keys, with a clear 400', async () => {
    const plain = await t.app.inject({
      method: 'PUT',
      url: '/api/push/device',
      headers: t.as.Rói,
      payload: {
        platform: 'web',
        endpoint: 'http://push.example/x',
        keys: subscriptionFor('x').keys,
      },
    });
    expect(plain.statusCode).toBe(400);
    const noKeys = await t.app.inject({
      method: 'PUT',
      url: '/api/push/device',
      headers: t.as.Rói,
      payload: { platform: 'web', endpoint: service.endpoint('y') },
    });
    expect(noKeys.statusCode).toBe(400);
    const native = await t.app.inject({
      method: 'PUT',
      url: '/api/push/device',
      headers: t.as.Rói,
      payload: { platform: 'apns', token: 'a'.repeat(64) },
    });
    expect(native.statusCode).toBe(409);
    expect(errorEnvelope.parse(native.json()).error.code).toBe('PUSH_NOT_AVAILABLE');
  });

  let sunneva: BrowserSubscription;
  it('a usage alert reaches the member’s and the owner’s browsers once: VAPID checked, payload decrypted to lock-screen text and the deep link', async () => {
    sunneva = subscriptionFor('sunneva');
    const joannes = subscriptionFor('joannes');
    expect((await register(t.as.Sunneva, sunneva)).statusCode).toBe(200);
    expect((await register(t.as.Jóannes, joannes)).statusCode).toBe(200);
    expect(await settingsOf('Sunneva')).toMatchObject({ thisDeviceRegistered: true, devices: 1 });
    const from = service.received.length;

    // Sunneva's line is at 82.8 % of its month (demo seed): the next record passes 80 %.
    await sendUsage(t.app, [
      {
        recordId: 'push-usage-1',
        phoneNumber: '214456',
        usedMb: 5,
        kind: 'domestic',
        occurredAt: '2026-06-15T11:00:00.000Z',
      },
    ]);
    expect(await t.app.pushJob.runRound()).toMatchObject({ sent: 2 });

    const [toSunneva, ...moreToSunneva] = arrived(sunneva, 'sunneva', from);
    expect(moreToSunneva).toEqual([]);
    expect(toSunneva?.payload).toMatchObject({
      kind: 'usage',
      title: '80 % av datanum er brúkt',
      body: 'Tú hevur brúkt 80 % av datanum í hesum mánaði.',
    });
    expect(toSunneva?.payload.link).toMatch(/^\//);
    // RFC 8292: the JWT is for this push service's origin, expires within a day, names us; the
    // key it was signed with is the one the browser subscribed with.
    expect(toSunneva?.claims).toMatchObject({ aud: service.origin, sub: SUBJECT });
    expect(toSunneva?.vapidKey).toBe((await settingsOf('Sunneva')).vapidPublicKey);
    expect(toSunneva?.headers.urgency).toBe('normal');
    expect(toSunneva?.headers.topic).toBe(toSunneva?.payload.id.replaceAll('-', ''));

    // The owner is told about a member's line without her number or name on the lock screen.
    const [toJoannes] = arrived(joannes, 'joannes', from);
    expect(toJoannes?.payload.body).toBe(
      'Ein linja í familjuni hevur brúkt 80 % av datanum í hesum mánaði.',
    );
    expect(JSON.stringify(toJoannes?.payload)).not.toMatch(/214456|21 44 56|Sunneva/);

    // The notification in the app is the same one; a second round sends nothing again.
    const [row] = await t.app.db
      .select({ id: notifications.id, link: notifications.link })
      .from(notifications)
      .where(eq(notifications.id, toSunneva!.payload.id));
    expect(row?.link ?? '/frabodanir').toBe(toSunneva?.payload.link);
    expect(await t.app.pushJob.runRound()).toMatchObject({ sent: 0 });
    expect(service.refused).toEqual([]);
  });

  it('sends nothing of a kind switched off, but always the security pushes, at once and urgent', async () => {
    const user = DEMO_USERS.find((u) => u.firstname === 'Sunneva')!;
    expect(
      (
        await patchSettings('Sunneva', {
          channels: [{ kind: 'usage', channel: 'push', on: false }],
        })
      ).statusCode,
    ).toBe(200);
    const from = service.received.length;
    await insertNotifications(t.app.db, [
      {
        userId: user.id,
        type: 'usage_alert',
        params: { threshold: 100, kind: 'domestic' },
        createdAt: clock,
      },
      { userId: user.id, type: 'sim_changed', params: { phoneNumber: '214456' }, createdAt: clock },
    ]);
    await t.app.pushJob.runRound();
    const got = arrived(sunneva, 'sunneva', from);
    expect(got.map((p) => p.payload)).toEqual([
      expect.objectContaining({
        kind: 'security',
        title: 'Nýtt SIM',
        body: 'Nummarið hjá tær hevur fingið nýtt SIM. Var tað ikki tú? Ring til Alda beinan vegin.',
      }),
    ]);
    expect(got[0]?.headers.urgency).toBe('high');
  });

  it('holds a push made in quiet hours until they end, Faroe time; a security push goes at once', async () => {
    const guðrun = subscriptionFor('gudrun');
    expect((await register(t.as.Guðrun, guðrun)).statusCode).toBe(200);
    const id = DEMO_USERS.find((u) => u.firstname === 'Guðrun')!.id;
    clock = fromFaroeWallClock(2026, 6, 15, 23, 30);
    const from = service.received.length;
    await insertNotifications(t.app.db, [
      { userId: id, type: 'support_answer', params: {}, createdAt: clock },
      { userId: id, type: 'number_unlocked', params: { phoneNumber: '215566' }, createdAt: clock },
    ]);
    await t.app.pushJob.runRound();
    expect(arrived(guðrun, 'gudrun', from).map((p) => p.payload.kind)).toEqual(['security']);
    clock = fromFaroeWallClock(2026, 6, 16, 7, 59);
    await t.app.pushJob.runRound();
    expect(arrived(guðrun, 'gudrun', from)).toHaveLength(1);
    clock = fromFaroeWallClock(2026, 6, 16, 8, 0);
    await t.app.pushJob.runRound();
    expect(arrived(guðrun, 'gudrun', from).map((p) => p.payload)).toEqual([
      expect.objectContaining({ kind: 'security' }),
      // Guðrun reads Alda in English.
      expect.objectContaining({ kind: 'support', title: 'Answer from Alda' }),
    ]);
    // Back to the time the test's sessions were signed in at.
    clock = new Date('2026-06-15T12:00:00.000Z');
  });

  it('removes a device at once on 410 Gone, retries a 429 after its Retry-After, and never resends a push whose answer was lost', async () => {
    const ása = DEMO_USERS.find((u) => u.firstname === 'Ása')!.id;
    const push = () =>
      insertNotifications(t.app.db, [
        { userId: ása, type: 'support_answer', params: {}, createdAt: clock },
      ]);

    // 429 with Retry-After: 120 → queued again, due in 120 s, and sent then.
    answers.set('asa', 429);
    expect((await register(t.as.Ása, subscriptionFor('asa'))).statusCode).toBe(200);
    await push();
    await t.app.pushJob.runRound();
    const [retried] = await t.app.db
      .select()
      .from(pushDeliveries)
      .where(eq(pushDeliveries.state, 'queued'));
    expect(retried?.dueAt.getTime()).toBe(clock.getTime() + 120_000);
    answers.set('asa', 201);
    clock = new Date(clock.getTime() + 121_000);
    expect(await t.app.pushJob.runRound()).toMatchObject({ sent: 1 });

    // A push service that takes the push and drops the connection unanswered: unknown, never
    // sent again (a timeout is the same outcome: push-native.test.ts waits for one).
    answers.set('asa', 'reset');
    await push();
    expect(await t.app.pushJob.runRound()).toMatchObject({ sent: 0, unknown: 1 });
    clock = new Date(clock.getTime() + 3_600_000);
    const before = service.received.filter((r) => r.id === 'asa').length;
    await t.app.pushJob.runRound();
    expect(service.received.filter((r) => r.id === 'asa')).toHaveLength(before);

    // 410 Gone: the device goes at once, with what was queued for it.
    answers.set('asa', 410);
    await push();
    await t.app.pushJob.runRound();
    expect(await t.app.db.select().from(pushDevices).where(eq(pushDevices.userId, ása))).toEqual(
      [],
    );
    expect(
      await t.app.db.select().from(pushDeliveries).where(eq(pushDeliveries.state, 'queued')),
    ).toEqual([]);
    clock = new Date('2026-06-15T12:00:00.000Z');
  });
});

describe('push devices and sessions (issue 64)', () => {
  let t: TestApp;
  let service: Awaited<ReturnType<typeof startPushService>>;
  let tlsFiles: TestCa;
  beforeAll(async () => {
    tlsFiles = makeTestCa('alda-push-');
    service = await startPushService(tlsFiles, { subject: SUBJECT });
    t = await createTestApp({ PUSH_TLS_CA: tlsFiles.caFile, VAPID_SUBJECT: SUBJECT });
    await seedDemoData(t.app.db, new Date());
  });
  afterAll(async () => {
    await t?.close();
    await service?.stop();
    tlsFiles?.remove();
  });

  const login = async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/email-login',
      payload: {
        email: DEMO_USERS.find((u) => u.firstname === 'Rói')!.email,
        password: DEMO_PASSWORD,
      },
    });
    return parse(dataEnvelope(tokens), res).data;
  };
  const put = (accessToken: string, subscription: BrowserSubscription) =>
    t.app.inject({
      method: 'PUT',
      url: '/api/push/device',
      headers: { authorization: `Bearer ${accessToken}` },
      payload: { platform: 'web', endpoint: subscription.endpoint, keys: subscription.keys },
    });
  const devices = () => t.app.db.select().from(pushDevices);

  it('a changed address replaces the session’s old one; an address moves to the session that registers it last', async () => {
    const phone = await login();
    const laptop = await login();
    expect(
      (await put(phone.accessToken, browserSubscription(service.endpoint('old')))).statusCode,
    ).toBe(200);
    expect(
      (await put(phone.accessToken, browserSubscription(service.endpoint('new')))).statusCode,
    ).toBe(200);
    expect((await devices()).map((d) => d.address)).toEqual([service.endpoint('new')]);
    expect(
      (await put(laptop.accessToken, browserSubscription(service.endpoint('new')))).statusCode,
    ).toBe(200);
    const [only, ...none] = await devices();
    expect(none).toEqual([]);
    expect(only?.address).toBe(service.endpoint('new'));
    const off = await t.app.inject({
      method: 'DELETE',
      url: '/api/push/device',
      headers: { authorization: `Bearer ${laptop.accessToken}` },
    });
    expect(off.statusCode).toBe(200);
    expect(await devices()).toEqual([]);
  });

  it('signing out of a device stops its pushes; signing out everywhere stops them all', async () => {
    const phone = await login();
    const laptop = await login();
    await put(phone.accessToken, browserSubscription(service.endpoint('phone')));
    await put(laptop.accessToken, browserSubscription(service.endpoint('laptop')));
    expect(await devices()).toHaveLength(2);
    const logout = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      payload: { refreshToken: phone.refreshToken },
    });
    expect(logout.statusCode).toBe(204);
    expect((await devices()).map((d) => d.address)).toEqual([service.endpoint('laptop')]);
    const other = await login();
    const everywhere = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sessions/sign-out-others',
      headers: { authorization: `Bearer ${other.accessToken}` },
      payload: { password: DEMO_PASSWORD },
    });
    expect(everywhere.statusCode).toBe(200);
    expect(await devices()).toEqual([]);
  });
});
