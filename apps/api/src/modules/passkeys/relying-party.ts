import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { and, eq, lt, sql } from 'drizzle-orm';
import {
  PASSKEY_CHALLENGE_TTL_S,
  type AuthenticationResponse,
  type PasskeyCreationOptions,
  type PasskeyRequestOptions,
  type RegistrationResponse,
} from '@alda/contract/schemas/passkeys';
import type { Db } from '../../db/client';
import {
  passkeyChallenges,
  passkeys,
  type PasskeyChallengeRow,
  type PasskeyPurpose,
  type PasskeyRow,
} from '../../db/schema/passkeys';
import { AppError } from '../../errors';
import type { ErrorCode } from '@alda/contract/errors';

/*
 * The relying party of our passkeys (WebAuthn L3; docs/decisions/0097-passkeys.md), shared by
 * the customers' sign-in and the staff's second factor. @simplewebauthn/server makes the options
 * and checks every answer (origin, RP ID hash, challenge, user presence and verification,
 * signature, counter); this module keeps the challenges single-use and short-lived in the
 * database, so any instance can take the answer, and names each refusal with its own code.
 */

export interface RelyingPartyConfig {
  /** WEBAUTHN_RP_ID: the domain passkeys are made for. */
  rpId: string;
  /** WEBAUTHN_ORIGINS: where an answer may come from. */
  origins: string[];
  /** Shown by some authenticators when a passkey is made. */
  rpName: string;
  now: () => Date;
}

/** Who a challenge is for, kept with it. */
export interface ChallengeBinding {
  sessionId?: string | null;
  staffSessionId?: string | null;
  staffUserId?: string | null;
}

/** A credential as @simplewebauthn/server wants it back at sign-in. */
export function storedCredential(row: PasskeyRow) {
  return {
    id: row.credentialId,
    publicKey: Buffer.from(row.publicKey, 'base64url'),
    counter: row.counter,
    transports: row.transports as AuthenticatorTransportFuture[],
  };
}

type AuthenticatorTransportFuture =
  | 'ble'
  | 'cable'
  | 'hybrid'
  | 'internal'
  | 'nfc'
  | 'smart-card'
  | 'usb';

/** The WebAuthn user handle of a user or staff member: the 16 bytes of their UUID. */
export function userHandle(uuid: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(uuid.replace(/-/g, ''), 'hex'));
}

/** The user handle as an answer carries it (base64url). */
export function userHandleText(uuid: string): string {
  return Buffer.from(userHandle(uuid)).toString('base64url');
}

/**
 * What a refusal of @simplewebauthn/server means, as one of our codes. The library throws plain
 * `Error`s; their texts are matched here, and the tests (one per refusal) fail if a new major
 * words them differently.
 */
function refusal(error: unknown): AppError {
  const message = error instanceof Error ? error.message : String(error);
  const code: ErrorCode = /origin/i.test(message)
    ? 'PASSKEY_ORIGIN_MISMATCH'
    : /RP ?ID/i.test(message)
      ? 'PASSKEY_RP_MISMATCH'
      : /user verification|could not be verified/i.test(message)
        ? 'PASSKEY_USER_NOT_VERIFIED'
        : /counter/i.test(message)
          ? 'PASSKEY_COUNTER_INVALID'
          : /challenge/i.test(message)
            ? 'PASSKEY_CHALLENGE_INVALID'
            : 'PASSKEY_INVALID';
  return new AppError(code, { detail: message, cause: error });
}

/** The challenge an answer signed, read from its clientDataJSON; PASSKEY_INVALID if unreadable. */
function answeredChallenge(clientDataJSON: string): string {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'));
    if (parsed && typeof parsed === 'object' && 'challenge' in parsed) {
      const challenge = (parsed as { challenge: unknown }).challenge;
      if (typeof challenge === 'string' && challenge.length > 0) return challenge;
    }
  } catch {
    // fall through
  }
  throw new AppError('PASSKEY_INVALID', { detail: 'clientDataJSON without a challenge' });
}

