import { z } from 'zod/mini';

/*
 * The number picker of the sign-up (issue 33 §1, docs/decisions/0077-number-picker.md): which
 * numbers are easy to remember ("golden" numbers, priced by operations), and the pattern search
 * ("contains", "ends with", "starts with"). Shared by the API (which answers) and the web (which
 * explains the class and keeps a search's input in shape).
 */

/**
 * The classes of easy numbers, the most sought-after first; a number is of the first class that
 * fits ({@link numberClassOf}). Operations sets a one-off price per class
 * (`number_price_classes`); a class without a price is an ordinary number.
 * - `solid`: six equal digits — 222222, 777777;
 * - `ladder`: six digits each one up or one down from the last — 234567, 987654, 543210;
 * - `repeat`: two digits three times or three digits twice — 575757, 291291;
 * - `tail`: ends in four equal digits — 210000, 558888;
 * - `pairs`: three pairs of equal digits — 225588, 557799.
 */
export const NUMBER_CLASSES = ['solid', 'ladder', 'repeat', 'tail', 'pairs'] as const;
export const numberClass = z.enum(NUMBER_CLASSES);
export type NumberClass = z.infer<typeof numberClass>;

const SIX_DIGITS = /^\d{6}$/;

/** Each digit is `step` more than the one before (`step` ±1). */
function steps(digits: string, step: 1 | -1): boolean {
  for (let i = 1; i < digits.length; i += 1) {
    if (Number(digits[i]) - Number(digits[i - 1]) !== step) return false;
  }
  return true;
}

/**
 * The class of a 6-digit number ({@link NUMBER_CLASSES}, first that fits), or null for an
 * ordinary number (and for anything that is not six digits).
 */
export function numberClassOf(msisdn: string): NumberClass | null {
  if (!SIX_DIGITS.test(msisdn)) return null;
  const d = msisdn;
  if (/^(\d)\1{5}$/.test(d)) return 'solid';
  if (steps(d, 1) || steps(d, -1)) return 'ladder';
  if (/^(\d\d)\1\1$/.test(d) || /^(\d{3})\1$/.test(d)) return 'repeat';
  if (/(\d)\1{3}$/.test(d)) return 'tail';
  if (/^(\d)\1(\d)\2(\d)\3$/.test(d)) return 'pairs';
  return null;
}

/** How a pattern search matches: the digits anywhere, at the end, or at the start. */
export const NUMBER_MATCH_MODES = ['contains', 'endsWith', 'startsWith'] as const;
export const numberMatchMode = z.enum(NUMBER_MATCH_MODES);
export type NumberMatchMode = z.infer<typeof numberMatchMode>;

/** A pattern: 1–6 digits (spaces are ignored, as in a typed number) and how they match. */
export const numberMatch = z.object({
  match: z._default(numberMatchMode, 'contains'),
  digits: z
    .pipe(
      z.string({ error: 'REQUIRED' }),
      z.transform((v) => v.replace(/\s+/g, '')),
    )
    .check(z.refine((v) => /^\d{1,6}$/.test(v), 'INVALID')),
});
export type NumberMatch = z.output<typeof numberMatch>;

/** True when the 6-digit number fits the pattern; every number fits no pattern (null). */
export function matchesNumber(msisdn: string, pattern: NumberMatch | null): boolean {
  if (pattern === null) return true;
  switch (pattern.match) {
    case 'contains':
      return msisdn.includes(pattern.digits);
    case 'endsWith':
      return msisdn.endsWith(pattern.digits);
    case 'startsWith':
      return msisdn.startsWith(pattern.digits);
  }
}

/**
 * The nearest looser pattern, for "none free — these are the nearest": one digit fewer, dropping
 * the digit furthest from where the pattern is anchored (the first of "ends with", the last of
 * "starts with" and of "contains"); null after the last digit (any number).
 * E.g. ends with 5555 → ends with 555 → … → ends with 5 → null.
 */
export function loosenMatch(pattern: NumberMatch): NumberMatch | null {
  if (pattern.digits.length <= 1) return null;
  const digits =
    pattern.match === 'endsWith' ? pattern.digits.slice(1) : pattern.digits.slice(0, -1);
  return { match: pattern.match, digits };
}
