import { z } from 'zod';
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
export const signInDevice = deviceMeta.extend({
  id: z.string().min(1).max(200).optional(),
});
export type SignInDevice = z.infer<typeof signInDevice>;

/** `device` field of the sign-in requests (email-login, enter-pin, register, reset-password). */
export const withSignInDevice = { device: signInDevice.optional() };

/** What the app knows of the device of one session; null where the sign-in did not say. */
export const sessionDevice = z.object({
  /** The name the owner gave the device (e.g. "Rannvá's iPhone"); often null, always on the web. */
  name: z.string().nullable(),
  platform: z.enum(['ios', 'android', 'web']).nullable(),
  /** Model ("iPhone15,2", "Pixel 8"); on the web what the browser's user agent tells. */
  model: z.string().nullable(),
  osVersion: z.string().nullable(),
  /** A short form of the sign-in's User-Agent header, for sessions without device meta. */
  userAgent: z.string().nullable(),
});
export type SessionDevice = z.infer<typeof sessionDevice>;

/** One signed-in session of the caller (GET /api/auth/sessions). */
export const authSession = z.object({
  id,
  /** The session of the access token that asked: "this device". */
  current: z.boolean(),
  device: sessionDevice,
  /**
   * Where the sign-in came from, as an ISO 3166-1 alpha-2 country code of its IP address, or
   * null when unknown. No IP-to-country lookup is configured, so it is null today; the app says
   * "unknown" rather than guess.
   */
  country: z.string().length(2).nullable(),
  /** When the customer signed in on it. */
  createdAt: isoDateTime,
  /** When it last fetched a new access token (at most ~15 minutes behind its last request). */
  lastSeenAt: isoDateTime,
});
export type AuthSession = z.infer<typeof authSession>;

/** GET /api/auth/sessions: the current session first, then the most recently seen. */
export const authSessionsResponse = z.array(authSession);
export type AuthSessionsResponse = z.infer<typeof authSessionsResponse>;

/** Path of DELETE /api/auth/sessions/{id}. */
export const sessionIdParams = z.object({ id: z.uuid() });

/** POST /api/auth/sessions/sign-out-others: how many sessions ended. */
export const signOutOthersResponse = z.object({ signedOut: z.number().int().nonnegative() });
export type SignOutOthersResponse = z.infer<typeof signOutOthersResponse>;
