import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope } from '@alda/contract/envelope';
import { actionsResponse } from '@alda/contract/schemas/actions';
import { tokens } from '@alda/contract/schemas/auth';
import { outboxList } from '@alda/contract/schemas/dev-outbox';
import {
  authSessionsResponse,
  signOutOthersResponse,
  type SignInDevice,
} from '@alda/contract/schemas/sessions';
import { DEMO_PASSWORD } from '../src/seed/demo-users';
import { seedDemoData } from '../src/seed/seed';
import {
  bearer,
  createTestApp,
  createTestApps,
  demoUser,
  parse,
  testClock,
  waitFor,
  type TestApp,
  type TestApps,
} from './helper';

/*
 * Issue 14 part 7, "Sessions you can see" (OWASP ASVS 5.0 V7; ADR 0059): the signed-in devices
 * of a customer, signing out one or all others, and the security events (sign-in on a new
 * device, password changed, code lockout) in the activity log and, for a new device, e-mailed.
 */

const PHONE: SignInDevice = {
  id: 'install-phone-1',
  name: 'Telefonin hjá Rannvá',
  platform: 'android',
  osVersion: '14',
  model: 'Pixel 8',
  isVirtual: false,
};
const TABLET: SignInDevice = {
  id: 'install-tablet-1',
  name: null,
  platform: 'ios',
  osVersion: '17.5',
  model: 'iPad14,1',
  isVirtual: false,
};
const BROWSER: SignInDevice = {
  id: 'install-web-1',
  name: null,
  platform: 'web',
  osVersion: '10.0',
  model: 'Windows NT 10.0',
  isVirtual: false,
};

