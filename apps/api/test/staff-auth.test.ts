import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope } from '@alda/contract/envelope';
import { auditPage, staffEnrolment, staffMe, staffSession } from '@alda/contract/schemas/staff';
import { createDemoApp, signIn } from './demo-accounts';
import { parse } from './helper';
import { DEMO_STAFF, seedDemoStaff } from '../src/seed/demo-staff';
import { createStaffAccount, signInStaff, STAFF_TEST_PASSWORD, totpAt } from './staff-helper';

/*
 * Staff sign-in, sessions, roles and the audit log (issue 31, docs/decisions/0075-staff-console.md):
 * every refusal a privileged account needs — customer token, wrong role, no or wrong TOTP, a
 * replayed code, an idle or too-old session — on the real app and database.
 */

let clock = new Date('2026-06-15T12:00:00.000Z');
const now = () => clock;
let t: Awaited<ReturnType<typeof createDemoApp>>;

beforeAll(async () => {
  t = await createDemoApp({}, { now });
});
afterAll(async () => {
  await t?.close();
});

function advance(seconds: number) {
  clock = new Date(clock.getTime() + seconds * 1000);
}

async function signInWith(email: string, totpCode: string, password = STAFF_TEST_PASSWORD) {
  return t.app.inject({
    method: 'POST',
    url: '/api/staff/auth/sign-in',
    payload: { email, password, totpCode },
  });
}

describe('staff sign-in (password + TOTP in one call)', () => {
  it('signs in with the right password and the current code, and /me names the staff member', async () => {
    const account = await createStaffAccount(t.app, 'support');
    expect(account.otpauthUri).toMatch(/^otpauth:\/\/totp\/Alda:/);
    expect(account.recoveryCodes).toHaveLength(10);
    const res = await signInWith(
      account.email.toUpperCase(),
      await totpAt(account.totpSecret, now()),
    );
    expect(res.statusCode).toBe(200);
    const session = parse(dataEnvelope(staffSession), res).data;
    expect(session.token).toMatch(/^alda_staff_/);
    expect(new Date(session.idleExpiresAt).getTime() - clock.getTime()).toBe(15 * 60 * 1000);
    expect(new Date(session.expiresAt).getTime() - clock.getTime()).toBe(8 * 3600 * 1000);
    const me = await t.app.inject({
      url: '/api/staff/auth/me',
      headers: { authorization: `Bearer ${session.token}` },
    });
    // The account as it was created, its creation time included.
    expect(parse(dataEnvelope(staffMe), me).data.staff).toEqual(account.staff);
    expect(me.headers['cache-control']).toBe('no-store');
  });

  it('refuses a wrong password, a wrong code and a missing code', async () => {
    const account = await createStaffAccount(t.app, 'support');
    const code = await totpAt(account.totpSecret, now());
    const wrongPassword = await signInWith(account.email, code, 'not-the-password');
    expect(wrongPassword.statusCode).toBe(401);
    expect(wrongPassword.json().error.code).toBe('STAFF_SIGN_IN_FAILED');
    const wrongCode = await signInWith(account.email, code === '000000' ? '111111' : '000000');
    expect(wrongCode.json().error.code).toBe('STAFF_SIGN_IN_FAILED');
    const noCode = await t.app.inject({
      method: 'POST',
      url: '/api/staff/auth/sign-in',
      payload: { email: account.email, password: STAFF_TEST_PASSWORD },
    });
    expect(noCode.statusCode).toBe(400);
    const unknown = await signInWith('nobody@staff.alda.fo', code);
    expect(unknown.json().error.code).toBe('STAFF_SIGN_IN_FAILED');
  });

  it('refuses a code used once already (RFC 6238 §5.2), also an earlier one in the window', async () => {
    const account = await createStaffAccount(t.app, 'provisioning');
    const code = await totpAt(account.totpSecret, now());
    expect((await signInWith(account.email, code)).statusCode).toBe(200);
    const replay = await signInWith(account.email, code);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().error.code).toBe('STAFF_SIGN_IN_FAILED');
    const earlier = await signInWith(
      account.email,
      await totpAt(account.totpSecret, new Date(clock.getTime() - 30_000)),
    );
    expect(earlier.statusCode).toBe(401);
    // The next step's code works (the phone moved on).
    advance(30);
    expect(
      (await signInWith(account.email, await totpAt(account.totpSecret, now()))).statusCode,
    ).toBe(200);
  });

  it('takes a recovery code once instead of the TOTP code', async () => {
    const account = await createStaffAccount(t.app, 'content');
    const [code] = account.recoveryCodes;
    expect((await signInWith(account.email, code!)).statusCode).toBe(200);
    expect((await signInWith(account.email, code!)).statusCode).toBe(401);
  });

  it('locks the account out after repeated failures, as for customers', async () => {
    const account = await createStaffAccount(t.app, 'support');
    let last = 0;
    for (let i = 0; i < 6; i++)
      last = (await signInWith(account.email, '123456', 'wrong-password')).statusCode;
    expect(last).toBe(429);
    const right = await signInWith(account.email, await totpAt(account.totpSecret, now()));
    expect(right.statusCode).toBe(429);
  });
});

