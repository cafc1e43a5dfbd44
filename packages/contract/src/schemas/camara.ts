import { z } from 'zod/mini';

/*
 * The partner (bank) side of issue 32: OAuth 2.0 client credentials (RFC 6749 §4.4) at
 * POST /oauth/token, and the CAMARA SIM Swap API v2 (camaraproject/SimSwap r2.x,
 * code/API_definitions/sim-swap.yaml) at /camara/sim-swap/v2/*. These answers are NOT the
 * `{ data } | { error }` envelope of the self-care API: OAuth errors are RFC 6749 §5.2 bodies,
 * CAMARA errors `{ status, code, message }` (CAMARA ErrorInfo).
 */

/** Scopes a partner client may hold (CAMARA: `sim-swap` covers both operations). */
export const PARTNER_SCOPES = ['sim-swap', 'sim-swap:check', 'sim-swap:retrieve-date'] as const;
export const partnerScope = z.enum(PARTNER_SCOPES);
export type PartnerScope = z.infer<typeof partnerScope>;

export function isPartnerScope(scope: string): scope is PartnerScope {
  return (PARTNER_SCOPES as readonly string[]).includes(scope);
}

// ---------------------------------------------------------------------------------------------
// OAuth 2.0 client credentials

/**
 * POST /oauth/token, `application/x-www-form-urlencoded`. Every field is optional here: the
 * server answers a missing one with RFC 6749's `invalid_request` (or `invalid_client`), not a
 * schema failure. A repeated parameter arrives as an array and fails (RFC 6749 §3.2).
 */
export const oauthTokenRequest = z.object({
  grant_type: z.optional(z.string().check(z.maxLength(100))),
  client_id: z.optional(z.string().check(z.maxLength(200))),
  client_secret: z.optional(z.string().check(z.maxLength(200))),
  /** Space-delimited scopes (RFC 6749 §3.3); default all of the client's. */
  scope: z.optional(z.string().check(z.maxLength(500))),
});
export type OauthTokenRequest = z.infer<typeof oauthTokenRequest>;

export const oauthTokenResponse = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  /** Seconds. */
  expires_in: z.int(),
  /** The granted scopes, space-delimited. */
  scope: z.string(),
});
export type OauthTokenResponse = z.infer<typeof oauthTokenResponse>;

export const OAUTH_ERRORS = [
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
] as const;
export type OauthErrorCode = (typeof OAUTH_ERRORS)[number];

/** RFC 6749 §5.2. */
export const oauthError = z.object({
  error: z.enum(OAUTH_ERRORS),
  error_description: z.optional(z.string()),
});
export type OauthError = z.infer<typeof oauthError>;

// ---------------------------------------------------------------------------------------------
// CAMARA SIM Swap v2

/** E.164 with its '+' (CAMARA PhoneNumber). Ours are +298 and 6 digits. */
export const CAMARA_PHONE_NUMBER = /^\+[1-9][0-9]{4,14}$/;
export const camaraPhoneNumber = z
  .string()
  .check(z.regex(CAMARA_PHONE_NUMBER), z.describe('E.164 with the leading +, e.g. +298211234'));

/** x-correlator (SimSwap v2: `^[a-zA-Z0-9-]{0,55}$`), echoed on every answer. */
export const CAMARA_CORRELATOR = /^[a-zA-Z0-9-]{0,55}$/;

export const SIM_SWAP_MAX_AGE_DEFAULT_H = 240;

/** POST /camara/sim-swap/v2/check */
export const simSwapCheckRequest = z.object({
  /** Two-legged tokens only (ours): without it the answer is 422 MISSING_IDENTIFIER. */
  phoneNumber: z.optional(camaraPhoneNumber),
  /** Hours back from now (1–2400, default 240); outside: 400 OUT_OF_RANGE. */
  maxAge: z.optional(z.int().check(z.gte(1), z.lte(2400))),
});
export type SimSwapCheckRequest = z.infer<typeof simSwapCheckRequest>;

export const simSwapCheckResponse = z.object({
  /** A SIM change (a new subscription counts, CAMARA) within maxAge hours before now. */
  swapped: z.boolean(),
});
export type SimSwapCheckResponse = z.infer<typeof simSwapCheckResponse>;

/** POST /camara/sim-swap/v2/retrieve-date */
export const simSwapDateRequest = z.object({
  phoneNumber: z.optional(camaraPhoneNumber),
});
export type SimSwapDateRequest = z.infer<typeof simSwapDateRequest>;

export const simSwapDateResponse = z.object({
  /** RFC 3339 with its zone: the latest SIM change, or the activation when never changed. */
  latestSimChange: z.nullable(z.string()),
  /** Days monitored (only when the date is not given because it is older than that). */
  monitoredPeriod: z.optional(z.int()),
});
export type SimSwapDateResponse = z.infer<typeof simSwapDateResponse>;

export const CAMARA_ERROR_CODES = [
  'INVALID_ARGUMENT',
  'OUT_OF_RANGE',
  'UNAUTHENTICATED',
  'PERMISSION_DENIED',
  'NOT_FOUND',
  'IDENTIFIER_NOT_FOUND',
  'SERVICE_NOT_APPLICABLE',
  'MISSING_IDENTIFIER',
  'UNNECESSARY_IDENTIFIER',
  'TOO_MANY_REQUESTS',
  'INTERNAL',
  'UNAVAILABLE',
] as const;
export type CamaraErrorCode = (typeof CAMARA_ERROR_CODES)[number];

/** CAMARA ErrorInfo. */
export const camaraError = z.object({
  status: z.int(),
  code: z.enum(CAMARA_ERROR_CODES),
  message: z.string(),
});
export type CamaraError = z.infer<typeof camaraError>;
