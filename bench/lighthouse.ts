// Lighthouse, mobile preset (Moto G Power, simulated slow 4G and 4× CPU slowdown: Lighthouse's
// defaults), on three screens of the built app served by the real API (issue 13):
//   login     `/` signed out (the app shows the login screen)
//   home      `/` signed in as a demo customer
//   purchase  the extra-package purchase screen (`ROUTES.buyPackage`, /keyp-pakka)
// Prints the median of N runs per screen (scores, FCP, LCP, TBT, CLS, transfer bytes, unused JS,
// text-compression and render-blocking findings) and, for a screen under 95, the top
// opportunities and diagnostics of its median run. Not part of CI.
//
//   npm run bench:lighthouse                       # 3 runs per screen
//   npm run bench:lighthouse -- --runs 5
//   npm run bench:lighthouse -- --dist /tmp/build  # another build of apps/web (default: its dist/)
//   npm run bench:lighthouse -- --save /tmp/lh     # also writes each median run's report (HTML, JSON)
//   npm run bench:lighthouse -- --screens login    # only some of the screens (login, home, purchase)
//
// Needs Chromium (Debian's /usr/bin/chromium; another one with CHROME_PATH). Builds the web app
// when apps/web/dist is missing (`npm run build -w @alda/web` to measure a fresh build) and serves
// a copy of it taken at start. The API runs from source (tsx) with NODE_ENV=production and
// DEMO_MODE=true on an in-memory PGlite seeded with the demo customers, on a free port of
// 127.0.0.1. Signed in: the script logs in through the API and writes the tokens where the app
// keeps them on the web (Capacitor Preferences → localStorage, apps/web/src/shared/auth/
// token-store.ts) in Chromium's profile; Lighthouse then runs with `disableStorageReset` (the
// HTTP cache is cleared by hand instead).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import lighthouse from 'lighthouse';
import type { Flags, Result } from 'lighthouse';
import { chromium } from 'playwright-core';
import { TOKEN_KEYS } from '@alda/contract/constants';
import { DEMO_PASSWORD, DEMO_USERS } from '../apps/api/src/seed/demo-users';

const root = path.resolve(import.meta.dirname, '..');
const defaultWebDist = path.join(root, 'apps/web/dist');
const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-dev-shm-usage',
];
/** Capacitor Preferences on the web: localStorage under its default group (shared/native/preferences.ts). */
const STORAGE_PREFIX = 'CapacitorStorage.';
/** Jóannes: a family owner with an individual line too, the fullest home screen. */
const CUSTOMER = DEMO_USERS[0]!;
const PURCHASE_PATH = `/keyp-pakka?nummar=${CUSTOMER.phoneNumber}`;

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    save: { type: 'string' },
    dist: { type: 'string' },
    screens: { type: 'string' },
  },
});
const webDist = args.dist ? path.resolve(args.dist) : defaultWebDist;
const runs = Number(args.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a positive integer`);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check().catch(() => false)) return;
    await sleep(200);
  }
  throw new Error(`timed out waiting for ${what}`);
}

function buildWebIfMissing() {
  if (existsSync(path.join(webDist, 'index.html'))) return;
  if (webDist !== defaultWebDist) throw new Error(`${webDist} has no index.html`);
  console.log('apps/web/dist is missing: building the web app');
  const build = spawnSync('npm', ['run', 'build', '-w', '@alda/web'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

/**
 * A copy of the build to serve: a `vite build` running meanwhile (it empties dist/ first) must
 * not turn a run into 404s, and every run measures the same files.
 */
async function snapshotWebDist(): Promise<string> {
  const copy = await mkdtemp(path.join(os.tmpdir(), 'alda-lighthouse-web-'));
  await cp(webDist, copy, {
    recursive: true,
    filter: (source) => !source.endsWith('.map'),
  });
  return copy;
}

async function startApi(port: number, dist: string): Promise<ChildProcess> {
  const api = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DEMO_MODE: 'true',
      DATA_DIR: 'memory',
      DATABASE_URL: '',
      HOST: '127.0.0.1',
      PORT: String(port),
      APP_URL: `http://127.0.0.1:${port}`,
      WEB_DIST: dist,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  api.once('exit', (code) => {
    if (code !== null && code !== 0) {
      console.error(`the API exited with ${code}`);
      process.exit(1);
    }
  });
  await waitFor('the API', async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).ok);
  return api;
}

