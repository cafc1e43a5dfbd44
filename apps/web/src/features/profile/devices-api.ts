import { queryOptions } from '@tanstack/react-query';
import {
  authSessionsResponse,
  signOutOthersResponse,
  type SignOutOthersRequest,
  type SignOutOthersResponse,
  type SignOutSessionRequest,
} from '@alda/contract/schemas/sessions';
import { anyAnswer, unwrap, type HttpClient, type Result } from '@/shared/api/http';

/*
 * The customer's signed-in devices (issue 14, ADR 0059): GET /auth/sessions, POST
 * /auth/sessions/{id}/sign-out and POST /auth/sessions/sign-out-others — both with the password
 * again, or the SMS code of POST /auth/sessions/confirmation-code (ASVS 5.0 7.5.2).
 */

export const deviceKeys = {
  all: ['auth', 'sessions'] as const,
};

export const deviceQueries = {
  /** GET /auth/sessions: the current device first. Always fetched afresh when the screen opens. */
  list: (http: HttpClient) =>
    queryOptions({
      queryKey: deviceKeys.all,
      queryFn: async ({ signal }) =>
        unwrap(await http.get('/auth/sessions', authSessionsResponse, { signal })),
      staleTime: 0,
    }),
};

/**
 * POST /auth/sessions/{id}/sign-out: 204; 422 PASSWORD_INCORRECT or CONFIRMATION_CODE_INCORRECT
 * for a wrong password or code; 404 SESSION_NOT_FOUND when it is no longer signed in.
 */
export function signOutDevice(
  http: HttpClient,
  id: string,
  proof: SignOutSessionRequest,
): Promise<Result<unknown>> {
  return http.post(`/auth/sessions/${encodeURIComponent(id)}/sign-out`, proof, anyAnswer);
}

/** POST /auth/sessions/sign-out-others → how many devices were signed out. */
export function signOutOtherDevices(
  http: HttpClient,
  proof: SignOutOthersRequest,
): Promise<Result<SignOutOthersResponse>> {
  return http.post('/auth/sessions/sign-out-others', proof, signOutOthersResponse);
}
