/**
 * Stable error codes of the self-care API. The HTTP status of each lives here; the localized
 * message lives in `locales/errors.<lang>.json` (one home, used by the API and the web app).
 */
export const ERROR_STATUS = {
  VALIDATION_FAILED: 400,
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  /** Email login with an unknown address or a wrong password (SPEC §8 Login). */
  INVALID_CREDENTIALS: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  ROUTE_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  SERVICE_UNAVAILABLE: 503,
  /**
   * The database cannot be reached right now (down, restarting, failing over, the network to it
   * cut). Carries `retryAfter` (seconds) and a `Retry-After` header; a retried mutation is safe
   * with its idempotency key (docs/decisions/0060-database-outage.md).
   */
  DATABASE_UNAVAILABLE: 503,

  // Domain errors (SPEC §8). Login endpoints answer 401 for bad credentials or codes: SPEC §8
  // exempts them from the token-refresh handling, so the web shows the message instead. SPEC
  // §8's 'Login failed' is the app's own message for a login that fails for any other reason
  // (no connection, the server): `auth.email.failed` in the app's texts, not an API code.
  /** Registration with an email that already has a user (the web offers password reset). */
  EMAIL_ALREADY_REGISTERED: 409,
  /** Phone login (request-pin) for a number no user has. */
  PHONE_NOT_REGISTERED: 404,
  /** Phone login for a number whose subscription is still being set up. */
  PHONE_PROCESSING: 409,
  /** Number search or data request for a number that does not exist. */
  NUMBER_NOT_FOUND: 404,
  /** Giving more data than the member has left (SPEC §5). */
  INSUFFICIENT_DATA: 422,
  /** Giving more data than this month's give allowance (givenData max − current, SPEC §5). */
  GIVE_LIMIT_REACHED: 422,
  /** A data request or gift to one's own number (SPEC §5). */
  SELF_REQUEST: 422,
  /** A data request to a number that does not take requests (SPEC §5). */
  REQUEST_NOT_ALLOWED: 422,
  /** Registration below the age limit; a parent or guardian must register (SPEC §5). */
  TOO_YOUNG: 422,
  /** Phone login with a wrong one-time code. */
  INVALID_PIN: 401,
  /** Phone login with a one-time code that has expired or was used up. */
  PIN_EXPIRED: 410,
  /** Password reset with an unknown, used or expired token. */
  TOKEN_INVALID: 400,
  /** Family management by someone who is not the owner (SPEC §6). */
  OWNER_ONLY: 403,
  /** Deleting one's user while a subscription is still active (SPEC §6). */
  HAS_ACTIVE_SUBSCRIPTION: 409,
  /** A change that must wait until a processing order completes (SPEC §4). */
  ORDER_PROCESSING: 409,
  /** A plan change that is not possible now (processing orders, prepaid plan; SPEC §4). */
  PLAN_CHANGE_BLOCKED: 409,
  /** Adding a member to a family plan that has no room left (SPEC §4 "Family capacity"). */
  FAMILY_FULL: 409,
  /** Registration with a phone number that already belongs to a customer. */
  PHONE_ALREADY_REGISTERED: 409,
  /**
   * A new one-time code asked for before the resend countdown is over; the error carries
   * `retryAfter` (seconds) and a `Retry-After` header.
   */
  PIN_RESEND_TOO_SOON: 429,
  /**
   * Too many login, code or reset attempts for this account, number or network address in the
   * last 15 minutes (docs/decisions/0021-rate-limits-and-lockout.md); carries `retryAfter`.
   */
  TOO_MANY_ATTEMPTS: 429,
  /** Change password with a wrong current password (not 401: the caller is signed in). */
  CURRENT_PASSWORD_INCORRECT: 422,
  /** The SMS with a one-time code could not be handed to the SMS gateway. */
  SMS_NOT_SENT: 503,
  /** A purchase or payment call without an `Idempotency-Key` header (ADR 0050). */
  IDEMPOTENCY_KEY_REQUIRED: 400,
  /** The same `Idempotency-Key` sent again with a different request body. */
  IDEMPOTENCY_KEY_REUSED: 422,
  /** An extra package that is not for sale (any more) or not for this number. */
  PACKAGE_NOT_AVAILABLE: 422,
  /** A top-up for a number that is not prepaid (talutíð). */
  TOP_UP_NOT_PREPAID: 422,
  /** A top-up amount outside the offered range. */
  TOP_UP_AMOUNT_INVALID: 422,
  /** Paying with the card on file without an active payment agreement. */
  AGREEMENT_REQUIRED: 409,
  /** The month's subscription price is already paid. */
  ALREADY_PAID: 409,
  /** There is nothing to pay this month (no subscriptions with a price). */
  NOTHING_TO_PAY: 409,
  /** The card payment provider did not answer or refused the request. */
  PAYMENT_PROVIDER_UNAVAILABLE: 503,
  /**
   * A way to pay the configured provider does not offer (MobilePay with the test provider), or
   * the agreement on file for a purchase when the provider charges agreements only days later.
   */
  PAYMENT_METHOD_UNAVAILABLE: 422,
  /** A webhook whose signature or timestamp does not verify. */
  WEBHOOK_SIGNATURE_INVALID: 400,
  /** The receipt e-mail could not be handed to the mail server. */
  RECEIPT_EMAIL_FAILED: 503,
  BILL_EMAIL_FAILED: 503,
  /** Porting in a number that is already a line with us (SPEC §3 "Signup payload" porting). */
  NUMBER_ALREADY_OURS: 409,
  /**
   * The number reservation of a sign-up has run out or was taken over: choose another number
   * (SPEC §8 "searching numbers (including a 'choose another number' message)").
   */
  RESERVATION_EXPIRED: 409,
  /** A SIM pickup shop that is not on the list (GET /api/sim-pickup-locations). */
  PICKUP_LOCATION_NOT_FOUND: 422,
  /** A plan that is not for sale, or not of the type being signed up for. */
  PLAN_NOT_AVAILABLE: 422,
  /** A second family plan for an owner who has one (add a member to it instead). */
  FAMILY_ACCOUNT_EXISTS: 409,
  /** A customer step on an order that is not waiting for it (confirm SIM, correct a port). */
  ORDER_NOT_WAITING: 409,
  /** PIN and PUK asked for a number with an eSIM: only a physical SIM card has them to show. */
  SIM_NOT_PHYSICAL: 409,
  // The subscription lifecycle (docs/decisions/0056-subscription-lifecycle.md).
  /** A plan change to the plan the number already has. */
  PLAN_UNCHANGED: 409,
  /** Family → individual while the family has more than one member (move or remove them first). */
  FAMILY_HAS_MEMBERS: 409,
  /** A cancellation or deactivation of something already cancelled or ending. */
  ALREADY_CANCELLED: 409,
  /** Deactivating the plan of a number that is already prepaid (talutíð). */
  LINE_IS_PREPAID: 409,
  /** A hand-over to an e-mail address no Alda user logs in with. */
  RECIPIENT_NOT_FOUND: 404,
  /** A hand-over of a number to its own user. */
  HANDOVER_TO_SELF: 422,
  /** Signing out a session that is not one of the caller's signed-in sessions (ADR 0059). */
  SESSION_NOT_FOUND: 404,
  /**
   * Signing other devices out with a wrong password (re-authentication, ASVS 5.0 7.5.2; ADR
   * 0059). Not 401: the caller is signed in, and the SPEC §8 client would refresh and retry.
   */
  PASSWORD_INCORRECT: 422,
  /** Signing other devices out with a wrong SMS confirmation code (not 401, as above). */
  CONFIRMATION_CODE_INCORRECT: 422,
  /**
   * Owner controls (pause data, approval of purchases) asked for on the owner's own number:
   * they are for members' numbers only (issue 16.3, ADR 0068).
   */
  CONTROLS_OWN_LINE: 422,
  /**
   * A member buys an extra package for a number whose owner requires approval: the purchase is
   * sent as a package request instead (POST /api/package-requests; ADR 0068).
   */
  APPROVAL_REQUIRED: 409,
  /** The network did not carry out a change of the number (data paused or resumed); retry. */
  NETWORK_UNAVAILABLE: 503,
  /**
   * Raising a number's roaming spend cap or turning it off without `confirmed: true`: the app
   * must first show the confirmation that names the risk (issue 33 §2, ADR 0078).
   */
  ROAMING_CAP_CONFIRMATION_REQUIRED: 422,
  // The staff side (docs/decisions/0075-staff-console.md).
  /** Staff sign-in with a wrong e-mail, password or TOTP code, or a code already used. */
  STAFF_SIGN_IN_FAILED: 401,
  /** A staff session that ended: idle 15 minutes, 8 hours old, signed out, or the account disabled. */
  STAFF_SESSION_EXPIRED: 401,
  /** A staff action that must say why (a ticket or call reference) without one. */
  STAFF_REASON_REQUIRED: 400,
  /** A staff action on an order, payment, number or text that is not in a state for it. */
  STAFF_ACTION_NOT_ALLOWED: 409,
  /** A staff account with that e-mail address exists. */
  STAFF_EXISTS: 409,
  /** Staff sign-in with a TOTP or recovery code for a role whose admin requires passkeys. */
  STAFF_PASSKEY_REQUIRED: 401,
  // Passkeys (docs/decisions/0097-passkeys.md). A refused WebAuthn answer changes nothing.
  /** A passkey answer to a challenge that is unknown or was answered already (a replay). */
  PASSKEY_CHALLENGE_INVALID: 400,
  /** A passkey answer to a challenge older than five minutes. */
  PASSKEY_CHALLENGE_EXPIRED: 400,
  /** A passkey answer made on another site or app than ours (clientDataJSON's origin). */
  PASSKEY_ORIGIN_MISMATCH: 400,
  /** A passkey answer for another relying party (the authenticator data's RP ID hash). */
  PASSKEY_RP_MISMATCH: 400,
  /** The authenticator did not verify the user (no PIN, fingerprint or face: the UV flag). */
  PASSKEY_USER_NOT_VERIFIED: 400,
  /** A passkey answer that is malformed or whose signature does not verify. */
  PASSKEY_INVALID: 400,
  /** Sign-in with a passkey this account does not have (unknown, removed, or another user's). */
  PASSKEY_NOT_RECOGNISED: 401,
  /** A signature counter that did not go up: the passkey may have been copied. */
  PASSKEY_COUNTER_INVALID: 401,
  /** Adding a passkey the account has already. */
  PASSKEY_ALREADY_REGISTERED: 409,
  /** Renaming or deleting a passkey that is not one of the caller's. */
  PASSKEY_NOT_FOUND: 404,
  /** Deleting the passkey that is the account's last way to sign in (no password, no number). */
  PASSKEY_LAST_WAY_IN: 409,
  /** A status message whose window ends before it starts, or has ended already. */
  STATUS_WINDOW_INVALID: 400,
  /** A refund of more than is left of the payment (paid, less refunds done or pending). */
  REFUND_TOO_LARGE: 409,
  // Number protection (issue 32, docs/decisions/0076-number-protection.md).
  /** A port-out, SIM change or new eSIM for a number its customer has locked. */
  NUMBER_LOCKED: 409,
  /** Cancelling an unlock of a number that has none waiting. */
  NUMBER_UNLOCK_NOT_PENDING: 409,
  /** The one-tap cancel link of an unlock whose signature is wrong or whose unlock no longer waits. */
  UNLOCK_LINK_INVALID: 410,
  /** A port-out with a wrong, used or expired authorisation code, or for a number not ours. */
  PORT_OUT_CODE_INVALID: 422,
  /** A data export asked for while one is still being prepared. */
  DATA_EXPORT_PENDING: 409,
  /** A data export link whose time is over, whose signature is wrong, or that was removed. */
  DATA_EXPORT_LINK_INVALID: 410,
  // Support conversations (issue 46, docs/decisions/0088-support-conversations.md).
  /** A subject (order, payment, receipt, line) that is not the caller's, or does not exist. */
  SUPPORT_SUBJECT_NOT_FOUND: 404,
  /** Writing in a conversation closed more than 14 days ago: a new one is started instead. */
  SUPPORT_CONVERSATION_CLOSED: 409,
  /** Rating a conversation that is still open, or rated already. */
  SUPPORT_RATING_NOT_ALLOWED: 409,
  /** Assigning to someone who is not an active support or admin member. */
  SUPPORT_ASSIGNEE_INVALID: 400,
  /** An attachment that is not a JPEG, PNG or HEIC image by its content. */
  ATTACHMENT_TYPE_NOT_ALLOWED: 415,
  /** An attachment over 5 MB. */
  ATTACHMENT_TOO_LARGE: 413,
  /** An image that cannot be read (damaged, or far too many pixels). */
  ATTACHMENT_UNREADABLE: 422,
  // The usage feed on TMF635 (issue 43 §2, docs/decisions/0083-usage-tmf635.md): why the
  // charging system's Usage was refused, one record at a time.
  /** A body that is neither a TMF635 Usage nor a list of them, or a list item that is not one. */
  USAGE_NOT_A_USAGE: 400,
  /** A batch of no Usage, or of more than USAGE_RECORDS_MAX (1000). */
  USAGE_BATCH_SIZE: 400,
  /** A field of a Usage that is not as the document or the feed needs it (`message` names it). */
  USAGE_INVALID: 400,
  /** No Faroese number to book on (no msisdn, not a number, or two different ones). */
  USAGE_NUMBER_INVALID: 400,
  /** Data use without a data volume, or a volume without its unit. */
  USAGE_VOLUME_MISSING: 400,
  /** A data volume in a unit we do not take (B, KB, MB, GB and KiB, MiB, GiB are taken). */
  USAGE_UNIT_UNSUPPORTED: 400,
  /** A roaming zone other than `domestic` or `eu` (Alda sells data abroad in the EU/EEA only). */
  USAGE_ZONE_UNSUPPORTED: 400,
  /** A rated amount in a currency other than DKK. */
  USAGE_CURRENCY_UNSUPPORTED: 400,
  /** Usage for a number without a live line; not stored, so it can be sent again later. */
  UNKNOWN_NUMBER: 422,
  /** A push address for a platform this installation does not send to (not configured). */
  PUSH_NOT_AVAILABLE: 409,
  /** Switching off a channel that is always used for that kind (security pushes, receipts). */
  CHANNEL_ALWAYS_ON: 422,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

export const isErrorCode = (value: unknown): value is ErrorCode =>
  typeof value === 'string' && Object.hasOwn(ERROR_STATUS, value);
