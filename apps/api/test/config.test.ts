import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_VERSION } from '@alda/contract/constants';
import { CONFIG_DOC, ConfigError, configTable, loadConfig } from '../src/config';
import { DEFAULT_WEB_DIST, MIGRATIONS_DIR } from '../src/paths';

/** A web push key pair for these tests (public: never for production). */
const VAPID = {
  VAPID_PUBLIC_KEY:
    'BBZT0xbQRZF5mmxa5WFOJpWSMBBXedfZjdgO3vLnIG0ntiInV5zD4NtFAwVovjDcWcsjeQ2mp58DL4rG7Xazs5Y',
  VAPID_PRIVATE_KEY: 'SVKnAjFtUMUsaMXpoRtsTA7iyf7Foi5kWwZZdSI8lX0',
  VAPID_SUBJECT: 'mailto:drift@alda.fo',
};

describe('configuration (parsed once at boot)', () => {
  it('applies the documented defaults to an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      databaseUrl: undefined,
      dataDir: path.resolve('./data'),
      logLevel: 'info',
      nodeEnv: 'development',
      demoMode: false,
      webDist: path.resolve(DEFAULT_WEB_DIST),
      minAppVersion: APP_VERSION,
      latestAppVersion: APP_VERSION,
      accessTokenTtlS: 900,
      refreshTokenTtlS: 2_592_000,
      corsOrigins: [],
      rateLimitMax: 600,
      trustProxy: false,
      jwtSecretGenerated: true,
      appUrl: 'http://localhost:3000',
      minAge: 18,
      smtpUrl: undefined,
      mailFrom: 'Alda <no-reply@alda.fo>',
      smsGatewayUrl: undefined,
      smsGatewayToken: undefined,
      smsSender: 'Alda',
    });
    expect(config.jwtSecret.length).toBeGreaterThanOrEqual(32);
    // The reset link follows PORT unless APP_URL says otherwise.
    expect(loadConfig({ PORT: '8080' }).appUrl).toBe('http://localhost:8080');
  });

  it('declares each variable once: its documented default and meaning, and the Config key it fills', () => {
    for (const entry of CONFIG_DOC) {
      expect(entry.description.length, entry.name).toBeGreaterThan(10);
      expect(entry.default.length, entry.name).toBeGreaterThan(0);
    }
    // The documented default is the parser's default unless the declaration says otherwise.
    const shown = Object.fromEntries(CONFIG_DOC.map((entry) => [entry.name, entry.default]));
    expect(shown).toMatchObject({
      PORT: '3000',
      REFRESH_TOKEN_TTL_S: '2592000',
      DEMO_MODE: 'false',
      MIN_APP_VERSION: APP_VERSION,
      DATABASE_URL: '(unset)',
      WEB_DIST: 'apps/web/dist',
      JWT_SECRET: '(generated in development)',
    });
    // A variable's value reaches the camelCase key of Config, through the declared parser.
    const fingerprint = Array.from({ length: 32 }, () => 'ab').join(':');
    expect(
      loadConfig({
        ACCESS_TOKEN_TTL_S: '60',
        ANDROID_APP_CERT_SHA256: fingerprint,
        USAGE_SIMULATOR_INTERVAL_S: '0',
      }),
    ).toMatchObject({
      accessTokenTtlS: 60,
      androidAppCertSha256: [fingerprint.toUpperCase()],
      usageSimulatorIntervalS: 0,
    });
  });

  it.each(['docs/configuration.md'])(
    'keeps the configuration tables in %s equal to the generated ones, grouped by area',
    async (file) => {
      const doc = await readFile(new URL(`../../../${file}`, import.meta.url), 'utf8');
      const between = /<!-- config-table:start[^>]*-->\n([\s\S]*?)\n<!-- config-table:end -->/.exec(
        doc,
      );
      expect(between?.[1], 'run `npm run config:table -w @alda/api -- --write`').toBe(
        configTable(),
      );
    },
  );

  it('resolves the migrations and web folders of this repository', () => {
    expect(MIGRATIONS_DIR).toMatch(/apps[/\\]api[/\\]drizzle[/\\]?$/);
    expect(DEFAULT_WEB_DIST).toMatch(/apps[/\\]web[/\\]dist[/\\]?$/);
  });

  it('parses every variable it is given', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      DATABASE_URL: 'postgres://alda:pw@db.internal:5432/alda',
      DATA_DIR: 'memory',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      DEMO_MODE: 'false',
      WEB_DIST: '/srv/alda/web',
      MIN_APP_VERSION: '2.5.0',
      LATEST_APP_VERSION: '3.1.0',
      JWT_SECRET: 's'.repeat(40),
      STAFF_SECRET_KEY: 'k'.repeat(40),
      LINK_SECRET: 'l'.repeat(40),
      ...VAPID,
      ACCESS_TOKEN_TTL_S: '600',
      REFRESH_TOKEN_TTL_S: '86400',
      CORS_ORIGINS: 'capacitor://localhost, https://localhost',
      RATE_LIMIT_MAX: '0',
      TRUST_PROXY: '10.0.0.0/8,127.0.0.1',
      APP_URL: 'https://minsida.alda.fo/',
      MIN_AGE: '16',
      SMTP_URL: 'smtps://mailer:pw@smtp.alda.fo:465',
      MAIL_FROM: 'Alda <kundi@alda.fo>',
      SMS_GATEWAY_URL: 'https://sms.example.fo/v1/messages',
      SMS_GATEWAY_TOKEN: 'gateway-token',
      SMS_SENDER: 'AldaFO',
      PAYMENT_PROVIDER: 'test',
      PAYMENT_WEBHOOK_SECRET: 'w'.repeat(40),
      PAYMENT_RECONCILE_INTERVAL_S: '30',
      PAYMENT_RECONCILE_AFTER_S: '120',
      TEST_PROVIDER_SLOW_DELAY_MS: '4000',
      TEST_PROVIDER_WEBHOOK_DUPLICATES: 'true',
      TEST_PROVIDER_WEBHOOK_DELAY_MS: '1500',
    });
    expect(config).toMatchObject({
      paymentProvider: 'test',
      paymentWebhookSecret: 'w'.repeat(40),
      paymentWebhookSecretGenerated: false,
      // Unset: the provider posts to this app's own webhook route.
      paymentWebhookUrl: 'https://minsida.alda.fo/api/payments/webhooks/test',
      paymentReconcileIntervalS: 30,
      paymentReconcileAfterS: 120,
      testProviderSlowDelayMs: 4000,
      testProviderWebhookDuplicates: true,
      testProviderWebhookDelayMs: 1500,
      port: 8080,
      host: '127.0.0.1',
      databaseUrl: 'postgres://alda:pw@db.internal:5432/alda',
      dataDir: 'memory',
      logLevel: 'warn',
      nodeEnv: 'production',
      demoMode: false,
      webDist: '/srv/alda/web',
      minAppVersion: '2.5.0',
      latestAppVersion: '3.1.0',
      jwtSecret: 's'.repeat(40),
      jwtSecretGenerated: false,
      staffSecretKey: 'k'.repeat(40),
      accessTokenTtlS: 600,
      refreshTokenTtlS: 86_400,
      corsOrigins: ['capacitor://localhost', 'https://localhost'],
      rateLimitMax: 0,
      trustProxy: ['10.0.0.0/8', '127.0.0.1'],
      appUrl: 'https://minsida.alda.fo',
      minAge: 16,
      smtpUrl: 'smtps://mailer:pw@smtp.alda.fo:465',
      mailFrom: 'Alda <kundi@alda.fo>',
      smsGatewayUrl: 'https://sms.example.fo/v1/messages',
      smsGatewayToken: 'gateway-token',
      smsSender: 'AldaFO',
    });
  });

  it('rejects messaging and link settings that cannot work', () => {
    expect(() => loadConfig({ SMTP_URL: 'mail.alda.fo' })).toThrow(/SMTP_URL must start with smtp/);
    expect(() => loadConfig({ SMS_GATEWAY_URL: 'ftp://x' })).toThrow(/SMS_GATEWAY_URL must start/);
    expect(() => loadConfig({ APP_URL: 'minsida.alda.fo' })).toThrow(/APP_URL must be an http/);
    expect(() => loadConfig({ SMS_SENDER: 'Alda Føroyar' })).toThrow(/SMS_SENDER/);
    expect(() => loadConfig({ SUPPORT_PHONE: '21212' })).toThrow(/SUPPORT_PHONE must be a 6-digit/);
    expect(() => loadConfig({ SUPPORT_PHONE: '+298 212121' })).toThrow(/SUPPORT_PHONE/);
    expect(() => loadConfig({ MIN_AGE: '5' })).toThrow(/MIN_AGE/);
  });

  it('picks the SMS adapter: SMS_ADAPTER, else http with SMS_GATEWAY_URL, else outbox (issue 43)', () => {
    expect(loadConfig({}).smsAdapter).toBe('outbox');
    expect(loadConfig({ SMS_GATEWAY_URL: 'https://sms.example.fo/v1' }).smsAdapter).toBe('http');
    const smpp = loadConfig({
      SMS_ADAPTER: 'smpp',
      SMPP_URL: 'smpp://alda:p%40ss@smsc.example.fo:2775',
    });
    expect(smpp).toMatchObject({
      smsAdapter: 'smpp',
      smppMaxPerSecond: 10,
      smppEnquireLinkS: 30,
      smsCodeWaitS: 30,
      smppSourceAddr: undefined,
    });
    expect(() => loadConfig({ SMS_ADAPTER: 'smpp' })).toThrow(
      /SMPP_URL is required when SMS_ADAPTER=smpp/,
    );
    expect(() => loadConfig({ SMS_ADAPTER: 'smpp', SMPP_URL: 'smpp://smsc.example.fo' })).toThrow(
      /SMPP_URL must look like smpp:\/\/system_id:password@host:port/,
    );
    expect(() => loadConfig({ SMS_ADAPTER: 'http' })).toThrow(
      /SMS_GATEWAY_URL is required when SMS_ADAPTER=http/,
    );
    expect(() => loadConfig({ SMS_ADAPTER: 'kannel' })).toThrow(/SMS_ADAPTER/);
    expect(() => loadConfig({ SMPP_BACKOFF_MIN_MS: '5000', SMPP_BACKOFF_MAX_MS: '1000' })).toThrow(
      /SMPP_BACKOFF_MAX_MS must not be less than SMPP_BACKOFF_MIN_MS/,
    );
  });

  it.each([
    ['true', true],
    ['2', 2],
    ['false', false],
  ])('reads TRUST_PROXY=%s as %s', (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it('treats an empty DATABASE_URL as unset (PGlite)', () => {
    expect(loadConfig({ DATABASE_URL: '' }).databaseUrl).toBeUndefined();
  });

  it('stops with a message naming every bad variable', () => {
    const attempt = () =>
      loadConfig({
        PORT: 'eighty',
        DEMO_MODE: 'maybe',
        MIN_APP_VERSION: 'three',
        DATABASE_URL: 'mysql://alda:hunter2-db@db.internal/alda',
        JWT_SECRET: 'too-short-but-secret',
        METRICS_TOKEN: 'tok',
      });
    expect(attempt).toThrow(ConfigError);
    const message = (() => {
      try {
        attempt();
        return '';
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(message).toMatch(/^Invalid configuration:/);
    expect(message).toContain('PORT');
    expect(message).toContain('"eighty"');
    expect(message).toContain('DEMO_MODE');
    expect(message).toContain('MIN_APP_VERSION must be a semver version');
    expect(message).toContain('DATABASE_URL must start with postgres://');
    // A secret, a token or a URL that may carry a password is named, never repeated.
    expect(message).toContain('JWT_SECRET');
    expect(message).not.toContain('hunter2-db');
    expect(message).not.toContain('too-short-but-secret');
    expect(message).toContain('METRICS_TOKEN');
    expect(message).not.toContain('"tok"');
  });

  it('requires JWT_SECRET in production unless demo mode is on', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(
      /JWT_SECRET is required when NODE_ENV=production/,
    );
    expect(loadConfig({ NODE_ENV: 'production', DEMO_MODE: 'true' }).jwtSecretGenerated).toBe(true);
    expect(() => loadConfig({ NODE_ENV: 'production', JWT_SECRET: 's'.repeat(40) })).toThrow(
      /PAYMENT_WEBHOOK_SECRET is required when NODE_ENV=production/,
    );
    expect(
      loadConfig({ NODE_ENV: 'production', DEMO_MODE: 'true' }).paymentWebhookSecretGenerated,
    ).toBe(true);
  });

  // Issue 42 §5: with the provider chosen and a key missing, one line names the missing key.
  it('refuses to start in production without the web push keys, naming each; a platform half set up is refused (issue 64)', () => {
    const production = {
      NODE_ENV: 'production',
      JWT_SECRET: 's'.repeat(40),
      STAFF_SECRET_KEY: 'k'.repeat(40),
      LINK_SECRET: 'l'.repeat(40),
      PAYMENT_WEBHOOK_SECRET: 'w'.repeat(40),
    };
    expect(loadConfig({ ...production, ...VAPID }).vapidSubject).toBe(VAPID.VAPID_SUBJECT);
    for (const missing of Object.keys(VAPID)) {
      const env: Record<string, string> = { ...production, ...VAPID };
      delete env[missing];
      expect(() => loadConfig(env)).toThrow(
        new RegExp(`- ${missing} is required when NODE_ENV=production`),
      );
    }
    // Demo mode makes a pair per process.
    expect(() => loadConfig({ ...production, DEMO_MODE: 'true' })).not.toThrow();
    expect(() => loadConfig({ APNS_KEY_ID: 'ABC123DEFG', APNS_TOPIC: 'fo.alda.app' })).toThrow(
      /APNS_TEAM_ID is required with APNS_KEY_ID, APNS_TOPIC/,
    );
    expect(() => loadConfig({ VAPID_SUBJECT: 'drift@alda.fo' })).toThrow(
      /VAPID_SUBJECT must be a mailto: or https: address/,
    );
  });

  it('refuses PAYMENT_PROVIDER=vipps-mobilepay with a missing key, naming it on one line', () => {
    const complete = {
      PAYMENT_PROVIDER: 'vipps-mobilepay',
      VIPPS_MOBILEPAY_API_URL: 'https://apitest.vipps.no',
      VIPPS_MOBILEPAY_CLIENT_ID: 'client-id',
      VIPPS_MOBILEPAY_CLIENT_SECRET: 'client-secret-never-logged',
      VIPPS_MOBILEPAY_SUBSCRIPTION_KEY: 'subscription-key',
      VIPPS_MOBILEPAY_MSN: '123456',
    };
    expect(loadConfig(complete)).toMatchObject({
      paymentProvider: 'vipps-mobilepay',
      vippsMobilepayMsn: '123456',
    });
    for (const missing of Object.keys(complete).filter((key) => key.startsWith('VIPPS_'))) {
      const env: Record<string, string> = { ...complete };
      delete env[missing];
      let message = '';
      try {
        loadConfig(env);
      } catch (error) {
        message = (error as Error).message;
      }
      const lines = message.split('\n').filter((line) => line.includes('VIPPS_MOBILEPAY_'));
      expect(lines).toEqual([`  - ${missing} is required when PAYMENT_PROVIDER=vipps-mobilepay`]);
      expect(message).not.toContain('client-secret-never-logged');
    }
    // Production with Vipps MobilePay needs no Alda-Signature secret (that is the test provider's).
    expect(() =>
      loadConfig({
        ...complete,
        NODE_ENV: 'production',
        JWT_SECRET: 's'.repeat(40),
        STAFF_SECRET_KEY: 'k'.repeat(40),
        LINK_SECRET: 'l'.repeat(40),
        ...VAPID,
      }),
    ).not.toThrow();
    expect(() => loadConfig({ ...complete, VIPPS_MOBILEPAY_MSN: '12' })).toThrow(
      /VIPPS_MOBILEPAY_MSN must be the 4–6 digit merchant serial number/,
    );
  });

  it('rejects a short JWT_SECRET and a minimum version above the latest', () => {
    expect(() => loadConfig({ JWT_SECRET: 'short' })).toThrow(
      /JWT_SECRET must be at least 32 characters/,
    );
    expect(() => loadConfig({ MIN_APP_VERSION: '4.0.0', LATEST_APP_VERSION: '3.0.0' })).toThrow(
      /MIN_APP_VERSION must not be greater than LATEST_APP_VERSION/,
    );
  });
});
