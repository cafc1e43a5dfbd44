import { describe, expect, it } from 'vitest';
import { countryName } from './country';
import { COUNTRY_NAMES_FO } from './country-names-fo';

describe('countryName (ADR 0059: where a sign-in came from)', () => {
  it('names the country in the reader’s language', () => {
    expect(countryName('FO', 'fo')).toBe('Føroyar');
    expect(countryName('FO', 'en')).toBe('Faroe Islands');
    expect(countryName('DK', 'fo')).toBe('Danmark');
    expect(countryName('IS', 'fo')).toBe('Ísland');
    expect(countryName('DK', 'en')).toBe('Denmark');
  });

  it('is null without a code, and the code itself when there is no name for it', () => {
    expect(countryName(null, 'fo')).toBeNull();
    expect(countryName(undefined, 'en')).toBeNull();
    expect(countryName('Q!', 'en')).toBe('Q!');
    expect(countryName('QQ', 'fo')).toBe('QQ');
  });

  it("keeps the Faroese table equal to Node's CLDR data (browsers have none)", () => {
    const fo = new Intl.DisplayNames(['fo'], { type: 'region', fallback: 'none' });
    const differ = Object.entries(COUNTRY_NAMES_FO).filter(([code, name]) => fo.of(code) !== name);
    expect(differ, 'update these names in country-names-fo.ts').toEqual([]);
    expect(Object.keys(COUNTRY_NAMES_FO).length).toBeGreaterThan(240);
  });
});
