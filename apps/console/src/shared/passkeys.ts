import type {
  AuthenticationResponse,
  PasskeyCreationOptions,
  PasskeyRequestOptions,
  RegistrationResponse,
} from '@alda/contract/schemas/passkeys';

/*
 * The browser's side of staff passkeys (ADR 0097): `navigator.credentials.get()` and `.create()`
 * through @simplewebauthn/browser, which turns the JSON options into what the browser takes and
 * its answer back into JSON. Loaded with `import()` when a passkey is first used, so a sign-in
 * with the code never downloads it.
 */

/** The browser's passkey prompt for a sign-in: the answer to the server's request options. */
export async function askPasskey(options: PasskeyRequestOptions): Promise<AuthenticationResponse> {
  const { startAuthentication } = await import('@simplewebauthn/browser');
  const answer = await startAuthentication({
    optionsJSON: options as unknown as Parameters<typeof startAuthentication>[0]['optionsJSON'],
  });
  return answer as unknown as AuthenticationResponse;
}

/** The browser's prompt to make a passkey: the new credential for the server's options. */
export async function makePasskey(options: PasskeyCreationOptions): Promise<RegistrationResponse> {
  const { startRegistration } = await import('@simplewebauthn/browser');
  const answer = await startRegistration({
    optionsJSON: options as unknown as Parameters<typeof startRegistration>[0]['optionsJSON'],
  });
  return answer as unknown as RegistrationResponse;
}

/**
 * What went wrong in the browser's passkey prompt (not at the server):
 * - `cancelled`: closed, timed out, or no passkey of the list on this device (`NotAllowedError`,
 *   which browsers use for all three);
 * - `exists`: this device holds a passkey of the account already (`InvalidStateError`);
 * - `unsupported`: no WebAuthn in this browser;
 * - `failed`: anything else the prompt threw.
 * Null for a failure of an API call (an `ApiError`, shown with its own message).
 */
export type PasskeyProblem = 'cancelled' | 'exists' | 'unsupported' | 'failed';

export function passkeyProblem(error: unknown): PasskeyProblem | null {
  if (!(error instanceof Error) || error.name === 'ApiError') return null;
  const code = 'code' in error ? (error as { code?: unknown }).code : undefined;
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' || error.name === 'InvalidStateError')
    return 'exists';
  if (error.name === 'NotAllowedError' || error.name === 'AbortError') return 'cancelled';
  if (/not supported/i.test(error.message)) return 'unsupported';
  return 'failed';
}