describe('staff tokens and customer tokens never cross', () => {
  it('refuses a customer token on staff routes, and a staff token on customer routes', async () => {
    const customer = await signIn(t.app, 'Jóannes');
    const onStaff = await t.app.inject({ url: '/api/staff/auth/me', headers: customer });
    expect(onStaff.statusCode).toBe(401);
    const staff = await signInStaff(t.app, 'admin', now);
    const onCustomer = await t.app.inject({ url: '/api/subscriptions', headers: staff.headers });
    expect(onCustomer.statusCode).toBe(401);
    const none = await t.app.inject({ url: '/api/staff/auth/me' });
    expect(none.json().error.code).toBe('UNAUTHORIZED');
  });
});

describe('staff sessions: 15 minutes idle, 8 hours at most, sign-out everywhere', () => {
  it('ends a session idle for 15 minutes', async () => {
    const staff = await signInStaff(t.app, 'support', now);
    advance(14 * 60);
    expect(
      (await t.app.inject({ url: '/api/staff/auth/me', headers: staff.headers })).statusCode,
    ).toBe(200);
    advance(15 * 60 + 1);
    const idle = await t.app.inject({ url: '/api/staff/auth/me', headers: staff.headers });
    expect(idle.statusCode).toBe(401);
    expect(idle.json().error.code).toBe('STAFF_SESSION_EXPIRED');
  });

  it("does not keep an unattended console signed in: the console's own refreshes do not restart the idle clock", async () => {
    const staff = await signInStaff(t.app, 'support', now);
    const background = { ...staff.headers, 'x-staff-background': '1' };
    for (let minutes = 5; minutes <= 15; minutes += 5) {
      advance(5 * 60 - 1);
      expect(
        (await t.app.inject({ url: '/api/staff/auth/me', headers: background })).statusCode,
      ).toBe(200);
    }
    advance(10);
    const idle = await t.app.inject({ url: '/api/staff/auth/me', headers: background });
    expect(idle.json().error.code).toBe('STAFF_SESSION_EXPIRED');
  });

  it('ends a busy session after 8 hours', async () => {
    const staff = await signInStaff(t.app, 'support', now);
    for (let minutes = 10; minutes < 8 * 60; minutes += 10) {
      advance(10 * 60);
      expect(
        (await t.app.inject({ url: '/api/staff/auth/me', headers: staff.headers })).statusCode,
      ).toBe(200);
    }
    advance(10 * 60);
    expect(
      (await t.app.inject({ url: '/api/staff/auth/me', headers: staff.headers })).json().error.code,
    ).toBe('STAFF_SESSION_EXPIRED');
  });

  it('signs out one session, and every session of the member', async () => {
    const staff = await signInStaff(t.app, 'support', now);
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/staff/auth/sign-out',
      headers: staff.headers,
    });
    expect(out.statusCode).toBe(204);
    expect(
      (await t.app.inject({ url: '/api/staff/auth/me', headers: staff.headers })).statusCode,
    ).toBe(401);

    const a = await signInStaff(t.app, 'content', now);
    advance(30);
    const second = await signInWith(a.email, await totpAt(a.totpSecret, now()));
    const b = { authorization: `Bearer ${second.json().data.token as string}` };
    const everywhere = await t.app.inject({
      method: 'POST',
      url: '/api/staff/auth/sign-out-everywhere',
      headers: b,
    });
    expect(everywhere.statusCode).toBe(204);
    expect((await t.app.inject({ url: '/api/staff/auth/me', headers: a.headers })).statusCode).toBe(
      401,
    );
    expect((await t.app.inject({ url: '/api/staff/auth/me', headers: b })).statusCode).toBe(401);
  });
});

