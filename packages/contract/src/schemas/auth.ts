import { z } from 'zod';
import { withSignInDevice } from './sessions';

/** Token pair returned by every login and by refresh (SPEC §3 "Auth tokens", §7 Auth). */
export const tokens = z.object({
  accessToken: z.string().min(1),
  refreshToken: z.string().min(1),
  /** Lifetime of the access token in seconds. */
  expiresIn: z.number().int().positive(),
});
export type Tokens = z.infer<typeof tokens>;

export const emailLoginRequest = z.object({
  email: z.string().trim().min(1).max(254),
  password: z.string().min(1).max(200),
  ...withSignInDevice,
});
export type EmailLoginRequest = z.infer<typeof emailLoginRequest>;

export const refreshTokenRequest = z.object({ refreshToken: z.string().min(1).max(200) });
export type RefreshTokenRequest = z.infer<typeof refreshTokenRequest>;

export const logoutRequest = z.object({ refreshToken: z.string().min(1).max(200) });

/** The signed-in user (GET /api/auth/me). SPEC §3 names id, firstname, lastname; the rest is ours. */
/** The usage alert switches (ADR 0066). */
export const usageAlertSwitches = z.object({
  at80: z.boolean(),
  at100: z.boolean(),
  email: z.boolean(),
});
export type UsageAlertSwitches = z.infer<typeof usageAlertSwitches>;

/** A new user's switches (the `users` columns' defaults), and those of an answer without any. */
export const USAGE_ALERT_DEFAULTS: UsageAlertSwitches = { at80: true, at100: true, email: false };

export const user = z.object({
  id: z.string(),
  firstname: z.string(),
  lastname: z.string(),
  email: z.string(),
  /** 6 digits, without the 298 prefix. */
  phoneNumber: z.string().nullable(),
  birthDate: z.string().nullable(),
  address: z.string().nullable(),
  postCode: z.string().nullable(),
  city: z.string().nullable(),
  locale: z.enum(['fo', 'en']),
  createdAt: z.iso.datetime({ offset: true }),
  /**
   * Whether the customer's name and number may be listed in the phone book (SPEC §1 "phone-book
   * visibility"); off unless the customer turns it on. Optional only so older answers still parse.
   */
  showInPhoneBook: z.boolean().optional(),
  /**
   * False for a customer who signs in with phone codes only and has no password: where others
   * give their password again (signing other devices out, ADR 0059) they confirm with an SMS
   * code. Optional only so older answers still parse; absent means true.
   */
  hasPassword: z.boolean().optional(),
  /**
   * Usage alerts (ADR 0066): a notification at 80 % and at 100 % of a line's month's data (each
   * on unless turned off), and the same by e-mail when `email` is on (off unless chosen).
   * Optional only so older answers still parse; absent means the defaults.
   */
  usageAlerts: usageAlertSwitches.optional(),
});
export type User = z.infer<typeof user>;
