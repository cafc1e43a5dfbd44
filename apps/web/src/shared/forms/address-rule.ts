import { isKnownPostCode, placeOfPostCode } from '@alda/contract/localities/lookup';

/**
 * The address rule of the contract's profile update, for forms whose contract schema lacks it
 * (register): the city must be a place with that postal code (SPEC §3 "Locality reference list").
 * A postal code or city that is missing or malformed has its own message, so it passes here.
 */
export function cityMatchesPostCode(postCode: string, city: string): boolean {
  return (
    !isKnownPostCode(postCode) ||
    city.trim() === '' ||
    placeOfPostCode(postCode, city) !== undefined
  );
}

/** zod `refine` options that put CITY_POSTCODE_MISMATCH on `city`, even while other fields fail. */
export const cityMismatch = {
  error: 'CITY_POSTCODE_MISMATCH',
  path: ['city'],
  when: (payload: { value: unknown }) => {
    const v = payload.value as { postCode?: unknown; city?: unknown } | undefined;
    return typeof v?.postCode === 'string' && typeof v.city === 'string';
  },
};
