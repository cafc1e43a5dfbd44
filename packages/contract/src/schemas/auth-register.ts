import { z } from 'zod/mini';
import { MIN_AGE } from '../constants';
import { isPinCode } from '../rules/pin';
import { isOldEnough } from '../rules/age';
import { displayDateSchema, parseDisplayDate } from '../rules/date';
import { emailSchema } from '../rules/email';
import { newPasswordSchema, passwordRepeatSchema, withPasswordRepeat } from '../rules/password';
import { phoneNumber, phoneNumberInput } from '../rules/phone';
import { faroesePostCodeSchema } from '../rules/postcode';
import { requiredText } from '../rules/required';
import { tokens } from './auth';
import { numberClass } from '../rules/number-picker';
import { id, isoDateTime, okResponse, priceBreakdown } from './common';
import { withSignInDevice } from './sessions';

/**
 * Requests and answers of the auth calls that `schemas/auth.ts` does not cover (SPEC §7 Auth):
 * register, request-pin, enter-pin, forgot-password, reset-password, reserved-numbers.
 * Request schemas only transform idempotently (trim, normalise), so a form's parsed values can be
 * posted and parsed again by the API with the same result.
 */

/**
 * POST /api/auth/register. Validation keys per field: REQUIRED, TOO_LONG, INVALID_EMAIL,
 * INVALID_PHONE, INVALID_DATE, TOO_YOUNG (birthDate, below {@link MIN_AGE} in Atlantic/Faroe
 * today), INVALID_POSTCODE / UNKNOWN_POSTCODE, PASSWORD_TOO_WEAK, PASSWORDS_DO_NOT_MATCH
 * (passwordRepeat). birthDate stays `dd.mm.yyyy` on the wire; the API stores
 * `parseDisplayDate(birthDate)`.
 */
export const registerRequest = withPasswordRepeat(
  z.object({
    firstname: requiredText(100),
    lastname: requiredText(100),
    email: emailSchema,
    phoneNumber: phoneNumberInput,
    birthDate: displayDateSchema.check(
      z.refine((value) => {
        const iso = parseDisplayDate(value);
        // An empty or malformed date already failed above; report one problem per field.
        return iso === null || isOldEnough(iso, MIN_AGE);
      }, 'TOO_YOUNG'),
    ),
    address: requiredText(200),
    postCode: faroesePostCodeSchema,
    city: requiredText(100),
    password: newPasswordSchema,
    passwordRepeat: passwordRepeatSchema,
    ...withSignInDevice,
  }),
);

/**
 * The register request as the API validates it: the same fields and rules as
 * {@link registerRequest} except the age, which the API checks itself against its configured
 * limit (`MIN_AGE`, default {@link MIN_AGE}) and refuses with 422 `TOO_YOUNG`
 * (docs/decisions/0020-age-limit.md). The form keeps the age rule for instant feedback.
 */
export const registerRequestWithoutAgeLimit = z.safeExtend(registerRequest, {
  birthDate: displayDateSchema,
});
/** What the form holds and posts. */
export type RegisterRequestInput = z.input<typeof registerRequest>;
/** What the API works with after parsing. */
export type RegisterRequest = z.output<typeof registerRequest>;
/** Answer of register: the new user is signed in at once. */
export const registerResponse = tokens;

/** POST /api/auth/request-pin: sends a one-time code by SMS to a registered number. */
export const requestPinRequest = z.object({ phoneNumber: phoneNumberInput });
export type RequestPinRequest = z.output<typeof requestPinRequest>;

export const requestPinResponse = z.object({
  /** Seconds until the code stops working. */
  expiresIn: z.int().check(z.positive()),
  /** Seconds until another code may be requested (the resend countdown of SPEC §9). */
  resendAfter: z.int().check(z.nonnegative()),
});
export type RequestPinResponse = z.infer<typeof requestPinResponse>;

/** The one-time code: six digits ({@link isPinCode}) (`INVALID_PIN`). */
export const pinCode = z.string({ error: 'REQUIRED' }).check(
  z.trim(),
  z.minLength(1, 'REQUIRED'),
  z.refine((v) => v === '' || isPinCode(v), 'INVALID_PIN'),
);

/** POST /api/auth/enter-pin. SPEC §7 names the code field `password`. */
export const enterPinRequest = z.object({
  phoneNumber: phoneNumberInput,
  password: pinCode,
  ...withSignInDevice,
});
export type EnterPinRequest = z.output<typeof enterPinRequest>;
export const enterPinResponse = tokens;

/**
 * POST /api/auth/forgot-password. The answer is {@link okResponse} whether or not the address has
 * a user, so the call cannot be used to find out who is a customer.
 */
export const forgotPasswordRequest = z.object({ email: emailSchema });
export type ForgotPasswordRequest = z.output<typeof forgotPasswordRequest>;
export const forgotPasswordResponse = okResponse;

/**
 * POST /api/auth/reset-password with the token from the e-mailed link. The token is single-use;
 * on success every other session of the user ends and the caller is signed in.
 */
export const resetPasswordRequest = z.object({
  token: z
    .string({ error: 'REQUIRED' })
    .check(z.minLength(1, 'REQUIRED'), z.maxLength(200, 'TOO_LONG')),
  password: newPasswordSchema,
  ...withSignInDevice,
});
export type ResetPasswordRequest = z.output<typeof resetPasswordRequest>;
export const resetPasswordResponse = tokens;

/** The reset-password screen's form: the request plus the repeat (checked on the client only). */
export const resetPasswordForm = withPasswordRepeat(
  z.extend(resetPasswordRequest, { passwordRepeat: passwordRepeatSchema }),
);
export type ResetPasswordForm = z.input<typeof resetPasswordForm>;

/** POST /api/auth/reserved-numbers: is this number free to take in sign-up? */
export const reservedNumbersRequest = z.object({ phoneNumber: phoneNumberInput });
export type ReservedNumbersRequest = z.output<typeof reservedNumbersRequest>;

/**
 * The state of a number in number search:
 * - `free`: nobody has it; it is now reserved for the caller (`reservationId`, `reservedUntil`);
 * - `customer`: a customer has it (choose another number, or port it if it is yours);
 * - `reserved`: someone else is in a sign-up with it;
 * - `processing`: it is being set up for a subscription.
 * A number outside the provider's range answers `NUMBER_NOT_FOUND`.
 */
export const numberStatus = z.enum(['free', 'customer', 'reserved', 'processing']);
export type NumberStatus = z.infer<typeof numberStatus>;

export const reservedNumbersResponse = z.object({
  phoneNumber,
  status: numberStatus,
  /** Set when `status` is `free`: pass it as `phoneNumberReservationId` in the signup payload. */
  reservationId: z.nullable(id),
  reservedUntil: z.nullable(isoDateTime),
  /** Free numbers like the one asked for, to offer when it is taken. */
  suggestions: z.array(phoneNumber).check(z.maxLength(10)),
  /**
   * When `free`: the number's class of easy numbers and the one-off price operations set for it
   * (charged with the first payment, ADR 0077); both null for an ordinary number. A reservation
   * holds the price it was made at.
   */
  numberClass: z.nullable(numberClass),
  oneOffPrice: z.nullable(priceBreakdown),
});
export type ReservedNumbersResponse = z.infer<typeof reservedNumbersResponse>;
