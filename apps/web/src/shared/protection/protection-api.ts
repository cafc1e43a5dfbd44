import { useQuery } from '@tanstack/react-query';
import {
  cancelUnlockByLinkResponse,
  lineProtection,
  portOutCodeResponse,
  type CancelUnlockByLinkResponse,
  type LineProtection,
  type PortOutCodeResponse,
  type UnlockRequest,
} from '@alda/contract/schemas/number-protection';
import { accountKeys } from '@/shared/api/account-data';
import { unwrap, type HttpClient, type Result } from '@/shared/api/http';
import { useAppServices } from '@/shared/services/app-services';

/*
 * A number's protection (issue 32, ADR 0076): its lock, port-out code and latest SIM change.
 * Read by the lock screen and the row that links to it (manage, family member, profile). Under
 * the account keys, so a change to the subscriptions refreshes it too.
 */

export const protectionKeys = {
  detail: (lineId: string) => [...accountKeys.all, 'protection', lineId] as const,
};

const path = (lineId: string, rest = '') => `/subscriptions/${encodeURIComponent(lineId)}${rest}`;

/**
 * GET /subscriptions/{id}/protection. While an unlock waits, it is read again at its time, so
 * the screen turns to "unlocked" without a reload.
 */
export function useProtectionQuery(lineId: string | null) {
  const { http } = useAppServices();
  return useQuery({
    queryKey: protectionKeys.detail(lineId ?? ''),
    enabled: lineId !== null,
    queryFn: async ({ signal }) =>
      unwrap(await http.get(path(lineId ?? '', '/protection'), lineProtection, { signal })),
    refetchInterval: (query) => untilUnlock(query.state.data),
  });
}

/** Milliseconds until a waiting unlock opens (at least 1 s, at most an hour); false otherwise. */
export function untilUnlock(data: LineProtection | undefined, now = Date.now()): number | false {
  if (data?.lock.state !== 'unlocking' || !data.lock.unlockAt) return false;
  const wait = new Date(data.lock.unlockAt).getTime() - now + 500;
  return Math.min(Math.max(wait, 1_000), 3_600_000);
}

/** POST /subscriptions/{id}/protection/lock: locked at once. */
export function lockNumber(http: HttpClient, lineId: string): Promise<Result<LineProtection>> {
  return http.post(path(lineId, '/protection/lock'), {}, lineProtection);
}

/**
 * POST /subscriptions/{id}/protection/unlock with the password or SMS code: the unlock waits the
 * cooling-off (`unlocking`, `unlockAt`). 422 PASSWORD_INCORRECT / CONFIRMATION_CODE_INCORRECT.
 */
export function requestUnlock(
  http: HttpClient,
  lineId: string,
  proof: UnlockRequest,
): Promise<Result<LineProtection>> {
  return http.post(path(lineId, '/protection/unlock'), proof, lineProtection);
}

/** DELETE /subscriptions/{id}/protection/unlock: a waiting unlock cancelled, the number locked. */
export function cancelUnlock(http: HttpClient, lineId: string): Promise<Result<LineProtection>> {
  return http.delete(path(lineId, '/protection/unlock'), lineProtection);
}

/** POST /subscriptions/{id}/port-out-code: a new code (the old one stops working), shown once. */
export function createPortOutCode(
  http: HttpClient,
  lineId: string,
): Promise<Result<PortOutCodeResponse>> {
  return http.post(path(lineId, '/port-out-code'), {}, portOutCodeResponse);
}

/** POST /number-unlocks/cancel: the e-mail link's one-tap cancel; no sign-in needed. */
export function cancelUnlockByLink(
  http: HttpClient,
  token: string,
): Promise<Result<CancelUnlockByLinkResponse>> {
  return http.post('/number-unlocks/cancel', { token }, cancelUnlockByLinkResponse);
}
