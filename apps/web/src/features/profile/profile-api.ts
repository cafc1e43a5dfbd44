import { z } from 'zod';
import { user, type User } from '@alda/contract/schemas/auth';
import { okResponse, type OkResponse } from '@alda/contract/schemas/common';
import type { ChangePasswordRequest, UpdateUserRequest } from '@alda/contract/schemas/profile';
import type { HttpClient, Result } from '@/shared/api/http';

/*
 * The signed-in customer's own user (SPEC §2 /min-brukari): PATCH and DELETE /auth/me and
 * POST /auth/change-password. GET /auth/me is the session's (start-up step 3), so the profile
 * shows the session's user and puts the answer of an edit back into the session.
 */

/** PATCH /auth/me → the user; 409 EMAIL_ALREADY_REGISTERED, 400 VALIDATION_FAILED with issues. */
export function updateUser(http: HttpClient, body: UpdateUserRequest): Promise<Result<User>> {
  return http.patch('/auth/me', body, user);
}

/**
 * POST /auth/change-password → `{ ok: true }`; the other sessions end, this one stays. A wrong
 * current password is 422 CURRENT_PASSWORD_INCORRECT on the field `currentPassword`.
 */
export function changePassword(
  http: HttpClient,
  body: ChangePasswordRequest,
): Promise<Result<OkResponse>> {
  return http.post('/auth/change-password', body, okResponse);
}

/** DELETE /auth/me; 409 HAS_ACTIVE_SUBSCRIPTION while the customer still has a line (SPEC §6). */
export function deleteUser(http: HttpClient): Promise<Result<unknown>> {
  return http.delete('/auth/me', z.unknown());
}
