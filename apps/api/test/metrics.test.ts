import { execFileSync, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders } from '../src/db/schema/orders';
import { payments } from '../src/db/schema/payments';
import { users } from '../src/db/schema/users';
import { seedDemoData } from '../src/seed/seed';
import { DEMO_PASSWORD } from '../src/seed/demo-users';
import { createTestApp, demoUser, type TestApp, usingPostgres, waitFor } from './helper';
import { freePort } from './support/api-process';

/*
 * Issue 44 §1 and §5: the Prometheus metrics of a running instance, read as Prometheus reads
 * them — over the METRICS_PORT listener and over /metrics with METRICS_TOKEN — after real
 * requests, a job round, a usage feed call and payments in the database. The names and types
 * are those of deploy/prometheus/metric-names.json (which the alerts and the dashboard are
 * checked against), no label value looks like personal data, and `promtool check metrics`
 * accepts the scrape.
 */

const TOKEN = 'metrics-token-for-the-tests-0123456789';
const FEED_TOKEN = 'usage-feed-token-for-tests-0123456789';
const NAMES_FILE = fileURLToPath(
  new URL('../../../deploy/prometheus/metric-names.json', import.meta.url),
);

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The text exposition format: `# TYPE` lines and samples (enough for what prom-client writes). */
function parseExposition(text: string) {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('# TYPE ')) {
      const [, , name, type] = line.split(' ');
      if (name && type) types.set(name, type);
      continue;
    }
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)/.exec(line);
    if (!match) throw new Error(`unreadable sample: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
      labels[pair[1] ?? ''] = pair[2] ?? '';
    samples.push({ name: match[1] ?? '', labels, value: Number(match[3]) });
  }
  return { types, samples };
}

describe('issue 44 §1: Prometheus metrics of a running instance', () => {
  let t: TestApp;
  let base: string;
  let metricsPort: number;

  const value = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
    samples.find(
      (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
    )?.value;

  async function scrapePort(): Promise<string> {
    const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.text();
  }

  beforeAll(async () => {
    metricsPort = await freePort();
    t = await createTestApp({
      METRICS_PORT: String(metricsPort),
      METRICS_HOST: '127.0.0.1',
      METRICS_TOKEN: TOKEN,
      USAGE_FEED_TOKEN: FEED_TOKEN,
      // The provisioning job runs its rounds by itself here, quickly: its metrics are read.
      PROVISIONING_POLL_MS: '50',
    });
    await seedDemoData(t.app.db);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => t?.close());

  it('issue 44 §1: requests, a job, the usage feed and the fleet’s payments show in a scrape, with route templates and no personal data in any label', async () => {
    const joannes = demoUser('Jóannes');
    const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${base}${url}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    // A failed login, then a good one and requests with a session.
    expect(
      (await post('/api/auth/email-login', { email: joannes.email, password: 'wrong-one-1' }))
        .status,
    ).toBe(401);
    const login = await post('/api/auth/email-login', {
      email: joannes.email,
      password: DEMO_PASSWORD,
    });
    expect(login.status).toBe(200);
    const { accessToken } = ((await login.json()) as { data: { accessToken: string } }).data;
    const auth = { authorization: `Bearer ${accessToken}` };
    expect((await fetch(`${base}/api/subscriptions`, { headers: auth })).status).toBe(200);
    // A path with an id: counted under its template, never the id.
    const missing = randomUUID();
    expect((await fetch(`${base}/api/orders/${missing}`, { headers: auth })).status).toBe(404);
    // The usage feed: one record booked, one for a number that is not ours refused.
    const feed = await post(
      '/api/usage/records',
      {
        records: [
          {
            recordId: `metrics-${randomUUID()}`,
            phoneNumber: joannes.phoneNumber,
            usedMb: 10,
            kind: 'domestic',
            occurredAt: new Date(Date.now() - 60_000).toISOString(),
          },
          {
            recordId: `metrics-${randomUUID()}`,
            phoneNumber: '299999',
            usedMb: 10,
            kind: 'domestic',
            occurredAt: new Date().toISOString(),
          },
        ],
      },
      { authorization: `Bearer ${FEED_TOKEN}` },
    );
    expect(feed.status, await feed.clone().text()).toBe(200);
    // A payment left pending for an hour (the fleet's oldest open one).
    const [user] = await t.app.db.select().from(users).limit(1);
    if (!user) throw new Error('no user');
    const hourAgo = new Date(Date.now() - 3600_000);
    const [order] = await t.app.db
      .insert(orders)
      .values({
        userId: user.id,
        kind: 'top_up',
        priceOere: 10_000,
        paymentStatus: 'pending',
        createdAt: hourAgo,
      })
      .returning();
    if (!order) throw new Error('order insert');
    await t.app.db.insert(payments).values({
      orderId: order.id,
      userId: user.id,
      amountOere: 10_000,
      method: 'card',
      state: 'pending',
      provider: 'test',
      createdAt: hourAgo,
      updatedAt: hourAgo,
    });

    // The provisioning job's rounds run on their own.
    const { samples, types } = parseExposition(
      await waitFor(async () => {
        const text = await scrapePort();
        const { samples: now } = parseExposition(text);
        return (value(now, 'alda_job_last_success_timestamp_seconds', {
          job_name: 'provisioning',
        }) ?? 0) > 0
          ? text
          : undefined;
      }),
    );

    // Every name of the shared list is there, with its type (histograms as their series).
    const listed = (
      JSON.parse(readFileSync(NAMES_FILE, 'utf8')) as {
        metrics: { name: string; type: string; source: string }[];
      }
    ).metrics.filter((m) => m.source !== 'prometheus');
    for (const metric of listed) expect(types.get(metric.name), metric.name).toBe(metric.type);
    // And nothing of ours that the list (and so the alerts and dashboard) does not know.
    const ours = [...types.keys()].filter((name) => name.startsWith('alda_'));
    expect(ours.sort()).toEqual(
      listed
        .filter((m) => m.source === 'alda')
        .map((m) => m.name)
        .sort(),
    );

    const http = 'alda_http_request_duration_seconds_count';
    expect(
      value(samples, http, { route: '/api/auth/email-login', method: 'POST', status_class: '4xx' }),
    ).toBe(1);
    expect(
      value(samples, http, { route: '/api/auth/email-login', method: 'POST', status_class: '2xx' }),
    ).toBe(1);
    expect(
      value(samples, http, { route: '/api/orders/:id', method: 'GET', status_class: '4xx' }),
    ).toBe(1);
    // Probes and scrapes are not counted.
    expect(
      samples.filter((s) => s.name === http && /healthz|readyz|metrics/.test(s.labels.route ?? '')),
    ).toEqual([]);
    expect(value(samples, 'alda_login_failures_total', { method: 'password' })).toBe(1);
    expect(value(samples, 'alda_usage_records_total', { feed: 'json', result: 'booked' })).toBe(1);
    expect(value(samples, 'alda_usage_records_total', { feed: 'json', result: 'refused' })).toBe(1);
    expect(value(samples, 'alda_usage_feed_lag_seconds_count')).toBe(1);
    expect(value(samples, 'alda_payments', { state: 'pending' })).toBeGreaterThanOrEqual(1);
    expect(value(samples, 'alda_payments_open_oldest_age_seconds')).toBeGreaterThanOrEqual(3590);
    expect(value(samples, 'alda_job_interval_seconds', { job_name: 'provisioning' })).toBe(0.05);
    expect(value(samples, 'alda_job_round_failures_total', { job_name: 'provisioning' })).toBe(0);
    expect(value(samples, 'alda_db_listen_connected')).toBe(1);
    if (usingPostgres) {
      // The node-postgres pool: its size, and every query's wait for a connection.
      expect(value(samples, 'alda_db_pool_max_connections')).toBe(10);
      expect(value(samples, 'alda_db_pool_wait_seconds_count')).toBeGreaterThan(5);
      expect(value(samples, 'alda_db_pool_connections', { state: 'idle' })).toBeGreaterThan(0);
    }
    expect(value(samples, 'alda_http_requests_in_flight')).toBe(0);
    expect(value(samples, 'process_resident_memory_bytes')).toBeGreaterThan(0);

    // No label value that looks like a phone number, an e-mail address or an id.
    const personal = samples.flatMap((s) =>
      Object.entries(s.labels)
        .filter(
          ([, v]) =>
            /(^|\D)(298)?\d{6}(\D|$)/.test(v) ||
            v.includes('@') ||
            /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i.test(v),
        )
        .map(([k, v]) => `${s.name}{${k}="${v}"}`),
    );
    expect(personal).toEqual([]);
    expect(JSON.stringify(samples)).not.toContain(missing);
    expect(JSON.stringify(samples)).not.toContain(joannes.phoneNumber);
  });

  it('issue 44 §1: promtool check metrics accepts a scrape of the running instance', async () => {
    const promtool = spawnSync('promtool', ['--version']);
    if (promtool.error)
      throw new Error('promtool not found: apt-get install prometheus (.ci/run installs it)');
    const text = await scrapePort();
    // Exit status 0, and nothing to complain about (its lints go to stdout or stderr).
    const out = execFileSync('promtool', ['check', 'metrics'], {
      input: text,
      encoding: 'utf8',
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    expect(out.trim()).toBe('');
  });

  it('issue 44 §5: /metrics on the main port answers 401 without the token or with a wrong one, and the scrape with it', async () => {
    const without = await fetch(`${base}/metrics`);
    expect(without.status).toBe(401);
    expect(without.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(((await without.json()) as { error: { code: string } }).error.code).toBe('UNAUTHORIZED');
    const wrong = await fetch(`${base}/metrics`, {
      headers: { authorization: `Bearer ${TOKEN}x` },
    });
    expect(wrong.status).toBe(401);
    const right = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(right.status).toBe(200);
    expect(await right.text()).toContain('# TYPE alda_http_request_duration_seconds histogram');
    // The listener of its own serves nothing but /metrics.
    expect((await fetch(`http://127.0.0.1:${metricsPort}/`)).status).toBe(404);
  });
});

describe('issue 44 §1: without METRICS_PORT or METRICS_TOKEN', () => {
  it('issue 44 §1: /metrics is not served at all', async () => {
    const t = await createTestApp();
    try {
      const res = await t.app.inject({ url: '/metrics' });
      expect(res.statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});
