import {
  browserSupportsWebAuthnAutofill,
  startAuthentication,
  WebAuthnAbortService,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import type { TFunction } from 'i18next';
import type { User } from '@alda/contract/schemas/auth';
import type { PasskeyRequestOptions } from '@alda/contract/schemas/passkeys';
import { takeReturnPath } from '@/shared/auth/return-path';
import { ROUTES } from '@/shared/config/paths';
import type { ApiError, HttpClient } from '@/shared/api/http';
import { errorMessageOf } from '@/shared/i18n/use-error-message';
import type { AppServices } from '@/shared/services/app-services';
import { passkeyLogin, passkeyLoginOptionsOf } from './auth-api';
import {
  ceremonyCancelled,
  deviceFailure,
  failed,
  type PasskeyResult,
} from '@/shared/passkeys/ceremony';

/*
 * Signing in with a passkey (ADR 0097), from the login screen's button and from the autofill of
 * the e-mail and phone screens. This module and @simplewebauthn/browser load only when one of
 * them needs it (a dynamic import): the login screen's first load carries neither.
 */

export interface PasskeySignInDeps {
  http: HttpClient;
  signIn: AppServices['signIn'];
  /** Goes to a screen once signed in, replacing the sign-in screen in the history. */
  navigate: (path: string) => unknown;
}

/** The JSON form of WebAuthn L3 that the contract's schema lets through whole. */
const requestOptions = (options: PasskeyRequestOptions) =>
  options as unknown as PublicKeyCredentialRequestOptionsJSON;

/**
 * The browser's answer signs in: POST /auth/passkey-login with this device's meta, then the
 * session as the e-mail login completes it (tokens stored, the user and the account data loaded)
 * and the screen a guest was going to, else home.
 */
async function completeSignIn(
  deps: PasskeySignInDeps,
  response: AuthenticationResponseJSON,
): Promise<PasskeyResult<User>> {
  // Copied into plain objects: the contract's schema lets extra fields through (an index
  // signature), which the library's interfaces do not declare.
  const login = await passkeyLogin(deps.http, {
    response: {
      ...response,
      response: { ...response.response },
      clientExtensionResults: { ...response.clientExtensionResults },
    },
  });
  if (!login.ok) return failed(login.error);
  const session = await deps.signIn(login.data);
  if (!session.ok) return failed(session.error);
  await deps.navigate(takeReturnPath() ?? ROUTES.home);
  return { status: 'done', data: session.data };
}

/**
 * What a sign-in screen says when a passkey did not sign in: the API's message for its code,
 * or — the device failed, no code — that it did not work and another way does.
 */
export function passkeyFailureText(t: TFunction, error: ApiError): string {
  return error.code === 'UNKNOWN' ? t('auth.passkey.failed') : errorMessageOf(t, error);
}

const ceremonyFailure = (error: unknown): PasskeyResult<never> =>
  ceremonyCancelled(error) ? { status: 'cancelled' } : failed(deviceFailure());

/**
 * The login screen's button: a challenge, the browser's passkey dialog, the sign-in. Cancelled
 * when the person closes the dialog.
 */
export async function signInWithPasskey(deps: PasskeySignInDeps): Promise<PasskeyResult<User>> {
  const options = await passkeyLoginOptionsOf(deps.http);
  if (!options.ok) return failed(options.error);
  let response;
  try {
    response = await startAuthentication({ optionsJSON: requestOptions(options.data.options) });
  } catch (error) {
    return ceremonyFailure(error);
  }
  return completeSignIn(deps, response);
}

export interface PasskeyAutofillHandlers {
  /** Stops the autofill (the screen left); a passkey already picked still signs in. */
  signal: AbortSignal;
  /** A passkey was picked from the autofill: the sign-in is under way. */
  onPicked: () => void;
  /** The sign-in with the picked passkey failed; the autofill is offered again. */
  onFailed: (error: ApiError) => void;
}

/**
 * Conditional mediation (WebAuthn's autofill): the e-mail or number field offers the device's
 * passkeys among its suggestions (`autocomplete="username webauthn"`), and picking one signs in.
 * Runs until a passkey signs in or `signal` aborts; where the browser has no such autofill it
 * does nothing. Until a passkey is picked nothing is said (no challenge, a browser that refuses):
 * the field works as before. A failed sign-in with the picked one is told, and the autofill
 * offered again.
 */
export async function offerPasskeyAutofill(
  deps: PasskeySignInDeps,
  { signal, onPicked, onFailed }: PasskeyAutofillHandlers,
): Promise<void> {
  if (!(await browserSupportsWebAuthnAutofill())) return;
  while (!signal.aborted) {
    const options = await passkeyLoginOptionsOf(deps.http);
    if (!options.ok || signal.aborted) return;
    // The library keeps one ceremony at a time; leaving the screen cancels this one.
    const stop = () => WebAuthnAbortService.cancelCeremony();
    signal.addEventListener('abort', stop);
    let response;
    try {
      response = await startAuthentication({
        optionsJSON: requestOptions(options.data.options),
        useBrowserAutofill: true,
      });
    } catch (error) {
      // Cancelled, replaced by another ceremony, or the screen left: the field stays as it is.
      // Nobody asked for anything yet, so a browser that refuses (another RP ID on this address,
      // no eligible field) is not told either: the field still works as it did.
      if (!signal.aborted && !ceremonyCancelled(error))
        console.warn('Passkey autofill is not available here', error);
      return;
    } finally {
      signal.removeEventListener('abort', stop);
    }
    onPicked();
    const result = await completeSignIn(deps, response);
    if (result.status !== 'failed') return;
    onFailed(result.error);
  }
}
