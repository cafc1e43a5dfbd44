import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope } from '@alda/contract/envelope';
import { actionsResponse } from '@alda/contract/schemas/actions';
import { tokens, user as userSchema } from '@alda/contract/schemas/auth';
import { outboxList } from '@alda/contract/schemas/dev-outbox';
import {
  authSessionsResponse,
  confirmationCodeResponse,
  signOutOthersResponse,
  type SignInDevice,
  type SignOutOthersRequest,
} from '@alda/contract/schemas/sessions';
import { users } from '../src/db/schema/users';
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
 * of a customer, signing out one or all others after authenticating again (ASVS 5.0 7.5.2), the
 * place of a sign-in from the edge's country header, and the security events (sign-in on a new
 * device, password changed, code lockout) in the activity log and, for a new device, e-mailed.
 */

/** The password again, as the sign-out calls need it (ASVS 5.0 7.5.2). */
const AGAIN = { password: DEMO_PASSWORD };

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
  const signOut = (
    accessToken: string,
    id: string,
    locale = 'fo',
    payload: SignOutOthersRequest = AGAIN,
  ) =>
    t.app.inject({
      method: 'POST',
      url: `/api/auth/sessions/${id}/sign-out`,
      headers: { ...bearer(accessToken), 'accept-language': locale },
      payload,
    });
  const signOutOthers = (
    accessToken: string,
    payload: SignOutOthersRequest = AGAIN,
    locale = 'fo',
    remoteAddress = '127.0.0.1',
  ) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/sessions/sign-out-others',
      remoteAddress,
      headers: { ...bearer(accessToken), 'accept-language': locale },
      payload,
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

    const res = await signOutOthers(keep.accessToken);
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
    const none = await signOutOthers(keep.accessToken);
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

  it('documents the routes and their request bodies in the OpenAPI document (issue 14, ASVS 5.0 7.5.2)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    type Operation = {
      requestBody?: { content: Record<string, { schema: { properties: object } }> };
    };
    const doc = res.json<{ paths: Record<string, Record<string, Operation>> }>();
    expect(Object.keys(doc.paths['/api/auth/sessions'] ?? {})).toContain('get');
    const bodyOf = (path: string) =>
      Object.keys(
        doc.paths[path]?.post?.requestBody?.content['application/json']?.schema.properties ?? {},
      );
    expect(bodyOf('/api/auth/sessions/{id}/sign-out')).toEqual(['password', 'code']);
    expect(bodyOf('/api/auth/sessions/sign-out-others')).toEqual(['password', 'code']);
    expect(Object.keys(doc.paths['/api/auth/sessions/confirmation-code'] ?? {})).toContain('post');
    // Signing out has no DELETE with a body (RFC 9110 §9.3.5): the password travels in a POST.
    expect(doc.paths['/api/auth/sessions/{id}']).toBeUndefined();
  });

  it('shows nothing of a country header the API was not told to trust (ADR 0059, CLIENT_COUNTRY_HEADER unset)', async () => {
    n += 1;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/email-login',
      remoteAddress: `10.14.3.${n}`,
      headers: { 'cloudfront-viewer-country': 'FO', 'cf-ipcountry': 'FO' },
      payload: { email: demoUser('Ása').email, password: DEMO_PASSWORD, device: BROWSER },
    });
    expect(res.statusCode, res.body).toBe(200);
    const [current] = await list(parse(dataEnvelope(tokens), res).data.accessToken);
    expect(current?.country).toBeNull();
  });
});

