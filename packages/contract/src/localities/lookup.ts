import { z } from 'zod/mini';
import data from './fo-localities.json' with { type: 'json' };

/** One place of the Faroese locality reference list (SPEC §3 "Locality reference list"). */
export const localitySchema = z.object({
  /** 3 digits; '' for a place without a postal code of its own (Mjørkadalur). */
  postCode: z.union([z.string().check(z.regex(/^\d{3}$/)), z.literal('')]),
  /** Faroese name; places that share a name carry a qualifier: 'Nes, Eysturoy', 'Nes, Vágur'. */
  name: z.string().check(z.minLength(1)),
});
export type Locality = z.infer<typeof localitySchema>;

/** Every place, ordered by postal code (the place without a code last). See SOURCES.md. */
export const LOCALITIES: readonly Locality[] = Object.freeze(
  data.map((l) => Object.freeze({ ...l })),
);

/**
 * Folds a place name for loose comparison: lower case, accents dropped (ó → o), the Faroese
 * letters spelled out (ð → d, ø → o, æ → ae), punctuation read as space. 'Nes (Eysturoy)',
 * 'nes, eysturoy' and 'NES EYSTUROY' all fold to 'nes eysturoy'.
 */
export function foldPlaceName(name: string): string {
  return name
    .toLowerCase()
    .replace(/ð/g, 'd')
    .replace(/[øö]/g, 'o')
    .replace(/æ/g, 'ae')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * Other spellings people and registers use for a listed place (Hagstova Føroya's village names,
 * older forms, the everyday name of the capital), so an address typed that way still resolves.
 */
export const PLACE_NAME_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  Havn: 'Tórshavn',
  Haldórsvík: 'Haldarsvík',
  Skála: 'Skáli',
  Skúgvoy: 'Skúvoy',
  Lamba: 'Lambi',
  Ánirnar: 'Ánir',
  Hellurnar: 'Hellur',
  Kolbeinagjógv: 'Kolbanargjógv',
  'Undir Gøtueiði': 'Gøtueiði',
  Ørðavík: 'Øravík',
  'Nes (Eysturoy)': 'Nes, Eysturoy',
  'Nes (Vágur)': 'Nes, Vágur',
  'Syðradalur (Kalsoy)': 'Syðradalur, Kalsoy',
  'Syðradalur (Streymoy)': 'Syðradalur, Streymoy',
});

const byCode = new Map<string, Locality[]>();
const byExactName = new Map<string, Locality>();
const byFoldedName = new Map<string, Locality>();
for (const locality of LOCALITIES) {
  if (locality.postCode)
    byCode.set(locality.postCode, [...(byCode.get(locality.postCode) ?? []), locality]);
  byExactName.set(locality.name, locality);
  byFoldedName.set(foldPlaceName(locality.name), locality);
}
for (const [alias, name] of Object.entries(PLACE_NAME_ALIASES)) {
  const locality = byExactName.get(name);
  if (locality && !byFoldedName.has(foldPlaceName(alias)))
    byFoldedName.set(foldPlaceName(alias), locality);
}

/** Every place that uses a postal code (several for shared codes such as 485); [] if none. */
export function placesByPostCode(code: string): Locality[] {
  return [...(byCode.get(code.trim()) ?? [])];
}

/** True when the 3-digit code belongs to at least one place of the list. */
export function isKnownPostCode(code: string): boolean {
  return byCode.has(code.trim());
}

/**
 * The place with this name: the exact name first, then a case-, accent- and punctuation-blind
 * match ('torshavn', 'Nes (Vágur)', 'Midvagur'), then the known other spellings
 * ({@link PLACE_NAME_ALIASES}). An unqualified shared name such as 'Nes' finds nothing.
 */
export function placeByName(name: string): Locality | undefined {
  return byExactName.get(name.trim()) ?? byFoldedName.get(foldPlaceName(name));
}

/**
 * The listed place named `city` (spelled loosely, see {@link placeByName}) among those that use
 * `postCode`, or undefined when the place does not have that postal code. An unqualified shared
 * name resolves by the code: 'Nes' with 655 is 'Nes, Eysturoy'. Used to check and canonicalise
 * the city of an address (register, profile).
 */
export function placeOfPostCode(postCode: string, city: string): Locality | undefined {
  const places = placesByPostCode(postCode);
  const named = placeByName(city);
  if (named) return places.find((place) => place.name === named.name);
  const folded = foldPlaceName(city);
  if (!folded) return undefined;
  // 'Nes' alone: the place of this code whose name, before its qualifier, is the city.
  return places.find((place) => foldPlaceName(place.name.split(',')[0] ?? '') === folded);
}

/**
 * Places for a picker, best first. Digits search postal codes by prefix ('6' → 600, 620, …);
 * text matches names loosely (see {@link foldPlaceName}): the name itself ('nes' → 'Nes, Eysturoy'),
 * then names that start with the query, then names with a word that starts with it, then names
 * that contain it; ties in list order. An empty
 * query lists the first `limit` places by name.
 */
export function searchLocalities(query: string, limit = 10): Locality[] {
  const q = query.trim();
  if (!q) return [...LOCALITIES].sort((a, b) => a.name.localeCompare(b.name, 'fo')).slice(0, limit);
  if (/^\d+$/.test(q)) return LOCALITIES.filter((l) => l.postCode.startsWith(q)).slice(0, limit);

  const folded = foldPlaceName(q);
  if (!folded) return [];
  const rank = (locality: Locality): number => {
    const name = foldPlaceName(locality.name);
    const words = name.split(' ');
    if (name === folded || words[0] === folded) return 0;
    if (name.startsWith(folded)) return 1;
    if (words.some((word) => word.startsWith(folded))) return 2;
    return name.includes(folded) ? 3 : -1;
  };
  return LOCALITIES.map((locality, index) => ({ locality, index, rank: rank(locality) }))
    .filter((hit) => hit.rank >= 0)
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map((hit) => hit.locality)
    .slice(0, limit);
}
