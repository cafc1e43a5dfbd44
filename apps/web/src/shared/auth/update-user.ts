import { user, type User } from '@alda/contract/schemas/auth';
import type { UpdateUserRequest } from '@alda/contract/schemas/profile';
import type { HttpClient, Result } from '@/shared/api/http';

/**
 * PATCH /auth/me → the user; 409 EMAIL_ALREADY_REGISTERED, 400 VALIDATION_FAILED with issues.
 * The profile's edits and the language screen's choice (issue 33 §3) both save through it. Not
 * imported by the entry chunk: the user's schema (and zod) come with the screens that save.
 */
export function updateUser(http: HttpClient, body: UpdateUserRequest): Promise<Result<User>> {
  return http.patch('/auth/me', body, user);
}
