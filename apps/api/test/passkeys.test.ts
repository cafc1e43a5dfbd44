import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope } from '@alda/contract/envelope';
import { actionsResponse } from '@alda/contract/schemas/actions';
import { tokens, user as userSchema } from '@alda/contract/schemas/auth';
import { outboxList } from '@alda/contract/schemas/dev-outbox';
import {
  passkey as passkeySchema,
  passkeyList,
  passkeyLoginOptions,
  passkeyRegistrationOptions,
  type PasskeyCreationOptions,
} from '@alda/contract/schemas/passkeys';
import { passkeys } from '../src/db/schema/passkeys';
import { operatorActions } from '../src/db/schema/provisioning';
import { sessions } from '../src/db/schema/sessions';
import { users } from '../src/db/schema/users';
import { DEMO_PASSWORD } from '../src/seed/demo-users';
import { seedDemoData } from '../src/seed/seed';
import { bearer, createTestApp, demoUser, parse, testClock, waitFor, type TestApp } from './helper';
import { registrationForm } from './support/registration';
import { SoftAuthenticator } from './support/soft-authenticator';

/*
 * Passkeys of customers (docs/decisions/0097-passkeys.md) against the real app and database,
 * with real WebAuthn answers made by a software authenticator (ES256, "none" attestation): made
 * after the password, used alone to sign in, renamed and deleted; and each way an answer can be
 * wrong — another origin, another RP ID, a replayed or expired challenge, another user's
 * credential, a counter that did not rise, no user verification — refused with its own code,
 * with nothing changed.
 */

const APP_URL = 'https://minsida.alda.fo';
const RP_ID = 'minsida.alda.fo';

