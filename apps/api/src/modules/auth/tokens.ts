import { createHash, createSecretKey, hkdfSync, randomBytes, randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';

const ISSUER = 'alda-api';
const AUDIENCE = 'alda-selfcare';

export interface AccessClaims {
  /** User id. */
  sub: string;
  /** Session id: the row that must still be active for the token to count. */
  sid: string;
}

/** The claims of a verified token, with when it stops being valid. */
export interface VerifiedClaims extends AccessClaims {
  expiresAt: Date;
}

/**
 * Tokens already verified that a poll brings again and again (one device polls with the same
 * token for its whole lifetime): their claims are kept, so a repeat costs a map lookup instead
 * of an HMAC (issue 13). Only a byte-for-byte equal token hits, so nothing unverified gets in;
 * expiry is still checked against the clock on every use.
 */
const VERIFIED_KEPT = 50_000;

/** Signs and checks the short-lived HS256 access tokens. */
export function createAccessTokens(secret: string, ttlSeconds: number) {
  // One key object for every signature (jose would import raw bytes again on each call).
  const key = createSecretKey(Buffer.from(secret, 'utf8'));
  const verified = new Map<string, VerifiedClaims>();
  /**
   * What memory alone says of a token (no signature check): its claims when it was verified
   * before and has not expired, null when it was and has, undefined when it was never seen.
   */
  function known(token: string, now: Date): VerifiedClaims | null | undefined {
    const claims = verified.get(token);
    if (!claims) return undefined;
    if (claims.expiresAt.getTime() > now.getTime()) return claims;
    verified.delete(token);
    return null;
  }
  return {
    ttlSeconds,
    async sign(claims: AccessClaims, now: Date): Promise<string> {
      const iat = Math.floor(now.getTime() / 1000);
      return (
        new SignJWT({ sid: claims.sid })
          .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
          .setSubject(claims.sub)
          .setIssuer(ISSUER)
          .setAudience(AUDIENCE)
          // A unique id per token: two tokens issued in the same second must still differ.
          .setJti(randomUUID())
          .setIssuedAt(iat)
          .setExpirationTime(iat + ttlSeconds)
          .sign(key)
      );
    },
    known,
    /** The claims of a valid token, or null for anything forged, expired or malformed. */
    async verify(token: string, now: Date): Promise<VerifiedClaims | null> {
      const remembered = known(token, now);
      if (remembered !== undefined) return remembered;
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: ['HS256'],
          issuer: ISSUER,
          audience: AUDIENCE,
          currentDate: now,
        });
        if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return null;
        if (typeof payload.exp !== 'number') return null;
        const claims = {
          sub: payload.sub,
          sid: payload.sid,
          expiresAt: new Date(payload.exp * 1000),
        };
        // Full: start over (a token's life is minutes; the devices polling refill it at once).
        if (verified.size >= VERIFIED_KEPT) verified.clear();
        verified.set(token, claims);
        return claims;
      } catch (error) {
        if (error instanceof joseErrors.JOSEError) return null;
        throw error;
      }
    },
  };
}

export type AccessTokens = ReturnType<typeof createAccessTokens>;

/** A new opaque refresh token: 256 random bits, URL-safe. */
export function newRefreshToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * What the database keeps of a refresh token. A fast hash is right here: the token is 256 random
 * bits, so there is nothing to brute-force, and lookups stay a unique-index probe.
 */
export function hashRefreshToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * A key for one purpose derived from JWT_SECRET (HKDF-SHA256), so every instance derives the same
 * key and no key serves two purposes (the one-time code HMAC must not double as a token key).
 */
export function deriveKey(secret: string, purpose: string): Uint8Array {
  return new Uint8Array(hkdfSync('sha256', secret, 'alda-api', purpose, 32));
}
