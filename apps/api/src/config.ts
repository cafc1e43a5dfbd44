import { randomBytes } from 'node:crypto';
import path from 'node:path';
import semver from 'semver';
import { z } from 'zod';
import { APP_VERSION, MIN_AGE } from '@alda/contract/constants';
import { DEFAULT_WEB_DIST } from './paths';

/**
 * Every environment variable the API reads, with its default and meaning. The README's
 * configuration table and docs/operations.md are written from this list, and a test keeps it in
 * step with the parser below, so the documentation cannot silently drift from the code.
 */
export const CONFIG_DOC = [
  { name: 'PORT', default: '3000', description: 'TCP port the HTTP server listens on.' },
  {
    name: 'HOST',
    default: '0.0.0.0',
    description: 'Interface to bind; `127.0.0.1` keeps it local.',
  },
  {
    name: 'DATABASE_URL',
    default: '(unset)',
    description:
      'PostgreSQL connection string (`postgres://user:pass@host:5432/db`). Unset: the embedded PGlite database is used.',
  },
  {
    name: 'DATA_DIR',
    default: './data',
    description:
      'Where PGlite keeps its files when `DATABASE_URL` is unset (relative to the working directory); `memory` keeps it in memory only.',
  },
  {
    name: 'LOG_LEVEL',
    default: 'info',
    description: 'pino level: `fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`.',
  },
  {
    name: 'NODE_ENV',
    default: 'development',
    description: '`development`, `production` or `test`.',
  },
  {
    name: 'DEMO_MODE',
    default: 'false',
    description:
      'Seed demo customers and status messages when the database is empty and print the demo logins at start (`npm start` and `npm run dev` turn it on).',
  },
  {
    name: 'WEB_DIST',
    default: 'apps/web/dist',
    description:
      'Folder with the built web app to serve; when missing, only the API is served (with a warning).',
  },
  {
    name: 'MIN_APP_VERSION',
    default: APP_VERSION,
    description: 'Apps older than this semver must upgrade (`mustUpgrade` of POST /api/status).',
  },
  {
    name: 'LATEST_APP_VERSION',
    default: APP_VERSION,
    description:
      'Apps older than this semver are asked to upgrade (`shouldUpgrade`). Must be ≥ MIN_APP_VERSION.',
  },
  {
    name: 'JWT_SECRET',
    default: '(generated in development)',
    description:
      'HMAC secret (≥ 32 characters) that signs access tokens. Required when NODE_ENV=production unless DEMO_MODE is on. All instances behind one load balancer need the same value.',
  },
  {
    name: 'ACCESS_TOKEN_TTL_S',
    default: '900',
    description: 'Lifetime of an access token in seconds.',
  },
  {
    name: 'REFRESH_TOKEN_TTL_S',
    default: '2592000',
    description:
      'Lifetime of a refresh token in seconds (30 days); every refresh issues a new one.',
  },
  {
    name: 'CORS_ORIGINS',
    default: '(off)',
    description:
      'Comma-separated origins allowed to call the API cross-origin, e.g. `capacitor://localhost,https://localhost` for the native shell. Unset: no CORS headers.',
  },
  {
    name: 'RATE_LIMIT_MAX',
    default: '600',
    description:
      'Requests per minute per client IP across the API; `0` turns the limiter off. /healthz and /readyz are exempt.',
  },
  {
    name: 'TRUST_PROXY',
    default: 'false',
    description:
      'Fastify `trustProxy`: `true`, a hop count, or comma-separated proxy addresses/CIDRs. Set it behind a load balancer so client IPs (rate limits, logs) are right.',
  },
  {
    name: 'APP_URL',
    default: '`http://localhost:<PORT>`',
    description:
      'Public address of the web app, used in links sent to customers (password reset: `<APP_URL>/nytt-loyniord?token=…`). Set it to the HTTPS address customers use.',
  },
  {
    name: 'ANDROID_APP_CERT_SHA256',
    default: '(unset)',
    description:
      "Comma-separated SHA-256 fingerprints (`AB:CD:…`) of the Android app's signing certificates. Set: `/.well-known/assetlinks.json` lets the Android app open links to `<APP_URL>/betaling/…` and `/nytt-loyniord` (App Links, ADR 0054). Unset: 404.",
  },
  {
    name: 'IOS_APP_ID',
    default: '(unset)',
    description:
      "The iOS app's `<TEAM ID>.<bundle id>`, e.g. `ABCDE12345.fo.alda.selfcare`. Set: `/.well-known/apple-app-site-association` lets the iOS app open those links (Universal Links, ADR 0054). Unset: 404.",
  },
  {
    name: 'MIN_AGE',
    default: String(MIN_AGE),
    description:
      'Youngest age (whole years, on the day in Atlantic/Faroe) at which a person may register; younger applicants get 422 `TOO_YOUNG` (a parent or guardian must register). See docs/decisions/0020-age-limit.md.',
  },
  {
    name: 'SMTP_URL',
    default: '(unset: outbox)',
    description:
      'SMTP server for e-mail (password reset), e.g. `smtps://user:pass@smtp.example.fo:465` or `smtp://relay:25`. Unset: e-mails go to the built-in outbox (database table, log and, in demo mode, `/dev/outbox`).',
  },
  {
    name: 'MAIL_FROM',
    default: '`Alda <no-reply@alda.fo>`',
    description: 'Sender (`From`) of the e-mails the API sends.',
  },
  {
    name: 'SMS_GATEWAY_URL',
    default: '(unset: outbox)',
    description:
      'HTTP SMS gateway for one-time codes: the API POSTs JSON `{to: "298xxxxxx", from, text}` with `Authorization: Bearer <SMS_GATEWAY_TOKEN>` (10 s timeout). Unset: SMS go to the built-in outbox.',
  },
  {
    name: 'SMS_GATEWAY_TOKEN',
    default: '(unset)',
    description: 'Bearer token for `SMS_GATEWAY_URL`.',
  },
  {
    name: 'SMS_SENDER',
    default: 'Alda',
    description:
      'Sender shown on SMS (`from`): up to 11 letters or digits, or a phone number with up to 15 digits.',
  },
  {
    name: 'USAGE_FEED_TOKEN',
    default: '(unset: feed closed)',
    description:
      'Service token (≥ 24 characters) the charging system presents as `Authorization: Bearer …` to POST usage records to `/api/usage/records`. Unset: every call is refused with 401. Generate one with `openssl rand -base64 32`.',
  },
  {
    name: 'USAGE_SIMULATOR_INTERVAL_S',
    default: '30',
    description:
      'With DEMO_MODE on: seconds between rounds of the demo usage simulator, which uses a few MB on every line in service through the usage feed so the demo is alive. `0` turns it off. Ignored without DEMO_MODE.',
  },
  {
    name: 'PAYMENT_PROVIDER',
    default: 'test',
    description:
      'Card payment provider. `test`: the built-in test provider (hosted card page under `/test-provider/`, test cards in docs/operations.md "Payments"), which no real card reaches.',
  },
  {
    name: 'PAYMENT_WEBHOOK_SECRET',
    default: '(generated in development)',
    description:
      "Shared secret (≥ 32 characters) of the provider's webhook signatures (`Alda-Signature`, HMAC-SHA256 over timestamp and raw body). Required when NODE_ENV=production unless DEMO_MODE is on; the same on all instances.",
  },
  {
    name: 'PAYMENT_WEBHOOK_URL',
    default: '`<APP_URL>/api/payments/webhooks/test`',
    description:
      'Where the test provider POSTs its webhooks (a real provider is told this address in its dashboard).',
  },
  {
    name: 'PAYMENT_RECONCILE_INTERVAL_S',
    default: '60',
    description:
      'Seconds between reconciliation rounds, which re-read payments stuck in created/pending from the provider. `0` turns it off.',
  },
  {
    name: 'PAYMENT_RECONCILE_AFTER_S',
    default: '60',
    description:
      'A payment unchanged for this many seconds counts as stuck for reconciliation (one never sent to the provider is cancelled after it, at least 30 s).',
  },
  {
    name: 'MONTH_END_INTERVAL_S',
    default: '300',
    description:
      "Seconds between rounds of the month-end job (also run once at start), which moves every line balance of a past Faroese month to the current one: the plan's data again, extra packages gone (docs/decisions/0053-month-end.md). Safe on several instances. `0` turns it off.",
  },
  {
    name: 'TEST_PROVIDER_SLOW_DELAY_MS',
    default: '8000',
    description:
      'Milliseconds until the slow test card (`4000 0000 0000 3063`) succeeds; a pending webhook is sent first.',
  },
  {
    name: 'TEST_PROVIDER_WEBHOOK_DUPLICATES',
    default: 'false',
    description: 'The test provider sends every webhook twice (to exercise idempotent handling).',
  },
  {
    name: 'TEST_PROVIDER_WEBHOOK_DELAY_MS',
    default: '0',
    description:
      'The test provider holds every webhook back this many milliseconds (late delivery).',
  },
] as const satisfies readonly { name: string; default: string; description: string }[];

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const semverString = z
  .string()
  .refine((value) => semver.valid(value) !== null, 'must be a semver version like 3.0.0');