async function startChromium(): Promise<{ process: ChildProcess; port: number; profile: string }> {
  const profile = await mkdtemp(path.join(os.tmpdir(), 'alda-lighthouse-'));
  const child = spawn(
    chromePath,
    [...CHROME_FLAGS, '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'],
    { stdio: 'ignore' },
  );
  let port = 0;
  await waitFor('Chromium', async () => {
    const [line] = (await readFile(path.join(profile, 'DevToolsActivePort'), 'utf8')).split('\n');
    port = Number(line);
    return port > 0;
  });
  return { process: child, port, profile };
}

async function signIn(origin: string) {
  const res = await fetch(`${origin}/api/auth/email-login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: CUSTOMER.email, password: DEMO_PASSWORD }),
  });
  if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  const { data } = (await res.json()) as { data: { accessToken: string; refreshToken: string } };
  return data;
}

interface WebStorage {
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/**
 * Puts fresh tokens in the profile's localStorage for the app's origin (or removes them) and
 * empties the HTTP cache, so a run with `disableStorageReset` still loads everything cold.
 */
async function prepareProfile(cdpPort: number, origin: string, signedIn: boolean) {
  const tokens = signedIn ? await signIn(origin) : null;
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${cdpPort}`);
  try {
    const context = browser.contexts()[0]!;
    const page = await context.newPage();
    // Any page of the origin gives access to its storage; the icon loads no script.
    await page.goto(`${origin}/favicon.svg`);
    await page.evaluate(
      ({ keys, prefix, pair }) => {
        // Runs in the page (this file is type-checked without the DOM library).
        const storage = (globalThis as unknown as { localStorage: WebStorage }).localStorage;
        for (const [name, key] of Object.entries(keys)) {
          const value = pair?.[name as keyof typeof pair];
          if (value) storage.setItem(prefix + key, value);
          else storage.removeItem(prefix + key);
        }
      },
      {
        keys: { accessToken: TOKEN_KEYS.access, refreshToken: TOKEN_KEYS.refresh },
        prefix: STORAGE_PREFIX,
        pair: tokens,
      },
    );
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.clearBrowserCache');
    await page.close();
  } finally {
    await browser.close();
  }
}

interface Screen {
  name: string;
  path: string;
  signedIn: boolean;
}

const ALL_SCREENS: Screen[] = [
  { name: 'login', path: '/', signedIn: false },
  { name: 'home', path: '/', signedIn: true },
  { name: 'purchase', path: PURCHASE_PATH, signedIn: true },
];
/** `--screens login,home` measures only those (all three by default). */
const SCREENS = args.screens
  ? ALL_SCREENS.filter((screen) => args.screens?.split(',').includes(screen.name))
  : ALL_SCREENS;

/** A run Lighthouse could not measure (`runtimeError`), e.g. a trace without navigation start. */
class LighthouseRunError extends Error {
  constructor(
    url: string,
    readonly runtime: { code: string; message: string },
  ) {
    super(`${url}: ${runtime.message}`);
  }
}

