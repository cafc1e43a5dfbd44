import { okResponse, type OkResponse } from '@alda/contract/schemas/common';
import { tokens, type EmailLoginRequest, type Tokens } from '@alda/contract/schemas/auth';
import type { PasskeyLoginOptions, PasskeyLoginRequest } from '@alda/contract/schemas/passkeys';
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
import { getSignInDevice } from '@/shared/native/device';

/*
 * The auth calls of SPEC §7. All of them are exempt from the 401 refresh (SPEC §8): a 401 here is
 * an answer (wrong password, wrong code), and the screens show it. Every call that signs in
 * names the device it signs in from (`device`, ADR 0059), for the list of signed-in devices.
 */

/** The body of a sign-in call with this device's meta, when the device tells it. */
async function withDevice<T extends object>(body: T): Promise<T & { device?: object }> {
  const device = await getSignInDevice();
  return device ? { ...body, device } : body;
}

/** POST /auth/email-login → a token pair; 401 INVALID_CREDENTIALS for a wrong e-mail or password. */
export async function emailLogin(
  http: HttpClient,
  body: EmailLoginRequest,
): Promise<Result<Tokens>> {
  return http.post('/auth/email-login', await withDevice(body), tokens);
}

/**
 * POST /auth/passkey-login/options: a challenge any of our passkeys can answer (the button, or
 * the autofill of the e-mail and phone screens). Its schema loads with the answer's way.
 */
export function passkeyLoginOptionsOf(http: HttpClient): Promise<Result<PasskeyLoginOptions>> {
  return http.post(
    '/auth/passkey-login/options',
    {},
    import('@alda/contract/schemas/passkeys').then((m) => m.passkeyLoginOptions),
    { skipAuthRefresh: true },
  );
}

/**
 * POST /auth/passkey-login with the browser's answer to a challenge of POST
 * /auth/passkey-login/options → a token pair, as the e-mail login (ADR 0097); 401
 * PASSKEY_NOT_RECOGNISED for a passkey no account has (removed, or another service's).
 */
export async function passkeyLogin(
  http: HttpClient,
  body: Omit<PasskeyLoginRequest, 'device'>,
): Promise<Result<Tokens>> {
  return http.post('/auth/passkey-login', await withDevice(body), tokens, {
    skipAuthRefresh: true,
  });
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
export async function enterPin(http: HttpClient, body: EnterPinRequest): Promise<Result<Tokens>> {
  return http.post('/auth/enter-pin', await withDevice(body), tokens);
}

/** POST /auth/register → tokens (signed in at once); EMAIL_ALREADY_REGISTERED, TOO_YOUNG. */
export async function registerUser(
  http: HttpClient,
  body: RegisterRequest,
): Promise<Result<Tokens>> {
  return http.post('/auth/register', await withDevice(body), tokens);
}

/** POST /auth/forgot-password: always `{ ok: true }`, so nobody learns who is a customer. */
export function forgotPassword(
  http: HttpClient,
  body: ForgotPasswordRequest,
): Promise<Result<OkResponse>> {
  return http.post('/auth/forgot-password', body, okResponse);
}

/** POST /auth/reset-password with the e-mailed token → tokens; TOKEN_INVALID. */
export async function resetPassword(
  http: HttpClient,
  body: ResetPasswordRequest,
): Promise<Result<Tokens>> {
  return http.post('/auth/reset-password', await withDevice(body), tokens);
}

/**
 * After a password sign-in or a registration: home offers a passkey for next time (ADR 0097).
 * The mark's module is home's (passkey-offer-slot.tsx), loaded here rather than carried by the
 * sign-in screens and home's first load both: home's chunk comes a moment earlier, that is all.
 * A chunk that cannot be loaded costs the offer, never the sign-in.
 */
export async function markPasskeyOffer(userId: string): Promise<void> {
  try {
    (await import('@/shared/passkeys/passkey-offer-slot')).markPasskeyOffer(userId);
  } catch {
    // Offline meanwhile: no offer this time.
  }
}
