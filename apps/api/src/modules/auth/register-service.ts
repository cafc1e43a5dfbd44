import type { Locale } from '@alda/contract/locale';
import { placeOfPostCode } from '@alda/contract/localities/lookup';
import { isOldEnough } from '@alda/contract/rules/age';
import { parseDisplayDate } from '@alda/contract/rules/date';
import type { Tokens } from '@alda/contract/schemas/auth';
import type { RegisterRequest } from '@alda/contract/schemas/auth-register';
import type { Db } from '../../db/client';
import { uniqueViolationOf } from '../../db/errors';
import { AppError } from '../../errors';
import { findLiveLine } from '../phone-lines/lines';
import { POLICIES } from '../rate-limits/policies';
import type { RateLimiter } from '../rate-limits/service';
import { findUserByEmail, findUserByPhoneNumber, insertUser } from '../users/records';
import { hashPassword } from './passwords';
import type { AuthService, ClientMeta } from './service';

export interface RegisterServiceDeps {
  db: Db;
  now: () => Date;
  limiter: RateLimiter;
  auth: Pick<AuthService, 'startSession' | 'signedIn'>;
  /** Age limit in whole years (MIN_AGE; docs/decisions/0020-age-limit.md). */
  minAge: number;
}

/** Registration (SPEC §2 /stovna-brukara, §5): the new user is signed in at once. */
export function createRegisterService(deps: RegisterServiceDeps) {
  const { db, now } = deps;

  const emailTaken = () => new AppError('EMAIL_ALREADY_REGISTERED', { field: 'email' });
  const phoneTaken = () => new AppError('PHONE_ALREADY_REGISTERED', { field: 'phoneNumber' });

  /** A number is a customer's when it is someone's own number or a line of ours used by someone. */
  async function isCustomersNumber(msisdn: string): Promise<boolean> {
    if (await findUserByPhoneNumber(db, msisdn)) return true;
    const line = await findLiveLine(db, msisdn);
    return Boolean(line?.userId);
  }

  return {
    /**
     * Refusals, in the order a person can fix them: too young (422 TOO_YOUNG: a parent or
     * guardian must register), a city that is not the postal code's (400, field city), e-mail
     * already registered (409, the web offers a password reset), phone number already a
     * customer's (409). The locale of the request becomes the user's language.
     */
    async register(input: RegisterRequest, locale: Locale, meta: ClientMeta): Promise<Tokens> {
      await deps.limiter.consume([{ policy: POLICIES.registerIp, subject: [meta.ip] }]);
      const birthDate = parseDisplayDate(input.birthDate);
      if (!birthDate)
        throw new AppError('VALIDATION_FAILED', {
          field: 'birthDate',
          validationKey: 'INVALID_DATE',
        });
      if (!isOldEnough(birthDate, deps.minAge, now())) {
        throw new AppError('TOO_YOUNG', { field: 'birthDate' });
      }
      const place = placeOfPostCode(input.postCode, input.city);
      if (!place) {
        throw new AppError('VALIDATION_FAILED', {
          field: 'city',
          validationKey: 'CITY_POSTCODE_MISMATCH',
        });
      }
      if (await findUserByEmail(db, input.email)) throw emailTaken();
      if (await isCustomersNumber(input.phoneNumber)) throw phoneTaken();

      const passwordHash = await hashPassword(input.password);
      const at = now();
      try {
        const started = await db.transaction(async (tx) => {
          const user = await insertUser(tx, {
            firstname: input.firstname,
            lastname: input.lastname,
            email: input.email,
            phoneNumber: input.phoneNumber,
            birthDate,
            address: input.address,
            postCode: input.postCode,
            city: place.name,
            locale,
            passwordHash,
            createdAt: at,
          });
          return deps.auth.startSession(tx, user.id, meta, at);
        });
        return deps.auth.signedIn(started);
      } catch (error) {
        // Lost a race with another registration of the same address or number.
        const constraint = uniqueViolationOf(error);
        if (constraint === 'users_email_unique') throw emailTaken();
        if (constraint === 'users_phone_number_unique') throw phoneTaken();
        throw error;
      }
    },
  };
}

export type RegisterService = ReturnType<typeof createRegisterService>;
