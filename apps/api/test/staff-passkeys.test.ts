import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope } from '@alda/contract/envelope';
import { passkey } from '@alda/contract/schemas/passkeys';
import {
  auditPage,
  staffList,
  staffPasskeyCreationOptions,
  staffPasskeyList,
  staffPasskeyOptions,
  staffRolePolicy,
  staffRolePolicyList,
  staffSession,
  type AuditEntry,
  type StaffRole,
} from '@alda/contract/schemas/staff';
import { passkeyChallenges, passkeys } from '../src/db/schema/passkeys';
import { staffRecoveryCodes, staffSessions, staffUsers } from '../src/db/schema/staff';
import { runOperator } from '../src/operator';
import { createTestApp, parse, testClock, type TestApp } from './helper';
import {
  createStaffAccount,
  signInStaff,
  STAFF_TEST_PASSWORD,
  totpAt,
  type TestStaff,
} from './staff-helper';
import { SoftAuthenticator } from './support/soft-authenticator';

/*
 * Staff passkeys (ADR 0097) on the real app and database, with real WebAuthn answers of the
 * software authenticator: a member adds a passkey and signs in with it as the second factor; a
 * passkey of another member is refused and changes nothing; an admin requires passkeys of a role
 * (TOTP refused, passkeys and the other roles unaffected); the command line's break-glass lets
 * one TOTP sign-in through within its hour; an admin revokes a passkey, which ends the member's
 * sessions. Every change is in the audit log.
 */

const ORIGIN = 'https://console.alda.example';
const RP_ID = 'alda.example';

const clock = testClock('2026-06-15T12:00:00.000Z');
let t: TestApp;
let admin: TestStaff;

beforeAll(async () => {
  t = await createTestApp({ WEBAUTHN_RP_ID: RP_ID, WEBAUTHN_ORIGINS: ORIGIN }, { now: clock.now });
  admin = await signInStaff(t.app, 'admin', clock.now);
});
afterAll(async () => {
  await t?.close();
});

const authenticator = () => new SoftAuthenticator({ origin: ORIGIN, rpId: RP_ID });

function post(url: string, payload: unknown, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'POST', url, payload: payload as object, headers });
}

/** Adds a passkey for a signed-in member through the routes; answers the stored passkey. */
async function enrol(member: TestStaff, auth: SoftAuthenticator, name?: string) {
  const res = await post(
    '/api/staff/passkeys/options',
    { password: STAFF_TEST_PASSWORD },
    member.headers,
  );
  expect(res.statusCode).toBe(200);
  const { options } = parse(dataEnvelope(staffPasskeyCreationOptions), res).data;
  const created = await post(
    '/api/staff/passkeys',
    { response: auth.createCredential(options), ...(name ? { name } : {}) },
    member.headers,
  );
  expect(created.statusCode).toBe(201);
  return parse(dataEnvelope(passkey), created).data;
}

/** The request options of the passkey sign-in's first step. */
async function passkeyOptions(email: string, password = STAFF_TEST_PASSWORD) {
  const res = await post('/api/staff/auth/passkey-options', { email, password });
  expect(res.statusCode).toBe(200);
  return parse(dataEnvelope(staffPasskeyOptions), res).data.options;
}

/** Both steps of a passkey sign-in; answers the sign-in's response. */
async function signInWithPasskey(member: { email: string }, auth: SoftAuthenticator) {
  const options = await passkeyOptions(member.email);
  return post('/api/staff/auth/sign-in', {
    email: member.email,
    password: STAFF_TEST_PASSWORD,
    passkey: auth.getAssertion(options),
  });
}

/** A TOTP sign-in at the clock's next step (a code is accepted once per step). */
async function signInWithTotp(member: { email: string; totpSecret: string }) {
  clock.advance(30);
  return post('/api/staff/auth/sign-in', {
    email: member.email,
    password: STAFF_TEST_PASSWORD,
    totpCode: await totpAt(member.totpSecret, clock.now()),
  });
}

