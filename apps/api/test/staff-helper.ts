import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { generate } from 'otplib';
import type { StaffRole } from '@alda/contract/schemas/staff';

/*
 * Staff members for API tests (docs/decisions/0075-staff-console.md): a fresh account per call,
 * signed in through the real POST /api/staff/auth/sign-in with a real TOTP code of the app's clock.
 */

export const STAFF_TEST_PASSWORD = 'Staff-Test-Password-1';

export interface TestStaff {
  id: string;
  email: string;
  role: StaffRole;
  totpSecret: string;
  recoveryCodes: string[];
  /** The staff session token. */
  token: string;
  /** `{ authorization: 'Bearer …' }` for app.inject. */
  headers: { authorization: string };
}

/** The TOTP code of `secret` at `at` (RFC 6238, 30 s steps). */
export function totpAt(secret: string, at: Date): Promise<string> {
  return generate({ secret, epoch: Math.floor(at.getTime() / 1000) });
}

/** Creates a staff account of `role` (no sign-in). */
export async function createStaffAccount(
  app: FastifyInstance,
  role: StaffRole,
  name = `Test ${role}`,
) {
  const email = `${role}-${randomBytes(4).toString('hex')}@staff.alda.fo`;
  const enrolment = await app.staffAccounts.create(
    { email, name, role, password: STAFF_TEST_PASSWORD },
    { actor: 'test', staffUserId: null },
  );
  return { ...enrolment, email };
}

/** A new staff member of `role`, signed in at the app's time `now()`. */
export async function signInStaff(
  app: FastifyInstance,
  role: StaffRole,
  now: () => Date = () => new Date(),
): Promise<TestStaff> {
  const account = await createStaffAccount(app, role);
  const res = await app.inject({
    method: 'POST',
    url: '/api/staff/auth/sign-in',
    payload: {
      email: account.email,
      password: STAFF_TEST_PASSWORD,
      totpCode: await totpAt(account.totpSecret, now()),
    },
  });
  if (res.statusCode !== 200)
    throw new Error(`staff sign-in failed: ${res.statusCode} ${res.body}`);
  const token = (res.json() as { data: { token: string } }).data.token;
  return {
    id: account.staff.id,
    email: account.email,
    role,
    totpSecret: account.totpSecret,
    recoveryCodes: account.recoveryCodes,
    token,
    headers: { authorization: `Bearer ${token}` },
  };
}
