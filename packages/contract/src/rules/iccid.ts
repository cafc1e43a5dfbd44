import { z } from 'zod/mini';

/**
 * The SIM card number (ICCID) as ITU-T E.118 defines it: the Major Industry Identifier 89
 * (telecommunications), then country, issuer and account digits, then a Luhn check digit — 19 or
 * 20 digits in all (some cards print 18–20 when the check digit is left off; we need it, so a
 * typo is caught before an order is placed). Spaces typed between groups are ignored.
 */
export const ICCID_MIN_DIGITS = 19;
export const ICCID_MAX_DIGITS = 20;

/** The digits of a typed SIM card number (spaces and dashes removed). */
export function normalizeIccid(input: string): string {
  return input.replace(/[\s-]+/g, '');
}

/** True when the digits pass the Luhn (mod 10) check, check digit last. */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** The Luhn check digit that completes `payload` (the digits without it). */
export function luhnCheckDigit(payload: string): string {
  for (let d = 0; d <= 9; d++) if (luhnValid(`${payload}${d}`)) return String(d);
  throw new Error('unreachable: one digit always completes a Luhn payload');
}

/** ITU-T E.118: 19–20 digits, starting 89, with a valid Luhn check digit. */
export function isValidIccid(input: string): boolean {
  const digits = normalizeIccid(input);
  return (
    digits.length >= ICCID_MIN_DIGITS &&
    digits.length <= ICCID_MAX_DIGITS &&
    digits.startsWith('89') &&
    luhnValid(digits)
  );
}

/** An ICCID shown to the customer: only its last four digits (`•••• •••• •••• 0019`). */
export function maskIccid(iccid: string): string {
  return `•••• •••• •••• ${normalizeIccid(iccid).slice(-4)}`;
}

/** A typed SIM card number as the forms and the API take it: normalized, then {@link isValidIccid}. */
export const simcardNumber = z.pipe(
  z.pipe(z.string({ error: 'REQUIRED' }), z.transform(normalizeIccid)),
  z.string().check(
    z.minLength(1, 'REQUIRED'),
    z.refine((v) => v === '' || isValidIccid(v), 'INVALID_SIMCARD_NUMBER'),
  ),
);