describe('issue 14: sessions you can see (ASVS V7; SPEC §3 device meta, §7 Auth)', () => {
  let t: TestApp;
  const clock = testClock('2026-06-15T10:00:00.000Z');
  let n = 0;

  beforeAll(async () => {
    t = await createTestApp(
      { DEMO_MODE: 'true', APP_URL: 'https://minsida.alda.fo' },
      { now: clock.now },
    );
    await seedDemoData(t.app.db, clock.now());
  });
  afterAll(() => t.close());

  /** Signs in by e-mail from a device (a fresh address each time, so no limit is near). */
  const login = async (email: string, device?: SignInDevice, userAgent = 'AldaApp/3.0.0') => {
    n += 1;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/email-login',
      remoteAddress: `10.14.0.${n}`,
      headers: { 'user-agent': userAgent },
      payload: { email, password: DEMO_PASSWORD, ...(device ? { device } : {}) },
    });
    expect(res.statusCode, res.body).toBe(200);
    return parse(dataEnvelope(tokens), res).data;
  };
  const list = async (accessToken: string, locale = 'fo') => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/auth/sessions',
      headers: { ...bearer(accessToken), 'accept-language': locale },
    });
    expect(res.statusCode, res.body).toBe(200);
    return parse(dataEnvelope(authSessionsResponse), res).data;
  };
  const me = (accessToken: string) =>
    t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(accessToken) });
  const refresh = (refreshToken: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/refresh-token', payload: { refreshToken } });
  const signOut = (accessToken: string, id: string, locale = 'fo') =>
    t.app.inject({
      method: 'DELETE',
      url: `/api/auth/sessions/${id}`,
      headers: { ...bearer(accessToken), 'accept-language': locale },
    });
  const mailsTo = async (email: string) => {
    await t.app.background.idle();
    const res = await t.app.inject({ method: 'GET', url: `/dev/outbox.json?to=${email}` });
    return parse(dataEnvelope(outboxList), res).data;
  };
  const activity = async (accessToken: string, locale: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/actions',
      headers: { ...bearer(accessToken), 'accept-language': locale },
    });
    expect(res.statusCode, res.body).toBe(200);
    return parse(dataEnvelope(actionsResponse), res).data;
  };

  it('lists the current device first and the other signed-in device with its meta (issue 14)', async () => {
    const email = demoUser('Jóannes').email;
    const phone = await login(email, PHONE);
    clock.advance(60);
    const tablet = await login(email, TABLET);
    clock.advance(60);

    const seen = await list(tablet.accessToken);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    const [first, ...rest] = seen;
    expect(first).toMatchObject({
      current: true,
      device: { name: null, platform: 'ios', model: 'iPad14,1', osVersion: '17.5' },
      country: null,
      createdAt: '2026-06-15T10:01:00.000Z',
      lastSeenAt: '2026-06-15T10:01:00.000Z',
    });
    const other = rest.find((s) => s.device.model === 'Pixel 8');
    expect(other).toMatchObject({
      current: false,
      device: {
        name: 'Telefonin hjá Rannvá',
        platform: 'android',
        osVersion: '14',
        userAgent: 'AldaApp/3.0.0',
      },
      createdAt: '2026-06-15T10:00:00.000Z',
    });
    expect(rest.every((s) => !s.current)).toBe(true);

    // A refresh is "last seen".
    expect((await refresh(phone.refreshToken)).statusCode).toBe(200);
    const after = await list(tablet.accessToken);
    expect(after.find((s) => s.id === other?.id)?.lastSeenAt).toBe('2026-06-15T10:02:00.000Z');

    // The phone sees itself as current.
    const fromPhone = await list(phone.accessToken);
    expect(fromPhone[0]?.device.model).toBe('Pixel 8');
    expect(fromPhone[0]?.current).toBe(true);
  });

  it('signs out one device: its access token answers 401 and its refresh fails; the current one stays (issue 14)', async () => {
    const email = demoUser('Sunneva').email;
    const keep = await login(email, PHONE);
    const gone = await login(email, BROWSER);
    const target = (await list(keep.accessToken)).find((s) => s.device.platform === 'web');
    expect(target).toBeDefined();
    expect((await me(gone.accessToken)).statusCode).toBe(200);

    const res = await signOut(keep.accessToken, target?.id ?? '');
    expect(res.statusCode).toBe(204);

    expect((await me(gone.accessToken)).statusCode).toBe(401);
    expect((await refresh(gone.refreshToken)).statusCode).toBe(401);
    expect((await me(keep.accessToken)).statusCode).toBe(200);
    expect((await list(keep.accessToken)).some((s) => s.id === target?.id)).toBe(false);

    // Again: it is no longer signed in.
    const again = await signOut(keep.accessToken, target?.id ?? '', 'en');
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({
      error: { code: 'SESSION_NOT_FOUND', message: 'That device is no longer signed in.' },
    });
  });

  it('signs out every other device and keeps the current one (issue 14)', async () => {
    const email = demoUser('Rói').email;
    const others = [await login(email, PHONE), await login(email, TABLET)];
    const keep = await login(email, BROWSER);

    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sessions/sign-out-others',
      headers: bearer(keep.accessToken),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(parse(dataEnvelope(signOutOthersResponse), res).data.signedOut).toBeGreaterThanOrEqual(
      2,
    );
    for (const other of others) {
      expect((await me(other.accessToken)).statusCode).toBe(401);
      expect((await refresh(other.refreshToken)).statusCode).toBe(401);
    }
    expect((await me(keep.accessToken)).statusCode).toBe(200);
    const left = await list(keep.accessToken);
    expect(left).toHaveLength(1);
    expect(left[0]?.current).toBe(true);

    // Nothing left to sign out.
    const none = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sessions/sign-out-others',
      headers: bearer(keep.accessToken),
    });
    expect(parse(dataEnvelope(signOutOthersResponse), none).data.signedOut).toBe(0);
  });

  it("answers 404 SESSION_NOT_FOUND for another user's session, and leaves it signed in (issue 14, ASVS V8 object access)", async () => {
    const mine = await login(demoUser('Guðrun').email, PHONE);
    const theirs = await login(demoUser('Ása').email, TABLET);
    const [theirSession] = await list(theirs.accessToken);
    expect(theirSession?.current).toBe(true);

    const res = await signOut(mine.accessToken, theirSession?.id ?? '');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      error: { code: 'SESSION_NOT_FOUND', message: 'Eindin er ikki innritað longur.' },
    });
    expect((await me(theirs.accessToken)).statusCode).toBe(200);
    // An unknown id is the same answer; a malformed one is a validation error.
    expect(
      (await signOut(mine.accessToken, '00000000-0000-4000-8000-000000000000')).statusCode,
    ).toBe(404);
    expect((await signOut(mine.accessToken, 'not-a-uuid')).statusCode).toBe(400);
    // And none of it without a token.
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/sessions' })).statusCode).toBe(401);
  });

  it("e-mails a sign-in on a new device once, in the user's language, and logs it (issue 14, ADR 0059)", async () => {
    const user = demoUser('Guðrun'); // locale en
    const first = await login(user.email, BROWSER);
    const before = (await mailsTo(user.email)).length;

    const fresh = await login(user.email, { ...PHONE, id: 'install-guðrun-new' });
    const mails = await mailsTo(user.email);
    expect(mails).toHaveLength(before + 1);
    const [mail] = mails;
    expect(mail?.subject).toBe('New sign-in on a new device');
    expect(mail?.text).toContain('Device: Telefonin hjá Rannvá (Android)');
    expect(mail?.text).toContain('Where: unknown');
    expect(mail?.text).toContain('https://minsida.alda.fo/min-brukari/eindir');
    expect(mail?.html).toContain('Telefonin hjá Rannvá (Android)');

    // The same device again: no second e-mail. A known device: none either.
    await login(user.email, { ...PHONE, id: 'install-guðrun-new' });
    await login(user.email, BROWSER);
    expect(await mailsTo(user.email)).toHaveLength(before + 1);

    const log = await activity(fresh.accessToken, 'en');
    const entries = log.filter(
      (a) => a.type === 'signed_in_new_device' && a.text.includes('Telefonin'),
    );
    expect(entries).toHaveLength(1);
    expect(entries[0]?.text).toBe('Signed in on a new device: Telefonin hjá Rannvá (Android)');
    const fo = await activity(first.accessToken, 'fo');
    expect(fo.map((a) => a.text)).toContain(
      'Innritað á nýggja eind: Telefonin hjá Rannvá (Android)',
    );
  });

  it('knows a device without an installation id by platform, model and user agent (ADR 0059)', async () => {
    const user = demoUser('Ása');
    await login(user.email, PHONE);
    const before = (await mailsTo(user.email)).length;
    const noId = { ...TABLET, id: undefined };
    await login(user.email, noId, 'Mozilla/5.0 (iPad)');
    await login(user.email, noId, 'Mozilla/5.0 (iPad)');
    expect(await mailsTo(user.email)).toHaveLength(before + 1);
    // Another browser on the same kind of tablet is another device.
    await login(user.email, noId, 'Mozilla/5.0 (iPad) Firefox');
    expect(await mailsTo(user.email)).toHaveLength(before + 2);
  });

  it('does not e-mail at registration: the first device of a user is not "new" (ADR 0059)', async () => {
    n += 1;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      remoteAddress: `10.14.1.${n}`,
      headers: { 'accept-language': 'fo' },
      payload: {
        firstname: 'Turið',
        lastname: 'Nýggja',
        email: 'turid.sessions@example.fo',
        phoneNumber: '291414',
        birthDate: '01.02.1990',
        address: 'Gøta 1',
        postCode: '100',
        city: 'Tórshavn',
        password: 'Loyniord-1',
        passwordRepeat: 'Loyniord-1',
        device: PHONE,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { accessToken } = parse(dataEnvelope(tokens), res).data;
    expect(await mailsTo('turid.sessions@example.fo')).toHaveLength(0);
    expect((await list(accessToken))[0]?.device.model).toBe('Pixel 8');
  });

  it("logs a password change in the activity log in the reader's language (issue 14)", async () => {
    const user = demoUser('Jóannes');
    const signed = await login(user.email, PHONE);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/change-password',
      headers: bearer(signed.accessToken),
      payload: { currentPassword: DEMO_PASSWORD, password: 'Nytt-Loyniord1' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const fo = await activity(signed.accessToken, 'fo');
    expect(fo[0]).toMatchObject({ type: 'password_changed', text: 'Loyniorðið er broytt' });
    const en = await activity(signed.accessToken, 'en');
    expect(en[0]).toMatchObject({ type: 'password_changed', text: 'Password changed' });
    // Put it back for the other tests.
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/change-password',
      headers: bearer(signed.accessToken),
      payload: { currentPassword: 'Nytt-Loyniord1', password: DEMO_PASSWORD },
    });
  });

  it('logs a phone-login code locked by wrong tries in the activity log (issue 14, ADR 0023)', async () => {
    const user = demoUser('Sunneva');
    n += 1;
    const remoteAddress = `10.14.2.${n}`;
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/auth/request-pin',
      remoteAddress,
      payload: { phoneNumber: user.phoneNumber },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const sms = await mailsTo(`298${user.phoneNumber}`);
    const code = /\b(\d{6})\b/.exec(sms[0]?.text ?? '')?.[1] ?? '';
    expect(code).toHaveLength(6);
    const wrong = code === '111111' ? '222222' : '111111';
    const answers: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/enter-pin',
        remoteAddress,
        payload: { phoneNumber: user.phoneNumber, password: wrong },
      });
      answers.push(res.statusCode);
    }
    expect(answers).toEqual([401, 401, 401, 401, 410]);
    const signed = await login(user.email, PHONE);
    const en = await activity(signed.accessToken, 'en');
    const locked = en.filter((a) => a.type === 'pin_locked');
    expect(locked).toHaveLength(1);
    expect(locked[0]?.text).toBe('SMS code blocked after too many wrong tries');
  });

  it('documents the three routes in the OpenAPI document (issue 14)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    const doc = res.json<{ paths: Record<string, Record<string, unknown>> }>();
    expect(Object.keys(doc.paths['/api/auth/sessions'] ?? {})).toContain('get');
    expect(Object.keys(doc.paths['/api/auth/sessions/{id}'] ?? {})).toContain('delete');
    expect(Object.keys(doc.paths['/api/auth/sessions/sign-out-others'] ?? {})).toContain('post');
  });
});

