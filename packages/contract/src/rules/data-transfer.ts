import type { ErrorCode } from '../errors';

/** The parts of a member's data state that limit giving (SPEC §3 currentMember). */
export interface GiverData {
  /** Data given away this month and the monthly ceiling, in MB. */
  givenData: { current: number; max: number };
  /** Data the member has left, in MB. */
  dataRemaining: { domestic: number };
}

/**
 * The monthly ceiling of giving data away (SPEC §3 givenData.max) for a line whose plan allows
 * `planGiftMaxMb`. A line without a plan, or a plan that sets none, gives nothing: 0. The server
 * opens each month's counter with it and answers it as givenData.max, so the app (maxGiftMb)
 * and the server never disagree about it.
 */
export function giftCeilingMb(planGiftMaxMb: number | null | undefined): number {
  return planGiftMaxMb ?? 0;
}

/**
 * SPEC §5: giving is limited to the remaining monthly allowance (givenData max − current) and to
 * the member's available domestic data. Returns the most MB that may be given now (never below 0).
 */
export function maxGiftMb(giver: GiverData): number {
  const allowance = giver.givenData.max - giver.givenData.current;
  return Math.max(0, Math.min(allowance, giver.dataRemaining.domestic));
}

/**
 * Why a gift of `amountMb` cannot be made, as the SPEC §8 error code, or null when it can.
 * Running out of one's own data (`INSUFFICIENT_DATA`) is reported before the monthly limit
 * (`GIVE_LIMIT_REACHED`), as it is the one the person can do something about today.
 */
export function giftProblem(
  giver: GiverData,
  amountMb: number,
): Extract<ErrorCode, 'INSUFFICIENT_DATA' | 'GIVE_LIMIT_REACHED'> | null {
  if (amountMb > giver.dataRemaining.domestic) return 'INSUFFICIENT_DATA';
  if (amountMb > giver.givenData.max - giver.givenData.current) return 'GIVE_LIMIT_REACHED';
  return null;
}

/**
 * SPEC §5 "A data recipient cannot be yourself" (and a request cannot go to oneself): compares
 * two 6-digit numbers as stored. Returns `SELF_REQUEST` when they are the same, else null.
 */
export function counterpartProblem(
  ownNumber: string,
  otherNumber: string,
): Extract<ErrorCode, 'SELF_REQUEST'> | null {
  return ownNumber === otherNumber ? 'SELF_REQUEST' : null;
}
