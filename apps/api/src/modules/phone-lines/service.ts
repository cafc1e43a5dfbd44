import type { ReservedNumbersResponse } from '@alda/contract/schemas/auth-register';
import type { Db } from '../../db/client';
import { AppError } from '../../errors';
import { POLICIES } from '../rate-limits/policies';
import type { RateLimiter } from '../rate-limits/service';
import { findUserByPhoneNumber } from '../users/records';
import { isProviderNumber, nearbyNumbers } from './numbering';
import {
  findActiveReservation,
  isQuarantined,
  releaseOlderReservations,
  reserveNumber,
  takenNumbers,
} from './repo';
import { findLiveLine } from './lines';

/** How long a number stays reserved for a customer in sign-up (renewed by asking again). */
export const RESERVATION_TTL_S = 30 * 60;
/** Unexpired reservations one customer may hold; a new one releases the oldest. */
export const MAX_RESERVATIONS_PER_USER = 5;
/** Free numbers offered when the one asked for is taken. */
export const SUGGESTION_COUNT = 5;

export interface PhoneLineServiceDeps {
  db: Db;
  now: () => Date;
  limiter: RateLimiter;
  /** NUMBER_QUARANTINE_DAYS: a number rests this long after its line was cancelled (ADR 0056). */
  quarantineDays?: number;
}

const DAY_MS = 86_400_000;

/**
 * Numbers and lines as sign-in and sign-up see them: number search with reservations
 * (POST /api/auth/reserved-numbers, docs/decisions/0024-number-reservations.md).
 */
export function createPhoneLineService(deps: PhoneLineServiceDeps) {
  const { db, now } = deps;
  const quarantineSince = (at: Date) =>
    new Date(at.getTime() - (deps.quarantineDays ?? 90) * DAY_MS);

  async function suggestionsFor(msisdn: string, at: Date): Promise<string[]> {
    const candidates = nearbyNumbers(msisdn);
    const taken = await takenNumbers(db, candidates, at, quarantineSince(at));
    return candidates.filter((n) => !taken.has(n)).slice(0, SUGGESTION_COUNT);
  }

  return {
    /**
     * The state of a number, and for a signed-in caller a reservation of it when it is free:
     * `processing` (a line being set up), `customer` (in use, or a customer's own number),
     * `reserved` (held by someone else's sign-up, or resting in quarantine after its line was
     * cancelled less than NUMBER_QUARANTINE_DAYS ago), `free`. Outside our range: NUMBER_NOT_FOUND.
     * Anonymous callers learn the state but reserve nothing (a reservation needs an owner).
     * Look-ups are limited per caller (the user, or the address of a guest).
     */
    async search(
      msisdn: string,
      callerId: string | null,
      ip: string,
    ): Promise<ReservedNumbersResponse> {
      await deps.limiter.consume([
        { policy: POLICIES.numberSearch, subject: [callerId ? `user:${callerId}` : `ip:${ip}`] },
      ]);
      if (!isProviderNumber(msisdn)) {
        throw new AppError('NUMBER_NOT_FOUND', {
          detail: "the number is outside the provider's range",
        });
      }
      const at = now();
      const taken = async (
        status: 'customer' | 'processing' | 'reserved',
      ): Promise<ReservedNumbersResponse> => ({
        phoneNumber: msisdn,
        status,
        reservationId: null,
        reservedUntil: null,
        suggestions: await suggestionsFor(msisdn, at),
      });

      const line = await findLiveLine(db, msisdn);
      if (line) return taken(line.status === 'processing' ? 'processing' : 'customer');
      if (await findUserByPhoneNumber(db, msisdn)) return taken('customer');
      // A number whose line ended lately rests (quarantine): not offered, not reservable.
      if (await isQuarantined(db, msisdn, quarantineSince(at))) return taken('reserved');

      if (callerId === null) {
        const held = await findActiveReservation(db, msisdn, at);
        if (held) return taken('reserved');
        return {
          phoneNumber: msisdn,
          status: 'free',
          reservationId: null,
          reservedUntil: null,
          suggestions: [],
        };
      }

      const reservation = await db.transaction(async (tx) => {
        const row = await reserveNumber(tx, {
          msisdn,
          userId: callerId,
          now: at,
          expiresAt: new Date(at.getTime() + RESERVATION_TTL_S * 1000),
        });
        if (row) await releaseOlderReservations(tx, callerId, MAX_RESERVATIONS_PER_USER, at);
        return row;
      });
      if (!reservation) return taken('reserved');
      return {
        phoneNumber: msisdn,
        status: 'free',
        reservationId: reservation.id,
        reservedUntil: reservation.expiresAt.toISOString(),
        suggestions: [],
      };
    },
  };
}

export type PhoneLineService = ReturnType<typeof createPhoneLineService>;
