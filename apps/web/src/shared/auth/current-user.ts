import type { User } from '@alda/contract/schemas/auth';
import { CURRENT_USER_PATH } from '@alda/contract/start-up';
import { accessTokenSubject, type HttpClient, type Result } from '@/shared/api/http';
import type { TokenStore } from './token-store';

/**
 * GET /auth/me: the signed-in user. Its schema (and zod) loads while the request is on its way:
 * the entry chunk runs this at start-up and carries no schema itself.
 */
export function fetchMe(http: HttpClient): Promise<Result<User>> {
  return http.get(
    CURRENT_USER_PATH,
    import('@alda/contract/schemas/auth').then((m) => m.user),
  );
}

/**
 * Start-up step 3 (SPEC §1): reads the saved tokens and, when there are any, asks the API who
 * they belong to. Null for a guest, and when the API cannot tell (the tokens stay; a refused
 * session has already been cleared by the HTTP client).
 *
 * When the API cannot be reached at all (offline, or the server failing), the session is kept as
 * this device last knew it (issue 16 item 4): `lastKnown` puts the token's own user's kept data
 * back and returns that user, so home opens with the last known figures.
 */
export async function fetchCurrentUser(
  http: HttpClient,
  tokens: TokenStore,
  lastKnown?: (userId: string) => Promise<User | null>,
): Promise<User | null> {
  await tokens.load();
  const token = tokens.getAccessToken();
  if (!token) return null;
  const result = await fetchMe(http);
  if (result.ok) return result.data;
  const unreachable = result.error.status === 0 || result.error.status >= 500;
  const userId =
    unreachable && tokens.getAccessToken() === token ? accessTokenSubject(token) : null;
  return userId && lastKnown ? lastKnown(userId).catch(() => null) : null;
}
