import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import type {
  AuthenticationResponseJSON,
  RegistrationResponseJSON,
  WebAuthnCredential,
} from '@simplewebauthn/server';

/**
 * A software passkey for the API tests: the browser (client) and a platform authenticator in one,
 * producing real WebAuthn responses (ES256 keys, CBOR attestation objects, DER signatures) that
 * @simplewebauthn/server verifies like any browser's, so that no test writes WebAuthn JSON by hand.
 *
 * It keeps every credential it creates as a discoverable credential ("resident key", WebAuthn L3
 * §6.2.2): its private key, signature counter, user handle and RP ID. Overrides make one thing of
 * a response wrong at a time, for the server's negative paths.
 *
 * Section numbers are those of Web Authentication Level 3 (https://www.w3.org/TR/webauthn-3/).
 */

/** COSE algorithm -7: ECDSA with SHA-256 on P-256 (§5.8.5, the IANA COSE registry). */
const ES256 = -7;

/** The authenticator data flags (§6.1 "Authenticator Data"), bit by bit. */
const FLAG = {
  /** UP, User Present: a test of user presence (a touch) was passed. */
  userPresent: 0x01,
  /** UV, User Verified: the user was verified (biometrics, PIN). */
  userVerified: 0x04,
  /** BE, Backup Eligible: the credential may be backed up (synced), fixed at creation (§6.1.3). */
  backupEligible: 0x08,
  /** BS, Backup State: the credential is backed up now; may change over its life (§6.1.3). */
  backedUp: 0x10,
  /** AT, Attested credential data included (registration only, §6.5.1). */
  attestedCredentialData: 0x40,
} as const;

/** A WebAuthn options' or response's binary value as text: base64url without padding (§5.1). */
export type Base64Url = string;

export interface SoftAuthenticatorOptions {
  /** The origin the "browser" is on, e.g. `https://alda.example` (clientData.origin, §5.8.1). */
  origin: string;
  /** The RP ID the credentials are scoped to: the origin's host or a registrable suffix of it. */
  rpId: string;
  /** The authenticator model's AAGUID (§6.5.1): 16 bytes or a UUID string. All zeros by default. */
  aaguid?: Uint8Array | string;
  /** BE of new credentials: a synced passkey (true, the default) or a device-bound one (false). */
  backupEligible?: boolean;
  /** BS of new credentials: backed up now. Defaults to `backupEligible`. */
  backedUp?: boolean;
}

/** A credential held by the authenticator (a discoverable credential source, §6.2.2). */
export interface SoftCredential {
  /** The credential ID, base64url. */
  id: Base64Url;
  /** The RP ID it is scoped to. */
  rpId: string;
  /** The user handle: the user.id of the creation options, base64url. */
  userHandle: Base64Url;
  /** The user.name of the creation options. */
  userName: string;
  /** The ES256 private key (P-256). */
  privateKey: KeyObject;
  /** The public key as COSE_Key (§6.5.1.1), as it appears in the attested credential data. */
  publicKey: Uint8Array;
  /** The signature counter (§6.1.1): the last value reported. */
  counter: number;
  /** BE, fixed at creation. */
  backupEligible: boolean;
  /** BS, as reported now. */
  backedUp: boolean;
}

/** Overrides of both ceremonies, each making one thing of the response differ from the real one. */
export interface CeremonyOverrides {
  /** clientData.origin: another origin (a phishing site's). */
  origin?: string;
  /** The RP ID whose SHA-256 goes into authenticatorData.rpIdHash. */
  rpId?: string;
  /** clientData.challenge: another challenge (base64url). */
  challenge?: Base64Url;
  /** clientData.type, instead of `webauthn.create` / `webauthn.get`. */
  type?: string;
  /** UV flag: `false` reports the user as not verified. */
  userVerified?: boolean;
  /** UP flag: `false` reports the user as not present. */
  userPresent?: boolean;
  /** BE flag as reported in this response (it must not change over a credential's life). */
  backupEligible?: boolean;
  /** BS flag as reported in this response. */
  backedUp?: boolean;
}

export interface CreateCredentialOverrides extends CeremonyOverrides {
  /** The initial signature counter, reported and kept (0 by default). */
  counter?: number;
}

export interface GetAssertionOverrides extends CeremonyOverrides {
  /**
   * The signature counter reported, e.g. one not above the last (a cloned authenticator). The kept
   * counter is left as it was. Without it, the kept counter goes up by 1 and is reported.
   */
  counter?: number;
  /** The held credential to use, whatever allowCredentials says. */
  credentialId?: Base64Url;
  /** response.userHandle: another user's handle (base64url), or `null` to leave it out. */
  userHandle?: Base64Url | null;
  /** Sign something else with the credential's key: a well-formed signature that fails. */
  badSignature?: boolean;
}