describe('issue 14: signing a device out ends it on every instance (ADR 0057, 0059)', () => {
  let t: TestApps;
  let a: FastifyInstance;
  let b: FastifyInstance;
  const NOW = new Date('2026-06-15T12:00:00.000Z');

  beforeAll(async () => {
    t = await createTestApps(2, {}, { now: () => NOW });
    [a, b] = t.apps as [FastifyInstance, FastifyInstance];
    await seedDemoData(a.db, NOW);
    await Promise.all([a.ready(), b.ready()]);
  });
  afterAll(() => t.close());

  const login = async (app: FastifyInstance, device: SignInDevice) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/email-login',
      payload: { email: demoUser('Rói').email, password: DEMO_PASSWORD, device },
    });
    expect(res.statusCode, res.body).toBe(200);
    return parse(dataEnvelope(tokens), res).data;
  };
  const me = (app: FastifyInstance, accessToken: string) =>
    app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(accessToken) });

  it('a device signed out on one instance is refused on the other within the notice', async () => {
    const keep = await login(a, PHONE);
    const gone = await login(b, TABLET);
    // Both instances remember the session as signed in.
    expect((await me(a, gone.accessToken)).statusCode).toBe(200);
    expect((await me(b, gone.accessToken)).statusCode).toBe(200);
    const sessions = parse(
      dataEnvelope(authSessionsResponse),
      await a.inject({
        method: 'GET',
        url: '/api/auth/sessions',
        headers: bearer(keep.accessToken),
      }),
    ).data;
    const target = sessions.find((s) => s.device.model === 'iPad14,1');
    const res = await a.inject({
      method: 'DELETE',
      url: `/api/auth/sessions/${target?.id ?? ''}`,
      headers: bearer(keep.accessToken),
    });
    expect(res.statusCode).toBe(204);
    expect((await me(a, gone.accessToken)).statusCode).toBe(401);
    await waitFor(
      async () => ((await me(b, gone.accessToken)).statusCode === 401 ? true : undefined),
      1_000,
    );
    expect((await me(b, keep.accessToken)).statusCode).toBe(200);
  });
});
