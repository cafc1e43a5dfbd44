import { splitVat } from '@alda/contract/format/money';
import { loosenMatch, matchesNumber, type NumberMatch } from '@alda/contract/rules/number-picker';
import type { ReservedNumbersResponse } from '@alda/contract/schemas/auth-register';
import type {
  FreeNumber,
  FreeNumbersQuery,
  FreeNumbersResponse,
} from '@alda/contract/schemas/number-picker';
import type { Db } from '../../db/client';
import { AppError } from '../../errors';
import { POLICIES } from '../rate-limits/policies';
import type { RateLimiter } from '../rate-limits/service';
import { findUserByPhoneNumber } from '../users/records';
import {
  easyPlanNumbers,
  isProviderNumber,
  matchingPlanNumbers,
  nearbyNumbers,
  shuffled,
} from './numbering';
import { findNumberPrices, oneOffFields, oneOffOf, type NumberPrices } from './number-fees';
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
/** Free numbers in one set of the picker (a fresh set on every call, issue 33 §1). */
export const PICKER_SET_SIZE = 6;
/** Free priced easy numbers the picker shows beside them. */
export const PICKER_GOLDEN_SIZE = 3;
/** Candidates checked against the taken ones per query, and at most per set. */
const CHECK_BATCH = 100;
const MAX_CHECKED = 2_000;

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

  /**
   * The first `count` free numbers among `candidates`, in their order: free by THE taken rule
   * (`takenNumbers`: a live line, quarantine, an unexpired reservation, a customer's own number),
   * checked a batch at a time.
   */
  async function freeAmong(
    candidates: Iterable<string>,
    count: number,
    at: Date,
    skip: ReadonlySet<string> = new Set(),
  ): Promise<string[]> {
    const free: string[] = [];
    let batch: string[] = [];
    let checked = 0;
    const check = async () => {
      const taken = await takenNumbers(db, batch, at, quarantineSince(at));
      free.push(...batch.filter((n) => !taken.has(n)));
      checked += batch.length;
      batch = [];
    };
    for (const n of candidates) {
      if (skip.has(n)) continue;
      batch.push(n);
      if (batch.length === CHECK_BATCH) {
        await check();
        if (free.length >= count || checked >= MAX_CHECKED) break;
      }
    }
    if (batch.length > 0 && free.length < count) await check();
    return free.slice(0, count);
  }

  const offer = (msisdn: string, prices: NumberPrices): FreeNumber => {
    const oneOff = oneOffOf(msisdn, prices);
    return {
      phoneNumber: msisdn,
      numberClass: oneOff?.numberClass ?? null,
      oneOffPrice: oneOff ? splitVat(oneOff.priceOere) : null,
    };
  };

  /** Free numbers of the plan that match, in random order. */
  const freeMatching = (pattern: NumberMatch | null, count: number, at: Date, skip?: Set<string>) =>
    freeAmong(matchingPlanNumbers(pattern), count, at, skip);

  /** Free priced easy numbers that match, in random order. */
  function freeGolden(pattern: NumberMatch | null, prices: NumberPrices, at: Date) {
    if (prices.size === 0) return Promise.resolve([]);
    const candidates = shuffled(
      easyPlanNumbers().filter((n) => oneOffOf(n, prices) !== null && matchesNumber(n, pattern)),
    );
    return freeAmong(candidates, PICKER_GOLDEN_SIZE, at);
  }

  return {
    /**
     * GET /api/auth/free-numbers (issue 33 §1, ADR 0077): a fresh set of free numbers that match
     * the pattern (none: any), the free priced easy numbers that match, and when nothing that
     * matches is free, the nearest looser pattern's free numbers (for six digits: the closest in
     * its block). Nothing is reserved. Limited per caller like the number search; six digits
     * outside our range: NUMBER_NOT_FOUND.
     */
    async freeNumbers(
      query: FreeNumbersQuery,
      callerId: string | null,
      ip: string,
    ): Promise<FreeNumbersResponse> {
      await deps.limiter.consume([
        {
          policy: POLICIES.numberSuggestions,
          subject: [callerId ? `user:${callerId}` : `ip:${ip}`],
        },
      ]);
      const pattern: NumberMatch | null =
        query.digits === '' ? null : { match: query.match, digits: query.digits };
      if (pattern && pattern.digits.length === 6 && !isProviderNumber(pattern.digits)) {
        throw new AppError('NUMBER_NOT_FOUND', {
          detail: "the number is outside the provider's range",
        });
      }
      const at = now();
      const prices = await findNumberPrices(db);
      const golden = await freeGolden(pattern, prices, at);
      const numbers = await freeMatching(pattern, PICKER_SET_SIZE, at, new Set(golden));
      const of = (list: string[]) => list.map((n) => offer(n, prices));
      if (numbers.length > 0 || golden.length > 0 || pattern === null) {
        return { numbers: of(numbers), golden: of(golden), nearest: null };
      }
      if (pattern.digits.length === 6) {
        return {
          numbers: [],
          golden: [],
          nearest: {
            match: 'startsWith',
            digits: pattern.digits.slice(0, 4),
            numbers: of(await suggestionsFor(pattern.digits, at)),
          },
        };
      }
      for (let looser = loosenMatch(pattern); ; looser = looser && loosenMatch(looser)) {
        const found = await freeMatching(looser, PICKER_SET_SIZE, at);
        if (found.length > 0 || looser === null) {
          return {
            numbers: [],
            golden: [],
            nearest: {
              match: looser?.match ?? pattern.match,
              digits: looser?.digits ?? '',
              numbers: of(found),
            },
          };
        }
      }
    },

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
        ...oneOffFields(null),
      });

      const line = await findLiveLine(db, msisdn);
      if (line) return taken(line.status === 'processing' ? 'processing' : 'customer');
      if (await findUserByPhoneNumber(db, msisdn)) return taken('customer');
      // A number whose line ended lately rests (quarantine): not offered, not reservable.
      if (await isQuarantined(db, msisdn, quarantineSince(at))) return taken('reserved');

      // An easy number's one-off price now (ADR 0077): shown, and held by a reservation.
      const oneOff = oneOffOf(msisdn, await findNumberPrices(db));
      if (callerId === null) {
        const held = await findActiveReservation(db, msisdn, at);
        if (held) return taken('reserved');
        return {
          phoneNumber: msisdn,
          status: 'free',
          reservationId: null,
          reservedUntil: null,
          suggestions: [],
          ...oneOffFields(oneOff),
        };
      }

      const reservation = await db.transaction(async (tx) => {
        const row = await reserveNumber(tx, {
          msisdn,
          userId: callerId,
          now: at,
          expiresAt: new Date(at.getTime() + RESERVATION_TTL_S * 1000),
          oneOff,
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
        ...oneOffFields({
          numberClass: reservation.numberClass,
          priceOere: reservation.oneOffPriceOere,
        }),
      };
    },
  };
}

export type PhoneLineService = ReturnType<typeof createPhoneLineService>;
