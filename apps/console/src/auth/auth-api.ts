import type { PasskeyRequestOptions } from '@alda/contract/schemas/passkeys';
import {
  staffMe,
  staffPasskeyOptions,
  staffSession,
  type StaffMe,
  type StaffPasswordStep,
  type StaffSession,
  type StaffSignInRequest,
} from '@alda/contract/schemas/staff';
import type { Api } from '@/shared/api';

/** The staff sign-in calls (docs/decisions/0075-staff-console.md, apps/api/src/modules/staff/routes.ts). */

/**
 * `POST /api/staff/auth/sign-in` with a code or a passkey's answer: 401 STAFF_SIGN_IN_FAILED for
 * any wrong part, STAFF_PASSKEY_REQUIRED for a code of a role that signs in with passkeys, 429
 * when limited.
 */
export function signIn(api: Api, body: StaffSignInRequest): Promise<StaffSession> {
  return api.post('/api/staff/auth/sign-in', body, { schema: staffSession });
}

/**
 * `POST /api/staff/auth/passkey-options`: the password first, then a challenge for this member's
 * passkeys (404 PASSKEY_NOT_FOUND when they have none).
 */
export async function passkeyOptions(
  api: Api,
  body: StaffPasswordStep,
): Promise<PasskeyRequestOptions> {
  const answer = await api.post('/api/staff/auth/passkey-options', body, {
    schema: staffPasskeyOptions,
  });
  return answer.options;
}

/** `GET /api/staff/auth/me`: who is signed in, and the session's limits. */
export function fetchMe(api: Api, signal?: AbortSignal): Promise<StaffMe> {
  return api.get('/api/staff/auth/me', { schema: staffMe, signal });
}

/** `POST /api/staff/auth/sign-out`: ends this session (204). */
export function signOut(api: Api): Promise<void> {
  return api.post('/api/staff/auth/sign-out');
}

/** `POST /api/staff/auth/sign-out-everywhere`: ends every session of this staff member (204). */
export function signOutEverywhere(api: Api): Promise<void> {
  return api.post('/api/staff/auth/sign-out-everywhere');
}

/** The TanStack Query key of `/me`. */
export const ME_KEY = ['staff', 'auth', 'me'] as const;
