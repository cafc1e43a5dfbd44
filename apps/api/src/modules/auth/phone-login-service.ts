import { createHmac, randomInt } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { PIN_LENGTH, RESEND_CODE_COUNTDOWN_S } from '@alda/contract/constants';
import type { Locale } from '@alda/contract/locale';
import type { Tokens } from '@alda/contract/schemas/auth';
import type { RequestPinResponse } from '@alda/contract/schemas/auth-register';
import type { ConfirmationCodeResponse } from '@alda/contract/schemas/sessions';
import type { SmsSender } from '../../adapters/sms/sms-sender';
import { SmsDeliveryError } from '../../adapters/sms/sms-sender';
import type { Db } from '../../db/client';
import { AppError } from '../../errors';
import { insertActions } from '../actions/log';
import type { AuthUser } from '../../plugins/auth';
import { findActiveLineOfUser, findLiveLine } from '../phone-lines/lines';
import { POLICIES } from '../rate-limits/policies';
import type { RateLimiter } from '../rate-limits/service';
import { findUserById, findUserByPhoneNumber } from '../users/records';
import { confirmationCodeSms, pinCodeSms } from './messages';
import {
  attemptCode,
  findCode,
  issueCode,
  withdrawCode,
  type CodePurpose,
} from './phone-login-repo';
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
  /**
   * SMS_CODE_WAIT_S: the longest a code request waits for the SMS to be accepted (SMPP); a code
   * not sent by then is never sent, and the customer is told at once (SMS_NOT_SENT).
   */
  codeWaitS: number;
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

  /**
   * The code is bound to its number and purpose: the same digits for another number, or a
   * confirmation code tried as a login code, hash differently.
   */
  const hashCode = (msisdn: string, code: string, purpose: CodePurpose) =>
    createHmac('sha256', deps.codeKey)
      .update(purpose === 'sign_in' ? `${msisdn}:${code}` : `${msisdn}:${purpose}:${code}`)
      .digest('hex');

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

  /** The send limits of a number: per address (bounds enumeration) and per number. */
  const sendChecks = (msisdn: string, meta: ClientMeta) => [
    { policy: POLICIES.pinSendIp, subject: [meta.ip] },
    { policy: POLICIES.pinSendNumber, subject: [msisdn] },
  ];

  /**
   * Issues a new code for the number and purpose and sends `text(code)` by SMS. A new code
   * replaces the last one of the same purpose, at the earliest {@link RESEND_CODE_COUNTDOWN_S}
   * seconds after it; a code that could not be sent is withdrawn.
   */
  async function sendCode(
    msisdn: string,
    purpose: CodePurpose,
    userId: string,
    text: (code: string) => string,
  ): Promise<RequestPinResponse> {
    const at = now();
    const code = newPinCode();
    const codeHash = hashCode(msisdn, code, purpose);
    const issued = await issueCode(db, {
      msisdn,
      purpose,
      userId,
      codeHash,
      now: at,
      expiresAt: new Date(at.getTime() + PIN_TTL_S * 1000),
      replaceIssuedBefore: new Date(at.getTime() - RESEND_CODE_COUNTDOWN_S * 1000),
    });
    if (!issued) {
      const last = await findCode(db, msisdn, purpose);
      const resendAt = (last?.createdAt.getTime() ?? at.getTime()) + RESEND_CODE_COUNTDOWN_S * 1000;
      throw new AppError('PIN_RESEND_TOO_SOON', {
        retryAfter: Math.max(1, (resendAt - at.getTime()) / 1000),
      });
    }
    try {
      await deps.sms.send({
        to: msisdn,
        text: text(code),
        deadlineS: deps.codeWaitS,
        // A code that arrives after its life is of no use: the SMSC drops it instead.
        validityS: PIN_TTL_S,
      });
    } catch (error) {
      await withdrawCode(db, msisdn, purpose, codeHash);
      const permanent = error instanceof SmsDeliveryError && error.permanent;
      deps.log[permanent ? 'error' : 'warn']({ err: error }, 'one-time code SMS not sent');
      throw new AppError('SMS_NOT_SENT', { cause: error });
    }
    return { expiresIn: PIN_TTL_S, resendAfter: RESEND_CODE_COUNTDOWN_S };
  }

  /**
   * One try of the number's live code of `purpose`, counted against the code-check limits
   * first (per number and per address, as enter-pin). The owner of a consumed code, or an
   * error: PIN_EXPIRED when there is no live code (none, used, expired, or this was its last
   * try — a security event in the owner's activity log), `wrong` otherwise.
   */
  async function tryCode(
    msisdn: string,
    purpose: CodePurpose,
    code: string,
    meta: ClientMeta,
    wrong: () => AppError,
  ): Promise<{ userId: string; at: Date; refund: () => Promise<void> }> {
    const permit = await limiter.consume([
      { policy: POLICIES.pinCheckNumber, subject: [msisdn] },
      { policy: POLICIES.pinCheckIp, subject: [meta.ip] },
    ]);
    const at = now();
    const attempt = await attemptCode(db, {
      msisdn,
      purpose,
      codeHash: hashCode(msisdn, code, purpose),
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
      throw wrong();
    }
    return { userId: attempt.userId, at, refund: () => permit.refund() };
  }

  /**
   * The number a signed-in user confirms with (ADR 0059): the one they sign in with by phone —
   * their own number when phone login with it signs them in, else a line of theirs.
   */
  async function confirmationNumberOf(userId: string): Promise<string> {
    const user = await findUserById(db, userId);
    if (!user) throw new AppError('UNAUTHORIZED', { detail: 'user of the session is gone' });
    if (user.phoneNumber) {
      // Phone login's own rule decides whether this number signs them in.
      const signsIn = await userOfNumber(user.phoneNumber).catch((error: unknown) => {
        if (error instanceof AppError) return null;
        throw error;
      });
      if (signsIn === userId) return user.phoneNumber;
    }
    const line = await findActiveLineOfUser(db, userId);
    if (line) return line.msisdn;
    throw new AppError('PHONE_NOT_REGISTERED', {
      detail: 'the user has no number to confirm with',
    });
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
      await limiter.consume(sendChecks(msisdn, meta));
      const userId = await userOfNumber(msisdn);
      return sendCode(msisdn, 'sign_in', userId, (code) =>
        pinCodeSms(locale, code, PIN_TTL_S / 60),
      );
    },

    /**
     * Signs in with the code: 401 INVALID_PIN for a wrong code, 410 PIN_EXPIRED when the number
     * has no live code (none, used, expired, or its tries used up — the last wrong try says so).
     */
    async enterPin(msisdn: string, code: string, meta: ClientMeta): Promise<Tokens> {
      const { userId, at, refund } = await tryCode(
        msisdn,
        'sign_in',
        code,
        meta,
        () => new AppError('INVALID_PIN'),
      );
      await refund();
      return deps.auth.signedIn(
        await db.transaction((tx) => deps.auth.startSession(tx, userId, meta, at)),
      );
    },

    /**
     * Sends a signed-in customer a code to confirm signing other devices out with (ADR 0059;
     * ASVS 5.0 7.5.2), to the number they sign in with by phone, in the request's language. The
     * same send limits, lifetime and resend countdown as a login code; the code works only for
     * confirming, and only for this user.
     */
    async requestConfirmationCode(
      caller: AuthUser,
      locale: Locale,
      meta: ClientMeta,
    ): Promise<ConfirmationCodeResponse> {
      const msisdn = await confirmationNumberOf(caller.id);
      await limiter.consume(sendChecks(msisdn, meta));
      const sent = await sendCode(msisdn, 'confirm', caller.id, (code) =>
        confirmationCodeSms(locale, code, PIN_TTL_S / 60),
      );
      return { phoneNumber: msisdn, ...sent };
    },

    /**
     * Checks a confirmation code of the caller: 422 CONFIRMATION_CODE_INCORRECT (`field:
     * code`) for a wrong one, 410 PIN_EXPIRED when there is no live code, 429 TOO_MANY_ATTEMPTS
     * past the code-check limits. A right code is spent.
     */
    async confirmWithCode(caller: AuthUser, code: string, meta: ClientMeta): Promise<void> {
      const wrong = () => new AppError('CONFIRMATION_CODE_INCORRECT', { field: 'code' });
      const msisdn = await confirmationNumberOf(caller.id);
      const confirmed = await tryCode(msisdn, 'confirm', code, meta, wrong);
      // Issued to another user of the same number meanwhile: not this caller's code.
      if (confirmed.userId !== caller.id) throw wrong();
      await confirmed.refund();
    },
  };
}

export type PhoneLoginService = ReturnType<typeof createPhoneLoginService>;
