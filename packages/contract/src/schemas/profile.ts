import { z } from 'zod/mini';
import { PASSWORD_MAX_LENGTH } from '../constants';
import { isKnownPostCode, placeOfPostCode } from '../localities/lookup';
import { LOCALES } from '../locale';
import { usageAlertSwitches } from './auth';
import { emailSchema } from '../rules/email';
import { newPasswordSchema, passwordRepeatSchema, withPasswordRepeat } from '../rules/password';
import { faroesePostCodeSchema } from '../rules/postcode';
import { requiredText } from '../rules/required';

/**
 * The signed-in customer's own user (the profile screen `/min-brukari`, SPEC §2): edit, change
 * password, delete. GET /api/auth/me answers `user` of `schemas/auth.ts`.
 */

type AddressPart = { postCode?: unknown; city?: unknown };
const bothStrings = (v: AddressPart | undefined) =>
  typeof v?.postCode === 'string' && typeof v.city === 'string';

/**
 * PATCH /api/auth/me: every field is optional and only the fields sent change. Postal code and
 * city travel together (`REQUIRED` on the missing one), and the city must be a place of the
 * locality list with that postal code (`CITY_POSTCODE_MISMATCH` on `city`; SPEC §3). The e-mail
 * must not belong to another user (409 `EMAIL_ALREADY_REGISTERED`). The answer is the `user`.
 */
export const updateUserRequest = z
  .object({
    firstname: z.optional(requiredText(100)),
    lastname: z.optional(requiredText(100)),
    email: z.optional(emailSchema),
    address: z.optional(requiredText(200)),
    postCode: z.optional(faroesePostCodeSchema),
    city: z.optional(requiredText(100)),
    locale: z.optional(z.enum(LOCALES)),
    /** Phone-book visibility (SPEC §1). */
    showInPhoneBook: z.optional(z.boolean()),
    /** Usage alerts (ADR 0066): only the switches sent change. */
    usageAlerts: z.optional(z.strictObject(z.partial(usageAlertSwitches).shape)),
  })
  .check(
    z.refine((v) => v.city !== undefined || v.postCode === undefined, {
      error: 'REQUIRED',
      path: ['city'],
    }),
    z.refine((v) => v.postCode !== undefined || v.city === undefined, {
      error: 'REQUIRED',
      path: ['postCode'],
    }),
    z.refine(
      (v) =>
        !bothStrings(v) ||
        // A malformed or blank field has already reported its own problem.
        !isKnownPostCode(v.postCode ?? '') ||
        (v.city ?? '').trim() === '' ||
        placeOfPostCode(v.postCode ?? '', v.city ?? '') !== undefined,
      {
        error: 'CITY_POSTCODE_MISMATCH',
        path: ['city'],
        when: (payload) => bothStrings(payload.value as AddressPart | undefined),
      },
    ),
  );
export type UpdateUserRequestInput = z.input<typeof updateUserRequest>;
export type UpdateUserRequest = z.output<typeof updateUserRequest>;

/**
 * POST /api/auth/change-password. A wrong current password answers 422
 * `CURRENT_PASSWORD_INCORRECT` (field `currentPassword`); success ends every other session of the
 * user and answers `{ ok: true }` — the caller's own session stays signed in.
 */
export const changePasswordRequest = z.object({
  currentPassword: z
    .string({ error: 'REQUIRED' })
    .check(z.minLength(1, 'REQUIRED'), z.maxLength(PASSWORD_MAX_LENGTH, 'TOO_LONG')),
  password: newPasswordSchema,
});
export type ChangePasswordRequest = z.output<typeof changePasswordRequest>;

/** The change-password form: the request plus the repeat (checked on the client only). */
export const changePasswordForm = withPasswordRepeat(
  z.extend(changePasswordRequest, { passwordRepeat: passwordRepeatSchema }),
);
export type ChangePasswordForm = z.input<typeof changePasswordForm>;