describe('issue 14: authenticating again before signing other devices out (ASVS 5.0 7.5.2)', () => {
  let t: TestApp;
  const clock = testClock('2026-06-16T10:00:00.000Z');
  let n = 0;

  beforeAll(async () => {
    t = await createTestApp({ DEMO_MODE: 'true' }, { now: clock.now });
    await seedDemoData(t.app.db, clock.now());
  });
  afterAll(() => t.close());

  const login = async (email: string, device: SignInDevice, password = DEMO_PASSWORD) => {
    n += 1;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/email-login',
      remoteAddress: `10.15.0.${n}`,
      payload: { email, password, device },
    });
    expect(res.statusCode, res.body).toBe(200);
    return parse(dataEnvelope(tokens), res).data;
  };
  /** A new customer of our own, so the limits of one test do not reach another. */
  const registerUser = async (name: string, phoneNumber: string) => {
    n += 1;
    const email = `${name.toLowerCase()}.reauth@example.fo`;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      remoteAddress: `10.15.1.${n}`,
      payload: {
        firstname: name,
        lastname: 'Dánjalsdóttir',
        email,
        phoneNumber,
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
    return { email, password: 'Loyniord-1', first: parse(dataEnvelope(tokens), res).data };
  };
  const me = (accessToken: string) =>
    t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(accessToken) });
  const sessionsOf = async (accessToken: string) =>
    parse(
      dataEnvelope(authSessionsResponse),
      await t.app.inject({
        method: 'GET',
        url: '/api/auth/sessions',
        headers: bearer(accessToken),
      }),
    ).data;
  const signOut = (accessToken: string, id: string, payload: object, locale = 'fo') =>
    t.app.inject({
      method: 'POST',
      url: `/api/auth/sessions/${id}/sign-out`,
      headers: { ...bearer(accessToken), 'accept-language': locale },
      payload,
    });
  const signOutOthers = (
    accessToken: string,
    payload: object,
    locale = 'fo',
    remoteAddress = '127.0.0.1',
  ) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/sessions/sign-out-others',
      remoteAddress,
      headers: { ...bearer(accessToken), 'accept-language': locale },
      payload,
    });
  const smsTo = async (phoneNumber: string) => {
    await t.app.background.idle();
    const res = await t.app.inject({ method: 'GET', url: `/dev/outbox.json?to=298${phoneNumber}` });
    return parse(dataEnvelope(outboxList), res).data;
  };

  it('refuses to sign another device out without the password or with a wrong one, and ends nothing (ASVS 5.0 7.5.2)', async () => {
    const email = demoUser('Jóannes').email;
    const other = await login(email, PHONE);
    const keep = await login(email, BROWSER);
    const target = (await sessionsOf(keep.accessToken)).find((s) => s.device.model === 'Pixel 8');
    const id = target?.id ?? '';

    const without = await signOut(keep.accessToken, id, {});
    expect(without.statusCode).toBe(400);
    expect(without.json()).toMatchObject({
      error: { code: 'VALIDATION_FAILED', field: 'password' },
    });
    const wrong = await signOut(keep.accessToken, id, { password: 'Skeivt-1' });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toEqual({
      error: { code: 'PASSWORD_INCORRECT', message: 'Loyniorðið er skeivt.', field: 'password' },
    });
    const wrongEn = await signOut(keep.accessToken, id, { password: 'Skeivt-1' }, 'en');
    expect(wrongEn.json()).toEqual({
      error: {
        code: 'PASSWORD_INCORRECT',
        message: 'The password is incorrect.',
        field: 'password',
      },
    });
    // Not a 401: that would send the app refreshing its token (SPEC §8), and it is signed in.
    expect((await me(keep.accessToken)).statusCode).toBe(200);
    expect((await me(other.accessToken)).statusCode).toBe(200);

    for (const payload of [{}, { password: 'Skeivt-1' }, { password: '' }]) {
      const res = await signOutOthers(keep.accessToken, payload);
      expect([400, 422], res.body).toContain(res.statusCode);
    }
    // A password and a code at once is one too many.
    const both = await signOutOthers(keep.accessToken, { password: DEMO_PASSWORD, code: '123456' });
    expect(both.json()).toMatchObject({ error: { code: 'VALIDATION_FAILED', field: 'code' } });
    expect((await me(other.accessToken)).statusCode).toBe(200);
    expect(await sessionsOf(keep.accessToken)).toContainEqual(expect.objectContaining({ id }));

    // The right password signs it out.
    expect((await signOut(keep.accessToken, id, { password: DEMO_PASSWORD })).statusCode).toBe(204);
    expect((await me(other.accessToken)).statusCode).toBe(401);
    const again = await login(email, TABLET);
    const all = await signOutOthers(keep.accessToken, { password: DEMO_PASSWORD });
    expect(all.statusCode, all.body).toBe(200);
    expect(parse(dataEnvelope(signOutOthersResponse), all).data.signedOut).toBeGreaterThanOrEqual(
      1,
    );
    expect((await me(again.accessToken)).statusCode).toBe(401);
    expect((await me(keep.accessToken)).statusCode).toBe(200);
  });

  it('signs the current device out without a password: that is a logout (ADR 0059)', async () => {
    const signed = await login(demoUser('Sunneva').email, PHONE);
    const [current] = await sessionsOf(signed.accessToken);
    expect(current?.current).toBe(true);
    expect((await signOut(signed.accessToken, current?.id ?? '', {})).statusCode).toBe(204);
    expect((await me(signed.accessToken)).statusCode).toBe(401);
  });

  it('counts wrong passwords as failed logins of the account: the sixth is 429 and locks e-mail login from that address too (ASVS 5.0 7.5.2, ADR 0021)', async () => {
    const customer = await registerUser('Marjun', '291501');
    const other = await login(customer.email, TABLET, customer.password);
    const address = '10.15.9.1';
    const answers: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      answers.push(
        (
          await signOutOthers(
            customer.first.accessToken,
            { password: `Skeivt-${i}` },
            'fo',
            address,
          )
        ).statusCode,
      );
    }
    expect(answers).toEqual([422, 422, 422, 422, 422]);
    // Over the limit even the right password is refused, and nothing ends.
    const locked = await signOutOthers(
      customer.first.accessToken,
      { password: customer.password },
      'en',
      address,
    );
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toMatchObject({ error: { code: 'TOO_MANY_ATTEMPTS' } });
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await me(other.accessToken)).statusCode).toBe(200);
    // The same counters as a login: e-mail login of this account from this address is locked too.
    const loginThere = await t.app.inject({
      method: 'POST',
      url: '/api/auth/email-login',
      remoteAddress: address,
      payload: { email: customer.email, password: customer.password },
    });
    expect(loginThere.statusCode).toBe(429);
    // After the window the right password works again (from a fresh sign-in: 30 minutes on,
    // the old access tokens have expired).
    clock.advance(30 * 60);
    const fresh = await login(customer.email, BROWSER, customer.password);
    const later = await signOutOthers(
      fresh.accessToken,
      { password: customer.password },
      'fo',
      address,
    );
    expect(later.statusCode, later.body).toBe(200);
    expect(parse(dataEnvelope(signOutOthersResponse), later).data.signedOut).toBe(2);
  });

  it('confirms a customer without a password with an SMS code to their number, good once and only for this (ASVS 5.0 7.5.2, ADR 0023)', async () => {
    const customer = await registerUser('Bjarta', '291502');
    await t.app.db.update(users).set({ passwordHash: null }).where(eq(users.email, customer.email));
    const profile = parse(dataEnvelope(userSchema), await me(customer.first.accessToken)).data;
    expect(profile.hasPassword).toBe(false);
    // A second device, signed in by phone code as such a customer does.
    n += 1;
    const remoteAddress = `10.15.2.${n}`;
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/request-pin',
      remoteAddress,
      payload: { phoneNumber: '291502' },
    });
    const loginCode = /\b(\d{6})\b/.exec((await smsTo('291502'))[0]?.text ?? '')?.[1] ?? '';
    const viaPhone = await t.app.inject({
      method: 'POST',
      url: '/api/auth/enter-pin',
      remoteAddress,
      payload: { phoneNumber: '291502', password: loginCode, device: TABLET },
    });
    expect(viaPhone.statusCode, viaPhone.body).toBe(200);
    const other = parse(dataEnvelope(tokens), viaPhone).data;

    // No password to give: any password is wrong.
    const guess = await signOutOthers(customer.first.accessToken, { password: 'Loyniord-1' });
    expect(guess.json()).toMatchObject({ error: { code: 'PASSWORD_INCORRECT' } });

    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sessions/confirmation-code',
      headers: { ...bearer(customer.first.accessToken), 'accept-language': 'en' },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(parse(dataEnvelope(confirmationCodeResponse), sent).data).toEqual({
      phoneNumber: '291502',
      expiresIn: 600,
      resendAfter: 60,
    });
    const [sms] = await smsTo('291502');
    expect(sms?.text).toMatch(/^Your Alda code to sign out other devices is \d{6}\./);
    const code = /\b(\d{6})\b/.exec(sms?.text ?? '')?.[1] ?? '';
    const wrongCode = code === '111111' ? '222222' : '111111';

    const wrong = await signOutOthers(customer.first.accessToken, { code: wrongCode });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toEqual({
      error: { code: 'CONFIRMATION_CODE_INCORRECT', message: 'Kotan er skeiv.', field: 'code' },
    });
    // It is no login code: phone login with it fails (the login code is spent already).
    const asLogin = await t.app.inject({
      method: 'POST',
      url: '/api/auth/enter-pin',
      remoteAddress,
      payload: { phoneNumber: '291502', password: code },
    });
    expect(asLogin.statusCode).toBe(410);
    expect((await me(other.accessToken)).statusCode).toBe(200);

    const right = await signOutOthers(customer.first.accessToken, { code });
    expect(right.statusCode, right.body).toBe(200);
    expect(parse(dataEnvelope(signOutOthersResponse), right).data.signedOut).toBe(1);
    expect((await me(other.accessToken)).statusCode).toBe(401);
    // Single use.
    const reused = await signOutOthers(customer.first.accessToken, { code });
    expect(reused.json()).toMatchObject({ error: { code: 'PIN_EXPIRED' } });
  });

  it('sends no second confirmation code before the resend countdown (ADR 0023)', async () => {
    const signed = await login(demoUser('Rói').email, PHONE);
    const ask = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/sessions/confirmation-code',
        headers: bearer(signed.accessToken),
      });
    expect((await ask()).statusCode).toBe(200);
    const soon = await ask();
    expect(soon.statusCode).toBe(429);
    expect(soon.json()).toMatchObject({ error: { code: 'PIN_RESEND_TOO_SOON' } });
    const [sms] = await smsTo(demoUser('Rói').phoneNumber);
    expect(sms?.text).toMatch(/^Kotan til at rita aðrar eindir út hjá Alda er \d{6}\./);
  });
});

