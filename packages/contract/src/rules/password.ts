import { z } from 'zod/mini';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../constants';

/** What a password still lacks; empty when it is strong enough. */
export type PasswordProblem = 'TOO_SHORT' | 'NO_UPPER' | 'NO_LOWER' | 'NO_DIGIT_OR_SYMBOL';

/**
 * SPEC §5 password rule: at least 8 characters with an upper-case letter, a lower-case letter and
 * "more" — which we define as a digit or a symbol (any character that is neither a letter nor
 * white space). Letters of any alphabet count, so 'Ø' and 'ð' are upper and lower case.
 * Returns every rule the password breaks, so a form can show a checklist.
 */
export function passwordProblems(password: string): PasswordProblem[] {
  const problems: PasswordProblem[] = [];
  // Count code points, not UTF-16 units, so 'ð' and emoji count as one character each.
  if ([...password].length < PASSWORD_MIN_LENGTH) problems.push('TOO_SHORT');
  if (!/\p{Lu}/u.test(password)) problems.push('NO_UPPER');
  if (!/\p{Ll}/u.test(password)) problems.push('NO_LOWER');
  if (!/[^\p{L}\s]/u.test(password)) problems.push('NO_DIGIT_OR_SYMBOL');
  return problems;
}

/** True when {@link passwordProblems} finds nothing. */
export function isStrongPassword(password: string): boolean {
  return passwordProblems(password).length === 0;
}

/** SPEC §5 "The repeat must match": exact comparison, no trimming (spaces are characters). */
export function passwordsMatch(password: string, repeat: string): boolean {
  return password === repeat;
}

/**
 * A new password: `REQUIRED` when empty, `PASSWORD_TOO_WEAK` when it breaks the rule,
 * `TOO_LONG` past {@link PASSWORD_MAX_LENGTH}. Never trimmed.
 */
export const newPasswordSchema = z.string({ error: 'REQUIRED' }).check(
  z.minLength(1, 'REQUIRED'),
  z.maxLength(PASSWORD_MAX_LENGTH, 'TOO_LONG'),
  z.refine(
    (v) => v === '' || v.length > PASSWORD_MAX_LENGTH || isStrongPassword(v),
    'PASSWORD_TOO_WEAK',
  ),
);

/** The "repeat password" field: only `REQUIRED` here; matching is checked on the whole form. */
export const passwordRepeatSchema = z
  .string({ error: 'REQUIRED' })
  .check(z.minLength(1, 'REQUIRED'));

/**
 * Adds the SPEC §5 repeat check to an object schema with `password` and `passwordRepeat`:
 * `PASSWORDS_DO_NOT_MATCH` on `passwordRepeat`. It runs even when other fields of the form fail,
 * so a person sees every problem at once.
 */
export function withPasswordRepeat<
  T extends z.ZodMiniObject<{
    password: z.core.$ZodType<string>;
    passwordRepeat: z.core.$ZodType<string>;
  }>,
>(schema: T) {
  return schema.check(
    z.refine<{ password: string; passwordRepeat: string }>(
      (value) => passwordsMatch(value.password, value.passwordRepeat),
      {
        error: 'PASSWORDS_DO_NOT_MATCH',
        path: ['passwordRepeat'],
        when: (payload) => {
          const v = payload.value as { password?: unknown; passwordRepeat?: unknown } | undefined;
          return typeof v?.password === 'string' && typeof v.passwordRepeat === 'string';
        },
      },
    ),
  );
}
