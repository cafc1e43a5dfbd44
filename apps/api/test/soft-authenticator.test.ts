import { createPublicKey } from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { AuthenticationResponseJSON, WebAuthnCredential } from '@simplewebauthn/server';
import { decodeAttestationObject } from '@simplewebauthn/server/helpers';
import { describe, expect, it } from 'vitest';
import {
  SoftAuthenticator,
  type CreateCredentialOverrides,
  type GetAssertionOverrides,
} from './support/soft-authenticator';

/**
 * The software passkey against @simplewebauthn/server itself (no app): its responses verify, and
 * each override makes the library reject them for that one reason.
 */

const ORIGIN = 'https://alda.example';
const RP_ID = 'alda.example';
const OTHER_CHALLENGE = Buffer.from('some-other-challenge').toString('base64url');

function authenticator(): SoftAuthenticator {
  return new SoftAuthenticator({ origin: ORIGIN, rpId: RP_ID });
}

/** A registration ceremony as the server would run it; the response is not verified here. */
async function register(
  auth: SoftAuthenticator,
  overrides?: CreateCredentialOverrides,
  userName = 'kari@alda.example',
) {
  const options = await generateRegistrationOptions({
    rpName: 'Alda',
    rpID: RP_ID,
    userName,
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
  const response = auth.createCredential(options, overrides);
  const verify = () =>
    verifyRegistrationResponse({
      response,
      expectedChallenge: options.challenge,
      expectedOrigin: ORIGIN,
      expectedRPID: RP_ID,
      requireUserVerification: true,
    });
  return { options, response, verify };
}

/** A registered passkey: the authenticator, and the credential the server stored. */
async function registered(auth = authenticator(), userName?: string) {
  const verification = await (await register(auth, undefined, userName)).verify();
  if (!verification.verified) throw new Error('the registration did not verify');
  return { auth, credential: verification.registrationInfo.credential };
}

/** A sign-in ceremony against the stored credential; the response is not verified here. */
async function signIn(
  auth: SoftAuthenticator,
  credential: WebAuthnCredential,
  overrides?: GetAssertionOverrides,
) {
  const options = await generateAuthenticationOptions({
    rpID: RP_ID,
    allowCredentials: [{ id: credential.id, transports: credential.transports }],
    userVerification: 'required',
  });
  const response = auth.getAssertion(options, overrides);
  const verify = () =>
    verifyAuthenticationResponse({
      response,
      expectedChallenge: options.challenge,
      expectedOrigin: ORIGIN,
      expectedRPID: RP_ID,
      credential,
      requireUserVerification: true,
    });
  return { options, response, verify };
}

function clientData(response: AuthenticationResponseJSON): unknown {
  return JSON.parse(Buffer.from(response.response.clientDataJSON, 'base64url').toString('utf8'));
}

describe('SoftAuthenticator: registration (verifyRegistrationResponse)', () => {
  it('creates an ES256 passkey whose "none" attestation verifies, and keeps it', async () => {
    const auth = authenticator();
    const { options, response, verify } = await register(auth);
    const verification = await verify();

    expect(verification.verified).toBe(true);
    const info = verification.registrationInfo;
    expect(info).toMatchObject({
      fmt: 'none',
      aaguid: '00000000-0000-0000-0000-000000000000',
      credentialType: 'public-key',
      userVerified: true,
      credentialDeviceType: 'multiDevice',
      credentialBackedUp: true,
      origin: ORIGIN,
      rpID: RP_ID,
      credential: { id: response.id, counter: 0, transports: ['internal'] },
    });
    expect(response).toMatchObject({
      rawId: response.id,
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response: { publicKeyAlgorithm: -7, transports: ['internal'] },
    });
    const attestation = decodeAttestationObject(
      Buffer.from(response.response.attestationObject, 'base64url'),
    );
    expect(attestation.get('fmt')).toBe('none');
    expect(attestation.get('attStmt').size).toBe(0);

    // The resident key: the public key the server stored, the user handle and the RP ID.
    const held = auth.credential();
    expect(auth.credentials).toHaveLength(1);
    expect(held).toMatchObject({
      id: response.id,
      rpId: RP_ID,
      userHandle: options.user.id,
      userName: 'kari@alda.example',
      counter: 0,
    });
    expect(Buffer.from(held.publicKey)).toEqual(Buffer.from(info!.credential.publicKey));
    // response.publicKey (SPKI, as L3's getPublicKey()) is the same key.
    const spki = createPublicKey({
      key: Buffer.from(response.response.publicKey!, 'base64url'),
      format: 'der',
      type: 'spki',
    });
    expect(spki.export({ format: 'jwk' })).toEqual(
      createPublicKey(held.privateKey).export({ format: 'jwk' }),
    );
    expect(auth.webAuthnCredential()).toEqual(info!.credential);
  });

  it('reports the configured AAGUID and a device-bound (not backed up) credential', async () => {
    const auth = new SoftAuthenticator({
      origin: ORIGIN,
      rpId: RP_ID,
      aaguid: 'adce0002-35bc-c60a-648b-0b25f1f05503',
      backupEligible: false,
    });
    const verification = await (await register(auth)).verify();
    expect(verification.registrationInfo).toMatchObject({
      aaguid: 'adce0002-35bc-c60a-648b-0b25f1f05503',
      credentialDeviceType: 'singleDevice',
      credentialBackedUp: false,
    });
  });

  it.each<[string, CreateCredentialOverrides, RegExp]>([
    [
      'another origin',
      { origin: 'https://alda.example.evil.test' },
      /registration response origin/,
    ],
    ['another RP ID', { rpId: 'evil.test' }, /Unexpected RP ID hash/],
    ['another challenge', { challenge: OTHER_CHALLENGE }, /registration response challenge/],
    ['the user not verified (UV off)', { userVerified: false }, /User verification was required/],
    ['the user not present (UP off)', { userPresent: false }, /User presence was required/],
    ['another clientData type', { type: 'webauthn.get' }, /registration response type/],
    ['backed up but not backup-eligible', { backupEligible: false }, /Single-device credential/],
  ])('is rejected with %s', async (_what, overrides, error) => {
    const { verify } = await register(authenticator(), overrides);
    await expect(verify()).rejects.toThrow(error);
  });

  it('keeps a chosen initial counter', async () => {
    const auth = authenticator();
    const verification = await (await register(auth, { counter: 41 })).verify();
    const credential = verification.registrationInfo!.credential;
    expect(credential.counter).toBe(41);
    const assertion = await (await signIn(auth, credential)).verify();
    expect(assertion.authenticationInfo.newCounter).toBe(42);
  });

  it('checks what a browser checks: excludeCredentials, the algorithms, RP ID and origin', async () => {
    const { auth, credential } = await registered();
    const again = await generateRegistrationOptions({
      rpName: 'Alda',
      rpID: RP_ID,
      userName: 'kari@alda.example',
      excludeCredentials: [{ id: credential.id }],
    });
    const named = (name: string) => expect.objectContaining({ name });
    expect(() => auth.createCredential(again)).toThrow(named('InvalidStateError'));
    const rsaOnly = {
      ...again,
      excludeCredentials: [],
      pubKeyCredParams: [{ type: 'public-key', alg: -257 }],
    };
    expect(() => auth.createCredential(rsaOnly)).toThrow(named('NotSupportedError'));
    const otherRp = { ...again, excludeCredentials: [], rp: { id: 'evil.test', name: 'Evil' } };
    expect(() => auth.createCredential(otherRp)).toThrow(named('SecurityError'));
    expect(() => new SoftAuthenticator({ origin: 'https://evil.test', rpId: RP_ID })).toThrow(
      /does not fit origin/,
    );
    // A subdomain's origin may use its parent domain as RP ID.
    expect(
      () => new SoftAuthenticator({ origin: 'https://app.alda.example', rpId: RP_ID }),
    ).not.toThrow();
    expect(auth.credentials).toHaveLength(1);
  });
});

describe('SoftAuthenticator: sign-in (verifyAuthenticationResponse)', () => {
  it('signs assertions that verify, the counter going up by 1 each time', async () => {
    const { auth, credential } = await registered();
    const userHandle = auth.credential().userHandle;

    const first = await signIn(auth, credential);
    const firstVerification = await first.verify();
    expect(firstVerification).toMatchObject({
      verified: true,
      authenticationInfo: {
        credentialID: credential.id,
        newCounter: 1,
        userVerified: true,
        credentialDeviceType: 'multiDevice',
        credentialBackedUp: true,
        origin: ORIGIN,
        rpID: RP_ID,
      },
    });
    expect(first.response).toMatchObject({
      id: credential.id,
      rawId: credential.id,
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response: { userHandle },
    });
    expect(clientData(first.response)).toEqual({
      type: 'webauthn.get',
      challenge: first.options.challenge,
      origin: ORIGIN,
      crossOrigin: false,
    });

    // The server keeps the new counter; the next assertion reports one more.
    const stored = { ...credential, counter: firstVerification.authenticationInfo.newCounter };
    const second = await (await signIn(auth, stored)).verify();
    expect(second).toMatchObject({ verified: true, authenticationInfo: { newCounter: 2 } });
    expect(auth.credential().counter).toBe(2);
  });

  it('signs in with the discoverable credential when the options allow none (username-less)', async () => {
    const { auth, credential } = await registered();
    const options = await generateAuthenticationOptions({
      rpID: RP_ID,
      userVerification: 'required',
    });
    expect(options.allowCredentials).toBeUndefined();
    const response = auth.getAssertion(options);
    expect(response.id).toBe(credential.id);
    const verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge: options.challenge,
      expectedOrigin: ORIGIN,
      expectedRPID: RP_ID,
      credential,
      requireUserVerification: true,
    });
    expect(verification.verified).toBe(true);
  });

  it.each<[string, GetAssertionOverrides, RegExp]>([
    [
      'another origin',
      { origin: 'https://alda.example.evil.test' },
      /authentication response origin/,
    ],
    ['another RP ID', { rpId: 'evil.test' }, /Unexpected RP ID hash/],
    ['another challenge', { challenge: OTHER_CHALLENGE }, /authentication response challenge/],
    ['the user not verified (UV off)', { userVerified: false }, /User verification required/],
    ['the user not present (UP off)', { userPresent: false }, /User not present/],
    ['another clientData type', { type: 'webauthn.create' }, /authentication response type/],
    ['a counter below the stored one', { counter: 2 }, /counter value 2 was lower than expected 3/],
    [
      'the stored counter again (a replay)',
      { counter: 3 },
      /counter value 3 was lower than expected 3/,
    ],
  ])('is rejected with %s', async (_what, overrides, error) => {
    const { auth, credential } = await registered();
    // Three sign-ins already: the server and the authenticator are at counter 3. The control
    // response, without the override, verifies.
    auth.credential().counter = 3;
    const stored = { ...credential, counter: 3 };
    await expect((await signIn(auth, stored)).verify()).resolves.toMatchObject({ verified: true });
    const { verify } = await signIn(auth, stored, overrides);
    await expect(verify()).rejects.toThrow(error);
  });

  it('leaves the kept counter as it was after a response with a chosen counter', async () => {
    const { auth, credential } = await registered();
    await signIn(auth, credential, { counter: 7 });
    expect(auth.credential().counter).toBe(0);
    expect((await (await signIn(auth, credential)).verify()).authenticationInfo.newCounter).toBe(1);
  });

  it('a bad signature does not verify (verified: false, no throw: the server must check it)', async () => {
    const { auth, credential } = await registered();
    const { verify } = await signIn(auth, credential, { badSignature: true });
    await expect(verify()).resolves.toMatchObject({ verified: false });
  });

  it('reports the user handle given, or none (the library leaves that check to the server)', async () => {
    const { auth, credential } = await registered();
    const other = Buffer.from('another-user').toString('base64url');
    const withOther = await signIn(auth, credential, { userHandle: other });
    expect(withOther.response.response.userHandle).toBe(other);
    await expect(withOther.verify()).resolves.toMatchObject({ verified: true });
    const without = await signIn(auth, credential, { userHandle: null });
    expect(without.response.response).not.toHaveProperty('userHandle');
  });

  it('answers with the chosen credential, else the first held one allowed, else NotAllowedError', async () => {
    const auth = authenticator();
    const { credential: kari } = await registered(auth);
    const { credential: sigrid } = await registered(auth, 'sigrid@alda.example');
    expect(auth.credentials.map((c) => c.userName)).toEqual([
      'kari@alda.example',
      'sigrid@alda.example',
    ]);

    // allowCredentials names Sigrid's: hers answers.
    expect((await signIn(auth, sigrid)).response.id).toBe(sigrid.id);
    // Kári's allowed, Sigrid's chosen: hers answers, and does not verify as Kári's.
    const chosen = await signIn(auth, kari, { credentialId: sigrid.id });
    expect(chosen.response.id).toBe(sigrid.id);
    await expect(chosen.verify()).resolves.toMatchObject({ verified: false });

    // None of the allowed credentials held: by an empty authenticator, and after a removal.
    const notAllowed = expect.objectContaining({ name: 'NotAllowedError' });
    const kariOnly = { challenge: OTHER_CHALLENGE, allowCredentials: [{ id: kari.id }] };
    expect(() => authenticator().getAssertion(kariOnly)).toThrow(notAllowed);
    expect(auth.removeCredential(kari.id)).toBe(true);
    expect(() => auth.getAssertion(kariOnly)).toThrow(notAllowed);
  });

  it("exports a credential to another authenticator (another user's passkey, a clone)", async () => {
    const { auth: kari, credential } = await registered();
    const mallory = authenticator();
    await registered(mallory, 'mallory@alda.example');

    // Mallory holds a copy of Kári's passkey besides her own: it answers Kári's sign-in, with his
    // user handle, and verifies against his stored credential.
    mallory.importCredential(kari.exportCredential());
    expect(mallory.credentials).toHaveLength(2);
    const stolen = await signIn(mallory, credential);
    expect(stolen.response).toMatchObject({
      id: credential.id,
      response: { userHandle: kari.credential().userHandle },
    });
    await expect(stolen.verify()).resolves.toMatchObject({
      verified: true,
      authenticationInfo: { newCounter: 1 },
    });

    // A clone starts from the same counter: after the original's assertion, the clone's repeats
    // the counter the server stored (clone detection, L3 §6.1.1).
    const original = await registered();
    const clone = original.auth.clone();
    const first = await (await signIn(original.auth, original.credential)).verify();
    const stored = { ...original.credential, counter: first.authenticationInfo.newCounter };
    await expect((await signIn(clone, stored)).verify()).rejects.toThrow(
      /counter value 1 was lower than expected 1/,
    );
    // The copies count on their own.
    expect([original.auth.credential().counter, clone.credential().counter]).toEqual([1, 1]);
  });
});
