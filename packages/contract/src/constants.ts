/** Business constants and limits of SPEC §9, in one module. */
export const POLLING_INTERVAL_MS = 60_000;
export const NOTIFICATIONS_PAGE_SIZE = 15;
export const TOAST_DURATION_MS = 3_000;
export const DATA_REQUEST_FOLLOW_UP_DELAY_MS = 300;
export const PROMPT_CLEAR_DELAY_MS = 250;
export const TOKEN_REFRESH_THROTTLE_MS = 1_000;
export const COUNTRY_PREFIX = '298';
export const APP_VERSION = '3.0.0';
/** MB per GB. */
export const DATA_UNIT = 1024;
/** Data amounts (MB) at or above this show as "unlimited". */
export const UNLIMITED_DATA_MB = 1_024_000;
export const ROAMING = { callHours: 20, freeSms: true, dataGb: 50 } as const;
export const COMMITMENT_MONTHS = 6;
export const CURRENCY_SUFFIX = 'kr.';
/** VAT in the Faroe Islands (MVG), in per cent. */
export const VAT_PERCENT = 25;
export const DATE_FORMAT = 'DD.MM.YYYY';
export const POSTAL_CODE_LENGTH = 3;
export const PHONE_NUMBER_LENGTH = 6;
export const PASSWORD_MIN_LENGTH = 8;
/** Longest password we accept: bounds the cost of hashing (argon2id) a hostile input. */
export const PASSWORD_MAX_LENGTH = 200;
/**
 * Minimum age to register oneself (SPEC §5 leaves the limit open; 18 is the age of majority in
 * the Faroe Islands, so younger customers need a parent or guardian as the contract holder).
 */
export const MIN_AGE = 18;
/** Digits of the one-time code sent by SMS for phone login (SPEC §7 request-pin / enter-pin). */
export const PIN_LENGTH = 6;
/** Resend-code countdown (SPEC §9 leaves the value open; see docs/decisions). */
export const RESEND_CODE_COUNTDOWN_S = 60;
export const TIME_ZONE = 'Atlantic/Faroe';

/** Live connection (payment hub) settings, SPEC §9. */
export const HUB_SERVER_TIMEOUT_MS = 30_000;
export const HUB_KEEP_ALIVE_MS = 15_000;
export const HUB_REQUEST_TIMEOUT_MS = 100_000;
export const HUB_RECONNECT_DELAYS_MS = [0, 2_000, 10_000, 30_000] as const;

/** Error reporting (Sentry) settings, SPEC §9. */
export const ERROR_REPORTING = {
  environment: 'production',
  tracesSampleRate: 1.0,
  replaysSessionSampleRate: 0.1,
  replaysOnErrorSampleRate: 1.0,
  maskAllText: true,
  maskAllInputs: true,
} as const;

/** Preference keys under which the tokens are kept on the device (SPEC §3 "Auth tokens"). */
export const TOKEN_KEYS = { access: 'accessToken', refresh: 'refreshToken' } as const;
/** The language chosen on this device (SPEC §1): it wins over the account's on this device. */
export const LOCALE_KEY = 'locale';
/**
 * The language of the account last signed in on this device where none was chosen here (issue
 * 33 §3): shown at the next start, before the API is asked, and on the login screen after it.
 */
export const ACCOUNT_LOCALE_KEY = 'accountLocale';

/** Most usage records one POST /api/usage/records may carry (a charging system sends batches). */
export const USAGE_RECORDS_MAX = 1_000;
/**
 * The amounts, in MB, the app offers to give or ask for: 100 MB up to 5 GB. A gift offers only
 * those the giver may give now (`maxGiftMb` in rules/data-transfer).
 */
export const DATA_AMOUNT_STEPS_MB = [100, 250, 500, 1024, 2048, 3072, 5120] as const;

/** The native app's id: Capacitor `appId`, Android package and iOS bundle id (ADR 0054). */
export const NATIVE_APP_ID = 'fo.alda.selfcare';
/**
 * Days a deleted number rests before the number search offers it again (ADR 0056): calls and
 * texts meant for its last holder must not reach a new one. The API's NUMBER_QUARANTINE_DAYS
 * defaults to it; the app names it in the delete confirm.
 */
export const NUMBER_QUARANTINE_DAYS = 90;