/** Optional string where an empty value counts as unset (as in `FOO= npm start`). */
const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

const envSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
    HOST: z.string().min(1).default('0.0.0.0'),
    DATABASE_URL: optionalString.refine(
      (value) => value === undefined || /^postgres(ql)?:\/\//.test(value),
      'must start with postgres:// or postgresql://',
    ),
    DATA_DIR: z.string().min(1).default('./data'),
    LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    DEMO_MODE: z.stringbool().default(false),
    WEB_DIST: z.string().min(1).default(DEFAULT_WEB_DIST),
    MIN_APP_VERSION: semverString.default(APP_VERSION),
    LATEST_APP_VERSION: semverString.default(APP_VERSION),
    JWT_SECRET: optionalString.refine(
      (value) => value === undefined || value.length >= 32,
      'must be at least 32 characters',
    ),
    ACCESS_TOKEN_TTL_S: z.coerce.number().int().min(30).max(86_400).default(900),
    REFRESH_TOKEN_TTL_S: z.coerce
      .number()
      .int()
      .min(300)
      .default(30 * 24 * 3600),
    CORS_ORIGINS: optionalString,
    RATE_LIMIT_MAX: z.coerce.number().int().min(0).default(600),
    TRUST_PROXY: optionalString,
    APP_URL: optionalString.refine(
      (value) => value === undefined || /^https?:\/\/[^\s/]+(\/[^\s?#]*)?$/.test(value),
      'must be an http(s) URL without query, e.g. https://minsida.alda.fo',
    ),
    ANDROID_APP_CERT_SHA256: optionalString.refine(
      (value) =>
        value === undefined ||
        value.split(',').every((f) => /^([0-9A-F]{2}:){31}[0-9A-F]{2}$/i.test(f.trim())),
      'must be comma-separated SHA-256 fingerprints, 32 hex pairs joined by ":"',
    ),
    IOS_APP_ID: optionalString.refine(
      (value) => value === undefined || /^[A-Z0-9]{10}\.[A-Za-z0-9.-]+$/.test(value),
      'must be <TEAM ID>.<bundle id>, e.g. ABCDE12345.fo.alda.selfcare',
    ),
    MIN_AGE: z.coerce.number().int().min(13).max(120).default(MIN_AGE),
    SMTP_URL: optionalString.refine(
      (value) => value === undefined || /^smtps?:\/\//.test(value),
      'must start with smtp:// or smtps://',
    ),
    MAIL_FROM: z.string().trim().min(3).default('Alda <no-reply@alda.fo>'),
    SMS_GATEWAY_URL: optionalString.refine(
      (value) => value === undefined || /^https?:\/\//.test(value),
      'must start with http:// or https://',
    ),
    SMS_GATEWAY_TOKEN: optionalString,
    SMS_SENDER: z
      .string()
      .trim()
      .regex(/^([A-Za-z0-9]{1,11}|\+?[0-9]{1,15})$/, 'must be up to 11 letters/digits or a number')
      .default('Alda'),
    USAGE_FEED_TOKEN: optionalString.refine(
      (value) => value === undefined || value.length >= 24,
      'must be at least 24 characters',
    ),
    USAGE_SIMULATOR_INTERVAL_S: z.coerce.number().int().min(0).max(86_400).default(30),
    PAYMENT_PROVIDER: z.enum(['test']).default('test'),
    PAYMENT_WEBHOOK_SECRET: optionalString.refine(
      (value) => value === undefined || value.length >= 32,
      'must be at least 32 characters',
    ),
    PAYMENT_WEBHOOK_URL: optionalString.refine(
      (value) => value === undefined || /^https?:\/\/\S+$/.test(value),
      'must be an http(s) URL',
    ),
    PAYMENT_RECONCILE_INTERVAL_S: z.coerce.number().int().min(0).max(86_400).default(60),
    PAYMENT_RECONCILE_AFTER_S: z.coerce.number().int().min(1).max(86_400).default(60),
    MONTH_END_INTERVAL_S: z.coerce.number().int().min(0).max(86_400).default(300),
    TEST_PROVIDER_SLOW_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(8000),
    TEST_PROVIDER_WEBHOOK_DUPLICATES: z.stringbool().default(false),
    TEST_PROVIDER_WEBHOOK_DELAY_MS: z.coerce.number().int().min(0).max(3_600_000).default(0),
  })
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
    if (
      env.NODE_ENV === 'production' &&
      !env.DEMO_MODE &&
      env.PAYMENT_WEBHOOK_SECRET === undefined
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['PAYMENT_WEBHOOK_SECRET'],
        message:
          'is required when NODE_ENV=production (generate one with `openssl rand -base64 48`)',
      });
    }
    if (env.NODE_ENV === 'production' && !env.DEMO_MODE && env.JWT_SECRET === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['JWT_SECRET'],
        message:
          'is required when NODE_ENV=production (generate one with `openssl rand -base64 48`)',
      });
    }
  });

