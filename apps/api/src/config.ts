import { createHmac, randomBytes } from 'node:crypto';
import path from 'node:path';
import semver from 'semver';
import { z } from 'zod';
import { APP_VERSION, MIN_AGE, NUMBER_QUARANTINE_DAYS } from '@alda/contract/constants';
import { DEFAULT_CONSOLE_DIST, DEFAULT_WEB_DIST } from './paths';
import { NUMBER_UNLOCK_DELAY_H_DEFAULT } from '@alda/contract/rules/number-protection';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const semverString = z
  .string()
  .refine((value) => semver.valid(value) !== null, 'must be a semver version like 3.0.0');

/** Optional string where an empty value counts as unset (as in `FOO= npm start`). */
const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

/** `a, b,,c` → `['a', 'b', 'c']`; unset → `[]`. */
function commaList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}

/** `smpp://system_id:password@host[:port]` (or `smpps://` for TLS), as the SMPP adapter reads it. */
function isSmppUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return ['smpp:', 'smpps:'].includes(url.protocol) && url.hostname !== '' && url.username !== '';
  } catch {
    return false;
  }
}

/** SMPP 3.4 §4.1.1: system_id is at most 16 octets with its NUL, password at most 9. */
const SMPP_CREDENTIAL_LIMITS = { system_id: 15, password: 8 } as const;

/** The system_id and password of an SMPP_URL, decoded; null when it is no URL. */
function smppCredentials(value: string): { system_id: string; password: string } | null {
  try {
    const url = new URL(value);
    return {
      system_id: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
    };
  } catch {
    return null;
  }
}

function parseTrustProxy(value: string | undefined): boolean | number | string[] {
  if (value === undefined) return false;
  const lower = value.toLowerCase();
  if (['true', 'yes', '1'].includes(lower)) return true;
  if (['false', 'no', '0'].includes(lower)) return false;
  if (/^\d+$/.test(value)) return Number(value);
  return commaList(value);
}

interface Setting<S extends z.ZodType> {
  schema: S;
  /** The configuration table's "Meaning": what it does, when to set it. */
  doc: string;
  /** The configuration table's "Default" column, when it is not simply the schema's default. */
  shown: string;
}

/** The areas of docs/configuration.md, in its order, each with its heading. */
export const CONFIG_AREAS = {
  server: 'Server and the apps',
  database: 'Database',
  security: 'Security',
  messaging: 'Messaging: e-mail, SMS and support',
  push: 'Push notifications',
  payments: 'Payments',
  network: 'Network and usage',
  observability: 'Observability',
  demo: 'Demo and test',
} as const;
export type ConfigArea = keyof typeof CONFIG_AREAS;

/** Files each setting of `settings` under one area of the configuration table. */
function area<T extends Record<string, Setting<z.ZodType>>>(
  name: ConfigArea,
  settings: T,
): { [K in keyof T]: T[K] & { area: ConfigArea } } {
  return Object.fromEntries(
    Object.entries(settings).map(([key, s]) => [key, { ...s, area: name }]),
  ) as { [K in keyof T]: T[K] & { area: ConfigArea } };
}

/** The schema's own default as text (through transforms), or undefined when it has none. */
function defaultOf(schema: z.ZodType): unknown {
  const def = schema._zod.def as { type: string; defaultValue?: unknown; in?: z.ZodType };
  if (def.type === 'default') return def.defaultValue;
  if (def.type === 'pipe' && def.in) return defaultOf(def.in);
  return undefined;
}

function setting<S extends z.ZodType>(
  schema: S,
  text: { doc: string; shown?: string },
): Setting<S> {
  const fallback = defaultOf(schema);
  return {
    schema,
    doc: text.doc,
    shown: text.shown ?? (fallback === undefined ? '(unset)' : String(fallback)),
  };
}

/**
 * Every environment variable the API reads, each declared once: how it is parsed (its zod schema
 * with the default), what docs/configuration.md says about it, and — as `CONFIG_KEY` of `Config` — its
 * camelCase name. docs/configuration.md is generated from this list, grouped by `area`
 * (`npm run config:table -w @alda/api -- --write`), and a test keeps it in step.
 */
