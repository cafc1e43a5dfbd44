import { tokens, type EmailLoginRequest, type Tokens } from '@alda/contract/schemas/auth';
import type { HttpClient, Result } from '@/shared/api/http';

/** POST /auth/email-login → a token pair; 401 INVALID_CREDENTIALS for a wrong e-mail or password. */
export function emailLogin(http: HttpClient, body: EmailLoginRequest): Promise<Result<Tokens>> {
  return http.post('/auth/email-login', body, tokens);
}
