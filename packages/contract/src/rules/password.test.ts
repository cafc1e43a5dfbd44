import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import {
  isStrongPassword,
  newPasswordSchema,
  passwordProblems,
  passwordRepeatSchema,
  passwordsMatch,
  withPasswordRepeat,
} from './password';

describe('password (SPEC §5)', () => {
  it('needs at least 8 characters (SPEC §5, §9)', () => {
    expect(passwordProblems('Abcde1!')).toEqual(['TOO_SHORT']);
    expect(isStrongPassword('Abcdef1!')).toBe(true);
  });

  it('needs upper- and lower-case letters (SPEC §5)', () => {
    expect(passwordProblems('abcdefg1')).toEqual(['NO_UPPER']);
    expect(passwordProblems('ABCDEFG1')).toEqual(['NO_LOWER']);
  });

  it('needs a digit or a symbol as the "more" (SPEC §5)', () => {
    expect(passwordProblems('Abcdefgh')).toEqual(['NO_DIGIT_OR_SYMBOL']);
    expect(isStrongPassword('Abcdefg7')).toBe(true);
    expect(isStrongPassword('Abcdefg!')).toBe(true);
    expect(passwordProblems('Abc defgh')).toEqual(['NO_DIGIT_OR_SYMBOL']);
  });

  it('counts Faroese letters as letters and characters, not bytes (SPEC §5)', () => {
    expect(isStrongPassword('Ðøgnið12')).toBe(true);
    expect(passwordProblems('Æøð1')).toEqual(['TOO_SHORT']);
  });

  it('lists every broken rule at once (SPEC §5)', () => {
    expect(passwordProblems('')).toEqual([
      'TOO_SHORT',
      'NO_UPPER',
      'NO_LOWER',
      'NO_DIGIT_OR_SYMBOL',
    ]);
  });

  it('accepts any password built from the required parts (SPEC §5)', () => {
    const part = (re: RegExp) => fc.stringMatching(re);
    fc.assert(
      fc.property(
        part(/^[A-ZÆØ]{1,4}$/),
        part(/^[a-zæøð]{1,4}$/),
        part(/^[0-9!#%&?]{1,4}$/),
        part(/^[a-z]{0,6}$/),
        (up, low, more, pad) => {
          const password = (up + low + more + pad).padEnd(8, 'x');
          expect(isStrongPassword(password)).toBe(true);
        },
      ),
    );
  });

  it('gives REQUIRED, PASSWORD_TOO_WEAK and TOO_LONG (SPEC §5)', () => {
    expect(newPasswordSchema.safeParse('').error?.issues[0]?.message).toBe('REQUIRED');
    expect(newPasswordSchema.safeParse('password').error?.issues[0]?.message).toBe(
      'PASSWORD_TOO_WEAK',
    );
    expect(newPasswordSchema.safeParse(`Aa1${'x'.repeat(200)}`).error?.issues[0]?.message).toBe(
      'TOO_LONG',
    );
    expect(newPasswordSchema.parse(' Abcdef1 ')).toBe(' Abcdef1 ');
  });

  it('requires the repeat to match, reported on passwordRepeat (SPEC §5)', () => {
    expect(passwordsMatch('Abcdef1!', 'Abcdef1!')).toBe(true);
    expect(passwordsMatch('Abcdef1!', 'Abcdef1! ')).toBe(false);
    const form = withPasswordRepeat(
      z.object({
        name: z.string().check(z.minLength(1, 'REQUIRED')),
        password: newPasswordSchema,
        passwordRepeat: passwordRepeatSchema,
      }),
    );
    const result = form.safeParse({ name: '', password: 'Abcdef1!', passwordRepeat: 'Abcdef1?' });
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['name', 'REQUIRED'],
      ['passwordRepeat', 'PASSWORDS_DO_NOT_MATCH'],
    ]);
    expect(
      form.safeParse({ name: 'x', password: 'Abcdef1!', passwordRepeat: 'Abcdef1!' }).success,
    ).toBe(true);
  });
});
