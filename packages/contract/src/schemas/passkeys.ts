import { z } from 'zod/mini';
import { id, isoDateTime } from './common';
import { reauthentication, withSignInDevice } from './sessions';

/*
 * Passkeys (WebAuthn Level 3; docs/decisions/0097-passkeys.md). The options and responses travel
 * as the JSON forms WebAuthn L3 defines (`PublicKeyCredentialCreationOptionsJSON`,
 * `RegistrationResponseJSON`, …), which `@simplewebauthn/browser` and `/server` speak. The
 * schemas name the fields the server reads and let the rest through, so a browser that adds an
 * extension result is not refused.
 */

/** base64url without padding, as WebAuthn's JSON forms carry binary values. */
const base64url = z.string().check(z.minLength(1), z.maxLength(4096), z.regex(/^[A-Za-z0-9_-]+$/));

/** A passkey's name as the customer sees it in the list ("iPhone", "Chrome on Windows"). */
export const PASSKEY_NAME_MAX = 60;
export const passkeyName = z
  .string({ error: 'REQUIRED' })
  .check(z.trim(), z.minLength(1, 'REQUIRED'), z.maxLength(PASSKEY_NAME_MAX, 'TOO_LONG'));

/** How long a challenge of the options calls can be answered (seconds). */
export const PASSKEY_CHALLENGE_TTL_S = 5 * 60;

/**
 * How long after a sign-in the session counts as having just proved who it is: the offer to add
 * a passkey after registration or a password sign-in needs no password again within it.
 */
export const PASSKEY_FRESH_SIGN_IN_S = 5 * 60;

/** The creation options (WebAuthn L3 §5.4 `PublicKeyCredentialCreationOptionsJSON`). */
export const passkeyCreationOptions = z.looseObject({
  challenge: base64url,
  rp: z.looseObject({ id: z.optional(z.string()), name: z.string() }),
  user: z.looseObject({ id: base64url, name: z.string(), displayName: z.string() }),
  pubKeyCredParams: z.array(z.looseObject({ type: z.string(), alg: z.number() })),
  timeout: z.optional(z.number()),
  excludeCredentials: z.optional(
    z.array(z.looseObject({ id: base64url, type: z.string(), transports: z.optional(z.array(z.string())) })),
  ),
  authenticatorSelection: z.optional(z.looseObject({})),
  attestation: z.optional(z.string()),
});
export type PasskeyCreationOptions = z.infer<typeof passkeyCreationOptions>;

/** The request options (WebAuthn L3 §5.5 `PublicKeyCredentialRequestOptionsJSON`). */
export const passkeyRequestOptions = z.looseObject({
  challenge: base64url,
  rpId: z.optional(z.string()),
  timeout: z.optional(z.number()),
  allowCredentials: z.optional(
    z.array(z.looseObject({ id: base64url, type: z.string(), transports: z.optional(z.array(z.string())) })),
  ),
  userVerification: z.optional(z.string()),
});
export type PasskeyRequestOptions = z.infer<typeof passkeyRequestOptions>;

/** A new credential as the browser hands it over (WebAuthn L3 §5.1 `RegistrationResponseJSON`). */
export const registrationResponse = z.looseObject({
  id: base64url,
  rawId: base64url,
  type: z.literal('public-key'),
  response: z.looseObject({
    clientDataJSON: base64url,
    attestationObject: base64url,
    transports: z.optional(z.array(z.string().check(z.maxLength(32))).check(z.maxLength(10))),
  }),
  clientExtensionResults: z.looseObject({}),
  authenticatorAttachment: z.optional(z.string()),
});
export type RegistrationResponse = z.infer<typeof registrationResponse>;

/** An assertion as the browser hands it over (WebAuthn L3 §5.1 `AuthenticationResponseJSON`). */
export const authenticationResponse = z.looseObject({
  id: base64url,
  rawId: base64url,
  type: z.literal('public-key'),
  response: z.looseObject({
    clientDataJSON: base64url,
    authenticatorData: base64url,
    signature: base64url,
    userHandle: z.optional(z.string().check(z.maxLength(256))),
  }),
  clientExtensionResults: z.looseObject({}),
  authenticatorAttachment: z.optional(z.string()),
});
export type AuthenticationResponse = z.infer<typeof authenticationResponse>;

/** One of the customer's (or a staff member's) passkeys. */
export const passkey = z.object({
  id,
  name: z.string(),
  /** Synced by the platform (iCloud Keychain, Google Password Manager): WebAuthn's BS flag. */
  backedUp: z.boolean(),
  createdAt: isoDateTime,
  lastUsedAt: z.nullable(isoDateTime),
});
export type Passkey = z.infer<typeof passkey>;

/** GET /api/auth/passkeys: newest first. */
export const passkeyList = z.array(passkey);

/**
 * POST /api/auth/passkeys/options: the proof of who it is (the password, or the SMS code of
 * POST /api/auth/sessions/confirmation-code). Within {@link PASSKEY_FRESH_SIGN_IN_S} of the
 * session's sign-in `{}` is enough.
 */
export const passkeyOptionsRequest = reauthentication;
export type PasskeyOptionsRequest = z.input<typeof passkeyOptionsRequest>;

/** POST /api/auth/passkeys: the new credential, and the name the device suggests. */
export const passkeyCreateRequest = z.object({
  response: registrationResponse,
  name: z.optional(passkeyName),
});
export type PasskeyCreateRequest = z.input<typeof passkeyCreateRequest>;

/** PATCH /api/auth/passkeys/{id} */
export const passkeyRenameRequest = z.object({ name: passkeyName });
export type PasskeyRenameRequest = z.input<typeof passkeyRenameRequest>;

/** POST /api/auth/passkeys/{id}/delete: the password or SMS code again. */
export const passkeyDeleteRequest = reauthentication;
export type PasskeyDeleteRequest = z.input<typeof passkeyDeleteRequest>;

export const passkeyIdParams = z.object({ id: z.uuid() });

/** POST /api/auth/passkey-login/options: a challenge for any of the customer's passkeys. */
export const passkeyLoginOptions = z.object({ options: passkeyRequestOptions });
export type PasskeyLoginOptions = z.infer<typeof passkeyLoginOptions>;

/** POST /api/auth/passkey-login */
export const passkeyLoginRequest = z.object({
  response: authenticationResponse,
  ...withSignInDevice,
});
export type PasskeyLoginRequest = z.input<typeof passkeyLoginRequest>;

/** Answer of POST /api/auth/passkeys/options. */
export const passkeyRegistrationOptions = z.object({ options: passkeyCreationOptions });
export type PasskeyRegistrationOptions = z.infer<typeof passkeyRegistrationOptions>;
