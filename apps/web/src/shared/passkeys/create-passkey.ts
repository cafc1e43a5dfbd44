import {
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
} from '@simplewebauthn/browser';
import type { Passkey, PasskeyCreationOptions } from '@alda/contract/schemas/passkeys';
import type { HttpClient } from '@/shared/api/http';
import { ceremonyCancelled, deviceFailure, failed, type PasskeyResult } from './ceremony';
import { passkeyNameOfThisDevice } from './passkey-name';
import { addPasskey } from './passkeys-api';

/**
 * Makes a passkey with the creation options of POST /auth/passkeys/options: the browser's dialog
 * (`navigator.credentials.create()` through @simplewebauthn/browser), then POST /auth/passkeys
 * with this device's name. An authenticator that already holds one of the customer's passkeys
 * (the options exclude them: InvalidStateError) fails as PASSKEY_ALREADY_REGISTERED would.
 */
export async function createPasskey(
  http: HttpClient,
  options: PasskeyCreationOptions,
): Promise<PasskeyResult<Passkey>> {
  let response;
  try {
    // The contract's schema names the fields the server reads and lets the rest through: the
    // JSON form of WebAuthn L3, which is what the library's type describes.
    response = await startRegistration({
      optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON,
    });
  } catch (error) {
    if (ceremonyCancelled(error)) return { status: 'cancelled' };
    const name = error instanceof Error ? error.name : '';
    return failed(
      deviceFailure(name === 'InvalidStateError' ? 'PASSKEY_ALREADY_REGISTERED' : undefined),
    );
  }
  const added = await addPasskey(http, {
    // Plain copies: the contract's schema lets extra fields through (an index signature), which
    // the library's interfaces do not declare.
    response: {
      ...response,
      response: { ...response.response },
      clientExtensionResults: { ...response.clientExtensionResults },
    },
    name: await passkeyNameOfThisDevice(),
  });
  return added.ok ? { status: 'done', data: added.data } : failed(added.error);
}
