import { z } from 'zod';
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
    firstname: requiredText(100).optional(),
    lastname: requiredText(100).optional(),
    email: emailSchema.optional(),
    address: requiredText(200).optional(),
    postCode: faroesePostCodeSchema.optional(),
    city: requiredText(100).optional(),
    locale: z.enum(LOCALES).optional(),
    /** Phone-book visibility (SPEC §1). */
    showInPhoneBook: z.boolean().optional(),
    /** Usage alerts (ADR 0066): only the switches sent change. */
    usageAlerts: usageAlertSwitches.partial().strict().optional(),
  })
  .refine((v) => v.city !== undefined || v.postCode === undefined, {
    error: 'REQUIRED',
    path: ['city'],
  })
  .refine((v) => v.postCode !== undefined || v.city === undefined, {
    error: 'REQUIRED',
    path: ['postCode'],
  })
  .refine(
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
    .min(1, 'REQUIRED')
    .max(PASSWORD_MAX_LENGTH, 'TOO_LONG'),
  password: newPasswordSchema,
});
export type ChangePasswordRequest = z.output<typeof changePasswordRequest>;

/** The change-password form: the request plus the repeat (checked on the client only). */
export const changePasswordForm = withPasswordRepeat(
  changePasswordRequest.extend({ passwordRepeat: passwordRepeatSchema }),
);
export type ChangePasswordForm = z.input<typeof changePasswordForm>;