/** The audit log's entries of `action` about `targetId`, newest first (as an admin reads it). */
async function audit(action: string, targetId: string): Promise<AuditEntry[]> {
  // An admin session idles out after 15 minutes of the test clock: a reader of its own.
  const reader = await signInStaff(t.app, 'admin', clock.now);
  const res = await t.app.inject({
    url: '/api/staff/audit',
    query: { action, targetId },
    headers: reader.headers,
  });
  expect(res.statusCode).toBe(200);
  return parse(dataEnvelope(auditPage), res).data.items.filter((e) => e.action === action);
}

/** An admin (signed in afresh) sets the role's rule; answers the rule and who set it. */
async function setPolicy(role: StaffRole, requirePasskey: boolean) {
  const by = await signInStaff(t.app, 'admin', clock.now);
  const res = await t.app.inject({
    method: 'PUT',
    url: `/api/staff/role-policies/${role}`,
    payload: { requirePasskey, reason: `Ticket 77: passkeys for ${role}` },
    headers: by.headers,
  });
  expect(res.statusCode).toBe(200);
  return { policy: parse(dataEnvelope(staffRolePolicy), res).data, by };
}

async function staffRow(id: string) {
  const [row] = await t.app.db.select().from(staffUsers).where(eq(staffUsers.id, id));
  if (!row) throw new Error(`no staff ${id}`);
  return row;
}

async function liveSessions(staffUserId: string) {
  const rows = await t.app.db
    .select()
    .from(staffSessions)
    .where(eq(staffSessions.staffUserId, staffUserId));
  return rows.filter((row) => row.revokedAt === null).length;
}

