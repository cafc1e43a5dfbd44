import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import {
  authSessionsResponse,
  signOutOthersResponse,
  type SignOutOthersResponse,
} from '@alda/contract/schemas/sessions';
import { unwrap, type HttpClient, type Result } from '@/shared/api/http';

/*
 * The customer's signed-in devices (issue 14, ADR 0059): GET /auth/sessions, DELETE
 * /auth/sessions/{id} and POST /auth/sessions/sign-out-others.
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

/** DELETE /auth/sessions/{id}: 204; 404 SESSION_NOT_FOUND when it is no longer signed in. */
export function signOutDevice(http: HttpClient, id: string): Promise<Result<unknown>> {
  return http.delete(`/auth/sessions/${encodeURIComponent(id)}`, z.unknown());
}

/** POST /auth/sessions/sign-out-others → how many devices were signed out. */
export function signOutOtherDevices(http: HttpClient): Promise<Result<SignOutOthersResponse>> {
  return http.post('/auth/sessions/sign-out-others', {}, signOutOthersResponse);
}