export function createRelyingParty(config: RelyingPartyConfig) {
  const timeoutMs = PASSKEY_CHALLENGE_TTL_S * 1000;

  async function storeChallenge(
    db: Db,
    challenge: string,
    purpose: PasskeyPurpose,
    binding: ChallengeBinding,
  ): Promise<void> {
    const at = config.now();
    // Answered or not, a challenge is useless after its five minutes: the day's leftovers go.
    await db
      .delete(passkeyChallenges)
      .where(lt(passkeyChallenges.expiresAt, new Date(at.getTime() - 24 * 3600 * 1000)));
    await db.insert(passkeyChallenges).values({
      challenge,
      purpose,
      sessionId: binding.sessionId ?? null,
      staffSessionId: binding.staffSessionId ?? null,
      staffUserId: binding.staffUserId ?? null,
      createdAt: at,
      expiresAt: new Date(at.getTime() + timeoutMs),
    });
  }

  /**
   * Takes the challenge an answer signed, inside the caller's transaction (locked until it
   * commits, so two answers to one challenge cannot both pass): refused when unknown, of another
   * purpose or binding, answered before (a replay), or expired. Marked used here; a refusal
   * after this rolls the mark back with everything else, and the same answer is refused again.
   */
  async function claimChallenge(
    tx: Db,
    clientDataJSON: string,
    purpose: PasskeyPurpose,
    binding: ChallengeBinding,
  ): Promise<PasskeyChallengeRow> {
    const challenge = answeredChallenge(clientDataJSON);
    const [row] = await tx
      .select()
      .from(passkeyChallenges)
      .where(
        and(eq(passkeyChallenges.challenge, challenge), eq(passkeyChallenges.purpose, purpose)),
      )
      .for('update');
    const bound =
      row !== undefined &&
      (binding.sessionId === undefined || row.sessionId === binding.sessionId) &&
      (binding.staffSessionId === undefined || row.staffSessionId === binding.staffSessionId) &&
      (binding.staffUserId === undefined || row.staffUserId === binding.staffUserId);
    if (!row || !bound) {
      throw new AppError('PASSKEY_CHALLENGE_INVALID', { detail: 'unknown challenge' });
    }
    if (row.usedAt) throw new AppError('PASSKEY_CHALLENGE_INVALID', { detail: 'replayed' });
    const at = config.now();
    if (row.expiresAt <= at) throw new AppError('PASSKEY_CHALLENGE_EXPIRED');
    await tx
      .update(passkeyChallenges)
      .set({ usedAt: at })
      .where(eq(passkeyChallenges.id, row.id));
    return row;
  }

  return {
    rpId: config.rpId,

    /**
     * Options to make a passkey for `owner`: resident (discoverable, so sign-in needs no name),
     * user verification required, no attestation (we trust the platform, not a vendor list), and
     * the owner's passkeys excluded so one authenticator does not make a second.
     */
    async registrationOptions(
      db: Db,
      owner: { id: string; name: string; displayName: string },
      existing: PasskeyRow[],
      purpose: Extract<PasskeyPurpose, 'register' | 'staff_register'>,
      binding: ChallengeBinding,
    ): Promise<PasskeyCreationOptions> {
      const options = await generateRegistrationOptions({
        rpName: config.rpName,
        rpID: config.rpId,
        userName: owner.name,
        userDisplayName: owner.displayName,
        userID: userHandle(owner.id),
        timeout: timeoutMs,
        attestationType: 'none',
        excludeCredentials: existing.map((row) => ({
          id: row.credentialId,
          transports: row.transports as AuthenticatorTransportFuture[],
        })),
        authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      });
      await storeChallenge(db, options.challenge, purpose, binding);
      return options as unknown as PasskeyCreationOptions;
    },

    /** Options to sign in: any discoverable passkey (`allow` empty), or one of `allow`. */
    async authenticationOptions(
      db: Db,
      allow: PasskeyRow[],
      purpose: Extract<PasskeyPurpose, 'sign_in' | 'staff_sign_in'>,
      binding: ChallengeBinding,
    ): Promise<PasskeyRequestOptions> {
      const options = await generateAuthenticationOptions({
        rpID: config.rpId,
        timeout: timeoutMs,
        userVerification: 'required',
        allowCredentials: allow.map((row) => ({
          id: row.credentialId,
          transports: row.transports as AuthenticatorTransportFuture[],
        })),
      });
      await storeChallenge(db, options.challenge, purpose, binding);
      return options as unknown as PasskeyRequestOptions;
    },

    /**
     * Checks a new passkey in the caller's transaction; answers what to store. The challenge is
     * claimed first; every refusal is a {@link refusal} code.
     */
    async verifyRegistration(
      tx: Db,
      response: RegistrationResponse,
      purpose: Extract<PasskeyPurpose, 'register' | 'staff_register'>,
      binding: ChallengeBinding,
    ) {
      const claimed = await claimChallenge(tx, response.response.clientDataJSON, purpose, binding);
      let result;
      try {
        result = await verifyRegistrationResponse({
          response: response as unknown as RegistrationResponseJSON,
          expectedChallenge: claimed.challenge,
          expectedOrigin: config.origins,
          expectedRPID: config.rpId,
          requireUserVerification: true,
        });
      } catch (error) {
        throw refusal(error);
      }
      if (!result.verified) throw new AppError('PASSKEY_INVALID', { detail: 'not verified' });
      const info = result.registrationInfo;
      const [taken] = await tx
        .select({ id: passkeys.id })
        .from(passkeys)
        .where(eq(passkeys.credentialId, info.credential.id));
      if (taken) throw new AppError('PASSKEY_ALREADY_REGISTERED');
      return {
        credentialId: info.credential.id,
        publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
        counter: info.credential.counter,
        transports: (response.response.transports ?? []).slice(0, 10),
        deviceType: info.credentialDeviceType,
        backedUp: info.credentialBackedUp,
        aaguid: info.aaguid,
      };
    },

    /**
     * Checks a sign-in answer in the caller's transaction against the stored passkey, and
     * stores what the authenticator now says (counter, backup state, last use). A counter that
     * did not rise is refused (PASSKEY_COUNTER_INVALID) and nothing is stored.
     */
    async verifyAuthentication(
      tx: Db,
      response: AuthenticationResponse,
      row: PasskeyRow,
      purpose: Extract<PasskeyPurpose, 'sign_in' | 'staff_sign_in'>,
      binding: ChallengeBinding,
    ): Promise<PasskeyRow> {
      const claimed = await claimChallenge(tx, response.response.clientDataJSON, purpose, binding);
      let result;
      try {
        result = await verifyAuthenticationResponse({
          response: response as unknown as AuthenticationResponseJSON,
          expectedChallenge: claimed.challenge,
          expectedOrigin: config.origins,
          expectedRPID: config.rpId,
          credential: storedCredential(row),
          requireUserVerification: true,
        });
      } catch (error) {
        throw refusal(error);
      }
      if (!result.verified) throw new AppError('PASSKEY_INVALID', { detail: 'not verified' });
      const info = result.authenticationInfo;
      const [updated] = await tx
        .update(passkeys)
        .set({
          counter: info.newCounter,
          backedUp: info.credentialBackedUp,
          deviceType: info.credentialDeviceType,
          lastUsedAt: config.now(),
        })
        .where(and(eq(passkeys.id, row.id), sql`${passkeys.counter} = ${row.counter}`))
        .returning();
      // Another sign-in with this passkey moved the counter meanwhile: this one is the copy.
      if (!updated) throw new AppError('PASSKEY_COUNTER_INVALID', { detail: 'raced' });
      return updated;
    },
  };
}

export type RelyingParty = ReturnType<typeof createRelyingParty>;
