import type { User } from '@alda/contract/schemas/auth';
import type { HttpClient, Result } from '@/shared/api/http';
import type { TokenStore } from './token-store';

/**
 * GET /auth/me: the signed-in user. Its schema (and zod) loads while the request is on its way:
 * the entry chunk runs this at start-up and carries no schema itself.
 */
export function fetchMe(http: HttpClient): Promise<Result<User>> {
  return http.get(
    '/auth/me',
    import('@alda/contract/schemas/auth').then((m) => m.user),
  );
}

/**
 * Start-up step 3 (SPEC §1): reads the saved tokens and, when there are any, asks the API who
 * they belong to. Null for a guest, and when the API cannot tell (the tokens stay; a refused
 * session has already been cleared by the HTTP client).
 */
export async function fetchCurrentUser(http: HttpClient, tokens: TokenStore): Promise<User | null> {
  await tokens.load();
  if (!tokens.getAccessToken()) return null;
  const result = await fetchMe(http);
  return result.ok ? result.data : null;
}
