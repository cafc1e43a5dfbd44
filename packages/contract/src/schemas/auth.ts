import { z } from 'zod/mini';
import { withSignInDevice } from './sessions';

/** Token pair returned by every login and by refresh (SPEC §3 "Auth tokens", §7 Auth). */
export const tokens = z.object({
  accessToken: z.string().check(z.minLength(1)),
  refreshToken: z.string().check(z.minLength(1)),
  /** Lifetime of the access token in seconds. */
  expiresIn: z.int().check(z.positive()),
});
export type Tokens = z.infer<typeof tokens>;

export const emailLoginRequest = z.object({
  email: z.string().check(z.trim(), z.minLength(1), z.maxLength(254)),
  password: z.string().check(z.minLength(1), z.maxLength(200)),
  ...withSignInDevice,
});
export type EmailLoginRequest = z.infer<typeof emailLoginRequest>;

export const refreshTokenRequest = z.object({
  refreshToken: z.string().check(z.minLength(1), z.maxLength(200)),
});
export type RefreshTokenRequest = z.infer<typeof refreshTokenRequest>;

export const logoutRequest = z.object({
  refreshToken: z.string().check(z.minLength(1), z.maxLength(200)),
});

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
  phoneNumber: z.nullable(z.string()),
  birthDate: z.nullable(z.string()),
  address: z.nullable(z.string()),
  postCode: z.nullable(z.string()),
  city: z.nullable(z.string()),
  locale: z.enum(['fo', 'en']),
  createdAt: z.iso.datetime({ offset: true }),
  /**
   * Whether the customer's name and number may be listed in the phone book (SPEC §1 "phone-book
   * visibility"); off unless the customer turns it on. Optional only so older answers still parse.
   */
  showInPhoneBook: z.optional(z.boolean()),
  /**
   * False for a customer who signs in with phone codes only and has no password: where others
   * give their password again (signing other devices out, ADR 0059) they confirm with an SMS
   * code. Optional only so older answers still parse; absent means true.
   */
  hasPassword: z.optional(z.boolean()),
  /**
   * Usage alerts (ADR 0066): a notification at 80 % and at 100 % of a line's month's data (each
   * on unless turned off), and the same by e-mail when `email` is on (off unless chosen).
   * Optional only so older answers still parse; absent means the defaults.
   */
  usageAlerts: z.optional(usageAlertSwitches),
});
export type User = z.infer<typeof user>;
