import { defineConfig, devices } from '@playwright/test';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { E2E_USAGE_FEED_TOKEN } from './e2e/support/usage';
import { TMF641_API_PORT, TMF641_LISTENER_SECRET } from './e2e/support/tmf641';
import { VIPPS_API_PORT, VIPPS_PRISM_PORT } from './e2e/support/vipps';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const port = Number(process.env.E2E_PORT ?? 3210);
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The spec files whose journeys change what every journey shares: a demo action on every line of
 * the database (README rule 8), or a staff role's sign-in rule (staff passkeys).
 */
const GLOBAL_JOURNEYS = /[\\/](lifecycle|roaming-cap|staff-passkeys)\.spec\.ts$/;

/** This process's environment without libfaketime's settings. */
function browserEnv(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] =>
        entry[1] !== undefined && entry[0] !== 'LD_PRELOAD' && !entry[0].startsWith('FAKETIME'),
    ),
  );
}

/**
 * Browser journeys against the real, built system: the API (in-memory PGlite, demo seed) serving
 * the production build of the app, driven in Debian's Chromium at a phone viewport.
 */
export default defineConfig({
  testDir: path.join(here, 'e2e'),
  outputDir: path.join(root, 'test-results'),
  // Two journeys at a time, each file's journeys in order (README rule 8): every journey works
  // on its own copy of the demo, and the e2e run was mostly waiting (one core of two busy).
  fullyParallel: false,
  workers: 2,
  projects: [
    { name: 'journeys', testIgnore: GLOBAL_JOURNEYS },
    // The journeys with a global demo action (`POST /dev/month-end` acts on every line) run
    // alone, after all the others.
    { name: 'global', testMatch: GLOBAL_JOURNEYS, dependencies: ['journeys'], workers: 1 },
  ],
  // A journey that needs a retry has a race: find it (apps/web/e2e/README.md).
  retries: 0,
  // Journeys are few and long (README), and every screen they photograph is also checked with
  // axe-core and photographed again in the dark theme (issue 16, ADR 0067).
  timeout: 90_000,
  expect: { timeout: 7_000 },
  // Each journey's line with its time as it ends, and all of them by time at the end.
  reporter: [['list'], [path.join(here, 'e2e/support/timings-reporter.ts')]],
  use: {
    ...devices['Pixel 7'],
    viewport: { width: 390, height: 844 },
    // One device pixel per CSS pixel: the screenshots (each screen twice, light and dark) were
    // most of the suite's time at the Pixel 7's 2.625, and 390 px wide PNGs are as legible.
    deviceScaleFactor: 1,
    // The service worker (ADR 0069) is left out of the journeys except the offline one in
    // shell.spec.ts, which allows it: installing it fetches the whole app shell again at the
    // start of every journey, work a journey about something else does not need.
    serviceWorkers: 'block',
    baseURL: `http://127.0.0.1:${port}`,
    locale: 'fo-FO',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: chromium,
      // scripts/e2e-dates.sh sets the clock with libfaketime for the API server and this runner;
      // Chromium hangs under it, so its pages get Playwright's clock instead (e2e/README.md).
      env: browserEnv(),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  // Each server's output is shown, named: one that exits before it answers says why in its log
  // (JSON on stdout).
  webServer: [
    {
      command: `node ${path.join(root, 'apps/api/dist/main.js')}`,
      url: `http://127.0.0.1:${port}/readyz`,
      reuseExistingServer: false,
      stdout: 'pipe',
      name: 'api',
      timeout: 60_000,
      env: {
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: 'memory',
        DEMO_MODE: 'true',
        LOG_LEVEL: 'warn',
        RATE_LIMIT_MAX: '10000',
        // The usage feed is open to the journeys (accounts.spec posts a record); the demo
        // simulator is off so the figures on screen only change when a journey changes them.
        USAGE_FEED_TOKEN: E2E_USAGE_FEED_TOKEN,
        USAGE_SIMULATOR_INTERVAL_S: '0',
        // The month's charge on the agreement (ADR 0081) would pay the demo's unpaid months at start.
        MONTH_END_CHARGE: 'false',
        // Payments (issue 6): the provider's card page returns to this origin and its webhooks
        // reach this server. The slow test card waits until a journey answers it (answerSlowCard,
        // issue 41): the waiting screen it asserts is not taken away by a timer on a busy machine.
        APP_URL: `http://127.0.0.1:${port}`,
        PAYMENT_PROVIDER: 'test',
        TEST_PROVIDER_SLOW_DELAY_MS: String(10 * 60 * 1000),
        // Provisioning (issue 11): the network simulator takes a step every 2 s instead of 30 s, so
        // a sign-up completes within a journey; the demo's own processing orders wait for days.
        PROVISIONING_STEP_S: '2',
        PROVISIONING_POLL_MS: '500',
        // Number protection (issue 32): the unlock's cooling-off is the real 24 h, and the journey
        // ends it when it has seen the waiting state (POST /dev/number-unlocks, issue 41); the
        // unlock job looks every second, and a data export is prepared in steps of 300 ms.
        NUMBER_UNLOCK_INTERVAL_S: '1',
        DATA_EXPORT_POLL_MS: '300',
        // The place of a sign-in (ADR 0059): as behind CloudFront, which sets this header itself;
        // identity.spec signs a phone in "from Denmark" with it.
        CLIENT_COUNTRY_HEADER: 'CloudFront-Viewer-Country',
        // Passkeys (ADR 0097): WebAuthn refuses an IP address as the relying party, so the
        // passkey journeys open the app at http://localhost:<port>, this same server.
        WEBAUTHN_RP_ID: 'localhost',
        WEBAUTHN_ORIGINS: `http://localhost:${port}`,
      },
    },
    // Issue 42: Vipps MobilePay's published API documents under Prism (request validation on) as
    // the provider, and a second API on PAYMENT_PROVIDER=vipps-mobilepay that talks to it, for
    // vipps-mobilepay.spec.ts. Every other journey stays on the test provider above.
    {
      command: `npx tsx ${path.join(root, 'apps/api/test/support/vipps-prism-main.ts')}`,
      url: `http://127.0.0.1:${VIPPS_PRISM_PORT + 1}/violations`,
      reuseExistingServer: false,
      stdout: 'pipe',
      name: 'vipps-prism',
      timeout: 90_000,
      env: { VIPPS_PRISM_PORT: String(VIPPS_PRISM_PORT) },
    },
    {
      command: `node ${path.join(root, 'apps/api/dist/main.js')}`,
      url: `http://127.0.0.1:${VIPPS_API_PORT}/readyz`,
      reuseExistingServer: false,
      stdout: 'pipe',
      name: 'api-vipps',
      timeout: 60_000,
      env: {
        PORT: String(VIPPS_API_PORT),
        HOST: '127.0.0.1',
        DATA_DIR: 'memory',
        DEMO_MODE: 'true',
        LOG_LEVEL: 'warn',
        RATE_LIMIT_MAX: '10000',
        USAGE_SIMULATOR_INTERVAL_S: '0',
        // The month's charge on the agreement (ADR 0081) would pay the demo's unpaid months at start.
        MONTH_END_CHARGE: 'false',
        APP_URL: `http://127.0.0.1:${VIPPS_API_PORT}`,
        PAYMENT_PROVIDER: 'vipps-mobilepay',
        VIPPS_MOBILEPAY_API_URL: `http://127.0.0.1:${VIPPS_PRISM_PORT}`,
        VIPPS_MOBILEPAY_CLIENT_ID: 'e2e-client-id',
        VIPPS_MOBILEPAY_CLIENT_SECRET: 'e2e-client-secret',
        VIPPS_MOBILEPAY_SUBSCRIPTION_KEY: 'e2e-subscription-key',
        VIPPS_MOBILEPAY_MSN: '123456',
        PROVISIONING_STEP_S: '2',
      },
    },
    // Issue 43: an API on NETWORK_ADAPTER=tmf641 whose OSS is its own demo TMF641 server, for
    // signup.spec.ts. Each service order goes acknowledged → inProgress → completed in steps of
    // TMF641_DEMO_STEP_MS, and its events reach the listener; the worker looks every 500 ms.
    {
      command: `node ${path.join(root, 'apps/api/dist/main.js')}`,
      url: `http://127.0.0.1:${TMF641_API_PORT}/readyz`,
      reuseExistingServer: false,
      stdout: 'pipe',
      name: 'api-tmf641',
      timeout: 60_000,
      env: {
        PORT: String(TMF641_API_PORT),
        HOST: '127.0.0.1',
        DATA_DIR: 'memory',
        DEMO_MODE: 'true',
        LOG_LEVEL: 'warn',
        RATE_LIMIT_MAX: '10000',
        USAGE_SIMULATOR_INTERVAL_S: '0',
        MONTH_END_CHARGE: 'false',
        APP_URL: `http://127.0.0.1:${TMF641_API_PORT}`,
        PAYMENT_PROVIDER: 'test',
        PROVISIONING_STEP_S: '2',
        PROVISIONING_POLL_MS: '500',
        NETWORK_ADAPTER: 'tmf641',
        TMF641_URL: `http://127.0.0.1:${TMF641_API_PORT}/tmf-api/serviceOrdering/v4`,
        TMF641_LISTENER_SECRET,
        TMF641_DEMO_STEP_MS: '300',
        TMF641_POLL_S: '5',
      },
    },
  ],
});