const SETTINGS = {
  ...area('server', {
    PORT: setting(z.coerce.number().int().min(0).max(65_535).default(3000), {
      doc: 'TCP port the HTTP server listens on.',
    }),
    HOST: setting(z.string().min(1).default('0.0.0.0'), {
      doc: 'Interface to bind; `127.0.0.1` keeps it local.',
    }),
    NODE_ENV: setting(z.enum(['development', 'production', 'test']).default('development'), {
      doc: '`development`, `production` or `test`.',
    }),
    WEB_DIST: setting(
      z
        .string()
        .min(1)
        .default(DEFAULT_WEB_DIST)
        .transform((dir) => path.resolve(dir)),
      {
        shown: 'apps/web/dist',
        doc: 'Folder with the built web app to serve; when missing, only the API is served (with a warning).',
      },
    ),
    CONSOLE_DIST: setting(
      z
        .string()
        .min(1)
        .default(DEFAULT_CONSOLE_DIST)
        .transform((dir) => path.resolve(dir)),
      {
        shown: 'apps/console/dist',
        doc: 'Folder with the built staff console to serve at `/console/`; when missing, the rest is served without it (with a warning).',
      },
    ),
    APP_URL: setting(
      optionalString.refine(
        (value) => value === undefined || /^https?:\/\/[^\s/]+(\/[^\s?#]*)?$/.test(value),
        'must be an http(s) URL without query, e.g. https://minsida.alda.fo',
      ),
      {
        shown: '`http://localhost:<PORT>`',
        doc: 'Public address of the web app, used in links sent to customers (password reset: `<APP_URL>/nytt-loyniord?token=…`). Set it to the HTTPS address customers use.',
      },
    ),
    MIN_APP_VERSION: setting(semverString.default(APP_VERSION), {
      doc: 'Apps older than this semver must upgrade (`mustUpgrade` of POST /api/status).',
    }),
    LATEST_APP_VERSION: setting(semverString.default(APP_VERSION), {
      doc: 'Apps older than this semver are asked to upgrade (`shouldUpgrade`). Must be ≥ MIN_APP_VERSION.',
    }),
    ANDROID_APP_CERT_SHA256: setting(
      optionalString
        .refine(
          (value) =>
            value === undefined ||
            value.split(',').every((f) => /^([0-9A-F]{2}:){31}[0-9A-F]{2}$/i.test(f.trim())),
          'must be comma-separated SHA-256 fingerprints, 32 hex pairs joined by ":"',
        )
        .transform((value) => commaList(value).map((f) => f.toUpperCase())),
      {
        doc: "Comma-separated SHA-256 fingerprints (`AB:CD:…`) of the Android app's signing certificates. Set: `/.well-known/assetlinks.json` lets the Android app open links to `<APP_URL>/betaling/…` and `/nytt-loyniord` (App Links, ADR 0054). Unset: 404.",
      },
    ),
    IOS_APP_ID: setting(
      optionalString
        .refine(
          (value) => value === undefined || /^[A-Z0-9]{10}\.[A-Za-z0-9.-]+$/.test(value),
          'must be <TEAM ID>.<bundle id>, e.g. ABCDE12345.fo.alda.selfcare',
        )
        .transform((value) => value ?? null),
      {
        doc: "The iOS app's `<TEAM ID>.<bundle id>`, e.g. `ABCDE12345.fo.alda.selfcare`. Set: `/.well-known/apple-app-site-association` lets the iOS app open those links (Universal Links, ADR 0054). Unset: 404.",
      },
    ),
    WEBAUTHN_RP_ID: setting(
      optionalString.refine(
        (value) => value === undefined || /^(?=.{1,253}$)([a-z0-9-]+\.)*[a-z0-9-]+$/.test(value),
        'must be a domain name in lower case, e.g. alda.fo',
      ),
      {
        shown: "APP_URL's host name",
        doc: "The passkeys' relying party (ADR 0097): the domain every passkey is made for, e.g. `alda.fo`. The web app's and the console's pages must be on it or below it, and the native apps claim it in `/.well-known/assetlinks.json` and `apple-app-site-association`. Changing it makes every passkey made before unusable.",
      },
    ),
    WEBAUTHN_ORIGINS: setting(
      optionalString
        .refine(
          (value) =>
            value === undefined ||
            commaList(value).every((o) =>
              /^(https?:\/\/[^/]+|android:apk-key-hash:[A-Za-z0-9_-]+)$/.test(o),
            ),
          'must be comma-separated origins (https://alda.fo) or android:apk-key-hash:<hash>',
        )
        .transform(commaList),
      {
        shown: "APP_URL's origin",
        doc: "Comma-separated origins a passkey answer may come from (ADR 0097): the web app's (`https://alda.fo`) and, for the Android app, `android:apk-key-hash:<base64url SHA-256 of its signing certificate>`. Another origin is refused (PASSKEY_ORIGIN_MISMATCH).",
      },
    ),
    CORS_ORIGINS: setting(optionalString.transform(commaList), {
      shown: '(off)',
      doc: 'Comma-separated origins allowed to call the API cross-origin, e.g. `capacitor://localhost,https://localhost` for the native shell. Unset: no CORS headers.',
    }),
    TRUST_PROXY: setting(optionalString.transform(parseTrustProxy), {
      shown: 'false',
      doc: 'Fastify `trustProxy`: `true`, a hop count, or comma-separated proxy addresses/CIDRs. Set it behind a load balancer so client IPs (rate limits, logs) are right.',
    }),
    CLIENT_COUNTRY_HEADER: setting(
      optionalString
        .refine(
          (value) => value === undefined || /^[A-Za-z0-9-]{1,64}$/.test(value),
          'must be an HTTP header name, e.g. CloudFront-Viewer-Country',
        )
        .transform((value) => value?.toLowerCase()),
      {
        shown: '(off)',
        doc: "Header in which the CDN or load balancer in front names the country of the client's IP address, e.g. `CloudFront-Viewer-Country` or `CF-IPCountry`. A sign-in stores it (ISO 3166-1 alpha-2; `XX`, `T1` and anything not a country are ignored) and the list of signed-in devices and the new-device e-mail show it (ADR 0059). Set it only when that edge overwrites the header on every request: a client can send any header, so without the edge it names whatever country the client likes. Unset: the place of a sign-in is unknown.",
      },
    ),
    SHUTDOWN_DRAIN_MS: setting(z.coerce.number().int().min(0).max(120_000).default(5000), {
      doc: 'On SIGTERM, how long in milliseconds the instance keeps serving while `/readyz` answers 503, so the balancer takes it out (HAProxy: more than `fall` × `inter` of its health check) before it stops accepting. SIGINT (Ctrl-C) does not wait.',
    }),
    ANSWER_CACHE_ENTRIES: setting(z.coerce.number().int().min(0).max(10_000_000).default(50_000), {
      doc: "Customers' answers each instance keeps in memory (GET /api/subscriptions, the polled notifications and data requests; a few kB each), reused until something of that customer changes (docs/decisions/0057-instance-memory.md). `0` builds every answer from the database.",
    }),
    READ_CACHE_CHECK: setting(z.stringbool().default(false), {
      doc: 'Compares every answer served from memory with a fresh one from the database and fails the request when they differ (a write that forgot to bump a change version). For tests and staging; it doubles the cost of a cached read.',
    }),
    DATA_EXPORT_POLL_MS: setting(z.coerce.number().int().min(0).max(3_600_000).default(5000), {
      doc: "Milliseconds between rounds of the data-export worker, which prepares customers' ZIPs in the background (one claim query per round and instance, as the provisioning worker's 5 s). `0` turns it off.",
    }),
  }),
  ...area('database', {
    DATABASE_URL: setting(
      optionalString.refine(
        (value) => value === undefined || /^postgres(ql)?:\/\//.test(value),
        'must start with postgres:// or postgresql://',
      ),
      {
        doc: 'PostgreSQL connection string (`postgres://user:pass@host:5432/db`). Unset: the embedded PGlite database is used.',
      },
    ),
    DATABASE_CONNECT_TIMEOUT_MS: setting(
      z.coerce.number().int().min(100).max(120_000).default(5000),
      {
        doc: 'PostgreSQL: longest wait in milliseconds for a connection (a new one, or a free one of the pool of 10) before a request gives up and answers 503 `DATABASE_UNAVAILABLE`; also bounds each attempt to get the LISTEN connection back (docs/decisions/0060-database-outage.md).',
      },
    ),
    DATABASE_RECONNECT_MAX_MS: setting(z.coerce.number().int().min(100).max(60_000).default(5000), {
      doc: 'PostgreSQL: longest pause in milliseconds between attempts to get a lost LISTEN connection back (from 250 ms, doubling). Once the database is back, instance memory and the payment hub fan-out return within this plus the connect timeout (docs/decisions/0060-database-outage.md).',
    }),
    DATA_DIR: setting(
      z
        .string()
        .min(1)
        .default('./data')
        .transform((dir) => (dir === 'memory' ? 'memory' : path.resolve(dir))),
      {
        doc: 'Where PGlite keeps its files when `DATABASE_URL` is unset (relative to the working directory); `memory` keeps it in memory only.',
      },
    ),
  }),
  ...area('security', {
    JWT_SECRET: setting(
      optionalString.refine(
        (value) => value === undefined || value.length >= 32,
        'must be at least 32 characters',
      ),
      {
        shown: '(generated in development)',
        doc: 'HMAC secret (≥ 32 characters) that signs access tokens. Required when NODE_ENV=production unless DEMO_MODE is on. All instances behind one load balancer need the same value.',
      },
    ),
    STAFF_SECRET_KEY: setting(
      optionalString.refine(
        (value) => value === undefined || value.length >= 32,
        'must be at least 32 characters',
      ),
      {
        shown: '(a fixed development key)',
        doc: "Key (≥ 32 characters) that encrypts the staff accounts' TOTP secrets at rest (docs/decisions/0075-staff-console.md). Required when NODE_ENV=production unless DEMO_MODE is on; the same on all instances and for `npm run operator` against the same database; never rotate it without re-enrolling the staff.",
      },
    ),
    LINK_SECRET: setting(
      optionalString.refine(
        (value) => value === undefined || value.length >= 32,
        'must be at least 32 characters',
      ),
      {
        shown: '(a fixed development key)',
        doc: 'Key (≥ 32 characters) that signs the links sent by e-mail which work without signing in: the one-tap cancel of a number unlock and the data-export download (docs/decisions/0076-number-protection.md). Required when NODE_ENV=production unless DEMO_MODE is on; the same on all instances. Changing it kills the links already sent.',
      },
    ),
    ACCESS_TOKEN_TTL_S: setting(z.coerce.number().int().min(30).max(86_400).default(900), {
      doc: 'Lifetime of an access token in seconds.',
    }),
    REFRESH_TOKEN_TTL_S: setting(
      z.coerce
        .number()
        .int()
        .min(300)
        .default(30 * 24 * 3600),
      { doc: 'Lifetime of a refresh token in seconds (30 days); every refresh issues a new one.' },
    ),
    RATE_LIMIT_MAX: setting(z.coerce.number().int().min(0).default(600), {
      doc: 'Requests per minute per client IP across the API; `0` turns the limiter off. /healthz and /readyz are exempt.',
    }),
    MIN_AGE: setting(z.coerce.number().int().min(13).max(120).default(MIN_AGE), {
      doc: 'Youngest age (whole years, on the day in Atlantic/Faroe) at which a person may register; younger applicants get 422 `TOO_YOUNG` (a parent or guardian must register). See docs/decisions/0020-age-limit.md.',
    }),
    PARTNER_TOKEN_TTL_S: setting(z.coerce.number().int().min(60).max(86_400).default(3600), {
      doc: 'Lifetime of an OAuth 2.0 access token of a partner client (CAMARA APIs, client credentials).',
    }),
    PARTNER_RATE_LIMIT_PER_MIN: setting(z.coerce.number().int().min(1).max(100_000).default(60), {
      doc: 'CAMARA calls a partner client may make per minute (counted in the database, across instances); over it: 429 TOO_MANY_REQUESTS.',
    }),
    NUMBER_UNLOCK_DELAY_H: setting(
      z.coerce.number().min(0).max(720).default(NUMBER_UNLOCK_DELAY_H_DEFAULT),
      {
        doc: 'Hours between a customer asking to unlock a number and the lock opening (docs/decisions/0076-number-protection.md); meanwhile an e-mail and a notification offer a one-tap cancel. Fractions allowed (tests use seconds).',
      },
    ),
    NUMBER_UNLOCK_INTERVAL_S: setting(z.coerce.number().min(0).max(86_400).default(60), {
      doc: 'Seconds between rounds of the job that completes due unlocks (writes the state, the log entry and the notification). A due unlock counts as open at once whatever the job. `0` turns it off.',
    }),
  }),
  ...area('messaging', {
    SMTP_URL: setting(
      optionalString.refine(
        (value) => value === undefined || /^smtps?:\/\//.test(value),
        'must start with smtp:// or smtps://',
      ),
      {
        shown: '(unset: outbox)',
        doc: 'SMTP server for e-mail (password reset), e.g. `smtps://user:pass@smtp.example.fo:465` or `smtp://relay:25`. Unset: e-mails go to the built-in outbox (database table, log and, in demo mode, `/dev/outbox`).',
      },
    ),
    MAIL_FROM: setting(z.string().trim().min(3).default('Alda <no-reply@alda.fo>'), {
      shown: '`Alda <no-reply@alda.fo>`',
      doc: 'Sender (`From`) of the e-mails the API sends.',
    }),
    SMTP_RETRY_DELAY_MS: setting(z.coerce.number().int().min(0).max(60_000).default(2000), {
      doc: 'With `SMTP_URL`: wait before sending an e-mail again after the mail server deferred it (4xx) or the connection failed; the third and last attempt waits 4 × as long. A refusal (5xx, e.g. 550 for an unknown mailbox) is never retried.',
    }),
    SMS_ADAPTER: setting(optionalString.pipe(z.enum(['outbox', 'http', 'smpp']).optional()), {
      shown: '(http when `SMS_GATEWAY_URL` is set, else outbox)',
      doc: 'How SMS leave: `outbox` (kept in the database table and the log, never sent; development and demo), `http` (the JSON gateway of `SMS_GATEWAY_URL`) or `smpp` (SMPP 3.4 to the operator\'s SMSC at `SMPP_URL`, queued in the outbox table with delivery receipts; docs/operations.md "Connect the SMSC (SMPP)", docs/decisions/0084-sms-smpp.md).',
    }),
    SMS_GATEWAY_URL: setting(
      optionalString.refine(
        (value) => value === undefined || /^https?:\/\//.test(value),
        'must start with http:// or https://',
      ),
      {
        shown: '(unset: outbox)',
        doc: 'HTTP SMS gateway for one-time codes: the API POSTs JSON `{to: "298xxxxxx", from, text}` with `Authorization: Bearer <SMS_GATEWAY_TOKEN>` (10 s timeout). Set, `SMS_ADAPTER` defaults to `http`; unset, to `outbox`.',
      },
    ),
    SMS_GATEWAY_TOKEN: setting(optionalString, { doc: 'Bearer token for `SMS_GATEWAY_URL`.' }),
    SMS_SENDER: setting(
      z
        .string()
        .trim()
        .regex(
          /^([A-Za-z0-9]{1,11}|\+?[0-9]{1,15})$/,
          'must be up to 11 letters/digits or a number',
        )
        .default('Alda'),
      {
        doc: 'Sender shown on SMS (`from`): up to 11 letters or digits, or a phone number with up to 15 digits.',
      },
    ),
    SMPP_URL: setting(
      optionalString.refine((value) => value === undefined || isSmppUrl(value), {
        message: 'must look like smpp://system_id:password@host:port (smpps:// for TLS)',
      }),
      {
        doc: "The SMSC for `SMS_ADAPTER=smpp`: `smpp://system_id:password@host:port` (port 2775 when left out; percent-encode special characters of the password), or `smpps://…` for SMPP over TLS (port 3550 when left out; the SMSC's certificate is verified, see `SMPP_TLS_CA`). The system_id has at most 15 characters and the password at most 8 (SMPP 3.4), checked at start. Required with `SMS_ADAPTER=smpp`.",
      },
    ),
    SMPP_TLS_CA: setting(optionalString, {
      shown: "(unset: the system's CAs)",
      doc: "With `smpps://`: a PEM file of the CA certificates to trust for the SMSC's certificate instead of the system's (an operator's own CA, or the SMSC's self-signed certificate). The certificate must still name the host of `SMPP_URL`; verification is never turned off.",
    }),
    SMPP_SYSTEM_TYPE: setting(
      optionalString.refine(
        (value) => value === undefined || /^[\x20-\x7e]{1,12}$/.test(value),
        'must be at most 12 printable ASCII characters (SMPP 3.4 system_type)',
      ),
      {
        shown: '(unset: empty)',
        doc: "`system_type` of the SMPP bind (at most 12 characters), when the SMSC's operator gives one (e.g. `VMA`, `OTA`); most leave it empty.",
      },
    ),
    SMPP_ADDRESS_RANGE: setting(
      optionalString.refine(
        (value) => value === undefined || /^[\x20-\x7e]{1,40}$/.test(value),
        'must be at most 40 printable ASCII characters (SMPP 3.4 address_range)',
      ),
      {
        shown: '(unset: empty)',
        doc: "`address_range` of the SMPP bind (at most 40 characters): the addresses whose messages the SMSC delivers over this bind, when the SMSC's operator asks for one (often a regular expression of our numbers); most leave it empty.",
      },
    ),
    SMPP_ALPHABET: setting(z.enum(['gsm7', 'gsm7-packed', 'latin1']).default('gsm7'), {
      doc: 'What the SMSC takes `data_coding` 0 (its default alphabet) to be, as its operator says: `gsm7` (GSM 03.38, one character an octet), `gsm7-packed` (GSM 03.38, 8 characters in 7 octets) or `latin1` (ISO-8859-1; then € and the Greek capitals go in UCS-2 too). Texts with Faroese letters (á, í, ó, ú, ý, ð) go in UCS-2 (`data_coding` 8) whatever it is.',
    }),
    SMPP_SOURCE_ADDR: setting(
      optionalString.refine(
        (value) => value === undefined || /^([A-Za-z0-9 ]{1,11}|\+?[0-9]{1,15})$/.test(value),
        'must be up to 11 letters/digits or a number',
      ),
      {
        shown: '(`SMS_SENDER`)',
        doc: 'Source address of SMPP messages: digits are sent as an international number (TON 1, NPI 1, e.g. `298123456`), anything else as an alphanumeric sender (TON 5, NPI 0, at most 11 characters). Unset: `SMS_SENDER`.',
      },
    ),
    SMPP_MAX_PER_SECOND: setting(z.coerce.number().positive().max(10_000).default(10), {
      doc: 'Most submit_sm PDUs (SMS parts) one instance sends the SMSC per second, spaced evenly; agree the figure with the SMSC (its throttling errors are retried anyway).',
    }),
    SMPP_ENQUIRE_LINK_S: setting(z.coerce.number().positive().max(3600).default(30), {
      doc: 'Seconds between enquire_link keep-alives on the SMPP session; one not answered by the next counts as a dead connection and the session is bound anew.',
    }),
    SMPP_BACKOFF_MIN_MS: setting(z.coerce.number().int().min(10).max(600_000).default(1000), {
      doc: 'First wait before binding the SMPP session again after it was lost, and before retrying an SMS the SMSC refused for the moment (ESME_RTHROTTLED, queue full); doubled per try up to `SMPP_BACKOFF_MAX_MS`.',
    }),
    SMPP_BACKOFF_MAX_MS: setting(z.coerce.number().int().min(10).max(3_600_000).default(60_000), {
      doc: 'Longest wait between SMPP reconnects and between retries of one SMS.',
    }),
    SMS_CODE_WAIT_S: setting(z.coerce.number().positive().max(300).default(30), {
      doc: 'With `SMS_ADAPTER=smpp`: how long a login or confirmation code request waits for the SMSC to accept the SMS. Later, the customer is told at once that it was not sent (503 `SMS_NOT_SENT`) and the code is never sent.',
    }),
    SUPPORT_PHONE: setting(
      optionalString.refine(
        (value) => value === undefined || /^\d{6}$/.test(value),
        'must be a 6-digit Faroese number',
      ),
      {
        doc: "Alda's customer service number (6 digits) that the alerts of a SIM change name (SMS to the number and e-mail: 'Not you? Call Alda at … at once'; docs/decisions/0076-number-protection.md). Unset: they ask the customer to contact Alda's customer service at once, without a number.",
      },
    ),
    SUPPORT_FIRST_REPLY_H: setting(z.coerce.number().min(0.25).max(200).default(8), {
      doc: "Working hours (Monday to Friday, 08:00–16:00 Faroe time) within which a new support conversation should have the desk's first answer; the console shows the due time and marks late ones (docs/decisions/0088-support-conversations.md).",
    }),
    SUPPORT_ANSWER_NOTICE_AFTER_S: setting(
      z.coerce.number().int().min(0).max(86_400).default(300),
      {
        doc: 'Seconds a desk answer may stay unread before the customer is told by e-mail (or SMS without an e-mail) that an answer is waiting; an answer read in the app within it sends nothing. The message carries a link, never the answer.',
      },
    ),
    SUPPORT_POLL_MS: setting(z.coerce.number().int().min(0).max(3_600_000).default(30_000), {
      doc: 'Milliseconds between rounds of the support job: answer-waiting e-mails and SMS, and images uploaded but never sent (removed after a day). `0` turns it off.',
    }),
  }),
  ...area('push', {
    VAPID_PUBLIC_KEY: setting(optionalString, {
      doc: 'Web push (RFC 8292): the application server\'s public P-256 key, base64url, that browsers subscribe with; with `VAPID_PRIVATE_KEY` and `VAPID_SUBJECT`. Make the pair once with `npx web-push generate-vapid-keys` and keep it: a new pair ends every browser\'s subscription. Required when NODE_ENV=production unless DEMO_MODE is on; unset otherwise, a pair is made per process (docs/operations.md "Push notifications", docs/decisions/0096-push-notifications.md).',
    }),
    VAPID_PRIVATE_KEY: setting(optionalString, {
      doc: 'Web push: the private key of `VAPID_PUBLIC_KEY`, base64url. The same on all instances.',
    }),
    VAPID_SUBJECT: setting(
      optionalString.refine(
        (value) => value === undefined || /^(mailto:\S+@\S+|https:\/\/\S+)$/.test(value),
        'must be a mailto: or https: address',
      ),
      {
        doc: 'Web push: how a push service reaches the operator about its pushes, `mailto:` or `https:` (RFC 8292), e.g. `mailto:drift@alda.fo`. Required when NODE_ENV=production unless DEMO_MODE is on; unset otherwise, `mailto:` the address of `MAIL_FROM`.',
      },
    ),
    APNS_KEY_ID: setting(optionalString, {
      doc: "Apple Push Notification service (token-based): the Key ID of the `.p8` key made in Apple's developer account (Keys → Apple Push Notifications service). With `APNS_TEAM_ID`, `APNS_KEY` and `APNS_TOPIC`; unset, the iOS app gets no pushes.",
    }),
    APNS_TEAM_ID: setting(optionalString, {
      doc: 'APNs: the Apple developer Team ID that owns the key.',
    }),
    APNS_KEY: setting(optionalString, {
      doc: 'APNs: the path of the `.p8` key file (PEM, ES256).',
    }),
    APNS_TOPIC: setting(optionalString, {
      doc: "APNs: the iOS app's bundle id (`fo.alda.selfcare`).",
    }),
    APNS_URL: setting(z.string().url().default('https://api.push.apple.com'), {
      doc: 'APNs: the HTTP/2 server, `https://api.push.apple.com` (production builds) or `https://api.sandbox.push.apple.com` (development builds from Xcode).',
    }),
    FCM_PROJECT_ID: setting(optionalString, {
      doc: 'Firebase Cloud Messaging HTTP v1 (Android): the Firebase project id. With `FCM_SERVICE_ACCOUNT`; unset, the Android app gets no pushes.',
    }),
    FCM_SERVICE_ACCOUNT: setting(optionalString, {
      doc: "FCM: the path of the service account's JSON key (Firebase console → Project settings → Service accounts), whose `token_uri` gives the OAuth 2.0 access tokens.",
    }),
    FCM_URL: setting(z.string().url().default('https://fcm.googleapis.com'), {
      doc: 'FCM: the HTTP v1 API address.',
    }),
    PUSH_TLS_CA: setting(optionalString, {
      doc: "A PEM file of extra CA certificates to trust for the push services (web push, APNs, FCM), e.g. an operator's TLS-inspecting proxy; the system's stay trusted. Verification is never turned off.",
    }),
    PUSH_POLL_MS: setting(z.coerce.number().int().min(0).max(600_000).default(2000), {
      doc: 'Milliseconds between rounds of the push dispatcher, which sends the queued pushes (SKIP LOCKED, so every instance runs it). `0` turns it off.',
    }),
    PUSH_LEASE_S: setting(z.coerce.number().int().min(1).max(3600).default(60), {
      doc: 'Seconds a dispatcher holds a push it is sending. A push still unanswered then (its instance died) is counted `unknown` and never sent again, so a device gets a notification at most once.',
    }),
    PUSH_TIMEOUT_MS: setting(z.coerce.number().int().min(50).max(120_000).default(10_000), {
      doc: 'How long a push service may take to answer one push; later, the push is `unknown` (never sent again).',
    }),
  }),
  ...area('payments', {
    PAYMENT_PROVIDER: setting(z.enum(['test', 'vipps-mobilepay']).default('test'), {
      doc: 'Payment provider. `test`: the built-in test provider (hosted card page under `/test-provider/`, test cards in docs/operations.md "Payments"), which no real card reaches. `vipps-mobilepay`: MobilePay and cards through Vipps MobilePay\'s ePayment and Recurring APIs (docs/operations.md "Going live with Vipps MobilePay", docs/decisions/0081-vipps-mobilepay.md); needs the five `VIPPS_MOBILEPAY_*` settings.',
    }),
    VIPPS_MOBILEPAY_API_URL: setting(
      optionalString.refine(
        (value) => value === undefined || /^https?:\/\/\S+$/.test(value),
        'must be an http(s) URL',
      ),
      {
        shown: '(unset)',
        doc: 'With `PAYMENT_PROVIDER=vipps-mobilepay`: the API base address, `https://apitest.vipps.no` (their test environment) or `https://api.vipps.no` (production). Required then.',
      },
    ),
    VIPPS_MOBILEPAY_CLIENT_ID: setting(optionalString, {
      shown: '(unset)',
      doc: 'With `PAYMENT_PROVIDER=vipps-mobilepay`: the sales unit\'s `client_id` from portal.vippsmobilepay.com ("Utvikler" / "Developer"). Required then.',
    }),
    VIPPS_MOBILEPAY_CLIENT_SECRET: setting(optionalString, {
      shown: '(unset)',
      doc: "With `PAYMENT_PROVIDER=vipps-mobilepay`: the sales unit's `client_secret` (secret: never logged). Required then.",
    }),
    VIPPS_MOBILEPAY_SUBSCRIPTION_KEY: setting(optionalString, {
      shown: '(unset)',
      doc: 'With `PAYMENT_PROVIDER=vipps-mobilepay`: the `Ocp-Apim-Subscription-Key` of the sales unit (secret: never logged). Required then.',
    }),
    VIPPS_MOBILEPAY_MSN: setting(
      optionalString.refine(
        (value) => value === undefined || /^[0-9]{4,6}$/.test(value),
        'must be the 4–6 digit merchant serial number',
      ),
      {
        shown: '(unset)',
        doc: 'With `PAYMENT_PROVIDER=vipps-mobilepay`: the Merchant Serial Number of the sales unit, sent as `Merchant-Serial-Number` on every call. Required then.',
      },
    ),
    PAYMENT_WEBHOOK_SECRET: setting(
      optionalString.refine(
        (value) => value === undefined || value.length >= 32,
        'must be at least 32 characters',
      ),
      {
        shown: '(generated in development)',
        doc: "Shared secret (≥ 32 characters) of the provider's webhook signatures (`Alda-Signature`, HMAC-SHA256 over timestamp and raw body). Required when NODE_ENV=production unless DEMO_MODE is on; the same on all instances.",
      },
    ),
    PAYMENT_WEBHOOK_RATE_LIMIT_PER_MIN: setting(
      z.coerce.number().int().min(0).max(1_000_000).default(1_200),
      {
        doc: "Webhook requests (`POST /api/payments/webhooks/…`) one address may send per minute to one instance, counted apart from `RATE_LIMIT_MAX` and also when that is `0`; over it: 429, which the provider delivers again later. Sized far above a provider's real volume with its retries after an outage (docs/decisions/0081-vipps-mobilepay.md). Behind a load balancer set `TRUST_PROXY`, or every webhook counts as the balancer's address. `0` turns it off.",
      },
    ),
    PAYMENT_WEBHOOK_URL: setting(
      optionalString.refine(
        (value) => value === undefined || /^https?:\/\/\S+$/.test(value),
        'must be an http(s) URL',
      ),
      {
        shown: '`<APP_URL>/api/payments/webhooks/test`',
        doc: 'Where the test provider POSTs its webhooks (a real provider is told this address in its dashboard).',
      },
    ),
    PAYMENT_RECONCILE_INTERVAL_S: setting(z.coerce.number().int().min(0).max(86_400).default(60), {
      doc: 'Seconds between reconciliation rounds, which re-read payments stuck in created/pending from the provider. `0` turns it off.',
    }),
    PAYMENT_RECONCILE_AFTER_S: setting(z.coerce.number().int().min(1).max(86_400).default(60), {
      doc: 'A payment unchanged for this many seconds counts as stuck for reconciliation (one never sent to the provider is cancelled after it, at least 30 s).',
    }),
    PAYMENT_WATCH_FIRST_S: setting(z.coerce.number().min(0.05).max(60).default(5), {
      doc: "While a customer watches a payment (the payment hub's ListenToOrder, or the status screen reading `GET /api/orders/{id}`), the instance they are connected to reads it from the provider this many seconds after they start watching, then every `PAYMENT_WATCH_EVERY_S`, until it settles, they leave or `PAYMENT_WATCH_MAX_S` is up (Vipps MobilePay's polling guidelines: start after 5 s, then every 2 s; docs/decisions/0081-vipps-mobilepay.md). Fractions allowed (tests use tenths).",
    }),
    PAYMENT_WATCH_EVERY_S: setting(z.coerce.number().min(0.05).max(60).default(2), {
      doc: 'Seconds between provider reads of a watched payment after the first (see `PAYMENT_WATCH_FIRST_S`). Fractions allowed.',
    }),
    PAYMENT_WATCH_MAX_S: setting(z.coerce.number().min(0).max(3_600).default(600), {
      doc: 'Longest a watched payment is read at that pace, in seconds (a MobilePay payment expires after 10 minutes); afterwards, and for every payment nobody watches, the reconciliation rounds read it. `0` turns the watching off.',
    }),
    MONTH_END_INTERVAL_S: setting(z.coerce.number().int().min(0).max(86_400).default(300), {
      doc: "Seconds between rounds of the month-end job (also run once at start), which first carries out the plan changes and cancellations due at the month start (docs/decisions/0056-subscription-lifecycle.md), then moves every line balance of a past Faroese month to the current one: the plan's data again plus the rollover, extra packages gone (docs/decisions/0053-month-end.md). Safe on several instances. `0` turns it off.",
    }),
    MONTH_END_CHARGE: setting(z.stringbool().default(true), {
      doc: 'Each month-end round then charges the current Faroese month to every customer with an active payment agreement whose month is not paid, through the same path as `POST /api/billing/pay` with the agreement, once per customer and month (Idempotency-Key `month-charge:<user>:<YYYY-MM>`); a charge the provider did not take is tried again next round, a declined one is left for the customer to pay in the app (docs/decisions/0053-month-end.md). `false` leaves every month to the customers (the browser journeys, whose demo customers pay their month themselves).',
    }),
    MONTH_END_BILL_BATCH: setting(z.coerce.number().int().min(1).max(1_000).default(1), {
      doc: "Customers billed per transaction by the month-end job (docs/decisions/0098-monthly-bill.md): each batch is locked with SKIP LOCKED and committed with its run markers, so a crash loses at most one batch's work, which the next round redoes. A batch holds the bill counter's row lock from its first bill to its commit, so the other instances wait that long for their next number: 1 keeps it to one bill's last writes.",
    }),
  }),
  ...area('network', {
    NETWORK_ADAPTER: setting(z.enum(['simulator', 'tmf641']).default('simulator'), {
      doc: 'How provisioning, the owner controls and the roaming cap reach the mobile network. `simulator`: the built-in network simulator (everything succeeds after `PROVISIONING_STEP_S`; a port whose SIM card number ends in `0000` is rejected). `tmf641`: service orders to the operator\'s OSS on TM Forum TMF641 Service Ordering v4 at `TMF641_URL`, completed by its events (docs/operations.md "Connect the network (TMF641)", docs/decisions/0082-network-tmf641.md); needs `TMF641_URL` and `TMF641_LISTENER_SECRET`.',
    }),
    TMF641_URL: setting(
      optionalString.refine(
        (value) => value === undefined || /^https?:\/\/\S+$/.test(value),
        'must be an http(s) URL',
      ),
      {
        shown: '(unset)',
        doc: "With `NETWORK_ADAPTER=tmf641`: the base address of the OSS's TMF641 API, ending in `/tmf-api/serviceOrdering/v4` (the adapter POSTs `<TMF641_URL>/serviceOrder` and `<TMF641_URL>/hub`). Required then.",
      },
    ),
    TMF641_TOKEN: setting(optionalString, {
      shown: '(unset)',
      doc: 'With `NETWORK_ADAPTER=tmf641`: the token the adapter sends as `Authorization: Bearer …` on every call to the OSS (secret: never logged). Unset: no `Authorization` header.',
    }),
    TMF641_LISTENER_SECRET: setting(
      optionalString.refine(
        (value) => value === undefined || value.length >= 24,
        'must be at least 24 characters',
      ),
      {
        shown: '(unset)',
        doc: 'With `NETWORK_ADAPTER=tmf641`: the listener\'s secret (≥ 24 characters), the same on all instances; required then. The callback registered with the OSS\'s hub carries a path segment derived from it (`<APP_URL>/tmf-api/listener/serviceOrdering/v4/<HMAC-SHA256 of "alda-tmf641-callback", hex>`), so an OSS posts its events there without any header of ours; a wrong segment is 404. An OSS that can send a header may instead post to `<APP_URL>/tmf-api/listener/serviceOrdering/v4/listener/…` with `Authorization: Bearer <TMF641_LISTENER_SECRET>` (401 otherwise). Changing it rotates both; the next start registers the new callback (docs/decisions/0082-network-tmf641.md). Generate one with `openssl rand -base64 32`.',
      },
    ),
    TMF641_POLL_S: setting(z.coerce.number().int().min(0).max(86_400).default(30), {
      doc: 'With `NETWORK_ADAPTER=tmf641`: seconds without an event after which the adapter asks the OSS itself (`GET /serviceOrder/{id}`) how an unfinished order stands, and how long the provisioning worker waits before asking again about an order the network has not finished (an event makes it due at once).',
    }),
    TMF641_WAIT_S: setting(z.coerce.number().int().min(0).max(300).default(10), {
      doc: 'With `NETWORK_ADAPTER=tmf641`: how long a data bar (owner controls) or a roaming bar (roaming cap) waits for the OSS to complete its order before the change is refused with 503 `NETWORK_UNAVAILABLE` and rolled back.',
    }),
    TMF641_BAR_POLL_S: setting(z.coerce.number().int().min(0).max(300).default(3), {
      doc: "With `NETWORK_ADAPTER=tmf641`: seconds without an event after which a waiting data or roaming bar asks the OSS itself (`GET /serviceOrder/{id}`), and again after as many more, so a bar finishes within `TMF641_WAIT_S` also when no event comes. Must not be greater than `TMF641_WAIT_S`. `TMF641_POLL_S` stays the provisioning orders' cadence.",
    }),
    PROVISIONING_POLL_MS: setting(z.coerce.number().int().min(0).max(3_600_000).default(5000), {
      doc: 'Milliseconds between rounds of the provisioning worker, which performs the next step of every order that is due (docs/decisions/0055-provisioning.md). Safe on several instances (SKIP LOCKED). `0` turns it off.',
    }),
    PROVISIONING_STEP_S: setting(
      z.coerce
        .number()
        .int()
        .min(0)
        .max(30 * 86_400)
        .default(30),
      {
        doc: 'Seconds the network simulator takes for each automatic provisioning step (eSIM ready, SIM sent, port requested, port date, number moved). A real network takes hours or days; 30 s keeps the demo moving.',
      },
    ),
    PROVISIONING_SIM_CONFIRM_S: setting(
      z.coerce
        .number()
        .int()
        .min(0)
        .max(90 * 86_400)
        .default(259_200),
      {
        doc: 'Seconds a physical SIM waits for the customer to confirm it works (POST /api/orders/{id}/confirm-sim) before the line becomes active by itself (3 days).',
      },
    ),
    ESIM_SMDP_ADDRESS: setting(
      z
        .string()
        .trim()
        .regex(/^[A-Za-z0-9.-]+(:\d+)?$/, 'must be a host name like smdp.alda.fo')
        .default('smdp.alda.fo'),
      {
        doc: 'SM-DP+ address of the eSIM activation codes (`LPA:1$<address>$<matching id>`, GSMA SGP.22).',
      },
    ),
    NUMBER_QUARANTINE_DAYS: setting(
      z.coerce.number().int().min(0).max(3_650).default(NUMBER_QUARANTINE_DAYS),
      {
        doc: 'Days a number whose line was cancelled rests before the number search offers it again (so calls and texts meant for its last holder do not reach a new one; docs/decisions/0056-subscription-lifecycle.md). `0` offers it at once.',
      },
    ),
    USAGE_FEED_TOKEN: setting(
      optionalString.refine(
        (value) => value === undefined || value.length >= 24,
        'must be at least 24 characters',
      ),
      {
        shown: '(unset: feed closed)',
        doc: 'Service token (≥ 24 characters) the charging system presents as `Authorization: Bearer …` to POST usage records to `/api/usage/records` or TMF635 Usages to `/tmf-api/usageManagement/v4/usage`. Unset: every call is refused with 401. Generate one with `openssl rand -base64 32`.',
      },
    ),
    USAGE_FEED_RATE_PER_MIN: setting(
      z.coerce.number().int().min(0).max(100_000_000).default(600_000),
      {
        doc: "Requests a minute the charging system may make with `USAGE_FEED_TOKEN` on each usage feed route (`/api/usage/records`, TMF635's POST and GET), counted per token in each instance's memory; over it: 429 with `Retry-After`. The feed's routes are not counted in the per-address `RATE_LIMIT_MAX` for people. 600000 = 10,000 a second: twice the 5,000 single-record requests a second a charging system of a million lines sends at its peak (some 100 records a line a day, peaks four times the average), so a backlog can be caught up. Counted also with `RATE_LIMIT_MAX=0`; `0` here: no limit on the feed. docs/decisions/0083-usage-tmf635.md.",
      },
    ),
    ROAMING_CAP_DEFAULT: setting(z.coerce.number().int().min(100).max(1_000_000).default(37_300), {
      doc: "The monthly roaming spend cap every number has until the account owner changes it, in øre with VAT (docs/decisions/0078-roaming-spend-cap.md): when the month's charges for data abroad beyond the EU package and the domestic data reach it, roaming data stops. 37300 = 373 kr ≈ 50 EUR at 7.46 DKK/EUR, the EU default cut-off (Regulation 531/2012 as recast by 2022/612) — here with VAT, so stricter than the regulation's 50 EUR without VAT.",
    }),
    ROAMING_PRICE_PER_MB: setting(z.coerce.number().int().min(0).max(10_000).default(10), {
      doc: 'What one MB of data abroad beyond the EU package and the domestic data costs, in øre with VAT (docs/decisions/0078-roaming-spend-cap.md). 10 = 0.10 kr/MB (about 100 kr per GB). Rated per record by the usage feed (a TMF635 Usage that carries an amount rated by the charging system is priced by it instead, ADR 0083); a change applies to records booked afterwards.',
    }),
    BILLING_FEED_TOKEN: setting(
      optionalString.refine(
        (value) => value === undefined || value.length >= 24,
        'must be at least 24 characters',
      ),
      {
        shown: '(unset: closed)',
        doc: "Service token (≥ 24 characters) the operator's finance system presents as `Authorization: Bearer …` to read the bills on TMF678 (`/tmf-api/customerBillManagement/v4/customerBill` and `appliedCustomerBillingRate`). Unset: every call is refused with 401. Generate one with `openssl rand -base64 32`. docs/decisions/0098-monthly-bill.md.",
      },
    ),
    BILL_ISSUER_NAME: setting(z.string().trim().min(1).max(100).default('Alda P/F'), {
      doc: 'The operator as a bill names it (the PDF, TMF678). docs/decisions/0098-monthly-bill.md.',
    }),
    BILL_ISSUER_ADDRESS: setting(
      z.string().trim().min(1).max(200).default('Smiðjugøta 12, FO-100 Tórshavn'),
      { doc: "The operator's postal address on a bill." },
    ),
    BILL_ISSUER_VAT_NUMBER: setting(z.string().trim().min(1).max(40).default('612 345'), {
      doc: "The operator's V-tal (VAT number) on a bill.",
    }),
    BILL_BANK_ACCOUNT: setting(z.string().trim().min(1).max(40).default('6460 1234567'), {
      doc: 'Where a bill not paid by card or agreement is paid by bank transfer: `reg.nr. konto`.',
    }),
    BILL_IBAN: setting(z.string().trim().min(1).max(40).default('FO12 6460 0001 2345 67'), {
      doc: 'The same account as an IBAN, for transfers from abroad.',
    }),
  }),
  ...area('observability', {
    LOG_LEVEL: setting(z.enum(LOG_LEVELS).default('info'), {
      doc: 'pino level: `fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`.',
    }),
    METRICS_PORT: setting(z.coerce.number().int().min(1).max(65_535).optional(), {
      doc: 'Serves Prometheus metrics at `GET /metrics` on a listener of its own on this port (on `METRICS_HOST`), with no token: keep the port on the operator\'s network. Unset: no metrics listener (docs/operations.md "Metrics").',
    }),
    METRICS_HOST: setting(z.string().min(1).default('0.0.0.0'), {
      doc: 'Interface of the `METRICS_PORT` listener.',
    }),
    METRICS_TOKEN: setting(optionalString.pipe(z.string().min(16).optional()), {
      doc: 'Serves Prometheus metrics at `/metrics` on the main port too, to a scraper that sends `Authorization: Bearer <token>` (at least 16 characters); anything else gets 401. Unset: `/metrics` on the main port is not found.',
    }),
  }),
  ...area('demo', {
    DEMO_MODE: setting(z.stringbool().default(false), {
      doc: 'Seed demo customers and status messages when the database is empty and print the demo logins at start (`npm start` and `npm run dev` turn it on).',
    }),
    USAGE_SIMULATOR_INTERVAL_S: setting(z.coerce.number().int().min(0).max(86_400).default(30), {
      doc: 'With DEMO_MODE on: seconds between rounds of the demo usage simulator, which uses a few MB on every line in service through the usage feed so the demo is alive. `0` turns it off. Ignored without DEMO_MODE.',
    }),
    TMF641_DEMO_STEP_MS: setting(z.coerce.number().int().min(0).max(3_600_000).default(2000), {
      doc: 'With DEMO_MODE on: milliseconds between the steps of every order on the demo TMF641 server (`/tmf-api/serviceOrdering/v4/`, the network simulator answering as an OSS, so `NETWORK_ADAPTER=tmf641` runs on one machine): acknowledged → inProgress → completed or failed, each change POSTed as an event to the registered listeners. It asks for `Authorization: Bearer <TMF641_TOKEN>` when that is set and sends its events with `Authorization: Bearer <TMF641_LISTENER_SECRET>`. Ignored without DEMO_MODE.',
    }),
    TEST_PROVIDER_SLOW_DELAY_MS: setting(
      z.coerce.number().int().min(0).max(600_000).default(8000),
      {
        doc: 'Milliseconds until the slow test card (`4000 0000 0000 3063`) succeeds; a pending webhook is sent first.',
      },
    ),
    TEST_PROVIDER_WEBHOOK_DUPLICATES: setting(z.stringbool().default(false), {
      doc: 'The test provider sends every webhook twice (to exercise idempotent handling).',
    }),
    TEST_PROVIDER_WEBHOOK_DELAY_MS: setting(
      z.coerce.number().int().min(0).max(3_600_000).default(0),
      { doc: 'The test provider holds every webhook back this many milliseconds (late delivery).' },
    ),
  }),
};

type Settings = typeof SETTINGS;
type SettingName = keyof Settings;

type CamelTail<S extends string> = S extends `${infer Head}_${infer Rest}`
  ? `${Capitalize<Lowercase<Head>>}${CamelTail<Rest>}`
  : Capitalize<Lowercase<S>>;
/** `ACCESS_TOKEN_TTL_S` → `accessTokenTtlS`. */
type CamelCase<S extends string> = S extends `${infer Head}_${infer Rest}`
  ? `${Lowercase<Head>}${CamelTail<Rest>}`
  : Lowercase<S>;

function camelCase<S extends string>(name: S): CamelCase<S> {
  return name
    .toLowerCase()
    .replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()) as CamelCase<S>;
}

type Parsed = { [K in SettingName as CamelCase<K>]: z.output<Settings[K]['schema']> };

/** Values that depend on several variables, or that are made when a variable is unset. */
interface Derived {
  /** HMAC secret of access tokens: JWT_SECRET, or a random one for this process. */
  jwtSecret: string;
  /** True when no JWT_SECRET was configured and a random one was made for this process. */
  jwtSecretGenerated: boolean;
  /** STAFF_SECRET_KEY, or the public development key. */
  staffSecretKey: string;
  /** LINK_SECRET, or the public development key. */
  linkSecret: string;
  /** Public web app address without a trailing slash, for links in e-mails. */
  appUrl: string;
  /** HMAC secret of the provider's webhook signatures. */
  paymentWebhookSecret: string;
  /** True when no PAYMENT_WEBHOOK_SECRET was configured and a random one was made. */
  paymentWebhookSecretGenerated: boolean;
  /** Where the test provider delivers its webhooks. */
  paymentWebhookUrl: string;
  /**
   * Where the OSS sends its TMF641 events (registered with its hub; secret):
   * `<APP_URL>/tmf-api/listener/serviceOrdering/v4/<segment of TMF641_LISTENER_SECRET>`.
   */
  tmf641CallbackUrl: string;
  /** SMS_ADAPTER, or what it defaults to: `http` when SMS_GATEWAY_URL is set, else `outbox`. */
  smsAdapter: 'outbox' | 'http' | 'smpp';
  /** WEBAUTHN_RP_ID, or the host name of APP_URL. */
  webauthnRpId: string;
  /** WEBAUTHN_ORIGINS, or the origin of APP_URL. */
  webauthnOrigins: string[];
}

/** The parsed, typed configuration every part of the server receives. */
export type Config = Omit<Parsed, keyof Derived> & Derived;

/**
 * The secret path segment of the TMF641 callback: HMAC-SHA256 of `alda-tmf641-callback` keyed
 * with TMF641_LISTENER_SECRET, in hex — the same on every instance, nothing stored
 * (adapters/network/tmf641/callback.ts, docs/decisions/0082-network-tmf641.md).
 */
export function tmf641CallbackSegment(secret: string): string {
  return createHmac('sha256', secret).update('alda-tmf641-callback').digest('hex');
}

/** The settings `PAYMENT_PROVIDER=vipps-mobilepay` cannot start without. */
const VIPPS_MOBILEPAY_KEYS = [
  'VIPPS_MOBILEPAY_API_URL',
  'VIPPS_MOBILEPAY_CLIENT_ID',
  'VIPPS_MOBILEPAY_CLIENT_SECRET',
  'VIPPS_MOBILEPAY_SUBSCRIPTION_KEY',
  'VIPPS_MOBILEPAY_MSN',
] as const;

const envSchema = z
  .object(
    Object.fromEntries(Object.entries(SETTINGS).map(([name, s]) => [name, s.schema])) as {
      [K in SettingName]: Settings[K]['schema'];
    },
  )
  .superRefine((env, ctx) => {
    if (semver.valid(env.MIN_APP_VERSION) && semver.valid(env.LATEST_APP_VERSION)) {
      if (semver.gt(env.MIN_APP_VERSION, env.LATEST_APP_VERSION)) {
        ctx.addIssue({
          code: 'custom',
          path: ['MIN_APP_VERSION'],
          message: `must not be greater than LATEST_APP_VERSION (${env.LATEST_APP_VERSION})`,
        });
      }
    }
    if (env.SMS_ADAPTER === 'smpp' && env.SMPP_URL === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['SMPP_URL'],
        message: 'is required when SMS_ADAPTER=smpp',
      });
    }
    if (env.SMS_ADAPTER === 'http' && env.SMS_GATEWAY_URL === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['SMS_GATEWAY_URL'],
        message: 'is required when SMS_ADAPTER=http',
      });
    }
    const smpp = env.SMPP_URL === undefined ? null : smppCredentials(env.SMPP_URL);
    for (const [part, limit] of Object.entries(SMPP_CREDENTIAL_LIMITS)) {
      const value = smpp?.[part as keyof typeof SMPP_CREDENTIAL_LIMITS];
      if (value !== undefined && Buffer.byteLength(value) > limit) {
        // The path names no variable, so the error does not print the URL with its password.
        ctx.addIssue({
          code: 'custom',
          path: [`SMPP_URL's ${part}`],
          message: `must be at most ${limit} characters for SMPP 3.4 (it has ${Buffer.byteLength(value)}); ask the SMSC's operator for one that fits`,
        });
      }
    }
    if (env.SMPP_TLS_CA !== undefined && !env.SMPP_URL?.startsWith('smpps://')) {
      ctx.addIssue({
        code: 'custom',
        path: ['SMPP_TLS_CA'],
        message: 'is only used with an smpps:// SMPP_URL',
      });
    }
    if (env.SMPP_BACKOFF_MAX_MS < env.SMPP_BACKOFF_MIN_MS) {
      ctx.addIssue({
        code: 'custom',
        path: ['SMPP_BACKOFF_MAX_MS'],
        message: `must not be less than SMPP_BACKOFF_MIN_MS (${env.SMPP_BACKOFF_MIN_MS})`,
      });
    }
    if (env.TMF641_BAR_POLL_S > env.TMF641_WAIT_S) {
      // A bar that asks only after its wait is over cannot finish without events.
      ctx.addIssue({
        code: 'custom',
        path: ['TMF641_BAR_POLL_S'],
        message: `must not be greater than TMF641_WAIT_S (${env.TMF641_WAIT_S}): a bar waiting without events would never ask the OSS before it gives up`,
      });
    }
    if (env.NETWORK_ADAPTER === 'tmf641') {
      for (const name of ['TMF641_URL', 'TMF641_LISTENER_SECRET'] as const) {
        if (env[name] === undefined) {
          ctx.addIssue({
            code: 'custom',
            path: [name],
            message: 'is required when NETWORK_ADAPTER=tmf641',
          });
        }
      }
    }
    if (env.PAYMENT_PROVIDER === 'vipps-mobilepay') {
      for (const name of VIPPS_MOBILEPAY_KEYS) {
        if (env[name] === undefined) {
          ctx.addIssue({
            code: 'custom',
            path: [name],
            message: 'is required when PAYMENT_PROVIDER=vipps-mobilepay',
          });
        }
      }
    }
    // Native push: each platform all or nothing (ADR 0096).
    for (const group of [
      ['APNS_KEY_ID', 'APNS_TEAM_ID', 'APNS_KEY', 'APNS_TOPIC'],
      ['FCM_PROJECT_ID', 'FCM_SERVICE_ACCOUNT'],
      ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY'],
    ] as const) {
      if (group.some((name) => env[name] !== undefined)) {
        for (const name of group) {
          if (env[name] === undefined) {
            ctx.addIssue({
              code: 'custom',
              path: [name],
              message: `is required with ${group.filter((other) => env[other] !== undefined).join(', ')}`,
            });
          }
        }
      }
    }
    if (env.NODE_ENV === 'production' && !env.DEMO_MODE) {
      for (const name of ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY', 'VAPID_SUBJECT'] as const) {
        if (env[name] === undefined) {
          ctx.addIssue({
            code: 'custom',
            path: [name],
            message:
              'is required when NODE_ENV=production (web push; make the keys with `npx web-push generate-vapid-keys`)',
          });
        }
      }
    }
    for (const name of [
      'PAYMENT_WEBHOOK_SECRET',
      'JWT_SECRET',
      'STAFF_SECRET_KEY',
      'LINK_SECRET',
    ] as const) {
      // The Alda-Signature secret is the test provider's; Vipps MobilePay's secret comes from
      // registering the webhook (`npm run operator -- payments webhooks register`).
      if (name === 'PAYMENT_WEBHOOK_SECRET' && env.PAYMENT_PROVIDER !== 'test') continue;
      if (env.NODE_ENV === 'production' && !env.DEMO_MODE && env[name] === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message:
            'is required when NODE_ENV=production (generate one with `openssl rand -base64 48`)',
        });
      }
    }
  });

