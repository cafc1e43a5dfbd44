import { z } from 'zod/mini';

/** Longest address SMTP can carry (RFC 5321: 254 octets in a path). */
export const EMAIL_MAX_LENGTH = 254;

// Local part: the RFC 5322 "atext" characters in dot-separated runs (no leading, trailing or
// double dots). Domain: at least two labels of letters (Unicode too: føroyar.fo), digits and
// inner hyphens, ending in a top-level domain of two or more letters.
const LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const LABEL = /^[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?$/u;
const TLD = /^\p{L}{2,63}$/u;

/**
 * SPEC §5 "Email must be well formed". Accepts what a person can type and a mail server can
 * deliver to; rejects spaces, missing parts, double dots and single-label domains. Leading and
 * trailing white space is ignored.
 */
export function isValidEmail(input: string): boolean {
  const email = input.trim();
  if (email.length === 0 || email.length > EMAIL_MAX_LENGTH) return false;
  const at = email.lastIndexOf('@');
  if (at <= 0) return false;
  const local = email.slice(0, at);
  const labels = email.slice(at + 1).split('.');
  if (local.length > 64 || !LOCAL.test(local)) return false;
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return false;
  return TLD.test(labels[labels.length - 1] ?? '');
}

/**
 * The form we store and compare addresses in: trimmed and lower-cased. Local parts are
 * case-sensitive in theory only; every mailbox provider our customers use ignores case, and one
 * account per address must not depend on how it was typed.
 */
export function normalizeEmail(input: string): string {
  return input.trim().toLowerCase();
}

/**
 * E-mail field: `REQUIRED` when blank, `INVALID_EMAIL` when malformed; outputs the normalized
 * address (idempotent, so the output of one parse is valid input to the next).
 */
export const emailSchema = z.pipe(
  z.string({ error: 'REQUIRED' }).check(
    z.trim(),
    z.minLength(1, 'REQUIRED'),
    z.refine((v) => v === '' || isValidEmail(v), 'INVALID_EMAIL'),
  ),
  z.transform(normalizeEmail),
);
