import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope, errorEnvelope } from '@alda/contract/envelope';
import { tokens, user } from '@alda/contract/schemas/auth';
import type { RegisterRequestInput } from '@alda/contract/schemas/auth-register';
import { users } from '../src/db/schema/users';
import { seedDemoData } from '../src/seed/seed';
import { bearer, createTestApp, parse, testClock, type TestApp } from './helper';

const tokensAnswer = dataEnvelope(tokens);
const userAnswer = dataEnvelope(user);

/** A valid registration; the clock below makes 01.03.2008 the 18th birthday. */
const form = (overrides: Partial<RegisterRequestInput> = {}): RegisterRequestInput => ({
  firstname: 'Bárður',
  lastname: 'Olsen',
  email: 'bardur@example.fo',
  phoneNumber: '+298 51 23 45',
  birthDate: '15.05.1990',
  address: 'Niels Finsens gøta 7',
  postCode: '100',
  city: 'tórshavn',
  password: 'Sterkt1234!',
  passwordRepeat: 'Sterkt1234!',
  ...overrides,
});

describe('POST /api/auth/register (SPEC §2 register, §5, §8 Registration)', () => {
  let t: TestApp;
  const clock = testClock('2026-03-01T10:00:00.000Z');

  beforeAll(async () => {
    t = await createTestApp({}, { now: clock.now });
    await seedDemoData(t.app.db, clock.now());
  });
  afterAll(() => t.close());

  const register = (body: unknown, locale = 'en') =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: { 'accept-language': locale },
      payload: body as Record<string, unknown>,
    });

  it('creates the user, signs them in at once and keeps their language (SPEC §7 Auth)', async () => {
    const res = await register(form(), 'en');
    expect(res.statusCode).toBe(200);
    const { data } = parse(tokensAnswer, res);
    const me = parse(
      userAnswer,
      await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(data.accessToken) }),
    ).data;
    expect(me).toMatchObject({
      firstname: 'Bárður',
      lastname: 'Olsen',
      email: 'bardur@example.fo',
      phoneNumber: '512345',
      birthDate: '1990-05-15',
      address: 'Niels Finsens gøta 7',
      postCode: '100',
      // Stored as the locality list spells it (SPEC §3).
      city: 'Tórshavn',
      locale: 'en',
      showInPhoneBook: false,
    });
    const [row] = await t.app.db.select().from(users).where(eq(users.email, 'bardur@example.fo'));
    expect(row?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);

    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/email-login',
      payload: { email: 'BARDUR@example.fo', password: 'Sterkt1234!' },
    });
    expect(login.statusCode).toBe(200);
  });

  it("refuses an e-mail that already has a user: 409 EMAIL_ALREADY_REGISTERED, 'The email is already registered' (SPEC §8)", async () => {
    const res = await register(
      form({ email: ' Joannes@Demo.Alda.fo ', phoneNumber: '512399' }),
      'en',
    );
    expect(res.statusCode).toBe(409);
    expect(parse(errorEnvelope, res).error).toEqual({
      code: 'EMAIL_ALREADY_REGISTERED',
      message: 'The email is already registered',
      field: 'email',
    });
    const fo = await register(form({ email: 'joannes@demo.alda.fo', phoneNumber: '512399' }), 'fo');
    expect(parse(errorEnvelope, fo).error.message).toBe('Teldupostadressan er longu skrásett.');
  });

  it("refuses a phone number that is already a customer's: 409 PHONE_ALREADY_REGISTERED", async () => {
    // Jóannes's own number, and Guðrun's second line that is still being set up.
    for (const phoneNumber of ['214455', '00298 557813']) {
      const res = await register(form({ email: 'ny@example.fo', phoneNumber }), 'en');
      expect(res.statusCode, phoneNumber).toBe(409);
      expect(parse(errorEnvelope, res).error).toEqual({
        code: 'PHONE_ALREADY_REGISTERED',
        message: 'The phone number is already registered. Log in with it instead.',
        field: 'phoneNumber',
      });
    }
  });

  it('refuses someone under 18 with 422 TOO_YOUNG: a parent or guardian must register (SPEC §5)', async () => {
    const res = await register(
      form({ email: 'ung@example.fo', phoneNumber: '512346', birthDate: '02.03.2008' }),
      'en',
    );
    expect(res.statusCode).toBe(422);
    expect(parse(errorEnvelope, res).error).toEqual({
      code: 'TOO_YOUNG',
      message: 'You are under the age limit. A parent or guardian must register for you.',
      field: 'birthDate',
    });
    const fo = await register(
      form({ email: 'ung@example.fo', phoneNumber: '512346', birthDate: '02.03.2008' }),
      'fo',
    );
    expect(parse(errorEnvelope, fo).error.message).toBe(
      'Tú ert undir aldursmarkinum. Foreldur ella verji mugu stovna brúkaran fyri teg.',
    );
    // On the 18th birthday (in Atlantic/Faroe) it is allowed.
    const birthday = await register(
      form({ email: 'atjan@example.fo', phoneNumber: '512347', birthDate: '01.03.2008' }),
    );
    expect(birthday.statusCode).toBe(200);
  });

  it('takes the age limit from MIN_AGE (docs/decisions/0020-age-limit.md)', async () => {
    const strict = await createTestApp({ MIN_AGE: '21' }, { now: clock.now });
    try {
      const res = await strict.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: form({ birthDate: '01.03.2006' }),
      });
      expect(res.statusCode).toBe(422);
      expect(parse(errorEnvelope, res).error.code).toBe('TOO_YOUNG');
    } finally {
      await strict.close();
    }
  });

  it('validates every field with the SPEC §5 messages and names the field', async () => {
    const cases: [Partial<RegisterRequestInput>, string, string][] = [
      [{ firstname: ' ' }, 'firstname', 'This is a required field'],
      [{ email: 'bardur@' }, 'email', 'Enter a valid email address.'],
      [{ phoneNumber: '12345' }, 'phoneNumber', 'The phone number must be 6 digits.'],
      [{ birthDate: '31.02.1990' }, 'birthDate', 'Enter a valid date (dd.mm.yyyy).'],
      [{ postCode: '999' }, 'postCode', 'This postal code does not exist in the Faroe Islands.'],
      [
        { password: 'kort', passwordRepeat: 'kort' },
        'password',
        expect.stringContaining('8') as unknown as string,
      ],
      [{ passwordRepeat: 'Sterkt1234?' }, 'passwordRepeat', 'The passwords do not match.'],
    ];
    for (const [overrides, field, message] of cases) {
      const res = await register(
        form({ email: 'v@example.fo', phoneNumber: '512350', ...overrides }),
      );
      expect(res.statusCode, field).toBe(400);
      expect(parse(errorEnvelope, res).error).toMatchObject({
        code: 'VALIDATION_FAILED',
        field,
        message,
      });
    }
  });

  it('refuses a city that does not have the postal code (SPEC §3 locality list)', async () => {
    const res = await register(
      form({ email: 'v@example.fo', phoneNumber: '512350', postCode: '700', city: 'Tórshavn' }),
    );
    expect(res.statusCode).toBe(400);
    expect(parse(errorEnvelope, res).error).toEqual({
      code: 'VALIDATION_FAILED',
      field: 'city',
      message: 'This place does not have that postal code.',
    });
  });

  it('lets only one of two simultaneous registrations of one address through', async () => {
    const body = form({ email: 'tvey@example.fo', phoneNumber: '512360' });
    const [a, b] = await Promise.all([
      register(body),
      register({ ...body, phoneNumber: '512361' }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const loser = a.statusCode === 409 ? a : b;
    expect(parse(errorEnvelope, loser).error.code).toBe('EMAIL_ALREADY_REGISTERED');
  });
});