/** Thrown by {@link loadConfig}; its message lists every bad variable, ready to print. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Parses the environment once at boot. Throws a {@link ConfigError} naming every invalid
 * variable, so a misconfigured deployment stops at start instead of failing on first use.
 */
/** The staff TOTP key of development and demo installations (public: never for production). */
export const DEVELOPMENT_STAFF_SECRET_KEY = 'alda-development-staff-secret-key-not-for-production';
/** The link-signing key of development and demo installations (public: never for production). */
export const DEVELOPMENT_LINK_SECRET = 'alda-development-link-secret-key-not-for-production';

/** Settings whose value a start-up error never repeats. */
const SECRET_LIKE = /SECRET|TOKEN|KEY|PASSWORD|_URL$|_CA$/;

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const result = envSchema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => {
      const name = issue.path.join('.') || '(environment)';
      // The value helps with a typo, but a secret, token, key or URL (which may carry a
      // password) must not reach the log of a failed start.
      const shown = name in env && !SECRET_LIKE.test(name) ? ` (got "${env[name]}")` : '';
      return `  - ${name} ${issue.message}${shown}`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = result.data;
  // Every setting gets its key, also the unset ones (zod leaves absent optional keys out).
  const parsed = Object.fromEntries(
    (Object.keys(SETTINGS) as SettingName[]).map((name) => [camelCase(name), e[name]]),
  ) as Parsed;
  const appUrl = (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return {
    ...parsed,
    // A per-process random secret keeps development safe by default: nothing predictable signs
    // tokens. Its cost is that access tokens die with the process; clients simply refresh.
    jwtSecret: e.JWT_SECRET ?? randomBytes(48).toString('base64url'),
    jwtSecretGenerated: e.JWT_SECRET === undefined,
    // Not random per process like JWT_SECRET: the TOTP secrets it seals live in the database
    // and must still open after a restart. The development key is public, as the demo data is.
    staffSecretKey: e.STAFF_SECRET_KEY ?? DEVELOPMENT_STAFF_SECRET_KEY,
    linkSecret: e.LINK_SECRET ?? DEVELOPMENT_LINK_SECRET,
    appUrl,
    paymentWebhookSecret: e.PAYMENT_WEBHOOK_SECRET ?? randomBytes(48).toString('base64url'),
    paymentWebhookSecretGenerated: e.PAYMENT_WEBHOOK_SECRET === undefined,
    paymentWebhookUrl:
      e.PAYMENT_WEBHOOK_URL ?? `${appUrl}/api/payments/webhooks/${e.PAYMENT_PROVIDER}`,
    tmf641CallbackUrl: `${appUrl}/tmf-api/listener/serviceOrdering/v4${
      e.TMF641_LISTENER_SECRET ? `/${tmf641CallbackSegment(e.TMF641_LISTENER_SECRET)}` : ''
    }`,
    smsAdapter: e.SMS_ADAPTER ?? (e.SMS_GATEWAY_URL ? 'http' : 'outbox'),
    webauthnRpId: e.WEBAUTHN_RP_ID ?? new URL(appUrl).hostname,
    webauthnOrigins: e.WEBAUTHN_ORIGINS.length > 0 ? e.WEBAUTHN_ORIGINS : [new URL(appUrl).origin],
  };
}

/** The documented variables in declaration order: name, area, default as shown, meaning. */
export const CONFIG_DOC = Object.entries(SETTINGS).map(([name, s]) => ({
  name,
  area: s.area,
  default: s.shown,
  description: s.doc,
}));

/**
 * The configuration tables of docs/configuration.md in markdown, one per area under its heading,
 * from CONFIG_DOC. `npm run config:table -w @alda/api` prints them; a test keeps the document so.
 */
export function configTable(): string {
  const escape = (text: string) => text.replace(/\|/g, '\\|');
  return (Object.entries(CONFIG_AREAS) as [ConfigArea, string][])
    .map(([key, heading]) =>
      [
        `## ${heading}`,
        '',
        '| Variable | Default | Meaning |',
        '|---|---|---|',
        ...CONFIG_DOC.filter((v) => v.area === key).map(
          (v) => `| \`${v.name}\` | ${escape(v.default)} | ${escape(v.description)} |`,
        ),
      ].join('\n'),
    )
    .join('\n\n');
}
