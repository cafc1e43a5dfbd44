import { z } from 'zod/mini';
import { PASSWORD_MAX_LENGTH } from '../constants';
import { PIN_CODE } from '../rules/pin';
import { phoneNumber } from '../rules/phone';
import { id, isoDateTime } from './common';
import { deviceMeta } from './status';

/*
 * Sessions you can see (issue 14, OWASP ASVS 5.0 V7; docs/decisions/0059-sessions-you-can-see.md):
 * the app names the device it signs in from, and the customer lists their signed-in devices and
 * signs out one or all others.
 */

/**
 * The device a sign-in comes from, sent (optionally) with every sign-in call: the SPEC §3 device
 * meta the app already sends to `POST /api/status`, plus `id`, the app's own identifier of the
 * installation (Capacitor `Device.getId()`: a random id kept by the app on the web, the vendor
 * id on iOS, the app-scoped id on Android). The server keeps only a hash of `id` and uses it to
 * tell a new device from a known one; without it, platform, model and user agent decide.
 */
export const signInDevice = z.extend(deviceMeta, {
  id: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
});
export type SignInDevice = z.infer<typeof signInDevice>;

/** `device` field of the sign-in requests (email-login, enter-pin, register, reset-password). */
export const withSignInDevice = { device: z.optional(signInDevice) };

/** What the app knows of the device of one session; null where the sign-in did not say. */
export const sessionDevice = z.object({
  /** The name the owner gave the device (e.g. "Rannvá's iPhone"); often null, always on the web. */
  name: z.nullable(z.string()),
  platform: z.nullable(z.enum(['ios', 'android', 'web'])),
  /** Model ("iPhone15,2", "Pixel 8"); on the web what the browser's user agent tells. */
  model: z.nullable(z.string()),
  osVersion: z.nullable(z.string()),
  /** A short form of the sign-in's User-Agent header, for sessions without device meta. */
  userAgent: z.nullable(z.string()),
});
export type SessionDevice = z.infer<typeof sessionDevice>;

/** One signed-in session of the caller (GET /api/auth/sessions). */
export const authSession = z.object({
  id,
  /** The session of the access token that asked: "this device". */
  current: z.boolean(),
  device: sessionDevice,
  /**
   * Where the sign-in came from: the ISO 3166-1 alpha-2 country of its IP address as the edge
   * (CDN, load balancer) named it in the header CLIENT_COUNTRY_HEADER, or null when unknown —
   * no header configured, none sent, or not a country. The app says "unknown" rather than guess.
   */
  country: z.nullable(z.string().check(z.regex(/^[A-Z]{2}$/))),
  /** When the customer signed in on it. */
  createdAt: isoDateTime,
  /** When it last fetched a new access token (at most ~15 minutes behind its last request). */
  lastSeenAt: isoDateTime,
});
export type AuthSession = z.infer<typeof authSession>;

/** GET /api/auth/sessions: the current session first, then the most recently seen. */
export const authSessionsResponse = z.array(authSession);
export type AuthSessionsResponse = z.infer<typeof authSessionsResponse>;

/** Path of POST /api/auth/sessions/{id}/sign-out. */
export const sessionIdParams = z.object({ id: z.uuid() });

/** A one-time SMS code ({@link PIN_CODE}) (`INVALID_PIN`). */
export const confirmationCode = z
  .string({ error: 'REQUIRED' })
  .check(z.trim(), z.regex(PIN_CODE, 'INVALID_PIN'));

/**
 * Authenticating again before ending other sessions (OWASP ASVS 5.0 7.5.2: "having
 * authenticated again with at least one factor"; ADR 0059): the current `password`, or the
 * `code` that POST /api/auth/sessions/confirmation-code sent by SMS — for customers who sign in
 * with phone codes only and have no password. One of the two (both: `INVALID` on `code`);
 * neither is 400 `VALIDATION_FAILED` `REQUIRED` on `password`, except when a session signs
 * itself out (a logout). A wrong password is 422 `PASSWORD_INCORRECT` (field `password`), a
 * wrong code 422 `CONFIRMATION_CODE_INCORRECT` (field `code`); both count against the sign-in
 * limits (429 `TOO_MANY_ATTEMPTS`).
 */
export const reauthentication = z
  .object({
    password: z.optional(
      z.string().check(z.minLength(1, 'REQUIRED'), z.maxLength(PASSWORD_MAX_LENGTH, 'TOO_LONG')),
    ),
    code: z.optional(confirmationCode),
  })
  .check(
    z.refine((v) => v.password === undefined || v.code === undefined, {
      error: 'INVALID',
      path: ['code'],
    }),
  );
export type Reauthentication = z.output<typeof reauthentication>;

/** POST /api/auth/sessions/{id}/sign-out: 204 once the password or code is right. */
export const signOutSessionRequest = reauthentication;
export type SignOutSessionRequest = z.input<typeof signOutSessionRequest>;

/** POST /api/auth/sessions/sign-out-others. */
export const signOutOthersRequest = reauthentication;
export type SignOutOthersRequest = z.input<typeof signOutOthersRequest>;

/**
 * POST /api/auth/sessions/confirmation-code: an SMS code was sent to `phoneNumber` (the number
 * the customer signs in with by phone), valid `expiresIn` seconds; another may be asked for
 * after `resendAfter` seconds.
 */
export const confirmationCodeResponse = z.object({
  phoneNumber,
  expiresIn: z.int().check(z.positive()),
  resendAfter: z.int().check(z.nonnegative()),
});
export type ConfirmationCodeResponse = z.infer<typeof confirmationCodeResponse>;

/** POST /api/auth/sessions/sign-out-others: how many sessions ended. */
export const signOutOthersResponse = z.object({ signedOut: z.int().check(z.nonnegative()) });
export type SignOutOthersResponse = z.infer<typeof signOutOthersResponse>;
