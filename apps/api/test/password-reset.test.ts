import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dataEnvelope, errorEnvelope } from '@alda/contract/envelope';
import { tokens } from '@alda/contract/schemas/auth';
import { forgotPasswordResponse } from '@alda/contract/schemas/auth-register';
import { outboxList, type OutboxMessage } from '@alda/contract/schemas/dev-outbox';
import { DEMO_PASSWORD } from '../src/seed/demo-users';
import { passwordResetTokens } from '../src/db/schema/auth-codes';
import { sessions } from '../src/db/schema/sessions';
import { seedDemoData } from '../src/seed/seed';
import { bearer, createTestApp, demoUser, parse, type TestApp, testClock } from './helper';

const guðrun = demoUser('Guðrun');
const rói = demoUser('Rói');
const LINK = /https:\/\/minsida\.alda\.fo\/nytt-loyniord\?token=([A-Za-z0-9_-]+)/;

describe('password reset: forgot-password → e-mailed link → reset-password (SPEC §7 Auth, §2 /nytt-loyniord)', () => {
  let t: TestApp;
  const clock = testClock();
  let n = 0;
  let remoteAddress = '10.1.0.0';

  beforeAll(async () => {
    t = await createTestApp(
      { DEMO_MODE: 'true', APP_URL: 'https://minsida.alda.fo/' },
      { now: clock.now },
    );
    await seedDemoData(t.app.db, clock.now());
  });
  afterAll(() => t.close());
  beforeEach(() => {
    n += 1;
    remoteAddress = `10.1.0.${n}`;
    clock.advance(3600);
  });

  const post = (url: string, payload: Record<string, unknown>, locale = 'en') =>
    t.app.inject({
      method: 'POST',
      url,
      remoteAddress,
      headers: { 'accept-language': locale },
      payload,
    });
  const forgot = (email: string) => post('/api/auth/forgot-password', { email });
  const reset = (token: string, password: string) =>
    post('/api/auth/reset-password', { token, password });
  const login = (email: string, password: string) =>
    post('/api/auth/email-login', { email, password });
  const mailsTo = async (email: string): Promise<OutboxMessage[]> => {
    await t.app.background.idle();
    const res = await t.app.inject({ method: 'GET', url: `/dev/outbox.json?to=${email}` });
    return parse(dataEnvelope(outboxList), res).data;
  };
  const tokenFromLatestMail = async (email: string) => {
    const [mail] = await mailsTo(email);
    const token = LINK.exec(mail?.text ?? '')?.[1];
    if (!token) throw new Error(`no reset link to ${email}`);
    return token;
  };

  it('writes the e-mail in the language saved on the user, whatever the asking device speaks (issue 33 §3)', async () => {
    const signedIn = parse(dataEnvelope(tokens), await login(rói.email, DEMO_PASSWORD)).data;
    const choose = (locale: 'fo' | 'en') =>
      t.app.inject({
        method: 'PATCH',
        url: '/api/auth/me',
        remoteAddress,
        // The device that chose speaks the other language: the saved choice decides.
        headers: {
          'accept-language': locale === 'en' ? 'fo' : 'en',
          ...bearer(signedIn.accessToken),
        },
        payload: { locale },
      });
    expect((await choose('en')).statusCode).toBe(200);
    expect((await post('/api/auth/forgot-password', { email: rói.email }, 'fo')).statusCode).toBe(
      200,
    );
    expect((await mailsTo(rói.email))[0]?.subject).toBe('Set a new password for Alda');
    expect((await choose('fo')).statusCode).toBe(200);
    expect((await post('/api/auth/forgot-password', { email: rói.email }, 'en')).statusCode).toBe(
      200,
    );
    expect((await mailsTo(rói.email))[0]?.subject).toBe('Nýtt loyniorð til Alda');
  });

  it('answers { ok: true } for a known and an unknown address alike, and e-mails only the known one', async () => {
    const before = (await mailsTo(guðrun.email)).length;
    for (const email of [guðrun.email, 'nobody@example.fo']) {
      const res = await forgot(email);
      expect(res.statusCode, email).toBe(200);
      expect(parse(dataEnvelope(forgotPasswordResponse), res).data).toEqual({ ok: true });
    }
    expect(await mailsTo(guðrun.email)).toHaveLength(before + 1);
    expect(await mailsTo('nobody@example.fo')).toHaveLength(0);
  });

  it("e-mails a multipart message (text and HTML) in the user's language with a link to APP_URL/nytt-loyniord", async () => {
    await forgot(` ${guðrun.email.toUpperCase()} `);
    const [mail] = await mailsTo(guðrun.email);
    // Guðrun's language is English.
    expect(mail).toMatchObject({
      channel: 'email',
      to: guðrun.email,
      subject: 'Set a new password for Alda',
    });
    expect(mail?.text).toContain('Hi Guðrun,');
    expect(mail?.text).toMatch(LINK);
    const token = LINK.exec(mail?.text ?? '')?.[1] ?? '';
    // At least 128 bits: 256 random bits in base64url.
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(mail?.html).toContain(`href="https://minsida.alda.fo/nytt-loyniord?token=${token}"`);
    expect(mail?.html).toContain('<html lang="en">');

    await forgot(rói.email);
    const [fo] = await mailsTo(rói.email);
    expect(fo?.subject).toBe('Nýtt loyniorð til Alda');
    expect(fo?.text).toContain('Hey Rói,');
  });

  it('keeps only the SHA-256 of a reset token', async () => {
    await forgot(rói.email);
    const token = await tokenFromLatestMail(rói.email);
    const rows = await t.app.db.select().from(passwordResetTokens);
    expect(rows.some((r) => r.tokenHash === token)).toBe(false);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.tokenHash))).toBe(true);
  });

  it('sets the new password, ends every session of the user and signs in afresh', async () => {
    const before = parse(dataEnvelope(tokens), await login(rói.email, DEMO_PASSWORD)).data;
    await forgot(rói.email);
    const token = await tokenFromLatestMail(rói.email);

    const res = await reset(token, 'Nyggjt1234!');
    expect(res.statusCode).toBe(200);
    const fresh = parse(dataEnvelope(tokens), res).data;

    // The session from before the reset is gone: access token and refresh token.
    const oldMe = await t.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: bearer(before.accessToken),
    });
    expect(oldMe.statusCode).toBe(401);
    const oldRefresh = await post('/api/auth/refresh-token', { refreshToken: before.refreshToken });
    expect(oldRefresh.statusCode).toBe(401);
    const ofRói = await t.app.db
      .select({ revokedAt: sessions.revokedAt, reason: sessions.revokedReason })
      .from(sessions)
      .where(eq(sessions.userId, rói.id));
    expect(ofRói.filter((s) => s.revokedAt === null)).toHaveLength(1);
    expect(ofRói.filter((s) => s.reason === 'password_reset').length).toBeGreaterThanOrEqual(1);

    const newMe = await t.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: bearer(fresh.accessToken),
    });
    expect(newMe.statusCode).toBe(200);
    expect((await login(rói.email, DEMO_PASSWORD)).statusCode).toBe(401);
    expect((await login(rói.email, 'Nyggjt1234!')).statusCode).toBe(200);
  });

  it("works once: a used token answers 400 TOKEN_INVALID 'The link is invalid or has expired…' (security)", async () => {
    await forgot(rói.email);
    const token = await tokenFromLatestMail(rói.email);
    expect((await reset(token, 'Fyrsta1234!')).statusCode).toBe(200);
    const again = await reset(token, 'Onnur1234!');
    expect(again.statusCode).toBe(400);
    expect(parse(errorEnvelope, again).error).toEqual({
      code: 'TOKEN_INVALID',
      message: 'The link is invalid or has expired. Request a new one.',
    });
    expect((await login(rói.email, 'Fyrsta1234!')).statusCode).toBe(200);
  });

  it('lets a link expire after one hour, and a new password voids older links', async () => {
    await forgot(rói.email);
    const older = await tokenFromLatestMail(rói.email);
    clock.advance(3599);
    await forgot(rói.email);
    const newer = await tokenFromLatestMail(rói.email);
    clock.advance(1);
    expect(parse(errorEnvelope, await reset(older, 'Seinni1234!')).error.code).toBe(
      'TOKEN_INVALID',
    );

    await forgot(rói.email);
    const third = await tokenFromLatestMail(rói.email);
    expect((await reset(third, 'Triðja1234!')).statusCode).toBe(200);
    expect(parse(errorEnvelope, await reset(newer, 'Fjórða1234!')).error.code).toBe(
      'TOKEN_INVALID',
    );
  });

  it('refuses an unknown token and a weak password (SPEC §5)', async () => {
    expect(parse(errorEnvelope, await reset('x'.repeat(43), 'Sterkt1234!')).error.code).toBe(
      'TOKEN_INVALID',
    );
    await forgot(rói.email);
    const token = await tokenFromLatestMail(rói.email);
    const weak = await reset(token, 'veikt');
    expect(weak.statusCode).toBe(400);
    expect(parse(errorEnvelope, weak).error).toMatchObject({
      code: 'VALIDATION_FAILED',
      field: 'password',
    });
    // The refused attempt did not spend the token.
    expect((await reset(token, 'Sterkt1234!')).statusCode).toBe(200);
  });

  it('sends at most 3 reset e-mails per account in 15 minutes, still answering ok', async () => {
    const before = (await mailsTo(guðrun.email)).length;
    for (let i = 0; i < 5; i += 1) {
      remoteAddress = `10.1.1.${i}`;
      expect((await forgot(guðrun.email)).statusCode).toBe(200);
    }
    expect(await mailsTo(guðrun.email)).toHaveLength(before + 3);
  });

  it('lifts the e-mail login lock of the account: the owner gets back in at once (ADR 0021)', async () => {
    for (let i = 0; i < 5; i += 1) await login(guðrun.email, 'Skeivt1234!');
    expect(parse(errorEnvelope, await login(guðrun.email, DEMO_PASSWORD)).error.code).toBe(
      'TOO_MANY_ATTEMPTS',
    );
    await forgot(guðrun.email);
    const token = await tokenFromLatestMail(guðrun.email);
    expect((await reset(token, 'Nytt1234!!')).statusCode).toBe(200);
    expect((await login(guðrun.email, 'Nytt1234!!')).statusCode).toBe(200);
  });
});
