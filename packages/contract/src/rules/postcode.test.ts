import { describe, expect, it } from 'vitest';
import { faroesePostCodeSchema, isValidPostCode, postCodeSchema } from './postcode';

describe('postal code (SPEC §5 "Postal code is 3 digits")', () => {
  it('accepts exactly three digits (SPEC §5)', () => {
    expect(isValidPostCode('100')).toBe(true);
    expect(isValidPostCode(' 700 ')).toBe(true);
    for (const bad of ['', '10', '1000', 'FO-100', '1O0', '10 0', '١٠٠']) {
      expect(isValidPostCode(bad), bad).toBe(false);
    }
  });

  it('gives REQUIRED, then INVALID_POSTCODE (SPEC §5)', () => {
    expect(postCodeSchema.safeParse('').error?.issues[0]?.message).toBe('REQUIRED');
    expect(postCodeSchema.safeParse('38000').error?.issues[0]?.message).toBe('INVALID_POSTCODE');
    expect(postCodeSchema.parse(' 900 ')).toBe('900');
  });

  it('knows which codes exist in the Faroe Islands (SPEC §3 "Locality reference list")', () => {
    expect(faroesePostCodeSchema.parse('620')).toBe('620');
    expect(faroesePostCodeSchema.safeParse('999').error?.issues[0]?.message).toBe(
      'UNKNOWN_POSTCODE',
    );
    expect(faroesePostCodeSchema.safeParse('99').error?.issues[0]?.message).toBe(
      'INVALID_POSTCODE',
    );
  });
});
