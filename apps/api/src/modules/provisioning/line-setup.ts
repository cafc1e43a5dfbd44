import { placeOfPostCode } from '@alda/contract/localities/lookup';
import type { SignupPayload } from '@alda/contract/schemas/signup';
import type { Db } from '../../db/client';
import { uniqueViolationOf } from '../../db/errors';
import type { NewOrderRow } from '../../db/schema/orders';
import { AppError } from '../../errors';
import { isUuid } from '../../uuid';
import { findLiveLine } from '../phone-lines/lines';
import { insertNumberFee } from '../phone-lines/number-fees';
import {
  numberClass as numberClassSchema,
  type NumberClass,
} from '@alda/contract/rules/number-picker';
import {
  deleteExpiredReservation,
  deleteReservation,
  findPickupLocations,
  lockReservation,
  reservationHeldBy,
} from './repo';

/*
 * The number and SIM of a new line, exactly as the sign-up sets them up (SPEC §3 "Signup
 * payload"; contract `lineSetupFields`, checked by `checkLineSetup`): shared by the sign-up
 * (POST /api/subscriptions) and by adding family members (PATCH /api/subscriptions
 * `addMembers`), so both follow one set of rules.
 */

/** The line set-up fields of a payload (the sign-up's or a new family member's). */
export type LineSetup = Pick<
  SignupPayload,
  | 'phoneNumberReservationId'
  | 'eSim'
  | 'simcardNumber'
  | 'porting'
  | 'simPickupLocationId'
  | 'simShippingAddress'
>;

/** The live-number index: a second live line with the same number loses the race. */
export const LIVE_NUMBER_CONSTRAINT = 'phone_lines_msisdn_live_uq';

/** `field` under `prefix` (`addMembers.0.` for the first member), as error fields name it. */
const at = (prefix: string, field: string) => `${prefix}${field}`;

/**
 * Checks of the set-up that need no lock: the pickup shop is on the list
 * (PICKUP_LOCATION_NOT_FOUND) and the shipping address's city is its postal code's
 * (VALIDATION_FAILED CITY_POSTCODE_MISMATCH).
 */
export async function checkLineSetupReferences(tx: Db, p: LineSetup, prefix = ''): Promise<void> {
  if (p.simPickupLocationId !== null) {
    const [shop] = await findPickupLocations(tx, [p.simPickupLocationId]);
    if (!shop)
      throw new AppError('PICKUP_LOCATION_NOT_FOUND', { field: at(prefix, 'simPickupLocationId') });
  }
  if (p.simShippingAddress !== null) {
    const { postCode, city } = p.simShippingAddress;
    if (!placeOfPostCode(postCode, city))
      throw new AppError('VALIDATION_FAILED', {
        field: at(prefix, 'simShippingAddress.city'),
        validationKey: 'CITY_POSTCODE_MISMATCH',
      });
  }
}

/** The number of a new line, with the one-off price its reservation held (ADR 0077), if any. */
export interface ClaimedNumber {
  msisdn: string;
  oneOff: { numberClass: NumberClass; priceOere: number } | null;
}

/**
 * The number of the new line: the caller's live reservation (used up now: RESERVATION_EXPIRED
 * when it is missing, expired or someone else's), or a port of a number that is not ours
 * (NUMBER_ALREADY_OURS). An easy number keeps the one-off price it was reserved at.
 */
export async function claimNumber(
  tx: Db,
  p: LineSetup,
  userId: string,
  now: Date,
  prefix = '',
): Promise<ClaimedNumber> {
  if (p.porting) {
    const msisdn = p.porting.phoneNumber;
    if (await findLiveLine(tx, msisdn))
      throw new AppError('NUMBER_ALREADY_OURS', { field: at(prefix, 'porting.phoneNumber') });
    return { msisdn, oneOff: null };
  }
  const id = p.phoneNumberReservationId ?? '';
  const reservation = isUuid(id) ? await lockReservation(tx, id) : undefined;
  if (!reservationHeldBy(reservation, userId, now))
    throw new AppError('RESERVATION_EXPIRED', { field: at(prefix, 'phoneNumberReservationId') });
  await deleteReservation(tx, reservation.id);
  const held = numberClassSchema.safeParse(reservation.numberClass);
  const price = reservation.oneOffPriceOere ?? 0;
  return {
    msisdn: reservation.msisdn,
    oneOff: held.success && price > 0 ? { numberClass: held.data, priceOere: price } : null,
  };
}

/** The new line's number fee, when its number carries a one-off price (charged later). */
export async function recordNumberFee(
  tx: Db,
  lineId: string,
  claimed: ClaimedNumber,
  now: Date,
): Promise<void> {
  if (claimed.oneOff)
    await insertNumberFee(tx, { lineId, msisdn: claimed.msisdn, ...claimed.oneOff, at: now });
}

/** The order columns that say how the line's SIM is delivered and whether its number is ported. */
export function simOrderFields(
  p: LineSetup,
): Pick<
  NewOrderRow,
  | 'simDelivery'
  | 'simPickupLocationId'
  | 'shippingAddress'
  | 'shippingPostCode'
  | 'shippingCity'
  | 'simcardNumber'
  | 'portingSimcardNumber'
  | 'isPorting'
> {
  const delivery = p.eSim
    ? 'esim'
    : p.simPickupLocationId !== null
      ? 'pickup'
      : p.simShippingAddress !== null
        ? 'home'
        : 'own_card';
  const place = p.simShippingAddress
    ? placeOfPostCode(p.simShippingAddress.postCode, p.simShippingAddress.city)
    : undefined;
  return {
    simDelivery: delivery,
    simPickupLocationId: p.simPickupLocationId,
    shippingAddress: p.simShippingAddress?.address ?? null,
    shippingPostCode: p.simShippingAddress?.postCode ?? null,
    shippingCity: place?.name ?? p.simShippingAddress?.city ?? null,
    simcardNumber: p.simcardNumber,
    portingSimcardNumber: p.porting?.simcardNumber ?? null,
    isPorting: p.porting !== null,
  };
}

/**
 * A lost race on a number (another live line took it between the check and the insert) as the
 * customer's error: RESERVATION_EXPIRED for a new number, NUMBER_ALREADY_OURS for a port; any
 * other error unchanged. `setups` are the set-ups of the request with their error prefixes.
 */
export function numberRaceError(
  error: unknown,
  setups: readonly { setup: LineSetup; prefix: string }[],
): unknown {
  if (uniqueViolationOf(error) !== LIVE_NUMBER_CONSTRAINT) return error;
  const ported = setups.find((s) => s.setup.porting !== null);
  const fresh = setups.find((s) => s.setup.porting === null);
  if (ported && !fresh)
    return new AppError('NUMBER_ALREADY_OURS', {
      field: at(ported.prefix, 'porting.phoneNumber'),
      cause: error,
    });
  return new AppError('RESERVATION_EXPIRED', {
    field: at(fresh?.prefix ?? '', 'phoneNumberReservationId'),
    cause: error,
  });
}

/**
 * After a request failed with RESERVATION_EXPIRED: the caller's expired reservations among its
 * set-ups are gone for good ("choose another number").
 */
export async function dropExpiredReservations(
  db: Db,
  error: unknown,
  setups: readonly LineSetup[],
  userId: string,
  now: Date,
): Promise<void> {
  if (!(error instanceof AppError) || error.code !== 'RESERVATION_EXPIRED') return;
  for (const p of setups) {
    const id = p.phoneNumberReservationId;
    if (id && isUuid(id)) await deleteExpiredReservation(db, id, userId, now);
  }
}
