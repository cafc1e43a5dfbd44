import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope, errorEnvelope } from '@alda/contract/envelope';
import { tokens, user } from '@alda/contract/schemas/auth';
import { DEMO_PASSWORD, DEMO_USERS } from '../src/seed/demo-users';
import { refreshTokens, sessions } from '../src/db/schema/sessions';
import { users } from '../src/db/schema/users';
import { seedDemoData } from '../src/seed/seed';
import { hashRefreshToken } from '../src/modules/auth/tokens';
import { createTestApp, parse, type TestApp } from './helper';

const tokensAnswer = dataEnvelope(tokens);
const userAnswer = dataEnvelope(user);
const demoUser = (firstname: string) => {
  const found = DEMO_USERS.find((u) => u.firstname === firstname);
  if (!found) throw new Error(`no demo user ${firstname}`);
  return found;
};
const jóannes = demoUser('Jóannes');
const guðrun = demoUser('Guðrun');

describe('sessions: email login, refresh rotation, reuse detection, logout, me (SPEC §7 Auth, §8)', () => {
  let t: TestApp;
  let clock = new Date('2026-03-01T10:00:00.000Z');
  const advance = (seconds: number) => {
    clock = new Date(clock.getTime() + seconds * 1000);
  };

  beforeAll(async () => {
    t = await createTestApp(
      { ACCESS_TOKEN_TTL_S: '900', REFRESH_TOKEN_TTL_S: '3600' },
      { now: () => clock },
    );
    // argon2 is deliberately slow: the demo customers are hashed once for the whole file.
    await seedDemoData(t.app.db, clock);
  });
  afterAll(() => t.close());

  const login = (email: string, password: string, acceptLanguage?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/email-login',
      headers: acceptLanguage ? { 'accept-language': acceptLanguage } : {},
      payload: { email, password },
    });
  const refresh = (refreshToken: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/refresh-token', payload: { refreshToken } });
  const me = (accessToken?: string) =>
    t.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: accessToken ? { authorization: `Bearer ${accessToken}` } : {},
    });
  const signIn = async () => parse(tokensAnswer, await login(jóannes.email, DEMO_PASSWORD)).data;

  it('logs in with e-mail and password and returns an access token, a refresh token and its lifetime', async () => {
    const res = await login(jóannes.email, DEMO_PASSWORD);
    expect(res.statusCode).toBe(200);
    const { data } = parse(tokensAnswer, res);
    expect(data.expiresIn).toBe(900);
    expect(data.accessToken.split('.')).toHaveLength(3);
    // 256 random bits, base64url.
    expect(data.refreshToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('accepts the e-mail address in any case and with surrounding spaces', async () => {
    const res = await login(`  ${jóannes.email.toUpperCase()} `, DEMO_PASSWORD);
    expect(res.statusCode).toBe(200);
  });

  it("answers a wrong password and an unknown address alike: 401 INVALID_CREDENTIALS, 'Incorrect email or password.' (SPEC §8)", async () => {
    const wrong = await login(jóannes.email, 'Demo1234?', 'en');
    const unknown = await login('nobody@demo.alda.fo', DEMO_PASSWORD, 'en');
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(parse(errorEnvelope, res).error).toEqual({
        code: 'INVALID_CREDENTIALS',
        message: 'Incorrect email or password.',
      });
    }
    expect(parse(errorEnvelope, await login(jóannes.email, 'x')).error.message).toBe(
      'Skeivur teldupostur ella loyniorð.',
    );
  });

  it('stores passwords as argon2id with the configured cost and refresh tokens only as SHA-256', async () => {
    const [row] = await t.app.db.select().from(users).where(eq(users.id, jóannes.id));
    expect(row?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    const { refreshToken } = await signIn();
    const stored = await t.app.db
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, hashRefreshToken(refreshToken)));
    expect(stored).toHaveLength(1);
    const all = await t.app.db.select({ hash: refreshTokens.tokenHash }).from(refreshTokens);
    expect(all.some((r) => r.hash === refreshToken)).toBe(false);
  });

  it('GET /api/auth/me returns the signed-in user (SPEC §3 User)', async () => {
    const { accessToken } = await signIn();
    const res = await me(accessToken);
    expect(res.statusCode).toBe(200);
    expect(parse(userAnswer, res).data).toEqual({
      id: jóannes.id,
      firstname: 'Jóannes',
      lastname: 'Joensen',
      email: jóannes.email,
      phoneNumber: jóannes.phoneNumber,
      birthDate: jóannes.birthDate,
      address: jóannes.address,
      postCode: '100',
      city: 'Tórshavn',
      locale: 'fo',
      createdAt: expect.any(String) as string,
      showInPhoneBook: false,
      hasPassword: true,
      // Usage alerts (issue 16, ADR 0066): both thresholds on, e-mail off, until changed.
      usageAlerts: { at80: true, at100: true, email: false },
    });
    expect(res.body).not.toContain('argon2');
  });

  it('answers 401 UNAUTHORIZED without a token, with a malformed one, or with one signed by another key', async () => {
    const forged =
      'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ4Iiwic2lkIjoieSJ9.c2lnbmF0dXJlLWZyb20tYW5vdGhlci1rZXk';
    for (const token of [undefined, 'not-a-jwt', forged]) {
      const res = await me(token);
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(parse(errorEnvelope, res).error.code).toBe('UNAUTHORIZED');
    }
    const basic = await t.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { authorization: 'Basic abc' },
    });
    expect(basic.statusCode).toBe(401);
  });

  it('lets an access token expire after ACCESS_TOKEN_TTL_S', async () => {
    const { accessToken } = await signIn();
    advance(899);
    expect((await me(accessToken)).statusCode).toBe(200);
    advance(2);
    expect((await me(accessToken)).statusCode).toBe(401);
  });

  it('rotates the refresh token on every use: new pair, old one spent (SPEC §7 refresh-token)', async () => {
    const first = await signIn();
    const res = await refresh(first.refreshToken);
    expect(res.statusCode).toBe(200);
    const second = parse(tokensAnswer, res).data;
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect(second.accessToken).not.toBe(first.accessToken);
    expect((await me(second.accessToken)).statusCode).toBe(200);

    const third = parse(tokensAnswer, await refresh(second.refreshToken)).data;
    const [child] = await t.app.db
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, hashRefreshToken(third.refreshToken)));
    const [parent] = await t.app.db
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, hashRefreshToken(second.refreshToken)));
    expect(child?.parentId).toBe(parent?.id);
    expect(child?.sessionId).toBe(parent?.sessionId);
    expect(parent?.usedAt).not.toBeNull();
  });

  it('revokes the whole session when a spent refresh token is presented again (reuse detection)', async () => {
    const first = await signIn();
    const second = parse(tokensAnswer, await refresh(first.refreshToken)).data;

    // Someone replays the spent token: refused, and the session family is revoked.
    const replay = await refresh(first.refreshToken);
    expect(replay.statusCode).toBe(401);
    expect(parse(errorEnvelope, replay).error.code).toBe('UNAUTHORIZED');

    // The legitimate holder's newer tokens are dead too.
    expect((await refresh(second.refreshToken)).statusCode).toBe(401);
    expect((await me(second.accessToken)).statusCode).toBe(401);

    const [session] = await t.app.db
      .select()
      .from(sessions)
      .innerJoin(refreshTokens, eq(refreshTokens.sessionId, sessions.id))
      .where(eq(refreshTokens.tokenHash, hashRefreshToken(first.refreshToken)));
    expect(session?.sessions.revokedReason).toBe('reuse');
  });

  it('lets only one of two concurrent refreshes with the same token succeed', async () => {
    const { refreshToken } = await signIn();
    const results = await Promise.all([refresh(refreshToken), refresh(refreshToken)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 401]);
  });

  it('refuses an unknown refresh token and one past REFRESH_TOKEN_TTL_S', async () => {
    expect((await refresh('A'.repeat(43))).statusCode).toBe(401);
    const { refreshToken } = await signIn();
    advance(3601);
    expect((await refresh(refreshToken)).statusCode).toBe(401);
  });

  it('keeps sessions apart: refreshing one login does not affect another', async () => {
    const phone = await signIn();
    const tablet = await signIn();
    await refresh(phone.refreshToken);
    await refresh(phone.refreshToken); // reuse: kills the phone's session only
    expect((await me(tablet.accessToken)).statusCode).toBe(200);
    expect((await refresh(tablet.refreshToken)).statusCode).toBe(200);
  });

  it('logout revokes the session: its access token and refresh token stop working at once', async () => {
    const { accessToken, refreshToken } = await signIn();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      payload: { refreshToken },
    });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await me(accessToken)).statusCode).toBe(401);
    expect((await refresh(refreshToken)).statusCode).toBe(401);
  });

  it('logout answers 204 for an unknown or already used token (nothing to reveal)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      payload: { refreshToken: 'unknown' },
    });
    expect(res.statusCode).toBe(204);
  });

  it('identifies each customer as themselves', async () => {
    const tokensOfGuðrun = parse(tokensAnswer, await login(guðrun.email, DEMO_PASSWORD)).data;
    const { data } = parse(userAnswer, await me(tokensOfGuðrun.accessToken));
    expect(data).toMatchObject({
      firstname: 'Guðrun',
      lastname: 'Poulsen',
      city: 'Klaksvík',
      postCode: '700',
      locale: 'en',
    });
  });

  it('validates the login body, naming the field', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/email-login',
      payload: { email: jóannes.email },
    });
    expect(res.statusCode).toBe(400);
    expect(parse(errorEnvelope, res).error).toMatchObject({
      code: 'VALIDATION_FAILED',
      field: 'password',
    });
  });
});