/** What `createCredential` reads of PublicKeyCredentialCreationOptionsJSON (§5.4). */
export interface CreationOptionsInput {
  challenge: Base64Url;
  rp: { id?: string; name?: string };
  user: { id: Base64Url; name: string; displayName?: string };
  pubKeyCredParams?: readonly { type: string; alg: number }[];
  excludeCredentials?: readonly { id: Base64Url; type?: string }[];
}

/** What `getAssertion` reads of PublicKeyCredentialRequestOptionsJSON (§5.5). */
export interface RequestOptionsInput {
  challenge: Base64Url;
  rpId?: string;
  allowCredentials?: readonly { id: Base64Url; type?: string }[];
}

export class SoftAuthenticator {
  readonly origin: string;
  readonly rpId: string;
  readonly aaguid: Uint8Array;
  readonly backupEligible: boolean;
  readonly backedUp: boolean;
  readonly #credentials: SoftCredential[] = [];

  constructor(options: SoftAuthenticatorOptions) {
    this.origin = options.origin;
    this.rpId = options.rpId;
    this.aaguid = toAaguid(options.aaguid);
    this.backupEligible = options.backupEligible ?? true;
    this.backedUp = options.backedUp ?? this.backupEligible;
    assertRpIdFitsOrigin(this.rpId, this.origin);
  }

  /**
   * navigator.credentials.create() (§5.1.3) with authenticatorMakeCredential (§6.3.2): a new ES256
   * credential, kept, and its RegistrationResponseJSON with "none" attestation (§8.7).
   */
  createCredential(
    options: CreationOptionsInput,
    overrides: CreateCredentialOverrides = {},
  ): RegistrationResponseJSON {
    const rpId = options.rp.id ?? this.rpId;
    assertRpIdFitsOrigin(rpId, this.origin);
    const params = options.pubKeyCredParams;
    if (params && params.length > 0 && !params.some((p) => p.alg === ES256)) {
      throw domError('NotSupportedError', 'the options do not offer ES256 (-7)');
    }
    // §6.3.2: a credential of this RP listed in excludeCredentials stops the ceremony.
    const excluded = new Set(options.excludeCredentials?.map((c) => c.id));
    if (this.#credentials.some((c) => c.rpId === rpId && excluded.has(c.id))) {
      throw domError(
        'InvalidStateError',
        'a credential in excludeCredentials is on this authenticator',
      );
    }

    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const credentialId = randomBytes(32);
    const credential: SoftCredential = {
      id: credentialId.toString('base64url'),
      rpId,
      userHandle: Buffer.from(options.user.id, 'base64url').toString('base64url'),
      userName: options.user.name,
      privateKey,
      publicKey: coseEs256PublicKey(publicKey),
      counter: overrides.counter ?? 0,
      backupEligible: this.backupEligible,
      backedUp: this.backedUp,
    };
    this.#credentials.push(credential);

    const clientDataJSON = this.#clientData('webauthn.create', options.challenge, overrides);
    // Attested credential data (§6.5.1): AAGUID, credential ID length (2 bytes) and ID, COSE key.
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credentialId.length);
    const attestedCredentialData = Buffer.concat([
      this.aaguid,
      idLength,
      credentialId,
      credential.publicKey,
    ]);
    const authData = authenticatorData(
      credential,
      overrides,
      credential.counter,
      attestedCredentialData,
    );
    // The attestation object (§6.5.4) in CTAP2 canonical key order, "none" attestation (§8.7).
    const attestationObject = cborEncode(
      new Map<string, CborValue>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );

    return {
      id: credential.id,
      rawId: credential.id,
      type: 'public-key',
      response: {
        clientDataJSON: clientDataJSON.toString('base64url'),
        attestationObject: Buffer.from(attestationObject).toString('base64url'),
        // The L3 additions to AuthenticatorAttestationResponse (§5.2.1.1).
        authenticatorData: authData.toString('base64url'),
        transports: ['internal'],
        publicKeyAlgorithm: ES256,
        publicKey: publicKey.export({ type: 'spki', format: 'der' }).toString('base64url'),
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /**
   * navigator.credentials.get() (§5.1.4) with authenticatorGetAssertion (§6.3.3): an assertion by
   * the held credential named by `overrides.credentialId`, else the first held one listed in
   * allowCredentials, else the first held one of the RP (a discoverable credential sign-in).
   */
  getAssertion(
    options: RequestOptionsInput,
    overrides: GetAssertionOverrides = {},
  ): AuthenticationResponseJSON {
    const rpId = options.rpId ?? this.rpId;
    assertRpIdFitsOrigin(rpId, this.origin);
    const credential = this.#choose(rpId, options.allowCredentials, overrides.credentialId);

    let counter: number;
    if (overrides.counter === undefined) {
      credential.counter += 1;
      counter = credential.counter;
    } else {
      counter = overrides.counter;
    }

    const clientDataJSON = this.#clientData('webauthn.get', options.challenge, overrides);
    const authData = authenticatorData(credential, overrides, counter);
    // §6.3.3: the signature is over authenticatorData || SHA-256(clientDataJSON), in DER.
    const signed = Buffer.concat([authData, sha256(clientDataJSON)]);
    const signature = sign(
      'sha256',
      overrides.badSignature ? Buffer.concat([signed, Buffer.from([0])]) : signed,
      credential.privateKey,
    );
    const userHandle =
      overrides.userHandle === undefined ? credential.userHandle : overrides.userHandle;

    return {
      id: credential.id,
      rawId: credential.id,
      type: 'public-key',
      response: {
        clientDataJSON: clientDataJSON.toString('base64url'),
        authenticatorData: authData.toString('base64url'),
        signature: signature.toString('base64url'),
        ...(userHandle === null ? {} : { userHandle }),
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** The credentials held, in the order they were created or imported. */
  get credentials(): readonly SoftCredential[] {
    return this.#credentials;
  }

  /** A held credential: the one with this ID, or the only/first one. */
  credential(id?: Base64Url): SoftCredential {
    const found =
      id === undefined ? this.#credentials[0] : this.#credentials.find((c) => c.id === id);
    if (!found) throw new Error(`SoftAuthenticator: no credential ${id ?? ''}`.trim());
    return found;
  }

  /**
   * A copy of a held credential (the same key, its own counter), to import into another
   * authenticator: "another user's credential", or a cloned authenticator.
   */
  exportCredential(id?: Base64Url): SoftCredential {
    const credential = this.credential(id);
    // A KeyObject is immutable, so the copies share it.
    return { ...credential, publicKey: Uint8Array.from(credential.publicKey) };
  }

  /** Holds a copy of an exported credential (replacing one with the same ID). */
  importCredential(credential: SoftCredential): void {
    this.removeCredential(credential.id);
    this.#credentials.push({ ...credential, publicKey: Uint8Array.from(credential.publicKey) });
  }

  /** Forgets a credential (the user deleted the passkey); true if it was held. */
  removeCredential(id: Base64Url): boolean {
    const index = this.#credentials.findIndex((c) => c.id === id);
    if (index < 0) return false;
    this.#credentials.splice(index, 1);
    return true;
  }

  /** Another authenticator with the same settings and copies of every credential. */
  clone(): SoftAuthenticator {
    const copy = new SoftAuthenticator({
      origin: this.origin,
      rpId: this.rpId,
      aaguid: this.aaguid,
      backupEligible: this.backupEligible,
      backedUp: this.backedUp,
    });
    for (const credential of this.#credentials) copy.importCredential(credential);
    return copy;
  }

  /**
   * What a server keeps of a held credential after its registration (@simplewebauthn/server's
   * WebAuthnCredential), for a test that seeds a passkey without the registration ceremony.
   */
  webAuthnCredential(id?: Base64Url): WebAuthnCredential {
    const credential = this.credential(id);
    return {
      id: credential.id,
      publicKey: Uint8Array.from(credential.publicKey),
      counter: credential.counter,
      transports: ['internal'],
    };
  }

  /** CollectedClientData (§5.8.1), serialised as browsers do (§5.8.1.1): type, challenge, … */
  #clientData(type: string, challenge: Base64Url, overrides: CeremonyOverrides): Buffer {
    return Buffer.from(
      JSON.stringify({
        type: overrides.type ?? type,
        challenge: overrides.challenge ?? challenge,
        origin: overrides.origin ?? this.origin,
        crossOrigin: false,
      }),
    );
  }

  #choose(
    rpId: string,
    allowCredentials: RequestOptionsInput['allowCredentials'],
    credentialId: Base64Url | undefined,
  ): SoftCredential {
    if (credentialId !== undefined) return this.credential(credentialId);
    const ofRp = this.#credentials.filter((c) => c.rpId === rpId);
    const found =
      allowCredentials && allowCredentials.length > 0
        ? ofRp.find((c) => allowCredentials.some((allowed) => allowed.id === c.id))
        : ofRp[0];
    if (!found) {
      throw domError('NotAllowedError', `no credential for ${rpId} that the options allow`);
    }
    return found;
  }
}

/** authenticatorData (§6.1): rpIdHash (32), flags (1), signCount (4), attested credential data. */
function authenticatorData(
  credential: SoftCredential,
  overrides: CeremonyOverrides,
  counter: number,
  attestedCredentialData?: Buffer,
): Buffer {
  let flags = 0;
  if (overrides.userPresent ?? true) flags |= FLAG.userPresent;
  if (overrides.userVerified ?? true) flags |= FLAG.userVerified;
  if (overrides.backupEligible ?? credential.backupEligible) flags |= FLAG.backupEligible;
  if (overrides.backedUp ?? credential.backedUp) flags |= FLAG.backedUp;
  if (attestedCredentialData) flags |= FLAG.attestedCredentialData;
  const signCount = Buffer.alloc(4);
  signCount.writeUInt32BE(counter);
  return Buffer.concat([
    sha256(Buffer.from(overrides.rpId ?? credential.rpId)),
    Buffer.from([flags]),
    signCount,
    attestedCredentialData ?? Buffer.alloc(0),
  ]);
}

/** The P-256 public key as a COSE_Key (§6.5.1.1, RFC 9053 §7.1.1): kty 2 (EC2), alg -7, crv 1. */
function coseEs256PublicKey(publicKey: KeyObject): Uint8Array {
  const jwk = publicKey.export({ format: 'jwk' });
  if (!jwk.x || !jwk.y) throw new Error('SoftAuthenticator: the P-256 key has no x or y');
  return cborEncode(
    new Map<number, CborValue>([
      [1, 2], // kty: EC2
      [3, ES256], // alg
      [-1, 1], // crv: P-256
      [-2, Buffer.from(jwk.x, 'base64url')], // x
      [-3, Buffer.from(jwk.y, 'base64url')], // y
    ]),
  );
}

function toAaguid(aaguid: Uint8Array | string | undefined): Uint8Array {
  const bytes =
    aaguid === undefined
      ? new Uint8Array(16)
      : typeof aaguid === 'string'
        ? Buffer.from(aaguid.replaceAll('-', ''), 'hex')
        : Uint8Array.from(aaguid);
  if (bytes.length !== 16) throw new Error('SoftAuthenticator: an AAGUID is 16 bytes');
  return bytes;
}

/** The client's RP ID check (§5.1.3, §5.1.4): the origin's host or a suffix of it. */
function assertRpIdFitsOrigin(rpId: string, origin: string): void {
  const host = new URL(origin).hostname;
  if (host !== rpId && !host.endsWith(`.${rpId}`)) {
    throw domError('SecurityError', `RP ID ${rpId} does not fit origin ${origin}`);
  }
}

/** An Error named like the DOMException a browser would throw. */
function domError(name: string, message: string): Error {
  const error = new Error(`SoftAuthenticator: ${message}`);
  error.name = name;
  return error;
}

function sha256(data: Uint8Array): Buffer {
  return createHash('sha256').update(data).digest();
}

/**
 * The CBOR (RFC 8949) this needs, in the shortest forms (as CTAP2's canonical encoding requires and
 * as @simplewebauthn/server re-encodes what it decodes): integers, byte and text strings, maps.
 */
type CborValue = number | string | Uint8Array | Map<number | string, CborValue>;

function cborEncode(value: CborValue): Uint8Array {
  const parts: Uint8Array[] = [];
  const head = (major: number, length: number): void => {
    const type = major << 5;
    if (length < 24) parts.push(Uint8Array.of(type | length));
    else if (length < 0x100) parts.push(Uint8Array.of(type | 24, length));
    else if (length < 0x10000) parts.push(Uint8Array.of(type | 25, length >> 8, length & 0xff));
    else {
      const bytes = Buffer.alloc(5);
      bytes[0] = type | 26;
      bytes.writeUInt32BE(length, 1);
      parts.push(bytes);
    }
  };
  const encode = (item: CborValue): void => {
    if (typeof item === 'number') {
      if (!Number.isSafeInteger(item) || Math.abs(item) > 0xffffffff) {
        throw new Error(`SoftAuthenticator: CBOR integer out of range: ${item}`);
      }
      // Major type 0 (unsigned) or 1 (negative, encoded as -1 - n).
      if (item >= 0) head(0, item);
      else head(1, -1 - item);
    } else if (typeof item === 'string') {
      const bytes = Buffer.from(item, 'utf8');
      head(3, bytes.length);
      parts.push(bytes);
    } else if (item instanceof Uint8Array) {
      head(2, item.length);
      parts.push(item);
    } else {
      head(5, item.size);
      for (const [key, entry] of item) {
        encode(key);
        encode(entry);
      }
    }
  };
  encode(value);
  return Buffer.concat(parts);
}
