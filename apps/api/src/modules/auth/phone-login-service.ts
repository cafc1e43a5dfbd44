import { createHmac, randomInt } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { PIN_LENGTH, RESEND_CODE_COUNTDOWN_S } from '@alda/contract/constants';
import type { Locale } from '@alda/contract/locale';
import type { Tokens } from '@alda/contract/schemas/auth';
import type { RequestPinResponse } from '@alda/contract/schemas/auth-register';
import type { SmsSender } from '../../adapters/sms/sms-sender';
import { SmsDeliveryError } from '../../adapters/sms/sms-sender';
import type { Db } from '../../db/client';
import { AppError } from '../../errors';
import { insertActions } from '../actions/log';
import { findLiveLine } from '../phone-lines/lines';
import { POLICIES } from '../rate-limits/policies';
import type { RateLimiter } from '../rate-limits/service';
import { findUserByPhoneNumber } from '../users/records';
import { pinCodeSms } from './messages';
import { attemptCode, findCode, issueCode, withdrawCode } from './phone-login-repo';
import type { AuthService, ClientMeta } from './service';

/** How long a code works. */
export const PIN_TTL_S = 10 * 60;
/** Tries per code, right or wrong; the code is dead after the last. */
export const PIN_MAX_ATTEMPTS = 5;

export interface PhoneLoginDeps {
  db: Db;
  now: () => Date;
  log: FastifyBaseLogger;
  limiter: RateLimiter;
  sms: SmsSender;
  auth: Pick<AuthService, 'startSession' | 'signedIn'>;
  /** Secret key of the code HMAC (derived from JWT_SECRET, the same on every instance). */
  codeKey: Uint8Array;
}

/** A uniformly random code of {@link PIN_LENGTH} digits from the operating system's CSPRNG. */
export function newPinCode(): string {
  return String(randomInt(0, 10 ** PIN_LENGTH)).padStart(PIN_LENGTH, '0');
}

/**
 * Phone login with a one-time SMS code (SPEC §7 request-pin / enter-pin;
 * docs/decisions/0023-phone-login-codes.md).
 */
export function createPhoneLoginService(deps: PhoneLoginDeps) {
  const { db, now, limiter } = deps;

  /** The code is bound to its number: the same digits for another number hash differently. */
  const hashCode = (msisdn: string, code: string) =>
    createHmac('sha256', deps.codeKey).update(`${msisdn}:${code}`).digest('hex');

  /**
   * Who signs in with the number: the user of its line, or — for a customer whose line is not
   * tied to a user, or who has none of ours yet — the user whose own number it is.
   */
  async function userOfNumber(msisdn: string): Promise<string> {
    const line = await findLiveLine(db, msisdn);
    if (line?.status === 'processing') {
      throw new AppError('PHONE_PROCESSING', { detail: `line ${line.id} is processing` });
    }
    if (line?.userId) return line.userId;
    const owner = await findUserByPhoneNumber(db, msisdn);
    if (owner) return owner.id;
    throw new AppError('PHONE_NOT_REGISTERED');
  }

  return {
    /**
     * Sends a new code by SMS. Counted per address (registered numbers or not, which bounds
     * enumeration) and per number before anything is looked up. A new code replaces the last
     * one, at the earliest {@link RESEND_CODE_COUNTDOWN_S} seconds after it.
     */
    async requestPin(
      msisdn: string,
      locale: Locale,
      meta: ClientMeta,
    ): Promise<RequestPinResponse> {
      await limiter.consume([
        { policy: POLICIES.pinSendIp, subject: [meta.ip] },
        { policy: POLICIES.pinSendNumber, subject: [msisdn] },
      ]);
      const userId = await userOfNumber(msisdn);
      const at = now();
      const code = newPinCode();
      const codeHash = hashCode(msisdn, code);
      const issued = await issueCode(db, {
        msisdn,
        userId,
        codeHash,
        now: at,
        expiresAt: new Date(at.getTime() + PIN_TTL_S * 1000),
        replaceIssuedBefore: new Date(at.getTime() - RESEND_CODE_COUNTDOWN_S * 1000),
      });
      if (!issued) {
        const last = await findCode(db, msisdn);
        const resendAt =
          (last?.createdAt.getTime() ?? at.getTime()) + RESEND_CODE_COUNTDOWN_S * 1000;
        throw new AppError('PIN_RESEND_TOO_SOON', {
          retryAfter: Math.max(1, (resendAt - at.getTime()) / 1000),
        });
      }
      try {
        await deps.sms.send({ to: msisdn, text: pinCodeSms(locale, code, PIN_TTL_S / 60) });
      } catch (error) {
        await withdrawCode(db, msisdn, codeHash);
        const permanent = error instanceof SmsDeliveryError && error.permanent;
        deps.log[permanent ? 'error' : 'warn']({ err: error }, 'one-time code SMS not sent');
        throw new AppError('SMS_NOT_SENT', { cause: error });
      }
      return { expiresIn: PIN_TTL_S, resendAfter: RESEND_CODE_COUNTDOWN_S };
    },

    /**
     * Signs in with the code: 401 INVALID_PIN for a wrong code, 410 PIN_EXPIRED when the number
     * has no live code (none, used, expired, or its tries used up — the last wrong try says so).
     */
    async enterPin(msisdn: string, code: string, meta: ClientMeta): Promise<Tokens> {
      const permit = await limiter.consume([
        { policy: POLICIES.pinCheckNumber, subject: [msisdn] },
        { policy: POLICIES.pinCheckIp, subject: [meta.ip] },
      ]);
      const at = now();
      const attempt = await attemptCode(db, {
        msisdn,
        codeHash: hashCode(msisdn, code),
        now: at,
        maxAttempts: PIN_MAX_ATTEMPTS,
      });
      if (!attempt) throw new AppError('PIN_EXPIRED', { detail: 'no live code for the number' });
      if (!attempt.consumed) {
        if (attempt.attempts >= PIN_MAX_ATTEMPTS) {
          // The code is locked: a security event in the number's user's activity log (ADR 0059).
          await insertActions(db, [{ userId: attempt.userId, type: 'pin_locked', createdAt: at }]);
          throw new AppError('PIN_EXPIRED', { detail: 'last try of the code was wrong' });
        }
        throw new AppError('INVALID_PIN');
      }
      await permit.refund();
      const { userId } = attempt;
      return deps.auth.signedIn(
        await db.transaction((tx) => deps.auth.startSession(tx, userId, meta, at)),
      );
    },
  };
}

export type PhoneLoginService = ReturnType<typeof createPhoneLoginService>;
