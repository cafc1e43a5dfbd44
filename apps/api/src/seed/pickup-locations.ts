import type { simPickupLocations } from '../db/schema/provisioning';

/*
 * The shops where a physical SIM can be picked up (GET /api/sim-pickup-locations, ADR 0055).
 * Reference data like the terms pages: inserted at every start when missing, an operator's later
 * edits kept. Postal codes and places are those of the locality list (contract `localities`).
 */

const WEEKDAYS_LONG = {
  fo: ['Mánadag–fríggjadag 10–17:30', 'Leygardag 10–14', 'Sunnudag stongt'],
  en: ['Monday–Friday 10:00–17:30', 'Saturday 10:00–14:00', 'Sunday closed'],
};
const WEEKDAYS_SHORT = {
  fo: ['Mánadag–fríggjadag 10–17', 'Leygardag og sunnudag stongt'],
  en: ['Monday–Friday 10:00–17:00', 'Saturday and Sunday closed'],
};

export const SIM_PICKUP_LOCATIONS: (typeof simPickupLocations.$inferInsert)[] = [
  {
    id: 'torshavn',
    name: 'Tórshavn',
    address: 'Niels Finsens gøta 12',
    postCode: '100',
    city: 'Tórshavn',
    openingHoursFo: WEEKDAYS_LONG.fo,
    openingHoursEn: WEEKDAYS_LONG.en,
    sortOrder: 1,
  },
  {
    id: 'klaksvik',
    name: 'Klaksvík',
    address: 'Klaksvíksvegur 30',
    postCode: '700',
    city: 'Klaksvík',
    openingHoursFo: WEEKDAYS_LONG.fo,
    openingHoursEn: WEEKDAYS_LONG.en,
    sortOrder: 2,
  },
  {
    id: 'runavik',
    name: 'Runavík',
    address: 'Heiðavegur 17',
    postCode: '620',
    city: 'Runavík',
    openingHoursFo: WEEKDAYS_SHORT.fo,
    openingHoursEn: WEEKDAYS_SHORT.en,
    sortOrder: 3,
  },
  {
    id: 'vagur',
    name: 'Vágur',
    address: 'Vágsvegur 50',
    postCode: '900',
    city: 'Vágur',
    openingHoursFo: WEEKDAYS_SHORT.fo,
    openingHoursEn: WEEKDAYS_SHORT.en,
    sortOrder: 4,
  },
  {
    id: 'tvoroyri',
    name: 'Tvøroyri',
    address: 'Sjógøta 4',
    postCode: '800',
    city: 'Tvøroyri',
    openingHoursFo: WEEKDAYS_SHORT.fo,
    openingHoursEn: WEEKDAYS_SHORT.en,
    sortOrder: 5,
  },
];
