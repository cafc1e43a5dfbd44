import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/*
 * Secrets of staff accounts (docs/decisions/0075-staff-console.md): session tokens and recovery
 * codes are random and kept as SHA-256 (a leaked table gives nothing to sign in with); the TOTP
 * secret must be read back to check codes, so it is encrypted with AES-256-GCM under a key
 * derived from JWT_SECRET (a database copy alone does not hold working secrets).
 */

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}

/** A staff session token: 32 random bytes, base64url, prefixed so logs and scanners can tell it. */
export function newSessionToken(): string {
  return `alda_staff_${randomBytes(32).toString('base64url')}`;
}

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Ten codes `xxxxx-xxxxx` (31 symbols, ~50 bits each). */
export function newRecoveryCodes(count = 10): string[] {
  return Array.from({ length: count }, () => {
    const bytes = randomBytes(10);
    const chars = [...bytes].map((b) => RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length]);
    return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
  });
}

/** A first password handed to a new staff member: 20 random characters. */
export function newStaffPassword(): string {
  return randomBytes(15).toString('base64url');
}

export function encryptSecret(key: Uint8Array, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [
    'v1',
    iv.toString('base64url'),
    body.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
  ].join('.');
}

export function decryptSecret(key: Uint8Array, sealed: string): string {
  const [version, iv, body, tag] = sealed.split('.');
  if (version !== 'v1' || !iv || !body || !tag) throw new Error('unknown sealed secret format');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([
    decipher.update(Buffer.from(body, 'base64url')),
    decipher.final(),
  ]).toString('utf8');
}