describe('a passkey as the second factor', () => {
  it('is added after the password again, listed, and signs the member in (audited)', async () => {
    const member = await signInStaff(t.app, 'support', clock.now);
    const auth = authenticator();

    const wrong = await post(
      '/api/staff/passkeys/options',
      { password: 'not-the-password' },
      member.headers,
    );
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().error.code).toBe('PASSWORD_INCORRECT');

    const added = await enrol(member, auth, 'Desk laptop');
    expect(added).toMatchObject({ name: 'Desk laptop', backedUp: true, lastUsedAt: null });
    const listed = await t.app.inject({ url: '/api/staff/passkeys', headers: member.headers });
    expect(parse(dataEnvelope(staffPasskeyList), listed).data.items).toEqual([added]);

    // The first step: the password; a wrong one or an unknown e-mail is the sign-in's failure.
    for (const [email, password] of [
      [member.email, 'not-the-password'],
      ['nobody@staff.alda.fo', STAFF_TEST_PASSWORD],
    ] as const) {
      const refused = await post('/api/staff/auth/passkey-options', { email, password });
      expect(refused.statusCode).toBe(401);
      expect(refused.json().error.code).toBe('STAFF_SIGN_IN_FAILED');
    }
    const options = await passkeyOptions(member.email.toUpperCase());
    expect(options.allowCredentials?.map((c) => c.id)).toEqual([auth.credential().id]);
    expect(options.userVerification).toBe('required');

    // The password is checked again with the answer.
    clock.advance(30);
    const assertion = auth.getAssertion(options);
    const wrongPassword = await post('/api/staff/auth/sign-in', {
      email: member.email,
      password: 'not-the-password',
      passkey: assertion,
    });
    expect(wrongPassword.json().error.code).toBe('STAFF_SIGN_IN_FAILED');
    const res = await post('/api/staff/auth/sign-in', {
      email: member.email,
      password: STAFF_TEST_PASSWORD,
      passkey: assertion,
    });
    expect(res.statusCode).toBe(200);
    const session = parse(dataEnvelope(staffSession), res).data;
    expect(session.staff.id).toBe(member.id);
    const me = await t.app.inject({
      url: '/api/staff/auth/me',
      headers: { authorization: `Bearer ${session.token}` },
    });
    expect(me.statusCode).toBe(200);
    // The same answer again is a replay.
    const replay = await post('/api/staff/auth/sign-in', {
      email: member.email,
      password: STAFF_TEST_PASSWORD,
      passkey: assertion,
    });
    expect(replay.json().error.code).toBe('PASSKEY_CHALLENGE_INVALID');

    const after = await t.app.inject({ url: '/api/staff/passkeys', headers: member.headers });
    expect(parse(dataEnvelope(staffPasskeyList), after).data.items[0]?.lastUsedAt).toBe(
      clock.now().toISOString(),
    );
    const [created] = await audit('staff.passkey.create', member.id);
    expect(created).toMatchObject({
      actor: `staff:${member.email}`,
      details: { passkeyId: added.id, name: 'Desk laptop', backedUp: true },
    });
    const [signedIn] = await audit('staff.sign_in', member.id);
    expect(signedIn?.details).toEqual({ passkey: true, passkeyId: added.id });
  });

  it('takes exactly one of totpCode and passkey; a member without a passkey is told so', async () => {
    const member = await createStaffAccount(t.app, 'content');
    const code = await totpAt(member.totpSecret, clock.now());
    // Of the right shape, so that only "both" is wrong with it.
    const answer = {
      id: 'AAAA',
      rawId: 'AAAA',
      type: 'public-key',
      response: { clientDataJSON: 'AAAA', authenticatorData: 'AAAA', signature: 'AAAA' },
      clientExtensionResults: {},
    };
    const both = await post('/api/staff/auth/sign-in', {
      email: member.email,
      password: STAFF_TEST_PASSWORD,
      totpCode: code,
      passkey: answer,
    });
    expect(both.statusCode).toBe(400);
    const neither = await post('/api/staff/auth/sign-in', {
      email: member.email,
      password: STAFF_TEST_PASSWORD,
    });
    expect(neither.statusCode).toBe(400);
    const none = await post('/api/staff/auth/passkey-options', {
      email: member.email,
      password: STAFF_TEST_PASSWORD,
    });
    expect(none.statusCode).toBe(404);
    expect(none.json().error.code).toBe('PASSKEY_NOT_FOUND');
  });

  it("refuses another member's passkey (PASSKEY_NOT_RECOGNISED) and changes nothing", async () => {
    const anna = await signInStaff(t.app, 'support', clock.now);
    const bjarni = await signInStaff(t.app, 'support', clock.now);
    const annasKey = authenticator();
    const bjarnisKey = authenticator();
    await enrol(anna, annasKey);
    const bjarnis = await enrol(bjarni, bjarnisKey);
    const sessionsBefore = {
      anna: await liveSessions(anna.id),
      bjarni: await liveSessions(bjarni.id),
    };
    const [storedBefore] = await t.app.db
      .select()
      .from(passkeys)
      .where(eq(passkeys.id, bjarnis.id));

    // Anna's password and challenge, answered by Bjarni's passkey (a stolen or borrowed key).
    const options = await passkeyOptions(anna.email);
    const foreign = bjarnisKey.getAssertion({ ...options, allowCredentials: [] });
    const refused = await post('/api/staff/auth/sign-in', {
      email: anna.email,
      password: STAFF_TEST_PASSWORD,
      passkey: foreign,
    });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error.code).toBe('PASSKEY_NOT_RECOGNISED');
    // Bjarni's password with a challenge of Anna's: the challenge is bound to her.
    const crossed = await post('/api/staff/auth/sign-in', {
      email: bjarni.email,
      password: STAFF_TEST_PASSWORD,
      passkey: bjarnisKey.getAssertion({ ...options, allowCredentials: [] }),
    });
    expect(crossed.json().error.code).toBe('PASSKEY_CHALLENGE_INVALID');

    // Nothing changed: no session, Bjarni's counter as it was, the challenge still unanswered.
    expect(await liveSessions(anna.id)).toBe(sessionsBefore.anna);
    expect(await liveSessions(bjarni.id)).toBe(sessionsBefore.bjarni);
    const [storedAfter] = await t.app.db.select().from(passkeys).where(eq(passkeys.id, bjarnis.id));
    expect(storedAfter).toEqual(storedBefore);
    const [challenge] = await t.app.db
      .select()
      .from(passkeyChallenges)
      .where(eq(passkeyChallenges.challenge, options.challenge));
    expect(challenge?.usedAt).toBeNull();
    expect(challenge?.staffUserId).toBe(anna.id);
    // Anna's own passkey answers the same challenge.
    const own = await post('/api/staff/auth/sign-in', {
      email: anna.email,
      password: STAFF_TEST_PASSWORD,
      passkey: annasKey.getAssertion(options),
    });
    expect(own.statusCode).toBe(200);
  });

  it('lets a member delete their own passkey (audited), and only their own', async () => {
    const member = await signInStaff(t.app, 'provisioning', clock.now);
    const other = await signInStaff(t.app, 'provisioning', clock.now);
    const mine = await enrol(member, authenticator());
    const theirs = await enrol(other, authenticator());
    const foreign = await t.app.inject({
      method: 'DELETE',
      url: `/api/staff/passkeys/${theirs.id}`,
      headers: member.headers,
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.code).toBe('PASSKEY_NOT_FOUND');
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/staff/passkeys/${mine.id}`,
      headers: member.headers,
    });
    expect(res.statusCode).toBe(204);
    const listed = await t.app.inject({ url: '/api/staff/passkeys', headers: member.headers });
    expect(parse(dataEnvelope(staffPasskeyList), listed).data.items).toEqual([]);
    const [deleted] = await audit('staff.passkey.delete', member.id);
    expect(deleted?.details).toEqual({ passkeyId: mine.id, name: mine.name });
  });
});

describe('a role whose members must sign in with a passkey', () => {
  it('refuses TOTP and recovery codes of that role only, after the password; passkeys still work', async () => {
    const keyed = await signInStaff(t.app, 'support', clock.now);
    const keyedAuth = authenticator();
    await enrol(keyed, keyedAuth);
    const unkeyed = await createStaffAccount(t.app, 'support');
    const provisioning = await createStaffAccount(t.app, 'provisioning');

    const before = await t.app.inject({ url: '/api/staff/role-policies', headers: admin.headers });
    const support = parse(dataEnvelope(staffRolePolicyList), before).data.items.find(
      (p) => p.role === 'support',
    );
    expect(support).toMatchObject({ requirePasskey: false, updatedAt: null });
    expect(support?.membersWithoutPasskey).toBeGreaterThanOrEqual(1);
    expect(support!.members).toBeGreaterThan(support!.membersWithoutPasskey);
    const forbidden = await t.app.inject({
      url: '/api/staff/role-policies',
      headers: keyed.headers,
    });
    expect(forbidden.statusCode).toBe(403);

    const { policy, by } = await setPolicy('support', true);
    try {
      expect(policy).toMatchObject({
        role: 'support',
        requirePasskey: true,
        updatedAt: clock.now().toISOString(),
      });
      const [entry] = await audit('staff.role_policy', 'support');
      expect(entry).toMatchObject({
        actor: `staff:${by.email}`,
        reason: 'Ticket 77: passkeys for support',
        details: { requirePasskey: true, from: { requirePasskey: false } },
      });

      const row = await staffRow(unkeyed.staff.id);
      const totp = await signInWithTotp({ email: unkeyed.email, totpSecret: unkeyed.totpSecret });
      expect(totp.statusCode).toBe(401);
      expect(totp.json().error.code).toBe('STAFF_PASSKEY_REQUIRED');
      const recovery = await post('/api/staff/auth/sign-in', {
        email: unkeyed.email,
        password: STAFF_TEST_PASSWORD,
        totpCode: unkeyed.recoveryCodes[0],
      });
      expect(recovery.json().error.code).toBe('STAFF_PASSKEY_REQUIRED');
      // A wrong password is still just a failed sign-in.
      clock.advance(30);
      const wrong = await post('/api/staff/auth/sign-in', {
        email: unkeyed.email,
        password: 'not-the-password',
        totpCode: await totpAt(unkeyed.totpSecret, clock.now()),
      });
      expect(wrong.json().error.code).toBe('STAFF_SIGN_IN_FAILED');
      // Nothing was spent: the code's step and the recovery code are as they were.
      expect((await staffRow(unkeyed.staff.id)).totpLastStep).toBe(row.totpLastStep);
      const codes = await t.app.db
        .select()
        .from(staffRecoveryCodes)
        .where(eq(staffRecoveryCodes.staffUserId, unkeyed.staff.id));
      expect(codes.every((code) => code.usedAt === null)).toBe(true);
      expect(await liveSessions(unkeyed.staff.id)).toBe(0);

      // The passkey still signs in; the other roles sign in with TOTP as before.
      expect((await signInWithPasskey(keyed, keyedAuth)).statusCode).toBe(200);
      const other = await signInWithTotp({
        email: provisioning.email,
        totpSecret: provisioning.totpSecret,
      });
      expect(other.statusCode).toBe(200);

      // The last passkey of a member of the role stays.
      const own = parse(
        dataEnvelope(staffPasskeyList),
        await t.app.inject({ url: '/api/staff/passkeys', headers: keyed.headers }),
      ).data.items;
      const last = await t.app.inject({
        method: 'DELETE',
        url: `/api/staff/passkeys/${own[0]?.id}`,
        headers: keyed.headers,
      });
      expect(last.statusCode).toBe(409);
      expect(last.json().error.code).toBe('STAFF_ACTION_NOT_ALLOWED');
    } finally {
      await setPolicy('support', false);
    }
    // Off again: the code signs in.
    const again = await signInWithTotp({ email: unkeyed.email, totpSecret: unkeyed.totpSecret });
    expect(again.statusCode).toBe(200);
  });

  it('lists every role, and keeps an admin without a passkey from requiring them of admins', async () => {
    const res = await t.app.inject({ url: '/api/staff/role-policies', headers: admin.headers });
    expect(parse(dataEnvelope(staffRolePolicyList), res).data.items.map((p) => p.role)).toEqual([
      'support',
      'provisioning',
      'content',
      'admin',
    ]);
    const refused = await t.app.inject({
      method: 'PUT',
      url: '/api/staff/role-policies/admin',
      payload: { requirePasskey: true, reason: 'Ticket 78: admins too' },
      headers: admin.headers,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('STAFF_ACTION_NOT_ALLOWED');
    const wrongRole = await t.app.inject({
      method: 'PUT',
      url: '/api/staff/role-policies/janitor',
      payload: { requirePasskey: true, reason: 'Ticket 78' },
      headers: admin.headers,
    });
    expect(wrongRole.statusCode).toBe(400);
  });
});

describe('the break-glass: npm run operator -- staff allow-totp', () => {
  /** Runs one operator command in-process on the app's database and clock. */
  async function operator(argv: string[]) {
    let out = '';
    let err = '';
    const code = await runOperator(argv, {
      env: {},
      config: t.config,
      database: t.app.database,
      now: clock.now,
      osUser: () => 'os-user',
      out: (text) => {
        out += text;
      },
      err: (text) => {
        err += text;
      },
    });
    return { code, out, err };
  }

  it('lets one TOTP sign-in through within the hour, to add a new passkey (audited)', async () => {
    const member = await signInStaff(t.app, 'content', clock.now);
    const lost = authenticator();
    await enrol(member, lost);
    await setPolicy('content', true);
    try {
      // The laptop with the passkey is gone.
      expect((await signInWithTotp(member)).json().error.code).toBe('STAFF_PASSKEY_REQUIRED');

      expect((await operator(['staff', 'allow-totp', member.email])).code).toBe(2);
      const done = await operator([
        'staff',
        'allow-totp',
        member.email.toUpperCase(),
        '--reason',
        'Ticket 81: laptop stolen',
        '--as',
        'ops-anna',
      ]);
      expect(done.err).toBe('');
      expect(done.code).toBe(0);
      const until = new Date(clock.now().getTime() + 3600 * 1000).toISOString();
      expect(done.out).toContain(`until ${until}`);
      expect((await staffRow(member.id)).totpAllowedUntil?.toISOString()).toBe(until);
      const [allowed] = await audit('staff.allow_totp', member.id);
      expect(allowed).toMatchObject({
        actor: 'ops-anna',
        reason: 'Ticket 81: laptop stolen',
        details: { until, role: 'content', requirePasskey: true },
      });

      // Once, within the hour.
      clock.advance(20 * 60);
      const res = await signInWithTotp(member);
      expect(res.statusCode).toBe(200);
      const session = parse(dataEnvelope(staffSession), res).data;
      const [signedIn] = await audit('staff.sign_in', member.id);
      expect(signedIn?.details).toEqual({ totpAllowed: true });
      expect((await staffRow(member.id)).totpAllowedUntil).toBeNull();
      expect((await signInWithTotp(member)).json().error.code).toBe('STAFF_PASSKEY_REQUIRED');

      // In that session: a new passkey, which signs in from then on.
      const fresh = authenticator();
      await enrol(
        { ...member, token: session.token, headers: { authorization: `Bearer ${session.token}` } },
        fresh,
      );
      expect((await signInWithPasskey(member, fresh)).statusCode).toBe(200);

      // Unused, it ends after its hour.
      await operator(['staff', 'allow-totp', member.email, '--reason', 'Ticket 82', '--as', 'x']);
      clock.advance(3600 + 1);
      expect((await signInWithTotp(member)).json().error.code).toBe('STAFF_PASSKEY_REQUIRED');
    } finally {
      await setPolicy('content', false);
    }
  });

  it('names the command in the usage text and refuses an unknown member', async () => {
    expect((await operator(['--help'])).out).toContain('staff allow-totp <email> --reason');
    const unknown = await operator([
      'staff',
      'allow-totp',
      'nobody@staff.alda.fo',
      '--reason',
      'Ticket 83',
      '--as',
      'ops-anna',
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('No staff member nobody@staff.alda.fo');
  });
});

describe("an admin and another member's passkeys", () => {
  it('lists and revokes them with a reason; the member is signed out everywhere (audited)', async () => {
    const member = await signInStaff(t.app, 'support', clock.now);
    const auth = authenticator();
    const added = await enrol(member, auth, 'Front desk');
    admin = await signInStaff(t.app, 'admin', clock.now);

    const accounts = parse(
      dataEnvelope(staffList),
      await t.app.inject({ url: '/api/staff/accounts', headers: admin.headers }),
    ).data.items;
    expect(accounts.find((a) => a.id === member.id)?.passkeys).toBe(1);
    const listed = await t.app.inject({
      url: `/api/staff/accounts/${member.id}/passkeys`,
      headers: admin.headers,
    });
    expect(parse(dataEnvelope(staffPasskeyList), listed).data.items).toEqual([added]);
    const notAdmin = await t.app.inject({
      url: `/api/staff/accounts/${member.id}/passkeys`,
      headers: member.headers,
    });
    expect(notAdmin.statusCode).toBe(403);

    const revokeUrl = `/api/staff/accounts/${member.id}/passkeys/${added.id}/revoke`;
    expect((await post(revokeUrl, { reason: '' }, admin.headers)).statusCode).toBe(400);
    expect((await post(revokeUrl, { reason: 'Ticket 90' }, member.headers)).statusCode).toBe(403);
    const res = await post(revokeUrl, { reason: 'Ticket 90: laptop lost' }, admin.headers);
    expect(res.statusCode).toBe(204);

    const me = await t.app.inject({ url: '/api/staff/auth/me', headers: member.headers });
    expect(me.statusCode).toBe(401);
    expect(me.json().error.code).toBe('STAFF_SESSION_EXPIRED');
    expect(await liveSessions(member.id)).toBe(0);
    const gone = await post('/api/staff/auth/passkey-options', {
      email: member.email,
      password: STAFF_TEST_PASSWORD,
    });
    expect(gone.json().error.code).toBe('PASSKEY_NOT_FOUND');
    const again = await post(revokeUrl, { reason: 'Ticket 90: laptop lost' }, admin.headers);
    expect(again.statusCode).toBe(404);

    const [entry] = await audit('staff.passkey.revoke', member.id);
    expect(entry).toMatchObject({
      actor: `staff:${admin.email}`,
      reason: 'Ticket 90: laptop lost',
      details: { passkeyId: added.id, name: 'Front desk', sessions: 1 },
    });
  });

  it("refuses an admin's own passkeys and unknown members", async () => {
    admin = await signInStaff(t.app, 'admin', clock.now);
    const own = await enrol(admin, authenticator());
    const self = await post(
      `/api/staff/accounts/${admin.id}/passkeys/${own.id}/revoke`,
      { reason: 'Ticket 91' },
      admin.headers,
    );
    expect(self.statusCode).toBe(409);
    const unknown = await t.app.inject({
      url: '/api/staff/accounts/00000000-0000-4000-8000-000000000000/passkeys',
      headers: admin.headers,
    });
    expect(unknown.statusCode).toBe(404);
  });
});
