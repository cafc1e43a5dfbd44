import { describe, expect, it } from 'vitest';
import { countryName } from './country';

describe('countryName (ADR 0059: where a sign-in came from)', () => {
  it('names the country in the reader’s language', () => {
    expect(countryName('FO', 'fo')).toBe('Føroyar');
    expect(countryName('FO', 'en')).toBe('Faroe Islands');
    expect(countryName('DK', 'fo')).toBe('Danmark');
  });

  it('is null without a code, and the code itself when there is no name for it', () => {
    expect(countryName(null, 'fo')).toBeNull();
    expect(countryName(undefined, 'en')).toBeNull();
    expect(countryName('Q!', 'en')).toBe('Q!');
  });
});