describe("issue 14: the place of a sign-in from the edge's country header (ADR 0059, CLIENT_COUNTRY_HEADER)", () => {
  let t: TestApp;
  const clock = testClock('2026-06-17T10:00:00.000Z');
  let n = 0;

  beforeAll(async () => {
    t = await createTestApp(
      { DEMO_MODE: 'true', CLIENT_COUNTRY_HEADER: 'CloudFront-Viewer-Country' },
      { now: clock.now },
    );
    await seedDemoData(t.app.db, clock.now());
  });
  afterAll(() => t.close());

  const login = async (email: string, device: SignInDevice, country?: string) => {
    n += 1;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/email-login',
      remoteAddress: `10.16.0.${n}`,
      headers: country === undefined ? {} : { 'cloudfront-viewer-country': country },
      payload: { email, password: DEMO_PASSWORD, device },
    });
    expect(res.statusCode, res.body).toBe(200);
    return parse(dataEnvelope(tokens), res).data;
  };
  const countryOfCurrent = async (accessToken: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/auth/sessions',
      headers: bearer(accessToken),
    });
    return parse(dataEnvelope(authSessionsResponse), res).data.find((s) => s.current)?.country;
  };
  const mailsTo = async (email: string) => {
    await t.app.background.idle();
    const res = await t.app.inject({ method: 'GET', url: `/dev/outbox.json?to=${email}` });
    return parse(dataEnvelope(outboxList), res).data;
  };

  it('stores the ISO country the edge names at sign-in and lists it (ADR 0059)', async () => {
    const email = demoUser('Jóannes').email;
    expect(await countryOfCurrent((await login(email, PHONE, 'FO')).accessToken)).toBe('FO');
    expect(await countryOfCurrent((await login(email, PHONE, ' dk ')).accessToken)).toBe('DK');
    expect(await countryOfCurrent((await login(email, PHONE)).accessToken)).toBeNull();
  });

  it('ignores what is not a country: XX, T1, groups, unknown codes and junk (ADR 0059)', async () => {
    const email = demoUser('Sunneva').email;
    for (const junk of ['XX', 'T1', 'EU', 'ZZ', 'QQ', 'F', 'FRO', 'Føroyar', "FO'; --", '']) {
      expect(
        await countryOfCurrent((await login(email, PHONE, junk)).accessToken),
        junk,
      ).toBeNull();
    }
    // Another header is not the trusted one.
    n += 1;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/email-login',
      remoteAddress: `10.16.1.${n}`,
      headers: { 'cf-ipcountry': 'FO' },
      payload: { email, password: DEMO_PASSWORD, device: PHONE },
    });
    expect(await countryOfCurrent(parse(dataEnvelope(tokens), res).data.accessToken)).toBeNull();
  });

  it("names the country in the new-device e-mail, in the user's language (ADR 0059)", async () => {
    const guðrun = demoUser('Guðrun'); // en
    await login(guðrun.email, BROWSER, 'FO');
    await login(guðrun.email, { ...PHONE, id: 'install-abroad' }, 'DK');
    const [mail] = await mailsTo(guðrun.email);
    expect(mail?.text).toContain('Where: Denmark');
    expect(mail?.html).toContain('Denmark');

    const rói = demoUser('Rói'); // fo
    await login(rói.email, BROWSER, 'FO');
    await login(rói.email, { ...PHONE, id: 'install-róa' }, 'IS');
    const [fo] = await mailsTo(rói.email);
    expect(fo?.text).toContain('Hvar: Ísland');
    // Unknown stays "unknown".
    await login(rói.email, { ...TABLET, id: 'install-róa-2' });
    const [unknown] = await mailsTo(rói.email);
    expect(unknown?.text).toContain('Hvar: ókent');
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
      method: 'POST',
      url: `/api/auth/sessions/${target?.id ?? ''}/sign-out`,
      headers: bearer(keep.accessToken),
      payload: AGAIN,
    });
    expect(res.statusCode).toBe(204);
    expect((await me(a, gone.accessToken)).statusCode).toBe(401);
    await waitFor(
      async () => ((await me(b, gone.accessToken)).statusCode === 401 ? true : undefined),
      1_000,
    );
    expect((await me(b, keep.accessToken)).statusCode).toBe(200);
  });

  it('counts wrong passwords on both instances against one limit in the database (ASVS 5.0 7.5.2, ADR 0021)', async () => {
    const keep = await login(a, PHONE);
    const other = await login(b, TABLET);
    const tryOn = (app: FastifyInstance, password: string) =>
      app.inject({
        method: 'POST',
        url: '/api/auth/sessions/sign-out-others',
        remoteAddress: '10.17.0.1',
        headers: bearer(keep.accessToken),
        payload: { password },
      });
    const answers: number[] = [];
    for (const app of [a, b, a, b, a]) answers.push((await tryOn(app, 'Skeivt-1')).statusCode);
    expect(answers).toEqual([422, 422, 422, 422, 422]);
    expect((await tryOn(b, DEMO_PASSWORD)).statusCode).toBe(429);
    expect((await tryOn(a, DEMO_PASSWORD)).statusCode).toBe(429);
    expect((await me(b, other.accessToken)).statusCode).toBe(200);
  });
});
