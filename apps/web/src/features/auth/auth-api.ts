import { okResponse, type OkResponse } from '@alda/contract/schemas/common';
import { tokens, type EmailLoginRequest, type Tokens } from '@alda/contract/schemas/auth';
import {
  requestPinResponse,
  type EnterPinRequest,
  type ForgotPasswordRequest,
  type RegisterRequest,
  type RequestPinRequest,
  type RequestPinResponse,
  type ResetPasswordRequest,
} from '@alda/contract/schemas/auth-register';
import type { HttpClient, Result } from '@/shared/api/http';

/*
 * The auth calls of SPEC §7. All of them are exempt from the 401 refresh (SPEC §8): a 401 here is
 * an answer (wrong password, wrong code), and the screens show it.
 */

/** POST /auth/email-login → a token pair; 401 INVALID_CREDENTIALS for a wrong e-mail or password. */
export function emailLogin(http: HttpClient, body: EmailLoginRequest): Promise<Result<Tokens>> {
  return http.post('/auth/email-login', body, tokens);
}

/**
 * POST /auth/request-pin: texts a one-time code to a registered number. 404 PHONE_NOT_REGISTERED,
 * 409 PHONE_PROCESSING (SPEC §8), 429 when asked again before the resend countdown ran out.
 */
export function requestPin(
  http: HttpClient,
  body: RequestPinRequest,
): Promise<Result<RequestPinResponse>> {
  return http.post('/auth/request-pin', body, requestPinResponse);
}

/** POST /auth/enter-pin (the code travels as `password`) → tokens; INVALID_PIN, PIN_EXPIRED. */
export function enterPin(http: HttpClient, body: EnterPinRequest): Promise<Result<Tokens>> {
  return http.post('/auth/enter-pin', body, tokens);
}

/** POST /auth/register → tokens (signed in at once); EMAIL_ALREADY_REGISTERED, TOO_YOUNG. */
export function registerUser(http: HttpClient, body: RegisterRequest): Promise<Result<Tokens>> {
  return http.post('/auth/register', body, tokens);
}

/** POST /auth/forgot-password: always `{ ok: true }`, so nobody learns who is a customer. */
export function forgotPassword(
  http: HttpClient,
  body: ForgotPasswordRequest,
): Promise<Result<OkResponse>> {
  return http.post('/auth/forgot-password', body, okResponse);
}

/** POST /auth/reset-password with the e-mailed token → tokens; TOKEN_INVALID. */
export function resetPassword(
  http: HttpClient,
  body: ResetPasswordRequest,
): Promise<Result<Tokens>> {
  return http.post('/auth/reset-password', body, tokens);
}