describe('staff accounts and roles (admin)', () => {
  it.each(['support', 'provisioning', 'content'] as const)(
    'refuses %s on the admin routes (403)',
    async (role) => {
      const staff = await signInStaff(t.app, role, now);
      for (const [method, url] of [
        ['GET', '/api/staff/accounts'],
        ['GET', '/api/staff/audit'],
        ['GET', '/api/staff/audit.csv'],
      ] as const) {
        const res = await t.app.inject({ method, url, headers: staff.headers });
        expect(res.statusCode, `${role} ${url}`).toBe(403);
        expect(res.json().error.code).toBe('FORBIDDEN');
      }
      const add = await t.app.inject({
        method: 'POST',
        url: '/api/staff/accounts',
        headers: staff.headers,
        payload: { email: 'x@staff.alda.fo', name: 'X', role: 'admin' },
      });
      expect(add.statusCode).toBe(403);
    },
  );

  it('an admin adds a member (shown once: password, QR URI, recovery codes), changes the role and disables the account', async () => {
    const admin = await signInStaff(t.app, 'admin', now);
    const add = await t.app.inject({
      method: 'POST',
      url: '/api/staff/accounts',
      headers: admin.headers,
      payload: { email: 'Ragna@Staff.Alda.fo', name: 'Ragna', role: 'support' },
    });
    expect(add.statusCode).toBe(201);
    const enrolment = parse(dataEnvelope(staffEnrolment), add).data;
    expect(enrolment.staff.email).toBe('ragna@staff.alda.fo');
    expect(enrolment.password).toMatch(/^.{20}$/);
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/staff/accounts',
      headers: admin.headers,
      payload: { email: 'ragna@staff.alda.fo', name: 'Ragna', role: 'support' },
    });
    expect(again.json().error.code).toBe('STAFF_EXISTS');

    advance(30);
    const signIn1 = await signInWith(
      'ragna@staff.alda.fo',
      await totpAt(enrolment.totpSecret, now()),
      enrolment.password!,
    );
    expect(signIn1.statusCode).toBe(200);
    const ragna = { authorization: `Bearer ${signIn1.json().data.token as string}` };

    const promote = await t.app.inject({
      method: 'PATCH',
      url: `/api/staff/accounts/${enrolment.staff.id}`,
      headers: admin.headers,
      payload: { role: 'provisioning', reason: 'Moved to the provisioning desk' },
    });
    expect(promote.json().data.role).toBe('provisioning');
    // A change of rights ends the member's sessions.
    expect((await t.app.inject({ url: '/api/staff/auth/me', headers: ragna })).statusCode).toBe(
      401,
    );

    await t.app.inject({
      method: 'PATCH',
      url: `/api/staff/accounts/${enrolment.staff.id}`,
      headers: admin.headers,
      payload: { disabled: true, reason: 'Left the company' },
    });
    advance(30);
    const disabled = await signInWith(
      'ragna@staff.alda.fo',
      await totpAt(enrolment.totpSecret, now()),
      enrolment.password!,
    );
    expect(disabled.statusCode).toBe(401);

    const self = await t.app.inject({
      method: 'PATCH',
      url: `/api/staff/accounts/${admin.id}`,
      headers: admin.headers,
      payload: { disabled: true, reason: 'oops' },
    });
    expect(self.statusCode).toBe(409);
  });
});

describe('the audit log', () => {
  it('records sign-ins and account changes, filters them, exports CSV, and cannot be edited', async () => {
    const admin = await signInStaff(t.app, 'admin', now);
    const page = await t.app.inject({
      url: `/api/staff/audit?action=staff.&limit=500`,
      headers: admin.headers,
    });
    const entries = parse(dataEnvelope(auditPage), page).data.items;
    expect(
      entries.some((e) => e.action === 'staff.sign_in' && e.actor === `staff:${admin.email}`),
    ).toBe(true);
    const update = entries.find(
      (e) => e.action === 'staff.update' && e.reason === 'Left the company',
    );
    expect(update?.details).toMatchObject({ disabled: true });

    const csv = await t.app.inject({
      url: '/api/staff/audit.csv?action=staff.update',
      headers: admin.headers,
    });
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe('at,kind,actor,action,targetType,targetId,reason,details');
    expect(lines.some((line) => line.includes('Left the company'))).toBe(true);

    const refusal = (query: Promise<unknown>) =>
      query.then(
        () => 'allowed',
        (error: Error & { cause?: Error }) => error.cause?.message ?? error.message,
      );
    expect(
      await refusal(t.app.db.execute(sql`update operator_actions set reason = 'edited'`)),
    ).toMatch(/append-only/);
    expect(await refusal(t.app.db.execute(sql`delete from operator_actions`))).toMatch(
      /append-only/,
    );
  });
});

describe('the demo staff seed', () => {
  it('two instances seeding one empty database at once create each demo member once, without failing', async () => {
    const fresh = await createDemoApp({}, { now });
    try {
      // Both read "nobody there" before either inserts: the race of two API processes starting.
      const counts = await Promise.all([
        seedDemoStaff(fresh.app.staffAccounts),
        seedDemoStaff(fresh.app.staffAccounts),
      ]);
      expect(counts[0] + counts[1]).toBe(DEMO_STAFF.length);
      const emails = (await fresh.app.staffAccounts.list()).map((member) => member.email).sort();
      expect(emails).toEqual(DEMO_STAFF.map((member) => member.email).sort());
      expect(await seedDemoStaff(fresh.app.staffAccounts)).toBe(0);
    } finally {
      await fresh.close();
    }
  });
});
