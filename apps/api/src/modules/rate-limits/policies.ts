/**
 * The security limits of sign-in and its side doors (docs/decisions/0021-rate-limits-and-lockout.md).
 * Every window is a sliding 15 minutes, so a limit heals on its own: nobody stays locked out for
 * longer than the window once the attempts stop. The per-account limits are higher than the
 * per-address-per-account ones, so one attacker's address is stopped long before the account
 * itself is, and a customer can still sign in from their own phone or reset the password.
 */
export interface RateLimitPolicy {
  /** Readable scope, the first part of every counter key (kept in clear for operators). */
  name: string;
  /** Attempts allowed within any sliding window. */
  limit: number;
  windowS: number;
}

const WINDOW_S = 15 * 60;

export const POLICIES = {
  /** E-mail login: failed passwords from one address against one account. */
  loginIpAccount: { name: 'login:ip+account', limit: 5, windowS: WINDOW_S },
  /** E-mail login: failed passwords against one account from anywhere (a distributed guess). */
  loginAccount: { name: 'login:account', limit: 20, windowS: WINDOW_S },
  /**
   * E-mail login: failed passwords from one address against any account (credential stuffing).
   * Generous: many of our own customers share a few public addresses behind carrier NAT.
   */
  loginIp: { name: 'login:ip', limit: 100, windowS: WINDOW_S },
  /** request-pin: SMS sent to one number (on top of the 60 s resend countdown). */
  pinSendNumber: { name: 'pin-send:number', limit: 5, windowS: WINDOW_S },
  /** request-pin from one address, registered or not: bounds number enumeration (ADR 0022). */
  pinSendIp: { name: 'pin-send:ip', limit: 30, windowS: WINDOW_S },
  /** enter-pin: wrong codes for one number, across codes (each code also dies after 5 tries). */
  pinCheckNumber: { name: 'pin-check:number', limit: 10, windowS: WINDOW_S },
  /** enter-pin: wrong codes from one address against any number. */
  pinCheckIp: { name: 'pin-check:ip', limit: 50, windowS: WINDOW_S },
  /** forgot-password: reset e-mails to one account; over it, no e-mail is sent (still `ok`). */
  resetMailAccount: { name: 'reset-mail:account', limit: 3, windowS: WINDOW_S },
  /** forgot-password from one address. */
  resetMailIp: { name: 'reset-mail:ip', limit: 30, windowS: WINDOW_S },
  /** register from one address: bounds e-mail enumeration through EMAIL_ALREADY_REGISTERED. */
  registerIp: { name: 'register:ip', limit: 30, windowS: WINDOW_S },
  /** change-password: wrong current passwords of one signed-in user (a stolen access token). */
  currentPassword: { name: 'current-password:user', limit: 5, windowS: WINDOW_S },
  /**
   * Passkey sign-in challenges per address (ADR 0097): every visit of the login screens asks for
   * one (autofill), so the limit is well above a household's, and far below a flood.
   */
  passkeyOptionsIp: { name: 'passkey-options:ip', limit: 300, windowS: WINDOW_S },
  /** reserved-numbers: number look-ups by one caller (user, or address when anonymous). */
  numberSearch: { name: 'number-search:caller', limit: 60, windowS: WINDOW_S },
  /** free-numbers: sets of free numbers one caller asks for (the picker, issue 33 §1). */
  numberSuggestions: { name: 'number-suggestions:caller', limit: 60, windowS: WINDOW_S },
  /** Inbound port-out: wrong authorisation codes for one number (ADR 0076). */
  portOutCodeNumber: { name: 'port-out-code:number', limit: 5, windowS: WINDOW_S },
  /** The unlock e-mail's one-tap cancel (no sign-in) from one address (ADR 0076). */
  unlockLinkIp: { name: 'unlock-link:ip', limit: 30, windowS: WINDOW_S },
  /** Data exports (GDPR Art. 15/20, issue 32): ZIPs one customer asks for in a day. */
  dataExportUser: { name: 'data-export:user', limit: 3, windowS: 24 * 3600 },
  /** Support (issue 46): messages one customer writes in a sliding minute. */
  supportMessageUser: { name: 'support-message:user', limit: 10, windowS: 60 },
  /** Support (issue 46): images one customer uploads in a sliding minute. */
  supportUploadUser: { name: 'support-upload:user', limit: 15, windowS: 60 },
  /** Support (issue 46): new conversations one customer starts in a day. */
  supportConversationUser: { name: 'support-conversation:user', limit: 10, windowS: 24 * 3600 },
  /**
   * CAMARA calls of one partner client per sliding minute (issue 32); the limit here is the
   * default of PARTNER_RATE_LIMIT_PER_MIN, the camara module applies the configured one.
   */
  partnerCalls: { name: 'partner-calls:client', limit: 60, windowS: 60 },
} as const satisfies Record<string, RateLimitPolicy>;
