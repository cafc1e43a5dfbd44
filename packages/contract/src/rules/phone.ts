import { z } from 'zod/mini';
import { COUNTRY_PREFIX, PHONE_NUMBER_LENGTH } from '../constants';

const LOCAL_NUMBER = new RegExp(`^\\d{${PHONE_NUMBER_LENGTH}}$`);
const PREFIXES = [`+${COUNTRY_PREFIX}`, `00${COUNTRY_PREFIX}`] as const;

/**
 * SPEC §5 phone number normalisation. White space is removed ('21 12 34' → '211234'); a `+298` or
 * `00298` prefix is stripped only when exactly 6 digits remain ('+298 21 12 34' → '211234'),
 * otherwise the text is left as typed (without spaces) so that validation rejects it.
 */
export function normalizePhoneNumber(input: string): string {
  const compact = input.replace(/\s+/g, '');
  for (const prefix of PREFIXES) {
    if (compact.startsWith(prefix)) {
      const rest = compact.slice(prefix.length);
      if (LOCAL_NUMBER.test(rest)) return rest;
    }
  }
  return compact;
}

/** SPEC §5: a phone number is 6 digits once normalised ({@link normalizePhoneNumber}). */
export function isValidPhoneNumber(input: string): boolean {
  return LOCAL_NUMBER.test(normalizePhoneNumber(input));
}

/**
 * SPEC §5 "When sent, the prefix 298 is prepended": the number as the network and SMS gateway
 * expect it, e.g. '211234' → '298211234'. Accepts any input {@link isValidPhoneNumber} accepts.
 * @throws RangeError when the input is not a valid Faroese number.
 */
export function toWireNumber(phoneNumber: string): string {
  const local = normalizePhoneNumber(phoneNumber);
  if (!LOCAL_NUMBER.test(local)) throw new RangeError(`Not a 6-digit phone number: ${phoneNumber}`);
  return `${COUNTRY_PREFIX}${local}`;
}

/**
 * The reverse of {@link toWireNumber}: '298211234' (or '+298…', '00298…') → '211234'. A bare
 * 6-digit number is returned as it is; anything else that is not a Faroese number gives null.
 */
export function fromWireNumber(wire: string): string | null {
  const compact = wire.replace(/\s+/g, '');
  if (LOCAL_NUMBER.test(compact)) return compact;
  const withoutPrefix = compact.startsWith(COUNTRY_PREFIX)
    ? compact.slice(COUNTRY_PREFIX.length)
    : normalizePhoneNumber(compact);
  return LOCAL_NUMBER.test(withoutPrefix) ? withoutPrefix : null;
}

/**
 * Phone number as typed by a person: `REQUIRED` when blank, `INVALID_PHONE` unless it normalises
 * to 6 digits; outputs the 6 digits (idempotent).
 */
export const phoneNumberInput = z.pipe(
  z.pipe(
    z.string({ error: 'REQUIRED' }).check(z.trim(), z.minLength(1, 'REQUIRED')),
    z.transform(normalizePhoneNumber),
  ),
  z.string().check(z.regex(LOCAL_NUMBER, 'INVALID_PHONE')),
);

/**
 * Phone number in an API answer: always the stored 6 digits, no prefix (ARCHITECTURE
 * "Conventions"). No transform, so it serialises and documents cleanly.
 */
export const phoneNumber = z.string().check(z.regex(LOCAL_NUMBER, 'INVALID_PHONE'));
