import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dataEnvelope, errorEnvelope } from '@alda/contract/envelope';
import { tokens, user } from '@alda/contract/schemas/auth';
import { requestPinResponse } from '@alda/contract/schemas/auth-register';
import { outboxList } from '@alda/contract/schemas/dev-outbox';

import { phoneLoginCodes } from '../src/db/schema/auth-codes';
import { seedDemoData } from '../src/seed/seed';
import { newPinCode } from '../src/modules/auth/phone-login-service';
import { bearer, createTestApp, demoUser, parse, type TestApp, testClock } from './helper';

const jóannes = demoUser('Jóannes');
const sunneva = demoUser('Sunneva');

describe('phone login with an SMS code: request-pin, enter-pin (SPEC §7 Auth, §8 Phone login)', () => {
  let t: TestApp;
  const clock = testClock();
  // Each test starts in fresh rate-limit windows (they are covered in rate-limits.test.ts).
  let ip = 0;
  let remoteAddress = '10.0.0.0';

  beforeAll(async () => {
    t = await createTestApp({ DEMO_MODE: 'true' }, { now: clock.now });
    await seedDemoData(t.app.db, clock.now());
  });
  afterAll(() => t.close());
  beforeEach(() => {
    ip += 1;
    remoteAddress = `10.0.0.${ip}`;
    clock.advance(3600);
  });

  const requestPin = (phoneNumber: string, locale = 'fo') =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/request-pin',
      remoteAddress,
      headers: { 'accept-language': locale },
      payload: { phoneNumber },
    });
  const enterPin = (phoneNumber: string, password: string, locale = 'en') =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/enter-pin',
      remoteAddress,
      headers: { 'accept-language': locale },
      payload: { phoneNumber, password },
    });
  /** The newest SMS to the number, read from the dev outbox as the e2e tests do. */
  const lastSms = async (phoneNumber: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/dev/outbox.json?to=298${phoneNumber}` });
    const [message] = parse(dataEnvelope(outboxList), res).data;
    if (!message) throw new Error(`no SMS to ${phoneNumber}`);
    return message;
  };
  const codeOf = (text: string) => /\b(\d{6})\b/.exec(text)?.[1] ?? '';
  const newCodeFor = async (phoneNumber: string) => {
    const res = await requestPin(phoneNumber);
    expect(res.statusCode).toBe(200);
    return codeOf((await lastSms(phoneNumber)).text);
  };
  const other = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  it('sends a 6-digit code by SMS to 298 + the number, valid 10 minutes, resend after 60 s', async () => {
    const res = await requestPin('214455');
    expect(res.statusCode).toBe(200);
    expect(parse(dataEnvelope(requestPinResponse), res).data).toEqual({
      expiresIn: 600,
      resendAfter: 60,
    });
    const sms = await lastSms('214455');
    expect(sms).toMatchObject({ channel: 'sms', to: '298214455', subject: null, html: null });
    expect(sms.text).toMatch(
      /^Kotan hjá tær til Alda er \d{6}\. Galdandi í 10 min\. Gev ongum hana\.$/,
    );
  });

  it('signs in with the code: tokens for the user of the number (SPEC §7 enter-pin)', async () => {
    const code = await newCodeFor('214455');
    const res = await enterPin('214455', code);
    expect(res.statusCode).toBe(200);
    const { data } = parse(dataEnvelope(tokens), res);
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: bearer(data.accessToken),
    });
    expect(parse(dataEnvelope(user), me).data.id).toBe(jóannes.id);
  });

  it('accepts the number with +298 or 00298 and writes the SMS in the language of the request', async () => {
    const res = await requestPin('+298 21 44 56', 'en');
    expect(res.statusCode).toBe(200);
    const sms = await lastSms('214456');
    expect(sms.text).toMatch(/^Your Alda code is \d{6}\. It is valid for 10 minutes\./);
    const signedIn = await enterPin('00298214456', codeOf(sms.text));
    expect(signedIn.statusCode).toBe(200);
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: bearer(parse(dataEnvelope(tokens), signedIn).data.accessToken),
    });
    expect(parse(dataEnvelope(user), me).data.id).toBe(sunneva.id);
  });

  it('uses a code once: the second use answers 410 PIN_EXPIRED', async () => {
    const code = await newCodeFor('214455');
    expect((await enterPin('214455', code)).statusCode).toBe(200);
    const again = await enterPin('214455', code);
    expect(again.statusCode).toBe(410);
    expect(parse(errorEnvelope, again).error).toEqual({
      code: 'PIN_EXPIRED',
      message: 'The code has expired. Request a new one.',
    });
  });

  it("answers a wrong code with 401 INVALID_PIN, 'The code is incorrect.'", async () => {
    const code = await newCodeFor('214455');
    const res = await enterPin('214455', other(code));
    expect(res.statusCode).toBe(401);
    expect(parse(errorEnvelope, res).error).toEqual({
      code: 'INVALID_PIN',
      message: 'The code is incorrect.',
    });
    expect(parse(errorEnvelope, await enterPin('214455', other(code), 'fo')).error.message).toBe(
      'Kotan er skeiv.',
    );
    expect((await enterPin('214455', code)).statusCode).toBe(200);
  });

  it('stops brute force: after 5 tries the code is dead, even the right one (security)', async () => {
    const code = await newCodeFor('214455');
    for (let i = 1; i <= 4; i += 1) {
      const res = await enterPin('214455', other(code));
      expect(parse(errorEnvelope, res).error.code, `try ${i}`).toBe('INVALID_PIN');
    }
    const fifth = await enterPin('214455', other(code));
    expect(fifth.statusCode).toBe(410);
    expect(parse(errorEnvelope, fifth).error.code).toBe('PIN_EXPIRED');
    const right = await enterPin('214455', code);
    expect(right.statusCode).toBe(410);
    const [row] = await t.app.db
      .select()
      .from(phoneLoginCodes)
      .where(eq(phoneLoginCodes.msisdn, '214455'));
    expect(row?.attempts).toBe(5);
    expect(row?.consumedAt).toBeNull();
  });

  it('lets a code expire after 10 minutes', async () => {
    const code = await newCodeFor('214455');
    clock.advance(599);
    const early = await newCodeFor('214456');
    expect((await enterPin('214456', early)).statusCode).toBe(200);
    clock.advance(1);
    const res = await enterPin('214455', code);
    expect(res.statusCode).toBe(410);
    expect(parse(errorEnvelope, res).error.code).toBe('PIN_EXPIRED');
  });

  it('allows a new code only after 60 s: 429 PIN_RESEND_TOO_SOON with the seconds left; the new code replaces the old', async () => {
    const first = await newCodeFor('214455');
    clock.advance(45);
    const tooSoon = await requestPin('214455', 'en');
    expect(tooSoon.statusCode).toBe(429);
    expect(tooSoon.headers['retry-after']).toBe('15');
    expect(parse(errorEnvelope, tooSoon).error).toEqual({
      code: 'PIN_RESEND_TOO_SOON',
      message: 'Wait a moment before you ask for a new code.',
      retryAfter: 15,
    });
    clock.advance(15);
    const second = await newCodeFor('214455');
    if (second !== first) {
      expect(parse(errorEnvelope, await enterPin('214455', first)).error.code).toBe('INVALID_PIN');
    }
    expect((await enterPin('214455', second)).statusCode).toBe(200);
  });

  it('lets a customer who just signed in with a code ask for the next one at once', async () => {
    const code = await newCodeFor('214455');
    expect((await enterPin('214455', code)).statusCode).toBe(200);
    expect((await requestPin('214455')).statusCode).toBe(200);
  });

  it('binds a code to its number: it does not work for another number', async () => {
    const code = await newCodeFor('214455');
    await newCodeFor('214456');
    const res = await enterPin('214456', code);
    // Only by a one-in-a-million chance are the two codes equal.
    expect(res.statusCode === 401 || codeOf((await lastSms('214456')).text) === code).toBe(true);
  });

  it('answers a code request for a number without customer with 404 PHONE_NOT_REGISTERED (SPEC §8)', async () => {
    const res = await requestPin('299999', 'en');
    expect(res.statusCode).toBe(404);
    expect(parse(errorEnvelope, res).error).toEqual({
      code: 'PHONE_NOT_REGISTERED',
      message: 'The phone number is not registered',
    });
    expect(parse(errorEnvelope, await requestPin('299999', 'fo')).error.message).toBe(
      'Telefonnummarið er ikki skrásett.',
    );
  });

  it("answers a number whose line is still being set up with 409 PHONE_PROCESSING, 'Phone number is still being processed' (SPEC §8)", async () => {
    const res = await requestPin('557813', 'en');
    expect(res.statusCode).toBe(409);
    expect(parse(errorEnvelope, res).error).toEqual({
      code: 'PHONE_PROCESSING',
      message: 'Phone number is still being processed',
    });
    expect(parse(errorEnvelope, await requestPin('557813', 'fo')).error.message).toBe(
      'Telefonnummarið verður enn viðgjørt.',
    );
  });

  it('checks the input: 6 digits for the number and the code (SPEC §5)', async () => {
    const badNumber = await requestPin('12345', 'en');
    expect(badNumber.statusCode).toBe(400);
    expect(parse(errorEnvelope, badNumber).error).toMatchObject({
      code: 'VALIDATION_FAILED',
      field: 'phoneNumber',
    });
    const badCode = await enterPin('214455', '12ab56');
    expect(badCode.statusCode).toBe(400);
    expect(parse(errorEnvelope, badCode).error).toMatchObject({
      field: 'password',
      message: 'The code must be 6 digits.',
    });
  });

  it('keeps only a keyed hash of the code, never the code', async () => {
    const code = await newCodeFor('214455');
    const [row] = await t.app.db
      .select()
      .from(phoneLoginCodes)
      .where(eq(phoneLoginCodes.msisdn, '214455'));
    expect(row?.codeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(code);
  });

  it('draws codes uniformly from 000000–999999', () => {
    const codes = Array.from({ length: 2000 }, newPinCode);
    for (const code of codes) expect(code).toMatch(/^\d{6}$/);
    expect(new Set(codes).size).toBeGreaterThan(1990);
    // Leading zeros happen about a tenth of the time, so padding is not biased away.
    const leadingZero = codes.filter((c) => c.startsWith('0')).length;
    expect(leadingZero).toBeGreaterThan(120);
    expect(leadingZero).toBeLessThan(290);
  });
});
