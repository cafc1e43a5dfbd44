import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dataEnvelope, errorEnvelope } from '@alda/contract/envelope';
import { tokens, user } from '@alda/contract/schemas/auth';
import { okResponse } from '@alda/contract/schemas/common';
import { DEMO_PASSWORD } from '../src/seed/demo-users';
import { phoneLines } from '../src/db/schema/phone-lines';
import { sessions } from '../src/db/schema/sessions';
import { users } from '../src/db/schema/users';
import { seedDemoData } from '../src/seed/seed';
import { bearer, createTestApp, demoUser, parse, type TestApp, testClock } from './helper';

const jóannes = demoUser('Jóannes');
const sunneva = demoUser('Sunneva');
const guðrun = demoUser('Guðrun');

describe('the signed-in user: PATCH /api/auth/me, change-password, DELETE /api/auth/me (SPEC §2 profile, §6)', () => {
  let t: TestApp;
  const clock = testClock();
  let n = 0;
  let remoteAddress = '10.2.0.0';

  beforeAll(async () => {
    t = await createTestApp({}, { now: clock.now });
    await seedDemoData(t.app.db, clock.now());
  });
  afterAll(() => t.close());
  beforeEach(() => {
    n += 1;
    remoteAddress = `10.2.0.${n}`;
    clock.advance(3600);
  });

  const login = async (email: string, password = DEMO_PASSWORD) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/email-login',
      remoteAddress,
      payload: { email, password },
    });
    return parse(dataEnvelope(tokens), res).data;
  };
  const call = (
    method: 'GET' | 'PATCH' | 'POST' | 'DELETE',
    url: string,
    accessToken: string | undefined,
    payload?: Record<string, unknown>,
  ) =>
    t.app.inject({
      method,
      url,
      remoteAddress,
      headers: { 'accept-language': 'en', ...(accessToken ? bearer(accessToken) : {}) },
      ...(payload ? { payload } : {}),
    });
  const register = async (email: string, phoneNumber: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      remoteAddress,
      payload: {
        firstname: 'Turið',
        lastname: 'Dam',
        email,
        phoneNumber,
        birthDate: '03.04.1985',
        address: 'Heimavegur 2',
        postCode: '620',
        city: 'Runavík',
        password: 'Turid1234!',
        passwordRepeat: 'Turid1234!',
      },
    });
    expect(res.statusCode).toBe(200);
    return parse(dataEnvelope(tokens), res).data;
  };

  it('changes only the fields sent and answers the user (names, address, language, phone book)', async () => {
    const { accessToken } = await login(sunneva.email);
    const res = await call('PATCH', '/api/auth/me', accessToken, {
      firstname: '  Sunneva Maria ',
      address: 'Tróndargøta 3',
      postCode: '700',
      city: 'klaksvik',
      locale: 'en',
      showInPhoneBook: true,
    });
    expect(res.statusCode).toBe(200);
    expect(parse(dataEnvelope(user), res).data).toMatchObject({
      id: sunneva.id,
      firstname: 'Sunneva Maria',
      lastname: 'Joensen',
      email: sunneva.email,
      address: 'Tróndargøta 3',
      postCode: '700',
      city: 'Klaksvík',
      locale: 'en',
      showInPhoneBook: true,
    });
    const me = parse(dataEnvelope(user), await call('GET', '/api/auth/me', accessToken)).data;
    expect(me.showInPhoneBook).toBe(true);
    expect(me.city).toBe('Klaksvík');
  });

  it('changes the e-mail address, unless another user has it: 409 EMAIL_ALREADY_REGISTERED', async () => {
    const { accessToken } = await login(sunneva.email);
    const taken = await call('PATCH', '/api/auth/me', accessToken, {
      email: jóannes.email.toUpperCase(),
    });
    expect(taken.statusCode).toBe(409);
    expect(parse(errorEnvelope, taken).error).toEqual({
      code: 'EMAIL_ALREADY_REGISTERED',
      message: 'The email is already registered',
      field: 'email',
    });
    const own = await call('PATCH', '/api/auth/me', accessToken, { email: sunneva.email });
    expect(own.statusCode).toBe(200);
    const changed = await call('PATCH', '/api/auth/me', accessToken, {
      email: 'Sunneva.J@Example.fo',
    });
    expect(parse(dataEnvelope(user), changed).data.email).toBe('sunneva.j@example.fo');
    expect((await login('sunneva.j@example.fo')).accessToken).toBeTruthy();
    await call('PATCH', '/api/auth/me', accessToken, { email: sunneva.email });
  });

  it('checks the address against the locality list and the other fields with the SPEC §5 rules', async () => {
    const { accessToken } = await login(sunneva.email);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ postCode: '100', city: 'Vágur' }, 'city', 'This place does not have that postal code.'],
      [{ postCode: '100' }, 'city', 'This is a required field'],
      [{ postCode: '1000', city: 'Tórshavn' }, 'postCode', 'The postal code must be 3 digits.'],
      [{ lastname: '' }, 'lastname', 'This is a required field'],
      [{ email: 'sunneva@' }, 'email', 'Enter a valid email address.'],
      [{ locale: 'da' }, 'locale', 'This value is not valid.'],
    ];
    for (const [payload, field, message] of cases) {
      const res = await call('PATCH', '/api/auth/me', accessToken, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(parse(errorEnvelope, res).error).toMatchObject({
        code: 'VALIDATION_FAILED',
        field,
        message,
      });
    }
  });

  it('needs a signed-in user (401 UNAUTHORIZED)', async () => {
    for (const [method, url] of [
      ['PATCH', '/api/auth/me'],
      ['DELETE', '/api/auth/me'],
      ['POST', '/api/auth/change-password'],
    ] as const) {
      const res = await call(method, url, undefined, { firstname: 'X' });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it("refuses a wrong current password: 422 CURRENT_PASSWORD_INCORRECT, 'The current password is incorrect.'", async () => {
    const { accessToken } = await login(guðrun.email);
    const res = await call('POST', '/api/auth/change-password', accessToken, {
      currentPassword: 'Skeivt1234!',
      password: 'Nyggjt1234!',
    });
    expect(res.statusCode).toBe(422);
    expect(parse(errorEnvelope, res).error).toEqual({
      code: 'CURRENT_PASSWORD_INCORRECT',
      message: 'The current password is incorrect.',
      field: 'currentPassword',
    });
    const weak = await call('POST', '/api/auth/change-password', accessToken, {
      currentPassword: DEMO_PASSWORD,
      password: 'veikt',
    });
    expect(parse(errorEnvelope, weak).error).toMatchObject({
      code: 'VALIDATION_FAILED',
      field: 'password',
    });
  });

  it('stops guessing the current password after 5 tries in 15 minutes (stolen access token)', async () => {
    const { accessToken } = await login(guðrun.email);
    for (let i = 0; i < 5; i += 1) {
      await call('POST', '/api/auth/change-password', accessToken, {
        currentPassword: `Gisk${i}1234!`,
        password: 'Nyggjt1234!',
      });
    }
    const sixth = await call('POST', '/api/auth/change-password', accessToken, {
      currentPassword: DEMO_PASSWORD,
      password: 'Nyggjt1234!',
    });
    expect(sixth.statusCode).toBe(429);
    expect(parse(errorEnvelope, sixth).error).toMatchObject({
      code: 'TOO_MANY_ATTEMPTS',
      retryAfter: expect.any(Number) as number,
    });
  });

  it('changes the password: this session stays, every other session ends', async () => {
    const other = await login(guðrun.email);
    const current = await login(guðrun.email);
    const res = await call('POST', '/api/auth/change-password', current.accessToken, {
      currentPassword: DEMO_PASSWORD,
      password: 'Nyggjt1234!',
    });
    expect(res.statusCode).toBe(200);
    expect(parse(dataEnvelope(okResponse), res).data).toEqual({ ok: true });
    expect((await call('GET', '/api/auth/me', current.accessToken)).statusCode).toBe(200);
    expect((await call('GET', '/api/auth/me', other.accessToken)).statusCode).toBe(401);
    const refresh = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh-token',
      payload: { refreshToken: other.refreshToken },
    });
    expect(refresh.statusCode).toBe(401);
    expect((await login(guðrun.email, 'Nyggjt1234!')).accessToken).toBeTruthy();
  });

  it('refuses to delete a user with an active or processing line: 409 HAS_ACTIVE_SUBSCRIPTION (SPEC §6)', async () => {
    const { accessToken } = await login(jóannes.email);
    const res = await call('DELETE', '/api/auth/me', accessToken);
    expect(res.statusCode).toBe(409);
    expect(parse(errorEnvelope, res).error).toEqual({
      code: 'HAS_ACTIVE_SUBSCRIPTION',
      message: 'You must cancel your subscription before you can delete your user.',
    });
    // A line still being set up counts too: Guðrun's own line is cancelled, 557813 is processing.
    await t.app.db
      .update(phoneLines)
      .set({ status: 'cancelled' })
      .where(eq(phoneLines.msisdn, guðrun.phoneNumber));
    const guðrunsToken = (await login(guðrun.email, 'Nyggjt1234!')).accessToken;
    expect((await call('DELETE', '/api/auth/me', guðrunsToken)).statusCode).toBe(409);
    expect(await t.app.db.$count(users, eq(users.id, jóannes.id))).toBe(1);
  });

  it('deletes a user without subscriptions with every session, in one go (204)', async () => {
    const first = await register('turid@example.fo', '512377');
    const second = await login('turid@example.fo', 'Turid1234!');
    const [row] = await t.app.db.select().from(users).where(eq(users.email, 'turid@example.fo'));
    const res = await call('DELETE', '/api/auth/me', second.accessToken);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(await t.app.db.$count(users, eq(users.email, 'turid@example.fo'))).toBe(0);
    expect(await t.app.db.$count(sessions, eq(sessions.userId, row?.id ?? ''))).toBe(0);
    expect((await call('GET', '/api/auth/me', first.accessToken)).statusCode).toBe(401);
    const refresh = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh-token',
      payload: { refreshToken: first.refreshToken },
    });
    expect(refresh.statusCode).toBe(401);
    // The address is free again.
    await register('turid@example.fo', '512377');
  });

  it('answers 409 HAS_ACTIVE_SUBSCRIPTION, not an error, when other records still need the user', async () => {
    const { accessToken } = await register('hanna@example.fo', '512399');
    const [row] = await t.app.db.select().from(users).where(eq(users.email, 'hanna@example.fo'));
    // Stands in for subscription records (accounts, orders) that must outlive a user.
    await t.app.db.execute(
      sql`create table kept_records (user_id uuid not null references users(id) on delete restrict)`,
    );
    await t.app.db.execute(sql`insert into kept_records values (${row?.id})`);
    const res = await call('DELETE', '/api/auth/me', accessToken);
    expect(res.statusCode).toBe(409);
    expect(parse(errorEnvelope, res).error.code).toBe('HAS_ACTIVE_SUBSCRIPTION');
    await t.app.db.execute(sql`drop table kept_records`);
    expect((await call('DELETE', '/api/auth/me', accessToken)).statusCode).toBe(204);
  });

  it('keeps a cancelled line as history when its user is deleted', async () => {
    const { accessToken } = await register('bogi@example.fo', '512388');
    const [row] = await t.app.db.select().from(users).where(eq(users.email, 'bogi@example.fo'));
    await t.app.db
      .insert(phoneLines)
      .values({ msisdn: '512388', userId: row?.id, status: 'cancelled' });
    expect((await call('DELETE', '/api/auth/me', accessToken)).statusCode).toBe(204);
    const [line] = await t.app.db.select().from(phoneLines).where(eq(phoneLines.msisdn, '512388'));
    expect(line).toMatchObject({ status: 'cancelled', userId: null });
  });
});