describe('passkeys for customers (ADR 0097, WebAuthn L3)', () => {
  let t: TestApp;
  const clock = testClock('2026-06-15T10:00:00.000Z');
  let n = 0;

  beforeAll(async () => {
    // Access tokens outlive the test clock's jumps past the five-minute windows.
    t = await createTestApp(
      { DEMO_MODE: 'true', APP_URL, ACCESS_TOKEN_TTL_S: '86400' },
      { now: clock.now },
    );
    await seedDemoData(t.app.db, clock.now());
  });
  afterAll(() => t.close());

  const login = async (email: string) => {
    n += 1;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/email-login',
      remoteAddress: `10.97.0.${n}`,
      payload: { email, password: DEMO_PASSWORD },
    });
    expect(res.statusCode, res.body).toBe(200);
    return parse(dataEnvelope(tokens), res).data;
  };

  const options = (accessToken: string, proof: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/passkeys/options',
      headers: bearer(accessToken),
      payload: proof,
    });

  const creationOptions = async (accessToken: string): Promise<PasskeyCreationOptions> => {
    const res = await options(accessToken, { password: DEMO_PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
    return parse(dataEnvelope(passkeyRegistrationOptions), res).data.options;
  };

  const create = (accessToken: string, response: unknown, name?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/passkeys',
      headers: bearer(accessToken),
      payload: { response, ...(name ? { name } : {}) },
    });

  const list = async (accessToken: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/auth/passkeys',
      headers: bearer(accessToken),
    });
    expect(res.statusCode, res.body).toBe(200);
    return parse(dataEnvelope(passkeyList), res).data;
  };

  const loginOptions = async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/passkey-login/options' });
    expect(res.statusCode, res.body).toBe(200);
    return parse(dataEnvelope(passkeyLoginOptions), res).data.options;
  };

  const passkeyLogin = (response: unknown, locale = 'fo') =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/passkey-login',
      headers: { 'accept-language': locale },
      payload: { response },
    });

  const me = async (accessToken: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: bearer(accessToken),
    });
    expect(res.statusCode, res.body).toBe(200);
    return parse(dataEnvelope(userSchema), res).data;
  };

  const activity = async (accessToken: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/actions',
      headers: { ...bearer(accessToken), 'accept-language': 'fo' },
    });
    expect(res.statusCode, res.body).toBe(200);
    return parse(dataEnvelope(actionsResponse), res).data;
  };

  const audit = (userId: string) =>
    t.app.db
      .select()
      .from(operatorActions)
      .where(and(eq(operatorActions.target, userId), like(operatorActions.verb, 'passkey.%')));

  /** What a refused answer must leave as it was. */
  const state = async (userId: string) => ({
    passkeys: await t.app.db.select().from(passkeys).where(eq(passkeys.userId, userId)),
    sessions: (await t.app.db.select().from(sessions).where(eq(sessions.userId, userId))).length,
    audit: (await audit(userId)).length,
  });

  /**
   * A customer signed in by password, ten minutes ago (so the proof is asked for again): a demo
   * customer by first name, or a new one registered as `new:<tag>`.
   */
  const signedIn = async (who: string) => {
    let user: { id: string; email: string };
    if (who.startsWith('new:')) {
      n += 1;
      const email = `passkeys-${who.slice(4)}@example.fo`;
      const registered = await t.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        remoteAddress: `10.97.1.${n}`,
        payload: registrationForm({
          email,
          phoneNumber: `5970${String(n).padStart(2, '0')}`,
          password: DEMO_PASSWORD,
          passwordRepeat: DEMO_PASSWORD,
        }),
      });
      expect(registered.statusCode, registered.body).toBe(200);
      const first = parse(dataEnvelope(tokens), registered).data;
      user = { id: (await me(first.accessToken)).id, email };
    } else {
      user = demoUser(who);
    }
    const pair = await login(user.email);
    clock.advance(10 * 60);
    return { user, pair };
  };

  /** A customer with one passkey on `authenticator`. */
  const withPasskey = async (firstname: string) => {
    const { user, pair } = await signedIn(firstname);
    const authenticator = new SoftAuthenticator({ origin: APP_URL, rpId: RP_ID });
    const made = await create(
      pair.accessToken,
      authenticator.createCredential(await creationOptions(pair.accessToken)),
    );
    expect(made.statusCode, made.body).toBe(201);
    return { user, pair, authenticator, passkey: parse(dataEnvelope(passkeySchema), made).data };
  };

  it('is made after the password again, then signs in alone: logged, audited and e-mailed', async () => {
    const { user, pair } = await signedIn('Jóannes');

    const none = await options(pair.accessToken);
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ error: { code: 'VALIDATION_FAILED', field: 'password' } });
    const wrong = await options(pair.accessToken, { password: 'Skeivt-loyniord-1' });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toMatchObject({ error: { code: 'PASSWORD_INCORRECT' } });

    const createOptions = await creationOptions(pair.accessToken);
    expect(createOptions.rp.id).toBe(RP_ID);
    expect(createOptions.authenticatorSelection).toMatchObject({
      residentKey: 'required',
      userVerification: 'required',
    });
    const authenticator = new SoftAuthenticator({ origin: APP_URL, rpId: RP_ID });
    const made = await create(
      pair.accessToken,
      authenticator.createCredential(createOptions),
      'Telefonin hjá Jóannesi',
    );
    expect(made.statusCode, made.body).toBe(201);
    const added = parse(dataEnvelope(passkeySchema), made).data;
    expect(added).toMatchObject({
      name: 'Telefonin hjá Jóannesi',
      backedUp: true,
      lastUsedAt: null,
    });
    expect(await list(pair.accessToken)).toEqual([added]);

    // The new passkey is e-mailed, in the customer's language, with a link to the list.
    const mails = await waitFor(async () => {
      const res = await t.app.inject({ method: 'GET', url: `/dev/outbox.json?to=${user.email}` });
      const found = parse(dataEnvelope(outboxList), res).data.filter((m) =>
        m.subject?.includes('lykilkoda'),
      );
      return found.length > 0 ? found : undefined;
    });
    expect(mails[0]?.subject).toBe('Nýggj lykilkoda løgd afturat');
    expect(mails[0]?.text).toContain('Telefonin hjá Jóannesi');
    expect(mails[0]?.text).toContain(`${APP_URL}/min-brukari/lykilkodur`);

    // Signed out, the passkey alone signs in: no password, no SMS code.
    clock.advance(60);
    const assertion = authenticator.getAssertion(await loginOptions());
    const signed = await passkeyLogin(assertion);
    expect(signed.statusCode, signed.body).toBe(200);
    const viaPasskey = parse(dataEnvelope(tokens), signed).data;
    expect((await me(viaPasskey.accessToken)).email).toBe(user.email);
    const [used] = await list(viaPasskey.accessToken);
    expect(used?.lastUsedAt).toBe(clock.now().toISOString());

    const log = await activity(viaPasskey.accessToken);
    expect(log.map((a) => a.text)).toEqual(
      expect.arrayContaining([
        'Nýggj lykilkoda løgd afturat: Telefonin hjá Jóannesi',
        'Innritað við lykilkodu: Telefonin hjá Jóannesi',
      ]),
    );
    expect((await audit(user.id)).map((a) => a.verb).sort()).toEqual([
      'passkey.create',
      'passkey.sign_in',
    ]);
  });

  it('needs no password again within five minutes of a sign-in (the offer after a sign-in)', async () => {
    const pair = await login(demoUser('Sunneva').email);
    clock.advance(4 * 60);
    const fresh = await options(pair.accessToken);
    expect(fresh.statusCode, fresh.body).toBe(200);
    clock.advance(2 * 60);
    const stale = await options(pair.accessToken);
    expect(stale.json()).toMatchObject({ error: { code: 'VALIDATION_FAILED' } });
  });

  it('refuses a new passkey from another origin, for another RP ID, without user verification, replayed or expired — adding nothing', async () => {
    const { user, pair } = await signedIn('Rói');
    const authenticator = new SoftAuthenticator({ origin: APP_URL, rpId: RP_ID });
    const before = await state(user.id);

    const cases = [
      { overrides: { origin: 'https://minsida-alda.fo.example' }, code: 'PASSKEY_ORIGIN_MISMATCH' },
      { overrides: { rpId: 'alda.example' }, code: 'PASSKEY_RP_MISMATCH' },
      { overrides: { userVerified: false }, code: 'PASSKEY_USER_NOT_VERIFIED' },
      { overrides: { challenge: 'c29tZXRoaW5nLWVsc2U' }, code: 'PASSKEY_CHALLENGE_INVALID' },
    ] as const;
    for (const { overrides, code } of cases) {
      const res = await create(
        pair.accessToken,
        authenticator.createCredential(await creationOptions(pair.accessToken), overrides),
      );
      expect(res.statusCode, `${code}: ${res.body}`).toBe(400);
      expect(res.json()).toMatchObject({ error: { code } });
    }

    const late = authenticator.createCredential(await creationOptions(pair.accessToken));
    clock.advance(5 * 60 + 1);
    const expired = await create(pair.accessToken, late);
    expect(expired.json()).toMatchObject({ error: { code: 'PASSKEY_CHALLENGE_EXPIRED' } });
    expect(expired.json().error.message).toBe('Lykilkodu-umbønin er útgingin. Royn aftur.');

    // Another session of the same customer cannot answer this session's challenge.
    const elsewhere = await login(user.email);
    const theirs = authenticator.createCredential(await creationOptions(pair.accessToken));
    const crossed = await create(elsewhere.accessToken, theirs);
    expect(crossed.json()).toMatchObject({ error: { code: 'PASSKEY_CHALLENGE_INVALID' } });

    const after = await state(user.id);
    expect(after.passkeys).toEqual(before.passkeys);
    expect(after.audit).toBe(before.audit);

    // A right answer is stored once; the same answer again is a replay.
    const good = authenticator.createCredential(await creationOptions(pair.accessToken));
    expect((await create(pair.accessToken, good)).statusCode).toBe(201);
    const replay = await create(pair.accessToken, good);
    expect(replay.json()).toMatchObject({ error: { code: 'PASSKEY_CHALLENGE_INVALID' } });
    // Named by nobody, it is named after the device the session signed in on, in Rói's language
    // (that sign-in named none).
    expect((await list(pair.accessToken)).map((p) => p.name)).toEqual(['ókend eind']);
  });

  it('refuses a sign-in from another origin, for another RP ID, without user verification, replayed, expired, with another user’s credential or a counter that did not rise — changing nothing', async () => {
    const { user, authenticator } = await withPasskey('Guðrun');
    const other = await withPasskey('Ása');
    const before = await state(user.id);

    const refused = async (
      response: unknown,
      code: string,
      status = 400,
    ): Promise<Record<string, unknown>> => {
      const res = await passkeyLogin(response);
      expect(res.statusCode, `${code}: ${res.body}`).toBe(status);
      expect(res.json()).toMatchObject({ error: { code } });
      return res.json() as Record<string, unknown>;
    };

    await refused(
      authenticator.getAssertion(await loginOptions(), { origin: 'https://alda-login.example' }),
      'PASSKEY_ORIGIN_MISMATCH',
    );
    await refused(
      authenticator.getAssertion(await loginOptions(), { rpId: 'alda.example' }),
      'PASSKEY_RP_MISMATCH',
    );
    await refused(
      authenticator.getAssertion(await loginOptions(), { userVerified: false }),
      'PASSKEY_USER_NOT_VERIFIED',
    );
    await refused(
      authenticator.getAssertion(await loginOptions(), { badSignature: true }),
      'PASSKEY_INVALID',
    );
    // A challenge that was handed out for making a passkey does not sign in.
    const registration = await creationOptions((await login(user.email)).accessToken);
    await refused(
      authenticator.getAssertion({ challenge: registration.challenge }),
      'PASSKEY_CHALLENGE_INVALID',
    );
    const late = authenticator.getAssertion(await loginOptions());
    clock.advance(5 * 60 + 1);
    await refused(late, 'PASSKEY_CHALLENGE_EXPIRED');
    // Ása's credential presented as Guðrun's (her user handle), and an unknown one.
    await refused(
      other.authenticator.getAssertion(await loginOptions(), {
        userHandle: authenticator.credential().userHandle,
      }),
      'PASSKEY_NOT_RECOGNISED',
      401,
    );
    const stranger = new SoftAuthenticator({ origin: APP_URL, rpId: RP_ID });
    stranger.createCredential({
      challenge: 'YQ',
      rp: { id: RP_ID },
      user: { id: 'dXNlcg', name: 'nobody@example.com' },
    });
    await refused(stranger.getAssertion(await loginOptions()), 'PASSKEY_NOT_RECOGNISED', 401);

    // Both refusals of an unknown passkey are failed sign-ins of the method `passkey`.
    const { body: exposition } = await t.app.metrics.scrape();
    expect(exposition).toMatch(/^alda_login_failures_total\{method="passkey"\} 2$/m);

    const sessionsBefore = before.sessions + 1; // the sign-in for the registration challenge
    const unchanged = await state(user.id);
    expect(unchanged.passkeys).toEqual(before.passkeys);
    expect(unchanged.sessions).toBe(sessionsBefore);
    expect(unchanged.audit).toBe(before.audit);

    // A right answer signs in once; the same answer again is a replay.
    const good = authenticator.getAssertion(await loginOptions());
    expect((await passkeyLogin(good)).statusCode).toBe(200);
    await refused(good, 'PASSKEY_CHALLENGE_INVALID');

    // A copy of the authenticator that reports a counter not above the last one is refused.
    const [stored] = await t.app.db.select().from(passkeys).where(eq(passkeys.userId, user.id));
    expect(stored?.counter).toBeGreaterThan(0);
    const body = await refused(
      authenticator.getAssertion(await loginOptions(), { counter: stored?.counter ?? 0 }),
      'PASSKEY_COUNTER_INVALID',
      401,
    );
    expect((body.error as { message: string }).message).toBe(
      'Vit kunnu ikki líta á hesa lykilkoduna. Rita inn á annan hátt og strika hana.',
    );
    const [still] = await t.app.db.select().from(passkeys).where(eq(passkeys.userId, user.id));
    expect(still).toEqual(stored);
  });

  it('is renamed, and deleted with the password again; then it signs in no more', async () => {
    const { user, pair, authenticator, passkey } = await withPasskey('new:hanna');
    const other = await withPasskey('new:samal');

    const rename = (id: string, name: string, accessToken = pair.accessToken) =>
      t.app.inject({
        method: 'PATCH',
        url: `/api/auth/passkeys/${id}`,
        headers: bearer(accessToken),
        payload: { name },
      });
    const renamed = await rename(passkey.id, '  Fartelefonin  ');
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(parse(dataEnvelope(passkeySchema), renamed).data.name).toBe('Fartelefonin');
    expect((await rename(passkey.id, '')).json()).toMatchObject({
      error: { code: 'VALIDATION_FAILED', field: 'name' },
    });
    expect((await rename(other.passkey.id, 'Mín nú')).statusCode).toBe(404);

    const remove = (id: string, proof: Record<string, string>, accessToken = pair.accessToken) =>
      t.app.inject({
        method: 'POST',
        url: `/api/auth/passkeys/${id}/delete`,
        headers: bearer(accessToken),
        payload: proof,
      });
    expect((await remove(passkey.id, {})).json()).toMatchObject({
      error: { code: 'VALIDATION_FAILED' },
    });
    expect((await remove(passkey.id, { password: 'Skeivt-loyniord-1' })).statusCode).toBe(422);
    const notMine = await remove(other.passkey.id, { password: DEMO_PASSWORD });
    expect(notMine.json()).toMatchObject({ error: { code: 'PASSKEY_NOT_FOUND' } });
    expect(await list(other.pair.accessToken)).toHaveLength(1);

    const gone = await remove(passkey.id, { password: DEMO_PASSWORD });
    expect(gone.statusCode, gone.body).toBe(204);
    expect(await list(pair.accessToken)).toEqual([]);
    const afterwards = await passkeyLogin(authenticator.getAssertion(await loginOptions()), 'en');
    expect(afterwards.statusCode).toBe(401);
    expect(afterwards.json()).toEqual({
      error: {
        code: 'PASSKEY_NOT_RECOGNISED',
        message: 'We do not recognise this passkey. Sign in another way.',
      },
    });
    expect((await activity(pair.accessToken)).map((a) => a.text)).toContain(
      'Lykilkoda strikað: Fartelefonin',
    );
    expect((await audit(user.id)).map((a) => a.verb)).toEqual(
      expect.arrayContaining(['passkey.create', 'passkey.rename', 'passkey.delete']),
    );
  });

  it('refuses deleting the last way in: no password, no number, no other passkey', async () => {
    const { user, pair, passkey } = await withPasskey('new:bardur');
    await t.app.db
      .update(users)
      .set({ passwordHash: null, phoneNumber: null })
      .where(eq(users.id, user.id));
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/auth/passkeys/${passkey.id}/delete`,
      headers: bearer(pair.accessToken),
      payload: { password: DEMO_PASSWORD },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: { code: 'PASSKEY_LAST_WAY_IN' } });
    expect(await list(pair.accessToken)).toHaveLength(1);
  });
});
