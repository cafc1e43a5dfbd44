import { LOCALITIES, type Locality } from '@alda/contract/localities/lookup';
import type { Random, Weighted } from './random';

/*
 * Who the synthetic customers are: common Faroese given names and family names, streets, and
 * the places of the locality list (packages/contract/src/localities), weighted roughly by where
 * people live. The people are invented; any likeness is the likeness of a small country.
 */

export const MALE_NAMES = [
  'Jóannes',
  'Rógvi',
  'Bárður',
  'Óli',
  'Heðin',
  'Jákup',
  'Sjúrður',
  'Hallur',
  'Tróndur',
  'Sámal',
  'Hanus',
  'Símun',
  'Pól',
  'Eyðun',
  'Gunnar',
  'Høgni',
  'Sigmund',
  'Teitur',
  'Rói',
  'Brandur',
  'Kári',
  'Ragnar',
  'Jógvan',
  'Dánjal',
  'Martin',
  'Jónas',
  'Hans',
  'Petur',
  'Ólavur',
  'Regin',
  'Árni',
  'Bjarni',
  'Fróði',
  'Leivur',
  'Magnus',
  'Niels',
  'Tórður',
  'Uni',
  'Andrias',
  'Hjalti',
  'Finnbogi',
  'Súni',
  'Jens',
  'Kristian',
  'Poul',
] as const;

export const FEMALE_NAMES = [
  'Sunneva',
  'Guðrun',
  'Rannvá',
  'Turið',
  'Sólja',
  'Marjun',
  'Ása',
  'Elin',
  'Bjørg',
  'Birita',
  'Durita',
  'Gunnvá',
  'Hildur',
  'Jórun',
  'Kristin',
  'Liv',
  'Maria',
  'Oddvá',
  'Ragnhild',
  'Sigrid',
  'Sólrun',
  'Tóra',
  'Unn',
  'Vár',
  'Ingrid',
  'Eyð',
  'Fríða',
  'Guðný',
  'Herdis',
  'Katrin',
  'Malan',
  'Rakul',
  'Randi',
  'Rósa',
  'Súsanna',
  'Sanna',
  'Tórunn',
  'Beinta',
  'Anna',
  'Hanna',
  'Petra',
  'Brynhild',
  'Jenny',
  'Lena',
] as const;

/** Family names, the common ones several times as likely. */
export const SURNAMES: Weighted<string> = [
  ['Joensen', 9],
  ['Hansen', 9],
  ['Jacobsen', 7],
  ['Olsen', 6],
  ['Petersen', 6],
  ['Poulsen', 6],
  ['Johannesen', 4],
  ['Rasmussen', 4],
  ['Mikkelsen', 3],
  ['Jensen', 3],
  ['Nielsen', 3],
  ['Simonsen', 3],
  ['Dam', 2],
  ['Nolsøe', 2],
  ['Debes', 2],
  ['Djurhuus', 2],
  ['Patursson', 1],
  ['Lamhauge', 1],
  ['Højgaard', 2],
  ['Mortensen', 2],
  ['Thomsen', 2],
  ['Kristiansen', 2],
  ['Danielsen', 2],
  ['Andreasen', 2],
  ['Ellefsen', 2],
  ['Niclasen', 1],
  ['Zachariasen', 2],
  ['Midjord', 1],
  ['Skaale', 1],
  ['Winther', 1],
  ['Magnussen', 2],
  ['Sørensen', 2],
  ['Arge', 1],
  ['Reinert', 1],
  ['Gaard', 1],
  ['Vang', 1],
  ['Hammershaimb', 1],
];

const STREETS = [
  'Áarvegur',
  'Bakkavegur',
  'Heiðavegur',
  'Dalavegur',
  'Kirkjuvegur',
  'Við Sjógv',
  'Brekkan',
  'Gerðagøta',
  'Norðurgøta',
  'Suðurgøta',
  'Tróndargøta',
  'Landavegur',
  'Sigmundargøta',
  'Hoyvíksvegur',
  'Vágsvegur',
  'Fjarðavegur',
  'Biskupsstøðgøta',
  'Gundadalsvegur',
  'Jónas Broncks gøta',
  'Niels Finsens gøta',
  'Skálatrøð',
  'Oyggjarvegur',
  'Bøgøta',
  'Traðarvegur',
  'Hamragøta',
  'Lonin',
  'Undir Heygnum',
  'Á Bakka',
  'Túgvustíggjur',
  'Sandavegur',
  'Stangavegur',
  'Toftavegur',
  'Hvítanesvegur',
  'Tjarnargøta',
] as const;

/** Where people live: the capital and the towns weigh more than a village of twenty. */
const PLACE_WEIGHT: Readonly<Record<string, number>> = {
  '100': 40,
  '188': 10,
  '160': 8,
  '700': 14,
  '620': 5,
  '600': 4,
  '800': 4,
  '900': 4,
  '530': 4,
  '350': 3,
  '370': 3,
  '380': 3,
  '360': 3,
  '410': 2,
  '520': 2,
  '470': 2,
  '490': 2,
  '210': 2,
};

const PLACES: Weighted<Locality> = LOCALITIES.filter((l) => l.postCode !== '').map(
  (l) => [l, PLACE_WEIGHT[l.postCode] ?? 0.5] as const,
);

export interface Address {
  address: string;
  postCode: string;
  city: string;
}

export function randomAddress(random: Random): Address {
  const place = random.weighted(PLACES);
  return {
    address: `${random.pick(STREETS)} ${random.int(1, 60)}`,
    postCode: place.postCode,
    city: place.name,
  };
}

export type Gender = 'f' | 'm';

export function firstName(random: Random, gender: Gender): string {
  return random.pick(gender === 'f' ? FEMALE_NAMES : MALE_NAMES);
}

export function surname(random: Random): string {
  return random.weighted(SURNAMES);
}

/** A name as the local part of an e-mail address: ASCII, lower case (Guðrun → gudrun). */
export function asciiName(name: string): string {
  return name
    .toLowerCase()
    .replace(/ð/g, 'd')
    .replace(/ø/g, 'o')
    .replace(/æ/g, 'ae')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^a-z0-9]+/g, '');
}
