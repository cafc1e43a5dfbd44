import { z } from 'zod/mini';

/**
 * SPEC §5 "Required field": a value is filled when it is not null/undefined and, for strings,
 * not blank after trimming. Failing fields carry the key `REQUIRED`
 * ('This is a required field').
 */
export function isFilled(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === 'string') return value.trim().length > 0;
  return true;
}

/**
 * A required free-text field: trimmed, `REQUIRED` when missing or blank, `TOO_LONG` past `max`.
 * The output is the trimmed text, so parsing the output again gives the same value.
 */
export const requiredText = (max = 100) =>
  z
    .string({ error: 'REQUIRED' })
    .check(z.trim(), z.minLength(1, 'REQUIRED'), z.maxLength(max, 'TOO_LONG'));

/** A checkbox that must be ticked (terms, binding period): anything but `true` is `MUST_ACCEPT`. */
export const mustAccept = () => z.literal(true, { error: 'MUST_ACCEPT' });

/*
 * Convention of every field schema in the contract: each check judges only what the checks before
 * it let through (a format check passes '' because REQUIRED already reported it), so a field fails
 * with exactly one key, its first broken rule. Checks are not aborted, because zod skips
 * whole-form refinements such as the password repeat once any field aborts.
 */