async function runLighthouse(cdpPort: number, url: string, signedIn: boolean): Promise<Result> {
  const flags: Flags = {
    port: cdpPort,
    output: 'html',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility', 'best-practices'],
    // Signed in: keep the tokens just written (the script cleared the cache itself).
    disableStorageReset: signedIn,
  };
  const result = await lighthouse(url, flags);
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new LighthouseRunError(url, lhr.runtimeError);
  if (lhr.finalDisplayedUrl.includes('/rita-inn') && signedIn) {
    throw new Error(`${url} ended on the login screen: the tokens were not taken`);
  }
  (lhr as Result & { html?: string }).html = String(result.report);
  return lhr;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

type Audit = Result['audits'][string];
const audit = (lhr: Result, id: string): Audit | undefined => lhr.audits[id];
const numeric = (lhr: Result, id: string) => audit(lhr, id)?.numericValue ?? NaN;
const score = (lhr: Result, category: string) =>
  Math.round((lhr.categories[category]?.score ?? NaN) * 100);
const savingsBytes = (lhr: Result, id: string) => {
  const details = audit(lhr, id)?.details as { overallSavingsBytes?: number } | undefined;
  return details?.overallSavingsBytes ?? 0;
};
const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The run whose performance score is the median (the one whose findings are listed). */
function medianRun(results: Result[]): Result {
  const sorted = [...results].sort(
    (a, b) => (a.categories.performance?.score ?? 0) - (b.categories.performance?.score ?? 0),
  );
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

interface TableDetails {
  items?: {
    url?: string;
    wastedMs?: number;
    wastedBytes?: number;
    label?: string;
    duration?: number;
  }[];
}

const shortUrl = (url: string) => url.replace(/^https?:\/\/[^/]+/, '');

function rows(item: Audit | undefined) {
  return (item?.details as TableDetails | undefined)?.items ?? [];
}

/** Lighthouse's text-compression and render-blocking findings, and where LCP's time went. */
function findings(lhr: Result): string[] {
  const compression = audit(lhr, 'uses-text-compression');
  const uncompressed = rows(compression).map(
    (row) => `${shortUrl(row.url ?? '')} (${kib(row.wastedBytes ?? 0)} to save)`,
  );
  // Lighthouse 12 has the classic audit and the newer insight; the insight names the durations.
  const blocking = rows(audit(lhr, 'render-blocking-insight')).map(
    (row) => `${shortUrl(row.url ?? '')} (${Math.round(row.wastedMs ?? 0)} ms)`,
  );
  const savings = audit(lhr, 'render-blocking-resources')?.displayValue;
  const lcp = (audit(lhr, 'lcp-breakdown-insight')?.details as { items?: TableDetails[] })?.items;
  const phases = (lcp?.[0]?.items ?? []).map(
    (row) => `${row.label} ${Math.round(row.duration ?? 0)} ms`,
  );
  return [
    `text compression: ${uncompressed.length === 0 ? 'passed (nothing left to compress)' : uncompressed.join(', ')}`,
    `render-blocking: ${blocking.length === 0 ? 'none' : `${blocking.join(', ')}${savings ? `; ${savings}` : ''}`}`,
    ...(phases.length ? [`LCP (unthrottled trace): ${phases.join(', ')}`] : []),
  ];
}

/**
 * The performance category's diagnostics and insights that fail, biggest estimated saving first
 * (what Lighthouse's report lists under "Insights" and "Diagnostics").
 */
function topIssues(lhr: Result, count = 8): string[] {
  const refs = lhr.categories.performance?.auditRefs ?? [];
  return refs
    .filter(
      (ref) =>
        ref.weight === 0 &&
        (ref.group === 'diagnostics' || ref.id.endsWith('-insight')) &&
        ref.id !== 'largest-contentful-paint-element',
    )
    .flatMap((ref) => {
      const item = lhr.audits[ref.id];
      if (!item || item.score === null || item.score >= 0.9) return [];
      if (item.scoreDisplayMode === 'notApplicable' || item.scoreDisplayMode === 'informative')
        return [];
      const ms = Math.max(0, ...Object.values(item.metricSavings ?? {}).map((v) => v ?? 0));
      return [{ item, ms }];
    })
    .sort((a, b) => b.ms - a.ms || (a.item.score ?? 0) - (b.item.score ?? 0))
    .slice(0, count)
    .map(
      ({ item, ms }) =>
        `${item.title}${item.displayValue ? ` — ${item.displayValue}` : ''}` +
        `${ms > 0 ? ` (metric savings ≈ ${Math.round(ms)} ms)` : ''} [${item.id}]`,
    );
}

async function main() {
  buildWebIfMissing();
  const apiPort = await freePort();
  const origin = `http://127.0.0.1:${apiPort}`;
  console.log(`starting the API (production, demo data, in-memory database) on ${origin}`);
  const dist = await snapshotWebDist();
  const api = await startApi(apiPort, dist);
  const browser = await startChromium().catch((error: unknown) => {
    api.kill('SIGTERM');
    throw error;
  });
  const stop = async () => {
    api.kill('SIGTERM');
    // Chromium writes to its profile until it has exited; remove the folder after that.
    const exited = new Promise((resolve) => browser.process.once('exit', resolve));
    browser.process.kill();
    await Promise.race([exited, sleep(5000)]);
    await rm(browser.profile, { recursive: true, force: true }).catch(() => {});
    await rm(dist, { recursive: true, force: true }).catch(() => {});
  };
  process.once('SIGINT', () => void stop().then(() => process.exit(130)));

  try {
    // Warm the server (first requests compile code paths) outside the measurements.
    await prepareProfile(browser.port, origin, true);
    await fetch(`${origin}/`, { headers: { accept: 'text/html' } });

    const results = new Map<string, Result[]>();
    for (const screen of SCREENS) {
      const list: Result[] = [];
      for (let i = 0; i < runs; i++) {
        let lhr: Result | undefined;
        // Chromium now and then records a trace without its navigation start; Lighthouse's own
        // advice is to run again. The profile (tokens, empty cache) is prepared anew each time.
        for (let attempt = 1; !lhr; attempt++) {
          await prepareProfile(browser.port, origin, screen.signedIn);
          try {
            lhr = await runLighthouse(browser.port, origin + screen.path, screen.signedIn);
          } catch (error) {
            const retry =
              error instanceof LighthouseRunError &&
              error.runtime.code === 'NO_NAVSTART' &&
              attempt < 3;
            if (!retry) throw error;
            console.log(`  ${screen.name} run ${i + 1}: ${error.runtime.code}, running it again`);
          }
        }
        list.push(lhr);
        console.log(
          `  ${screen.name} run ${i + 1}/${runs}: performance ${score(lhr, 'performance')}, ` +
            `LCP ${seconds(numeric(lhr, 'largest-contentful-paint'))}, ${lhr.finalDisplayedUrl.replace(origin, '')}`,
        );
      }
      results.set(screen.name, list);
    }

    const first = [...results.values()][0]![0]!;
    console.log(
      `\nLighthouse ${first.lighthouseVersion}, mobile preset (simulated throttling), ` +
        `${runs} run${runs > 1 ? 's' : ''} per screen, medians; ${new Date().toISOString().slice(0, 10)}, ` +
        `Chromium ${first.environment.hostUserAgent.match(/Chrome\/([\d.]+)/)?.[1] ?? '?'}; ` +
        // Lighthouse's CPU benchmark of this machine (it scales TBT and LCP) and the load on it:
        // a busy machine makes the same page look slower.
        `benchmarkIndex ${median([...results.values()].flat().map((lhr) => lhr.environment.benchmarkIndex)).toFixed(0)}, ` +
        `load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores\n`,
    );
    const header = [
      'screen',
      'perf',
      'a11y',
      'best-pr.',
      'FCP',
      'LCP',
      'TBT',
      'CLS',
      'transfer',
      'unused JS',
    ];
    const rows = SCREENS.map((screen) => {
      const list = results.get(screen.name)!;
      const m = (pick: (lhr: Result) => number) => median(list.map(pick));
      return [
        screen.name,
        String(m((lhr) => score(lhr, 'performance'))),
        String(m((lhr) => score(lhr, 'accessibility'))),
        String(m((lhr) => score(lhr, 'best-practices'))),
        seconds(m((lhr) => numeric(lhr, 'first-contentful-paint'))),
        seconds(m((lhr) => numeric(lhr, 'largest-contentful-paint'))),
        `${m((lhr) => numeric(lhr, 'total-blocking-time')).toFixed(0)} ms`,
        m((lhr) => numeric(lhr, 'cumulative-layout-shift')).toFixed(3),
        kib(m((lhr) => numeric(lhr, 'total-byte-weight'))),
        kib(m((lhr) => savingsBytes(lhr, 'unused-javascript'))),
      ];
    });
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
    const line = (cells: string[]) =>
      `| ${cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join(' | ')} |`;
    console.log(line(header));
    console.log(
      `|${widths.map((w, i) => (i === 0 ? ':' : '') + '-'.repeat(w + 1) + (i === 0 ? '' : ':')).join('|')}|`,
    );
    for (const row of rows) console.log(line(row));

    for (const screen of SCREENS) {
      const lhr = medianRun(results.get(screen.name)!);
      console.log(`\n${screen.name} (${screen.path}), median run:`);
      for (const finding of findings(lhr)) console.log(`  ${finding}`);
      if (score(lhr, 'performance') < 95) {
        console.log('  top opportunities and diagnostics:');
        for (const issue of topIssues(lhr)) console.log(`    - ${issue}`);
      }
      if (args.save) {
        await mkdir(args.save, { recursive: true });
        const file = path.join(args.save, `${screen.name}.html`);
        const { html, ...json } = lhr as Result & { html?: string };
        await writeFile(file, html ?? '');
        await writeFile(file.replace(/\.html$/, '.json'), JSON.stringify(json));
        console.log(`  report: ${file}`);
      }
    }
  } finally {
    await stop();
  }
}

await main();
