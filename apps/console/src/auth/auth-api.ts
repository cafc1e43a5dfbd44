import {
  staffMe,
  staffSession,
  type StaffMe,
  type StaffSession,
  type StaffSignInRequest,
} from '@alda/contract/schemas/staff';
import type { Api } from '@/shared/api';

/** The staff sign-in calls (docs/decisions/0075-staff-console.md, apps/api/src/modules/staff/routes.ts). */

/** `POST /api/staff/auth/sign-in`: 401 STAFF_SIGN_IN_FAILED for any wrong part, 429 when limited. */
export function signIn(api: Api, body: StaffSignInRequest): Promise<StaffSession> {
  return api.post('/api/staff/auth/sign-in', body, { schema: staffSession });
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
