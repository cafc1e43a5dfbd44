import { describe, expect, it } from 'vitest';
import { isFilled, mustAccept, requiredText } from './required';
import en from '../locales/validation.en.json';

describe('required field (SPEC §5)', () => {
  it("uses the key REQUIRED, whose English text is 'This is a required field' (SPEC §5)", () => {
    expect(en.REQUIRED).toBe('This is a required field');
    expect(requiredText().safeParse('').error?.issues[0]?.message).toBe('REQUIRED');
  });

  it('treats missing, null and blank values as not filled (SPEC §5)', () => {
    expect(isFilled(undefined)).toBe(false);
    expect(isFilled(null)).toBe(false);
    expect(isFilled('   ')).toBe(false);
    expect(isFilled('Jóannes')).toBe(true);
    expect(isFilled(0)).toBe(true);
    expect(isFilled(false)).toBe(true);
  });

  it('reports REQUIRED for a missing property, not zod’s English type error (SPEC §5)', () => {
    expect(requiredText().safeParse(undefined).error?.issues[0]?.message).toBe('REQUIRED');
  });

  it('trims the text and reports TOO_LONG past the limit (SPEC §5)', () => {
    expect(requiredText(5).parse('  Óli ')).toBe('Óli');
    expect(requiredText(5).safeParse('Jóhannus').error?.issues[0]?.message).toBe('TOO_LONG');
  });

  it('requires a ticked checkbox such as the terms (SPEC §5)', () => {
    expect(mustAccept().safeParse(true).success).toBe(true);
    expect(mustAccept().safeParse(false).error?.issues[0]?.message).toBe('MUST_ACCEPT');
    expect(mustAccept().safeParse(undefined).error?.issues[0]?.message).toBe('MUST_ACCEPT');
  });
});

describe('one key per failed field (SPEC §5)', () => {
  it('fails every field schema with exactly one key, its first broken rule (SPEC §5)', async () => {
    const { emailSchema } = await import('./email');
    const { displayDateSchema } = await import('./date');
    const { faroesePostCodeSchema } = await import('./postcode');
    const { newPasswordSchema } = await import('./password');
    const { phoneNumberInput } = await import('./phone');
    const cases: [
      string,
      { safeParse: (v: unknown) => { error?: { issues: { message: string }[] } } },
      unknown,
      string,
    ][] = [
      ['email blank', emailSchema, '', 'REQUIRED'],
      ['email bad', emailSchema, 'a@', 'INVALID_EMAIL'],
      ['date blank', displayDateSchema, '', 'REQUIRED'],
      ['date bad', displayDateSchema, '31.02.2024', 'INVALID_DATE'],
      ['postcode blank', faroesePostCodeSchema, '', 'REQUIRED'],
      ['postcode bad', faroesePostCodeSchema, '12', 'INVALID_POSTCODE'],
      ['postcode unknown', faroesePostCodeSchema, '999', 'UNKNOWN_POSTCODE'],
      ['password blank', newPasswordSchema, '', 'REQUIRED'],
      ['password long', newPasswordSchema, 'x'.repeat(300), 'TOO_LONG'],
      ['phone blank', phoneNumberInput, '', 'REQUIRED'],
      ['phone missing', phoneNumberInput, undefined, 'REQUIRED'],
      ['text blank', requiredText(), '  ', 'REQUIRED'],
    ];
    for (const [name, schema, input, key] of cases) {
      expect(
        schema.safeParse(input).error?.issues.map((i) => i.message),
        name,
      ).toEqual([key]);
    }
  });
});