export type LogLevel = (typeof LOG_LEVELS)[number];

/** The parsed, typed configuration every part of the server receives. */
export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  host: string;
  /** PostgreSQL when set; otherwise PGlite. */
  databaseUrl: string | undefined;
  /** Absolute PGlite folder, or `memory`. */
  dataDir: string;
  logLevel: LogLevel;
  demoMode: boolean;
  /** Absolute path of the built web app. */
  webDist: string;
  minAppVersion: string;
  latestAppVersion: string;
  jwtSecret: string;
  /** True when no JWT_SECRET was configured and a random one was made for this process. */
  jwtSecretGenerated: boolean;
  accessTokenTtlS: number;
  refreshTokenTtlS: number;
  /** Empty: CORS off. */
  corsOrigins: string[];
  /** 0: rate limiting off. */
  rateLimitMax: number;
  trustProxy: boolean | number | string[];
  /** Public web app address without a trailing slash, for links in e-mails. */
  appUrl: string;
  /** The native apps that may open the web app's links (ADR 0054); empty/null: none. */
  androidAppCertSha256: string[];
  iosAppId: string | null;
  /** Registration age limit in whole years. */
  minAge: number;
  /** SMTP server; undefined: e-mails go to the outbox. */
  smtpUrl: string | undefined;
  mailFrom: string;
  /** HTTP SMS gateway; undefined: SMS go to the outbox. */
  smsGatewayUrl: string | undefined;
  smsGatewayToken: string | undefined;
  smsSender: string;
  /** Bearer token of the usage feed's service endpoint; undefined: the feed is closed. */
  usageFeedToken: string | undefined;
  /** Seconds between demo usage simulator rounds (DEMO_MODE only); 0: off. */
  usageSimulatorIntervalS: number;
  /** Card payment provider adapter. */
  paymentProvider: 'test';
  /** HMAC secret of the provider's webhook signatures. */
  paymentWebhookSecret: string;
  /** True when no PAYMENT_WEBHOOK_SECRET was configured and a random one was made. */
  paymentWebhookSecretGenerated: boolean;
  /** Where the test provider delivers its webhooks. */
  paymentWebhookUrl: string;
  /** Seconds between reconciliation rounds; 0: off. */
  paymentReconcileIntervalS: number;
  /** Open payments unchanged this long are reconciled. */
  paymentReconcileAfterS: number;
  /** Seconds between month-end rounds (one also runs at start); 0: off. */
  monthEndIntervalS: number;
  testProviderSlowDelayMs: number;
  testProviderWebhookDuplicates: boolean;
  testProviderWebhookDelayMs: number;
}

