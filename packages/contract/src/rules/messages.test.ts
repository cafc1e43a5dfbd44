import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { ERROR_CODES } from '../errors';
import { LOCALES } from '../locale';
import validationEn from '../locales/validation.en.json';
import validationFo from '../locales/validation.fo.json';
import errorsEn from '../locales/errors.en.json';
import errorsFo from '../locales/errors.fo.json';
import { errorMessage } from '../error-messages';
import { isValidationKey, toFieldIssues, validationMessage, VALIDATION_KEYS } from './messages';

const sorted = (keys: readonly string[]) => [...keys].sort();

describe('message catalogues (SPEC §5, §8)', () => {
  it('has fo and en texts for exactly the validation keys (SPEC §5)', () => {
    expect(sorted(Object.keys(validationFo))).toEqual(sorted(VALIDATION_KEYS));
    expect(sorted(Object.keys(validationEn))).toEqual(sorted(VALIDATION_KEYS));
  });

  it('has fo and en texts for exactly the error codes of ERROR_STATUS (SPEC §8)', () => {
    expect(sorted(Object.keys(errorsFo))).toEqual(sorted(ERROR_CODES));
    expect(sorted(Object.keys(errorsEn))).toEqual(sorted(ERROR_CODES));
  });

  it('has no empty or untranslated Faroese text (SPEC §1 Faroese by default)', () => {
    for (const [fo, en] of [
      [validationFo, validationEn],
      [errorsFo, errorsEn],
    ] as const) {
      for (const [key, text] of Object.entries(fo)) {
        expect(text.trim(), key).not.toBe('');
        expect(text, key).not.toBe((en as Record<string, string>)[key]);
      }
    }
  });

  it('keeps the SPEC §8 wording of the English messages (SPEC §8)', () => {
    expect(errorMessage('INVALID_CREDENTIALS', 'en')).toBe('Incorrect email or password.');
    expect(errorMessage('EMAIL_ALREADY_REGISTERED', 'en')).toBe('The email is already registered');
    expect(errorMessage('PHONE_NOT_REGISTERED', 'en')).toBe('The phone number is not registered');
    expect(errorMessage('PHONE_PROCESSING', 'en')).toBe('Phone number is still being processed');
    expect(errorMessage('NUMBER_NOT_FOUND', 'en')).toBe(
      "The number you're searching for does not exist",
    );
    expect(errorMessage('INSUFFICIENT_DATA', 'en')).toBe('You do not have sufficient data.');
    expect(errorMessage('GIVE_LIMIT_REACHED', 'en')).toBe('You cannot give more data this month.');
    expect(errorMessage('SELF_REQUEST', 'en')).toBe('You cannot request data from yourself.');
  });

  it('translates keys, one per field, and maps foreign zod texts to INVALID (SPEC §5)', () => {
    expect(isValidationKey('REQUIRED')).toBe(true);
    expect(isValidationKey('Required')).toBe(false);
    for (const locale of LOCALES) expect(validationMessage('REQUIRED', locale)).toBeTruthy();
    const schema = z.object({
      a: z.string().check(z.minLength(1, 'REQUIRED')),
      b: z.object({ c: z.number() }),
    });
    const issues = schema.safeParse({ a: '', b: { c: 'x' } }).error?.issues ?? [];
    expect(toFieldIssues([...issues, ...issues], 'fo')).toEqual([
      { path: 'a', key: 'REQUIRED', message: 'Hetta er eitt kravt felt' },
      { path: 'b.c', key: 'INVALID', message: validationFo.INVALID },
    ]);
  });
});
