import { z } from 'zod/mini';
import { POSTAL_CODE_LENGTH } from '../constants';
import { isKnownPostCode } from '../localities/lookup';

const POSTCODE = new RegExp(`^\\d{${POSTAL_CODE_LENGTH}}$`);

/** SPEC §5 "Postal code is 3 digits" (white space around it is ignored). */
export function isValidPostCode(input: string): boolean {
  return POSTCODE.test(input.trim());
}

/** Postal code field: `REQUIRED`, then `INVALID_POSTCODE` unless exactly 3 digits. */
export const postCodeSchema = z.string({ error: 'REQUIRED' }).check(
  z.trim(),
  z.minLength(1, 'REQUIRED'),
  z.refine((v) => v === '' || isValidPostCode(v), 'INVALID_POSTCODE'),
);

/**
 * Postal code of an address in the Faroe Islands: 3 digits (`INVALID_POSTCODE`) that exist in the
 * locality reference list (`UNKNOWN_POSTCODE`, SPEC §3 "Locality reference list").
 */
export const faroesePostCodeSchema = postCodeSchema.check(
  z.refine((v) => !isValidPostCode(v) || isKnownPostCode(v), 'UNKNOWN_POSTCODE'),
);