/** Thrown by {@link loadConfig}; its message lists every bad variable, ready to print. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

function parseTrustProxy(value: string | undefined): boolean | number | string[] {
  if (value === undefined) return false;
  const lower = value.toLowerCase();
  if (['true', 'yes', '1'].includes(lower)) return true;
  if (['false', 'no', '0'].includes(lower)) return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}

/**
 * Parses the environment once at boot. Throws a {@link ConfigError} naming every invalid
 * variable, so a misconfigured deployment stops at start instead of failing on first use.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const result = envSchema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => {
      const name = issue.path.join('.') || '(environment)';
      return `  - ${name} ${issue.message}${name in env ? ` (got "${env[name]}")` : ''}`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = result.data;
  const dataDir = e.DATA_DIR === 'memory' ? 'memory' : path.resolve(e.DATA_DIR);
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir,
    logLevel: e.LOG_LEVEL,
    demoMode: e.DEMO_MODE,
    webDist: path.resolve(e.WEB_DIST),
    minAppVersion: e.MIN_APP_VERSION,
    latestAppVersion: e.LATEST_APP_VERSION,
    // A per-process random secret keeps development safe by default: nothing predictable signs
    // tokens. Its cost is that access tokens die with the process; clients simply refresh.
    jwtSecret: e.JWT_SECRET ?? randomBytes(48).toString('base64url'),
    jwtSecretGenerated: e.JWT_SECRET === undefined,
    accessTokenTtlS: e.ACCESS_TOKEN_TTL_S,
    refreshTokenTtlS: e.REFRESH_TOKEN_TTL_S,
    corsOrigins: (e.CORS_ORIGINS ?? '')
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
    rateLimitMax: e.RATE_LIMIT_MAX,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    appUrl: (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    androidAppCertSha256: (e.ANDROID_APP_CERT_SHA256 ?? '')
      .split(',')
      .map((f) => f.trim().toUpperCase())
      .filter(Boolean),
    iosAppId: e.IOS_APP_ID ?? null,
    minAge: e.MIN_AGE,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    smsGatewayUrl: e.SMS_GATEWAY_URL,
    smsGatewayToken: e.SMS_GATEWAY_TOKEN,
    smsSender: e.SMS_SENDER,
    usageFeedToken: e.USAGE_FEED_TOKEN,
    usageSimulatorIntervalS: e.USAGE_SIMULATOR_INTERVAL_S,
    paymentProvider: e.PAYMENT_PROVIDER,
    paymentWebhookSecret: e.PAYMENT_WEBHOOK_SECRET ?? randomBytes(48).toString('base64url'),
    paymentWebhookSecretGenerated: e.PAYMENT_WEBHOOK_SECRET === undefined,
    paymentWebhookUrl:
      e.PAYMENT_WEBHOOK_URL ??
      `${(e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '')}/api/payments/webhooks/${e.PAYMENT_PROVIDER}`,
    paymentReconcileIntervalS: e.PAYMENT_RECONCILE_INTERVAL_S,
    paymentReconcileAfterS: e.PAYMENT_RECONCILE_AFTER_S,
    monthEndIntervalS: e.MONTH_END_INTERVAL_S,
    testProviderSlowDelayMs: e.TEST_PROVIDER_SLOW_DELAY_MS,
    testProviderWebhookDuplicates: e.TEST_PROVIDER_WEBHOOK_DUPLICATES,
    testProviderWebhookDelayMs: e.TEST_PROVIDER_WEBHOOK_DELAY_MS,
  };
}

/** Names of the variables the parser reads; used by the test that keeps CONFIG_DOC honest. */
export const CONFIG_KEYS = Object.keys(envSchema.shape) as (keyof typeof envSchema.shape)[];

/**
 * The configuration table in markdown, from CONFIG_DOC. `npm run config:table -w @alda/api`
 * prints it for README.md and docs/operations.md; a test checks operations.md still matches.
 */
export function configTable(): string {
  const escape = (text: string) => text.replace(/\|/g, '\\|');
  const rows = CONFIG_DOC.map(
    (v) => `| \`${v.name}\` | ${escape(v.default)} | ${escape(v.description)} |`,
  );
  return ['| Variable | Default | Meaning |', '|---|---|---|', ...rows].join('\n');
}
