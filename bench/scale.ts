// `npm run bench:scale`: Alda at an operator's volume, on PostgreSQL. For each size it seeds a
// database with `seedScale` (npm run seed:scale; kept between runs, so a million lines are seeded
// once), starts API instances as production runs them (bench/scale-server.ts: jobs on) — one, and
// three behind the shipped HAProxy config (deploy/haproxy/alda.cfg) — and measures, then prints
// one table:
//   - usage ingest through TMF635: single-Usage POSTs and batches of 1000, records/s sustained
//     for --duration seconds, p50/p99 per request; beside it the database's own COPY rate into a
//     scratch table of usage_records' shape (indexes included): the physical limit; the same
//     through HAProxy in front of three instances;
//   - one instance's memory (RSS, largest seen) during ingest;
//   - the desk: console search by name, number, e-mail, customer id (the customer number) and
//     the start of a number, p50/p95;
//   - a customer's day: sign-in, the home screen's requests, the 60-s poll (304), a purchase
//     (an extra package with the test card: placed, paid on the card page, paid as the app
//     learns it), p50/p95, and the same on a database of the 5 demo customers (the ratio is
//     the figure);
//   - month end for every line, run by the instances' own month-end job at the first midnight
//     of a month on their clocks: one instance, then three where one is killed (SIGKILL) once
//     half the balances have moved; the rest finish it, and nothing is moved or kept owed twice
//     (checked in the database);
//   - the month's charges on payment agreements by three instances' job, one killed halfway
//     through the time given: charges placed, and none twice;
//   - the month's bills (ADR 0098) for every customer by three instances' job, one killed once
//     half the customers are billed: the time until the month is complete, bills a second, the
//     new-bill e-mails, and that no customer has two bills, no bill number is missing or used
//     twice, nobody who owed something was left without a bill (not in --short). Every
//     instance's job bills the month before its clock's, so the months the other sections'
//     instances would bill are marked complete first: only the bills section makes bills;
//   - the database's size per line.
//
//   npm run bench:scale                                  # 10k and 100k lines, 60 s of ingest
//   npm run bench:scale -- --sizes 10000,100000,1000000  # a million: seeding takes ~15 min once
//   npm run bench:scale -- --short                       # the bench smoke: 300 lines, 2 s
//   npm run bench:scale -- --fresh                       # seed again even when a database is kept
//   npm run bench:scale -- --bill-mail-s 120             # wait 120 s at most for the bills' e-mails
//                                                        # (default 600; --bill-wait-s: for the bills, 3600)
// PostgreSQL: BENCH_PG_URL, else DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres.
// Databases are named alda_scale_<lines> and kept (unless --short); alda_scale_demo is dropped.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { createHash, randomUUID } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { ScaleReady } from './scale-server';
import { seedDemoData, seedReferenceData } from '../apps/api/src/seed/seed';
import { DEMO_PASSWORD } from '../apps/api/src/seed/demo-users';
import { openDatabase } from '../apps/api/src/db/client';
import { SCALE_PASSWORD, seedScale } from '../apps/api/src/seed/scale/seed-scale';
import { startHaproxy, type Haproxy } from '../apps/api/test/support/haproxy';
import { freePort } from '../apps/api/test/support/api-process';
import { payOnCardPage } from '../apps/api/test/support/http-json';
import { faroeMonth, startOfMonth } from '@alda/contract/format/date';
import { periodBounds, previousPeriod } from '@alda/contract/rules/bills';

const { values: flags } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,100000' },
    duration: { type: 'string', default: '60' },
    short: { type: 'boolean', default: false },
    fresh: { type: 'boolean', default: false },
    'bill-wait-s': { type: 'string', default: '3600' },
    'bill-mail-s': { type: 'string', default: '600' },
    json: { type: 'string' },
  },
});
const SHORT = flags.short;
const SIZES = SHORT ? [300] : flags.sizes.split(',').map(Number);
const DURATION_S = SHORT ? 2 : Number(flags.duration);
const SERVER_URL =
  process.env.BENCH_PG_URL ??
  process.env.DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/postgres';
const BATCH = 1000;
/** Concurrent requests: a charging system's connections. */
const SINGLE_CONNECTIONS = 32;
const BATCH_CONNECTIONS = 2;
/** The month end's instances start this long before midnight on their clock. */
const MONTH_END_LEAD_S = SHORT ? 10 : 45;
/** The longest wait for a month's bills; a month not complete by then fails the bench. */
const BILL_WAIT_S = Number(flags['bill-wait-s']);
/** How long the bills' instances are left sending the new-bill e-mails once the month is complete. */
const BILL_MAIL_S = Number(flags['bill-mail-s']);

const urlOf = (name: string) => {
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return url.toString();
};

/** Runs `work` with a client of `url`, closed afterwards. */
async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** On the server's own database (create and drop databases). */
const admin = <T>(work: (client: pg.Client) => Promise<T>) => withClient(SERVER_URL, work);
/** On the database `name` of the server. */
const withDb = <T>(name: string, work: (client: pg.Client) => Promise<T>) =>
  withClient(urlOf(name), work);

/** The seeded database of `lines` lines: kept from an earlier run when it is whole, else made. */
async function scaleDatabase(lines: number): Promise<string> {
  const name = `alda_scale_${lines}`;
  const exists = await admin(
    async (c) =>
      (await c.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1,
  );
  if (exists && !flags.fresh && !SHORT) {
    const kept = await withDb(name, async (c) => {
      // Whole: made for this many lines, and its load finished (`state`; older markers have none).
      const marker = await c
        .query<{ lines: number; state: string | null }>('select * from scale_seed limit 1')
        .catch(() => null);
      const row = marker?.rows[0];
      return row?.lines === lines && (row.state ?? 'done') === 'done';
    });
    if (kept) {
      console.log(`  ${name}: kept from an earlier run (--fresh seeds it again)`);
      return name;
    }
  }
  await admin(async (c) => {
    await c.query(`drop database if exists ${name} with (force)`);
    await c.query(`create database ${name}`);
  });
  const started = performance.now();
  await seedScale({ databaseUrl: urlOf(name), lines, seed: 1, quiet: true });
  console.log(`  ${name}: seeded in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return name;
}

/** A database with only the 5 demo customers (the ratio's baseline). */
async function demoDatabase(): Promise<string> {
  const name = 'alda_scale_demo';
  await admin(async (c) => {
    await c.query(`drop database if exists ${name} with (force)`);
    await c.query(`create database ${name}`);
  });
  const database = await openDatabase({ databaseUrl: urlOf(name), dataDir: 'memory' });
  await database.migrate();
  await seedReferenceData(database.db);
  await seedDemoData(database.db);
  await database.close();
  await holdBillsBack(name, [previousPeriod(new Date())]);
  return name;
}

/**
 * The month-end job of every instance bills the month before its clock's (ADR 0098) and e-mails
 * each customer, also on the instances of the other sections: there that work would be measured
 * with what the section measures (the round that bills, a minute or more of a 10,000-line
 * database, holds back the next: a month end's midnight, the month's charges). So the months
 * those instances would bill are marked complete in bill_periods first, where they are not, and
 * bills of an earlier run left unsent are marked sent; the bills are measured on their own
 * (`monthBills`), on a month held back until then.
 */
async function holdBillsBack(name: string, periods: readonly string[]): Promise<void> {
  await withDb(name, async (c) => {
    await c.query(
      'update bills set notified_at = now(), notifying_until = null where notified_at is null',
    );
    await c.query(
      `insert into bill_periods (period, completed_at)
         select p, now() from unnest($1::text[]) p
       on conflict do nothing`,
      [[...new Set(periods)]],
    );
  });
}

interface Server {
  ready: ScaleReady;
  base: string;
  rss(): Promise<number>;
  stop(): Promise<void>;
  /** SIGKILL: the instance dies mid-work, as in a crash (no shutdown hook runs). */
  kill(): Promise<void>;
}

async function startServer(name: string, env: Record<string, string> = {}): Promise<Server> {
  // Its own address is APP_URL: the test provider's webhooks and card page are sent there.
  const port = await freePort();
  const child: ChildProcess = spawn('npx', ['tsx', 'bench/scale-server.ts'], {
    env: {
      ...process.env,
      DATABASE_URL: urlOf(name),
      PORT: String(port),
      APP_URL: `http://127.0.0.1:${port}`,
      ...env,
    },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const waiting: ((line: string) => void)[] = [];
  let readyResolve: (r: ScaleReady) => void = () => {};
  const readyPromise = new Promise<ScaleReady>((resolve) => (readyResolve = resolve));
  lines.on('line', (line) => {
    if (line.startsWith('READY ')) readyResolve(JSON.parse(line.slice(6)) as ScaleReady);
    else if (line.startsWith('{"rss"')) waiting.shift()?.(line);
  });
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`scale server exited (${code})`))),
  );
  exited.catch(() => {});
  const ready = await Promise.race([readyPromise, exited]);
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  return {
    ready,
    base: `http://127.0.0.1:${ready.port}`,
    rss: () =>
      gone()
        ? Promise.resolve(0)
        : new Promise<number>((resolve) => {
            waiting.push((line) => resolve((JSON.parse(line) as { rss: number }).rss));
            child.stdin!.write('rss\n');
          }),
    stop: async () => {
      if (gone()) return;
      child.stdin!.end();
      await new Promise((resolve) => child.once('exit', resolve));
    },
    kill: async () => {
      if (gone()) return;
      // npx runs tsx, which runs node: the instance is the process that printed its pid.
      process.kill(ready.pid, 'SIGKILL');
      const exit = new Promise((resolve) => child.once('exit', resolve));
      const late = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exit;
      clearTimeout(late);
    },
  };
}

/** Where load goes: one instance, or HAProxy in front of several. */
interface Target {
  base: string;
  ready: ScaleReady;
  /** The largest RSS of its instances. */
  rss(): Promise<number>;
  stop(): Promise<void>;
}

const single = (server: Server): Target => server;

/** `count` instances behind the shipped HAProxy config (deploy/haproxy/alda.cfg). */
async function startCluster(name: string, count: number): Promise<Target> {
  const servers: Server[] = [];
  let haproxy: Haproxy | undefined;
  try {
    // Together, as a deployment's instances start (the migrations take an advisory lock).
    const settled = await Promise.allSettled(
      Array.from({ length: count }, () => startServer(name)),
    );
    for (const s of settled) if (s.status === 'fulfilled') servers.push(s.value);
    const failure = settled.find((s) => s.status === 'rejected');
    if (failure) throw failure.reason;
    haproxy = await startHaproxy({
      backends: servers.map((s) => `127.0.0.1:${s.ready.port}`),
    });
  } catch (error) {
    await Promise.all(servers.map((s) => s.stop()));
    throw error;
  }
  const balancer = haproxy;
  return {
    base: balancer.url,
    ready: servers[0]!.ready,
    rss: async () => Math.max(...(await Promise.all(servers.map((s) => s.rss())))),
    stop: async () => {
      await balancer.close();
      await Promise.all(servers.map((s) => s.stop()));
    },
  };
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted.length === 0
    ? NaN
    : (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN);
const sortNumbers = (values: number[]) => values.sort((a, b) => a - b);

/** `connections` loops calling `once` until `seconds` are over; the latencies in ms. */
async function drive(
  seconds: number,
  connections: number,
  once: (n: number) => Promise<void>,
): Promise<{ latencies: number[]; elapsedS: number }> {
  const latencies: number[] = [];
  const started = performance.now();
  const end = started + seconds * 1000;
  let n = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        await once((n += 1));
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return { latencies: sortNumbers(latencies), elapsedS: (performance.now() - started) / 1000 };
}

/** A data Usage of a charging system (TMF635 Usage_Create) with its own record id. */
function usage(id: string, msisdn: string, amountKb: number) {
  return {
    id,
    usageDate: new Date(Date.now() - 60_000).toISOString(),
    usageType: 'data',
    relatedParty: [{ id: `298${msisdn}`, role: 'subscriber', '@referredType': 'Subscriber' }],
    usageCharacteristic: [
      { name: 'dataVolume', valueType: 'Quantity', value: { amount: amountKb, units: 'KB' } },
    ],
  };
}

interface IngestFigures {
  singlePerS: number;
  singleP50: number;
  singleP99: number;
  batchPerS: number;
  batchP50: number;
  batchP99: number;
  copyPerS: number;
  rssMaxMb: number;
}

async function ingest(server: Target, name: string, run: string): Promise<IngestFigures> {
  const numbers = await withDb(name, async (c) =>
    (
      await c.query<{ msisdn: string }>(
        "select msisdn from phone_lines where status = 'active' and data_paused_at is null order by md5(msisdn) limit 20000",
      )
    ).rows.map((r) => r.msisdn),
  );
  if (numbers.length === 0) throw new Error(`${name}: no active lines`);
  const pick = (i: number) => numbers[(i * 7919) % numbers.length] as string;
  const headers = {
    authorization: `Bearer ${server.ready.feedToken}`,
    'content-type': 'application/json',
  };
  const url = `${server.base}/tmf-api/usageManagement/v4/usage`;
  let rssMax = 0;
  const sampler = setInterval(
    () => void server.rss().then((rss) => (rssMax = Math.max(rssMax, rss))),
    500,
  );
  let failed = 0;
  const single = await drive(DURATION_S, SINGLE_CONNECTIONS, async (n) => {
    const res = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify(usage(`${run}-s-${n}`, pick(n), 100 + (n % 4000))),
    });
    if (res.status !== 201) failed += 1;
    await res.arrayBuffer();
  });
  let batchRecords = 0;
  const batch = await drive(DURATION_S, BATCH_CONNECTIONS, async (n) => {
    const body = Array.from({ length: BATCH }, (_, i) =>
      usage(`${run}-b-${n}-${i}`, pick(n * BATCH + i), 100 + (i % 4000)),
    );
    const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
    if (res.status !== 200) failed += 1;
    else batchRecords += BATCH;
    await res.arrayBuffer();
  });
  clearInterval(sampler);
  if (failed > 0) throw new Error(`ingest: ${failed} requests were not booked`);
  const copyPerS = await copyRate(name, Math.max(batchRecords, 10_000));
  return {
    singlePerS: single.latencies.length / single.elapsedS,
    singleP50: percentile(single.latencies, 50),
    singleP99: percentile(single.latencies, 99),
    batchPerS: batchRecords / batch.elapsedS,
    batchP50: percentile(batch.latencies, 50),
    batchP99: percentile(batch.latencies, 99),
    copyPerS,
    rssMaxMb: rssMax / 2 ** 20,
  };
}

/** The database's own rate: COPY of `count` records into a scratch copy of usage_records. */
async function copyRate(name: string, count: number): Promise<number> {
  return withDb(name, async (c) => {
    await c.query('drop table if exists bench_scratch_usage');
    await c.query('create table bench_scratch_usage (like usage_records including all)');
    const lineIds = (
      await c.query<{ id: string; msisdn: string }>(
        'select id, msisdn from phone_lines order by md5(msisdn) limit 20000',
      )
    ).rows;
    const occurred = new Date().toISOString();
    const rows = function* () {
      for (let i = 0; i < count; i += 1) {
        const line = lineIds[i % lineIds.length]!;
        const mb = 1 + (i % 4);
        yield `copy-${i}\t${line.id}\t${line.msisdn}\tdata\t${mb}\tMB\t${mb}\tdomestic\t${occurred}\n`;
      }
    };
    const started = performance.now();
    await pipeline(
      Readable.from(rows()),
      c.query(
        copyFrom(
          'copy bench_scratch_usage (record_id, line_id, msisdn, usage_type, quantity, unit, used_mb, kind, occurred_at) from stdin',
        ),
      ),
    );
    const rate = count / ((performance.now() - started) / 1000);
    await c.query('drop table bench_scratch_usage');
    return rate;
  });
}

interface LatencyPair {
  p50: number;
  p95: number;
}

async function timed(
  times: number,
  once: (i: number) => Promise<Response>,
  expect: number[],
): Promise<LatencyPair> {
  const latencies: number[] = [];
  for (let i = 0; i < times; i += 1) {
    const t0 = performance.now();
    const res = await once(i);
    await res.arrayBuffer();
    latencies.push(performance.now() - t0);
    if (!expect.includes(res.status)) throw new Error(`${res.url}: ${res.status}`);
  }
  sortNumbers(latencies);
  return { p50: percentile(latencies, 50), p95: percentile(latencies, 95) };
}

/** Console search by name, number, e-mail and customer number (the support agent's desk). */
async function desk(server: Target, name: string): Promise<Record<string, LatencyPair>> {
  const people = await withDb(
    name,
    async (c) =>
      (
        await c.query<{
          id: string;
          firstname: string;
          lastname: string;
          email: string;
          msisdn: string;
        }>(
          `select u.id, u.firstname, u.lastname, u.email, l.msisdn
             from users u join phone_lines l on l.user_id = u.id
            order by md5(u.email) limit 50`,
        )
      ).rows,
  );
  const times = SHORT ? 5 : 50;
  const search = (q: (i: number) => string) =>
    timed(
      times,
      (i) =>
        fetch(`${server.base}/api/staff/customers?q=${encodeURIComponent(q(i))}`, {
          headers: { authorization: server.ready.staff },
        }),
      [200],
    );
  const at = (i: number) => people[i % people.length]!;
  return {
    name: await search((i) => `${at(i).firstname} ${at(i).lastname}`),
    number: await search((i) => at(i).msisdn),
    email: await search((i) => at(i).email),
    customerId: await search((i) => at(i).id),
    numberStart: await search((i) => at(i).msisdn.slice(0, 4)),
  };
}

/** Like `timed`, for work of several requests: its latencies in ms. */
async function timedWork(times: number, once: (i: number) => Promise<void>): Promise<LatencyPair> {
  const latencies: number[] = [];
  for (let i = 0; i < times; i += 1) {
    const t0 = performance.now();
    await once(i);
    latencies.push(performance.now() - t0);
  }
  sortNumbers(latencies);
  return { p50: percentile(latencies, 50), p95: percentile(latencies, 95) };
}

/** A customer of the day: how they sign in, and a number of theirs they buy a package on. */
interface Login {
  email: string;
  password: string;
  msisdn: string;
}

/** Owners of an active postpaid line: they can buy an extra package on it. */
async function loginsOf(name: string, password: string, count: number): Promise<Login[]> {
  return withDb(name, async (c) =>
    (
      await c.query<{ email: string; msisdn: string }>(
        `select distinct on (u.email) u.email, l.msisdn
             from users u
             join phone_lines l on l.user_id = u.id
             join accounts a on a.id = l.account_id and a.owner_user_id = u.id
            where l.status = 'active' and not l.is_prepaid and l.data_paused_at is null
            order by u.email, l.msisdn`,
      )
    ).rows
      .sort((a, b) => (hash(a.email) < hash(b.email) ? -1 : 1))
      .slice(0, count)
      .map((r) => ({ ...r, password })),
  );
}
const hash = (text: string) => createHash('md5').update(text).digest('hex');

/** The extra package bought (1 GB domestic, the reference catalogue). */
const PACKAGE_ID = 'data-1';

/**
 * A purchase as the app makes it (SPEC §4 "Payment flow"): the order placed with the card, the
 * test provider's card page submitted, then the order read until it is paid (the app's HTTP
 * fallback of the payment hub).
 */
async function buy(base: string, token: string, msisdn: string): Promise<void> {
  const placed = await fetch(`${base}/api/packages`, {
    method: 'POST',
    headers: {
      'accept-language': 'fo',
      'content-type': 'application/json',
      authorization: token,
      'idempotency-key': randomUUID(),
    },
    body: JSON.stringify({ packageId: PACKAGE_ID, phoneNumber: msisdn, payWith: 'card' }),
  });
  if (placed.status !== 201) throw new Error(`purchase: ${placed.status} ${await placed.text()}`);
  const { data } = (await placed.json()) as {
    data: { order: { id: string }; paymentUrl: string | null };
  };
  if (!data.paymentUrl) throw new Error('purchase: no card page');
  // The card page of the instance's test provider, through the same address as the API.
  const page = new URL(data.paymentUrl);
  const paid = await payOnCardPage(`${base}${page.pathname}`);
  if (paid !== 303) throw new Error(`card page: ${paid}`);
  const deadline = performance.now() + 30_000;
  for (;;) {
    const res = await fetch(`${base}/api/orders/${data.order.id}`, {
      headers: { authorization: token },
    });
    const order = (await res.json()) as { data?: { paymentStatus?: string } };
    if (order.data?.paymentStatus === 'paid') return;
    if (performance.now() > deadline)
      throw new Error(`purchase: not paid after 30 s (${order.data?.paymentStatus})`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Sign-in, the home screen's requests, the 60-s poll and a purchase of a few customers. */
async function customersDay(
  server: Target,
  logins: readonly Login[],
): Promise<Record<string, LatencyPair>> {
  const times = SHORT ? 4 : 40;
  const fo = { 'accept-language': 'fo', 'content-type': 'application/json' };
  const tokens: string[] = [];
  const signIn = await timed(
    times,
    async (i) => {
      const login = logins[i % logins.length]!;
      const res = await fetch(`${server.base}/api/auth/email-login`, {
        method: 'POST',
        headers: fo,
        body: JSON.stringify({ email: login.email, password: login.password }),
      });
      const clone = res.clone();
      if (res.status === 200)
        tokens.push(
          `Bearer ${((await clone.json()) as { data: { accessToken: string } }).data.accessToken}`,
        );
      return res;
    },
    [200],
  );
  const token = (i: number) => tokens[i % tokens.length]!;
  const get = (path: string) => (i: number) =>
    fetch(`${server.base}${path}`, { headers: { ...fo, authorization: token(i) } });
  const home = await timed(
    times,
    async (i) => {
      const answers = await Promise.all(
        ['/api/subscriptions', '/api/notifications?page=0&perPage=15', '/api/data-transfers'].map(
          (path) => get(path)(i),
        ),
      );
      for (const a of answers.slice(1)) await a.arrayBuffer();
      return answers[0]!;
    },
    [200],
  );
  const etags = new Map<number, string>();
  for (let i = 0; i < tokens.length; i += 1) {
    const res = await get('/api/notifications?page=0&perPage=15')(i);
    await res.arrayBuffer();
    etags.set(i, res.headers.get('etag') ?? '');
  }
  // The poll with the ETag last read: a 304. A background job on its production timer may change
  // the customer meanwhile (on the demo, the month-end job's charge at start of the demo's unpaid
  // month: its payment is paid when the provider's webhook comes): that poll answers 200 with the
  // new list, as it would the customer; its ETag is kept and the poll asked again. Only the 304s
  // are timed.
  const pollTimes: number[] = [];
  for (let i = 0; i < times; i += 1) {
    for (let tries = 1; ; tries += 1) {
      const t0 = performance.now();
      const res = await fetch(`${server.base}/api/notifications?page=0&perPage=15`, {
        headers: {
          ...fo,
          authorization: token(i),
          'if-none-match': etags.get(i % tokens.length) ?? '',
        },
      });
      await res.arrayBuffer();
      if (res.status === 304) {
        pollTimes.push(performance.now() - t0);
        break;
      }
      if (res.status !== 200 || tries === 3) throw new Error(`${res.url}: ${res.status}`);
      console.log('    poll: the notifications changed since their ETag was read; asked again');
      etags.set(i % tokens.length, res.headers.get('etag') ?? '');
    }
  }
  sortNumbers(pollTimes);
  const poll = { p50: percentile(pollTimes, 50), p95: percentile(pollTimes, 95) };
  // Tokens are in sign-in order: token i is the customer of logins[i % logins.length].
  const purchase = await timedWork(SHORT ? 2 : 20, (i) =>
    buy(server.base, token(i), logins[(i % tokens.length) % logins.length]!.msisdn),
  );
  return { signIn, home, poll, purchase };
}

interface MonthEndFigures {
  instances: number;
  /** From midnight on the instances' clocks until every balance is in the new month. */
  seconds: number;
  /** Balances moved (or removed, of cancelled lines). */
  moved: number;
  /** Whether one instance was killed halfway. */
  killed: boolean;
  /** Moved or kept owed twice: each must be 0. */
  twice: { balances: number; roaming: number };
}

/** The `n` a counting query answers. */
async function countOf(c: pg.Client, sql: string, params: unknown[] = []): Promise<number> {
  return Number((await c.query<{ n: string }>(sql, params)).rows[0]?.n ?? 0);
}

/** The first instant of the month the balances are in now (the latest month end's). */
async function balancesMonth(name: string): Promise<Date> {
  const latest = await withDb(name, async (c) => {
    const { rows } = await c.query<{ latest: Date | null }>(
      'select max(period_start) as latest from line_balances',
    );
    return rows[0]?.latest ?? new Date();
  });
  return startOfMonth(latest);
}

/**
 * `count` instances started together (as a deployment starts them; the migrations take an
 * advisory lock) with the clock moved so that it reads `clockAt` now.
 */
async function startInstances(
  name: string,
  count: number,
  clockAt: Date,
  env: Record<string, string>,
): Promise<Server[]> {
  const offsetMs = clockAt.getTime() - Date.now();
  const settled = await Promise.allSettled(
    Array.from({ length: count }, () =>
      startServer(name, { SCALE_CLOCK_OFFSET_MS: String(offsetMs), ...env }),
    ),
  );
  const servers = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failure = settled.find((s) => s.status === 'rejected');
  if (failure) {
    await Promise.all(servers.map((s) => s.stop()));
    throw failure.reason;
  }
  return servers;
}

/**
 * Month end for every line, by the instances' own month-end job: `instances` instances start
 * with their clocks MONTH_END_LEAD_S before the first midnight of the month after the balances'
 * month (so each run moves every balance once more; the database is kept between runs), the job
 * every few seconds (MONTH_END_INTERVAL_S) so that a round that found rows locked by a killed
 * instance comes again soon, and the month's charges off (measured on their own:
 * `monthCharges`). Timed from that midnight until no balance is left in an earlier month. With
 * `kill`, one instance is killed once half the balances have moved. Then the database is asked
 * what was done twice.
 */
async function monthEnd(name: string, instances: number, kill: boolean): Promise<MonthEndFigures> {
  const from = await balancesMonth(name);
  // 45 days on is the next month (`from` is the first instant of a Faroese month; in summer that
  // is 23:00 the day before in UTC, so the UTC month plus one would be the same month again).
  const monthStart = startOfMonth(from.getTime() + 45 * 86_400_000);
  const stale = () =>
    withDb(name, (c) =>
      countOf(c, 'select count(*) as n from line_balances where period_start < $1', [monthStart]),
    );
  const total = await stale();
  const midnight = performance.now() + MONTH_END_LEAD_S * 1000;
  const servers = await startInstances(
    name,
    instances,
    new Date(monthStart.getTime() - MONTH_END_LEAD_S * 1000),
    { MONTH_END_INTERVAL_S: '3', MONTH_END_CHARGE: 'false' },
  );
  let killed = false;
  try {
    const early = (midnight - performance.now()) / 1000;
    console.log(
      early > 0
        ? `    ${instances} instance(s) up ${early.toFixed(0)} s before midnight`
        : `    ${instances} instance(s) up ${(-early).toFixed(0)} s after midnight (a slow start: the time includes it)`,
    );
    let shown = 0;
    for (;;) {
      const left = await stale();
      const since = (performance.now() - midnight) / 1000;
      if (since - shown >= 30) {
        shown = since;
        console.log(
          `    ${since.toFixed(0)} s: ${left.toLocaleString('en')} of ${total.toLocaleString('en')} balances to move`,
        );
      }
      if (left === 0) break;
      if (kill && !killed && left <= total / 2) {
        await servers[1]!.kill();
        killed = true;
      }
      if (since > 3_600) throw new Error('month end: not done in 1 h');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const seconds = (performance.now() - midnight) / 1000;
    console.log(
      `    balances moved in ${seconds.toFixed(1)} s after midnight${killed ? ', one instance killed halfway' : ''}`,
    );
    await Promise.all(servers.map((s) => s.stop()));
    const twice = await withDb(name, async (c) => {
      return {
        // line_balances has one row per line (its key): a balance moved twice would be a month
        // ahead of the others.
        balances: await countOf(
          c,
          'select count(*) as n from line_balances where period_start > $1',
          [monthStart],
        ),
        roaming: await countOf(
          c,
          'select count(*) as n from (select 1 from roaming_charges group by line_id, month having count(*) > 1) t',
        ),
      };
    });
    return { instances, seconds, moved: total - (await stale()), killed, twice };
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}

interface ChargeFigures {
  seconds: number;
  /** The month's charges placed (orders of the month on agreements). */
  placed: number;
  killed: boolean;
  /** Customers charged twice for the month: must be 0. */
  twice: number;
}

/**
 * The month's charges on payment agreements (the month-end job's second part), by three
 * instances a minute after the midnight the balances last moved at, for `seconds`; one instance
 * is killed (SIGKILL) halfway through. A million lines have hundreds of thousands of agreements:
 * the figure is the rate, and that no customer was charged twice.
 */
async function monthCharges(name: string, seconds: number): Promise<ChargeFigures> {
  const month = await balancesMonth(name);
  const period = faroeMonth(new Date(month.getTime() + 86_400_000));
  const servers = await startInstances(name, 3, new Date(month.getTime() + 60_000), {
    MONTH_END_INTERVAL_S: '3',
  });
  const started = performance.now();
  try {
    await new Promise((resolve) => setTimeout(resolve, (seconds * 1000) / 2));
    await servers[1]!.kill();
    await new Promise((resolve) => setTimeout(resolve, (seconds * 1000) / 2));
    await Promise.all(servers.map((s) => s.stop()));
    const elapsed = (performance.now() - started) / 1000;
    return withDb(name, async (c) => {
      return {
        seconds: elapsed,
        placed: await countOf(
          c,
          `select count(*) as n from orders where kind = 'subscription_payment' and billing_period = $1`,
          [period],
        ),
        killed: true,
        twice: await countOf(
          c,
          `select count(*) as n from (
             select 1 from payments p join orders o on o.id = p.order_id
              where o.kind = 'subscription_payment' and o.billing_period = $1
                and p.state in ('created', 'pending', 'paid')
              group by o.user_id having count(*) > 1) t`,
          [period],
        ),
      };
    });
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}

interface Tail {
  p50: number;
  p99: number;
}

interface BillFigures {
  /** The month billed, `yyyy-mm`. */
  period: string;
  /** Customers the job deals with: owners of a postpaid account, anyone with a receipt. */
  customers: number;
  /** Bills made for the month (a customer with nothing charged gets none). */
  bills: number;
  killed: boolean;
  /** Whether bill_periods had the month within BILL_WAIT_S. */
  complete: boolean;
  /** From the instances' start until bill_periods has the month (or the wait ended). */
  seconds: number;
  /** Of which the instances' start-up (until all three answered). */
  startS: number;
  /**
   * The first pass: customers dealt with (a bill, or none) until the runs paused for more than
   * 10 s, when its last one was (s from the start), and bills a second in it.
   */
  pass: { runs: number; seconds: number; perS: number };
  /** Customers dealt with after such a pause (the killed instance's batch), and when the last. */
  late: { runs: number; seconds: number };
  /** New-bill e-mails sent, a second (first to last), and when all were (s from the start). */
  mail: { sent: number; perS: number; allS: number | null };
  /** /healthz of the live instances, ms: while the first pass made bills, while e-mailing. */
  health: { making: Tail; mailing: Tail };
  /** Each must be 0. */
  checks: {
    /** Customers with two bills for a month (over every month). */
    twice: number;
    /** Numbers from 1 to the counter's last without a bill (over every month). */
    serialGaps: number;
    /** Numbers on two bills. */
    serialTwice: number;
    /** Runs without a bill of customers with something to bill. */
    emptyRuns: number;
    /** Customers of the month without a run (once the month was marked complete). */
    notRun: number;
  };
}

/** Owners of a postpaid account of the month, and anyone with a receipt in it: as issue.ts. */
const BILL_CUSTOMERS = `
  exists (select 1 from accounts a where a.owner_user_id = u.id and a.type <> 'prepaid'
            and (a.status <> 'cancelled' or a.status_changed_at >= $1) and a.created_at < $2)
  or exists (select 1 from receipts r where r.user_id = u.id and r.issued_at >= $1 and r.issued_at < $2)`;

/**
 * The month-end bills (ADR 0098) for every customer, by three instances' own job: clocks an
 * hour into the month the balances are in (the month ends are done, so a round goes straight to
 * the bills of the month before: that month was held back from the other sections and has none
 * yet; the customers owning a postpaid account owe its plan prices, nobody having charged it),
 * MONTH_END_INTERVAL_S=3, the month's charges off. One instance is killed (SIGKILL) once half
 * the customers have had their run, and not started again (as in `monthEnd`). Timed from the
 * instances' start until bill_periods has the month (BILL_WAIT_S at most); then the two left
 * send the new-bill e-mails for BILL_MAIL_S seconds at most, or until all are sent. /healthz of each live
 * instance is asked every 200 ms throughout. Then the database is asked what was done twice or
 * left out; bills still unsent are marked sent (a later run's instances would send them).
 */
async function monthBills(name: string): Promise<BillFigures> {
  const month = await balancesMonth(name);
  const clockAt = new Date(month.getTime() + 3_600_000);
  const period = previousPeriod(clockAt);
  const { start, next } = periodBounds(period);
  const bounds = [start.toISOString(), next.toISOString()];
  const customers = await withDb(name, async (c) => {
    if ((await countOf(c, 'select count(*) as n from bill_runs where period = $1', [period])) > 0)
      throw new Error(`bills of ${period}: some are made already`);
    await c.query('delete from bill_periods where period = $1', [period]);
    return countOf(c, `select count(*) as n from users u where ${BILL_CUSTOMERS}`, bounds);
  });
  const progress = () =>
    withDb(name, async (c) => {
      const { rows } = await c.query<{ runs: string; done: boolean }>(
        `select (select count(*) from bill_runs where period = $1) as runs,
                exists (select 1 from bill_periods where period = $1) as done`,
        [period],
      );
      return { runs: Number(rows[0]?.runs ?? 0), done: rows[0]?.done === true };
    });
  const unsent = () =>
    withDb(name, (c) =>
      countOf(c, 'select count(*) as n from bills where period = $1 and notified_at is null', [
        period,
      ]),
    );
  const started = performance.now();
  const since = () => (performance.now() - started) / 1000;
  const servers = await startInstances(name, 3, clockAt, {
    MONTH_END_INTERVAL_S: '3',
    MONTH_END_CHARGE: 'false',
  });
  const startS = since();
  console.log(
    `    ${period}: ${customers.toLocaleString('en')} customers; 3 instances up in ${startS.toFixed(1)} s`,
  );
  const health: { at: number; ms: number }[] = [];
  let killed = false;
  let sampling = true;
  const samplers = servers.map(async (server, i) => {
    while (sampling) {
      if (!(killed && i === 1)) {
        const t0 = performance.now();
        const res = await fetch(`${server.base}/healthz`).catch(() => null);
        await res?.arrayBuffer();
        if (res?.status === 200) health.push({ at: since(), ms: performance.now() - t0 });
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });
  let complete = false;
  let seconds = 0;
  let allSent: number | null = null;
  try {
    let shown = 0;
    for (;;) {
      const { runs, done } = await progress();
      if (done) {
        complete = true;
        break;
      }
      if (since() - shown >= 30) {
        shown = since();
        console.log(
          `    ${shown.toFixed(0)} s: ${runs.toLocaleString('en')} of ${customers.toLocaleString('en')} customers billed`,
        );
      }
      if (!killed && runs >= customers / 2) {
        await servers[1]!.kill();
        killed = true;
      }
      if (since() > BILL_WAIT_S) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    seconds = since();
    console.log(
      complete
        ? `    bills of ${period} made in ${seconds.toFixed(1)} s${killed ? ', one instance killed halfway' : ''}`
        : `    bills of ${period}: the month not complete after ${seconds.toFixed(0)} s`,
    );
    const mailUntil = since() + (complete ? BILL_MAIL_S : 0);
    while (since() < mailUntil) {
      if ((await unsent()) === 0) {
        allSent = since();
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  } finally {
    sampling = false;
    await Promise.all(servers.map((s) => s.stop()));
    await Promise.all(samplers);
  }
  return withDb(name, async (c) => {
    // The instances' clock read clockAt at `started`: their times, as seconds from the start.
    const { rows } = await c.query<Record<string, number | null>>(
      `with r as (
         select ran_at, bill_id, ran_at - lag(ran_at) over (order by ran_at) as gap
           from bill_runs where period = $1),
       cut as (select min(ran_at) as at from r where gap > interval '10 seconds'),
       b as (select * from bills where period = $1)
       select
         (select count(*) from r, cut where cut.at is null or ran_at < cut.at)::float8 as pass_runs,
         (select count(bill_id) from r, cut where cut.at is null or ran_at < cut.at)::float8 as pass_bills,
         (select extract(epoch from min(ran_at) - $2) from r)::float8 as first_s,
         (select extract(epoch from max(ran_at) - $2) from r, cut
           where cut.at is null or ran_at < cut.at)::float8 as pass_s,
         (select count(*) from r, cut where ran_at >= cut.at)::float8 as late_runs,
         (select extract(epoch from max(ran_at) - $2) from r)::float8 as last_s,
         (select count(*) from b)::float8 as bills,
         (select count(notified_at) from b)::float8 as sent,
         (select extract(epoch from min(notified_at) - $2) from b)::float8 as mail_first_s,
         (select extract(epoch from max(notified_at) - $2) from b)::float8 as mail_last_s`,
      [period, clockAt.toISOString()],
    );
    const f = (key: string) => rows[0]?.[key] ?? NaN;
    const serials = await c.query<{ gaps: string; twice: string }>(
      `select (select count(*) from generate_series(1, greatest(
                 (select last_serial from bill_counter), (select coalesce(max(serial), 0) from bills))) s
                where not exists (select 1 from bills b where b.serial = s)) as gaps,
              (select count(*) - count(distinct serial) from bills) as twice`,
    );
    const checks = {
      twice: await countOf(
        c,
        'select count(*) as n from (select 1 from bills group by payer_user_id, period having count(*) > 1) t',
      ),
      serialGaps: Number(serials.rows[0]?.gaps ?? 0),
      serialTwice: Number(serials.rows[0]?.twice ?? 0),
      // Something to bill: a line on a postpaid plan since before the month (its price is owed
      // when the month was not paid; a line's first month is paid with its order), or a receipt.
      emptyRuns: await countOf(
        c,
        `select count(*) as n from bill_runs br where br.period = $3 and br.bill_id is null and (
           exists (select 1 from accounts a join phone_lines l on l.account_id = a.id
                    where a.owner_user_id = br.user_id and a.type <> 'prepaid'
                      and a.status = 'active' and l.status = 'active' and not l.is_prepaid
                      and (l.activated_at is null or l.activated_at < $1))
           or exists (select 1 from receipts r where r.user_id = br.user_id
                        and r.issued_at >= $1 and r.issued_at < $2 and r.gross_oere > 0))`,
        [...bounds, period],
      ),
      notRun: await countOf(
        c,
        `select count(*) as n from users u where (${BILL_CUSTOMERS})
           and not exists (select 1 from bill_runs br where br.user_id = u.id and br.period = $3)`,
        [...bounds, period],
      ),
    };
    await c.query(
      'update bills set notified_at = now(), notifying_until = null where notified_at is null',
    );
    const window = (from: number, to: number) => {
      const times = sortNumbers(health.filter((h) => h.at >= from && h.at < to).map((h) => h.ms));
      return { p50: percentile(times, 50), p99: percentile(times, 99) };
    };
    const sent = f('sent');
    return {
      period,
      customers,
      bills: f('bills'),
      killed,
      complete,
      seconds,
      startS,
      pass: {
        runs: f('pass_runs'),
        seconds: f('pass_s'),
        perS: f('pass_bills') / (f('pass_s') - f('first_s')),
      },
      late: { runs: f('late_runs'), seconds: f('late_runs') > 0 ? f('last_s') : NaN },
      mail: {
        sent,
        perS: sent > 1 ? sent / (f('mail_last_s') - f('mail_first_s')) : NaN,
        allS: allSent === null ? null : f('mail_last_s'),
      },
      health: {
        making: window(f('first_s'), f('pass_s')),
        mailing: window(f('pass_s'), sent > 0 ? f('mail_last_s') : f('pass_s')),
      },
      checks,
    };
  });
}

async function sizePerLine(name: string, lines: number): Promise<number> {
  return withDb(name, async (c) => {
    const { rows } = await c.query<{ size: string }>(
      'select pg_database_size(current_database()) as size',
    );
    return Number(rows[0]?.size ?? 0) / lines;
  });
}

const ms = (v: number) => (Number.isNaN(v) ? '–' : v < 10 ? v.toFixed(1) : v.toFixed(0));
const pair = (p: LatencyPair | undefined) => (p ? `${ms(p.p50)} / ${ms(p.p95)}` : '–');

async function main() {
  console.log(
    `bench:scale on PostgreSQL ${new URL(SERVER_URL).host}: sizes ${SIZES.join(', ')} lines, ` +
      `ingest ${DURATION_S} s per mode (single: ${SINGLE_CONNECTIONS} connections, batches of ${BATCH}: ${BATCH_CONNECTIONS})`,
  );
  const run = `bench-${Date.now().toString(36)}`;

  console.log('\n5 demo customers (the baseline of the ratios)');
  const demoName = await demoDatabase();
  const demoServer = await startServer(demoName);
  const demoLogins = await loginsOf(demoName, DEMO_PASSWORD, 20);
  const baseline = await customersDay(single(demoServer), demoLogins);
  await demoServer.stop();
  await admin((c) => c.query(`drop database if exists ${demoName} with (force)`));

  const results: {
    lines: number;
    ingest: IngestFigures;
    ingest3: IngestFigures;
    desk: Record<string, LatencyPair>;
    day: Record<string, LatencyPair>;
    monthEnd: MonthEndFigures;
    monthEnd3: MonthEndFigures;
    charges: ChargeFigures;
    /** Not in --short: ~15 s more for the smoke, ~11 s of them its instances' start-up. */
    bills: BillFigures | null;
    bytesPerLine: number;
  }[] = [];
  const chargeSeconds = SHORT ? 6 : 30;
  for (const lines of SIZES) {
    console.log(`\n${lines.toLocaleString('en')} lines`);
    const name = await scaleDatabase(lines);
    // The months the sections' instances would bill (the month before their clock's): the real
    // clock's, and around the two month ends and the charges (see holdBillsBack).
    const balances = await balancesMonth(name);
    const later = (months: number) =>
      faroeMonth(new Date(balances.getTime() + (months * 31 + 15) * 86_400_000));
    await holdBillsBack(name, [
      previousPeriod(new Date()),
      previousPeriod(balances),
      later(0),
      later(1),
    ]);
    const logins = await loginsOf(name, SCALE_PASSWORD, 20);
    const server = single(await startServer(name));
    let day, deskFigures, ingestFigures;
    try {
      day = await customersDay(server, logins);
      deskFigures = await desk(server, name);
      ingestFigures = await ingest(server, name, `${run}-${lines}`);
    } finally {
      await server.stop();
    }
    console.log('  one instance: done; three behind HAProxy');
    const cluster = await startCluster(name, 3);
    let ingest3;
    try {
      ingest3 = await ingest(cluster, name, `${run}-${lines}-3`);
    } finally {
      await cluster.stop();
    }
    const bytesPerLine = await sizePerLine(name, lines);
    console.log('  month end: one instance');
    const monthEnd1 = await monthEnd(name, 1, false);
    console.log('  month end: three instances, one killed halfway');
    const monthEnd3 = await monthEnd(name, 3, true);
    console.log(
      `  the month's charges: three instances for ${chargeSeconds} s, one killed halfway`,
    );
    const charges = await monthCharges(name, chargeSeconds);
    let bills = null;
    if (!SHORT) {
      console.log("  the month's bills: three instances, one killed halfway");
      bills = await monthBills(name);
    }
    results.push({
      lines,
      ingest: ingestFigures,
      ingest3,
      desk: deskFigures,
      day,
      monthEnd: monthEnd1,
      monthEnd3,
      charges,
      bills,
      bytesPerLine,
    });
    if (SHORT) await admin((c) => c.query(`drop database if exists ${name} with (force)`));
  }
  const twice = results.filter(
    (r) =>
      r.charges.twice > 0 ||
      (r.bills !== null &&
        (!r.bills.complete ||
          !(r.bills.bills > 0) ||
          Object.values(r.bills.checks).some((n) => n !== 0))) ||
      [r.monthEnd, r.monthEnd3].some(
        (m) => m.twice.balances + m.twice.roaming > 0 || !(m.moved > 0),
      ),
  );

  const header = ['', '5 demo', ...results.map((r) => `${r.lines.toLocaleString('en')} lines`)];
  const ingestRows = (label: string, pick: (r: (typeof results)[number]) => IngestFigures) => [
    [`${label}, single Usage: records/s`, '', ...results.map((r) => pick(r).singlePerS.toFixed(0))],
    [
      '  p50 / p99 ms',
      '',
      ...results.map((r) => `${ms(pick(r).singleP50)} / ${ms(pick(r).singleP99)}`),
    ],
    [
      `${label}, batches of 1000: records/s`,
      '',
      ...results.map((r) => pick(r).batchPerS.toFixed(0)),
    ],
    [
      '  p50 / p99 ms per batch',
      '',
      ...results.map((r) => `${ms(pick(r).batchP50)} / ${ms(pick(r).batchP99)}`),
    ],
  ];
  const monthEndRows = (label: string, pick: (r: (typeof results)[number]) => MonthEndFigures) => [
    [`${label}: seconds`, '', ...results.map((r) => pick(r).seconds.toFixed(1))],
    ['  lines a second', '', ...results.map((r) => (pick(r).moved / pick(r).seconds).toFixed(0))],
    ['  an instance killed halfway', '', ...results.map((r) => (pick(r).killed ? 'yes' : 'no'))],
    [
      '  moved / kept owed twice',
      '',
      ...results.map((r) => `${pick(r).twice.balances} / ${pick(r).twice.roaming}`),
    ],
  ];
  const bill = (cell: (b: BillFigures) => string) =>
    results.map((r) => (r.bills ? cell(r.bills) : '–'));
  const seconds = (s: number) => (Number.isNaN(s) ? '–' : s.toFixed(1));
  const billRows = results.some((r) => r.bills)
    ? [
        [
          'Bills of a month, 3 instances, one killed halfway: made',
          '',
          ...bill((b) => `${b.bills} of ${b.customers} customers`),
        ],
        [
          '  seconds until the month is complete (start-up)',
          '',
          ...bill((b) =>
            b.complete
              ? `${b.seconds.toFixed(1)} (${b.startS.toFixed(1)})`
              : `not in ${b.seconds.toFixed(0)}`,
          ),
        ],
        [
          '  first pass: customers, by s from the start',
          '',
          ...bill((b) => `${b.pass.runs} by ${seconds(b.pass.seconds)}`),
        ],
        ['  bills a second in the first pass', '', ...bill((b) => b.pass.perS.toFixed(0))],
        [
          '  customers after a pause, by s from the start',
          '',
          ...bill((b) => (b.late.runs > 0 ? `${b.late.runs} by ${seconds(b.late.seconds)}` : '0')),
        ],
        ['  an instance killed halfway', '', ...bill((b) => (b.killed ? 'yes' : 'no'))],
        [
          '  new-bill e-mails: sent (a second)',
          '',
          ...bill((b) => `${b.mail.sent} (${b.mail.perS.toFixed(1)})`),
        ],
        [
          '  every e-mail sent, s from the start',
          '',
          ...bill((b) => (b.mail.allS === null ? 'not waited for' : seconds(b.mail.allS))),
        ],
        [
          '  /healthz p50 / p99 ms: making bills',
          '',
          ...bill((b) => `${ms(b.health.making.p50)} / ${ms(b.health.making.p99)}`),
        ],
        [
          '  /healthz p50 / p99 ms: e-mailing',
          '',
          ...bill((b) => `${ms(b.health.mailing.p50)} / ${ms(b.health.mailing.p99)}`),
        ],
        [
          '  two bills for a customer / serial gaps / serial twice',
          '',
          ...bill((b) => `${b.checks.twice} / ${b.checks.serialGaps} / ${b.checks.serialTwice}`),
        ],
        [
          '  empty runs of customers owing / customers without a run',
          '',
          ...bill((b) => `${b.checks.emptyRuns} / ${b.checks.notRun}`),
        ],
      ]
    : [];
  const rows: string[][] = [
    ...ingestRows('Ingest, one instance', (r) => r.ingest),
    [
      '  COPY into usage_records’ shape: rows/s',
      '',
      ...results.map((r) => r.ingest.copyPerS.toFixed(0)),
    ],
    [
      '  batches ÷ COPY',
      '',
      ...results.map((r) => `1 : ${(r.ingest.copyPerS / r.ingest.batchPerS).toFixed(1)}`),
    ],
    [
      'One instance’s RSS during ingest, MB',
      '',
      ...results.map((r) => r.ingest.rssMaxMb.toFixed(0)),
    ],
    ...ingestRows('Ingest, 3 instances behind HAProxy', (r) => r.ingest3),
    ['  largest instance’s RSS, MB', '', ...results.map((r) => r.ingest3.rssMaxMb.toFixed(0))],
    ...['name', 'number', 'email', 'customerId', 'numberStart'].map((k) => [
      `Desk search by ${k}: p50 / p95 ms`,
      '',
      ...results.map((r) => pair(r.desk[k])),
    ]),
    ...['signIn', 'home', 'poll', 'purchase'].map((k) => [
      `Customer ${k}: p50 / p95 ms`,
      pair(baseline[k]),
      ...results.map((r) => pair(r.day[k])),
    ]),
    ...['signIn', 'home', 'poll', 'purchase'].map((k) => [
      `  ${k} p50 ratio to 5 demo`,
      '1.00',
      ...results.map((r) => ((r.day[k]?.p50 ?? NaN) / (baseline[k]?.p50 ?? NaN)).toFixed(2)),
    ]),
    ...monthEndRows('Month end, all lines, one instance', (r) => r.monthEnd),
    ...monthEndRows('Month end, 3 instances, one killed halfway', (r) => r.monthEnd3),
    [
      `Month charges, 3 instances for ${chargeSeconds} s, one killed: placed`,
      '',
      ...results.map((r) => String(r.charges.placed)),
    ],
    ['  a second', '', ...results.map((r) => (r.charges.placed / r.charges.seconds).toFixed(0))],
    ['  customers charged twice', '', ...results.map((r) => String(r.charges.twice))],
    ...billRows,
    ['Database size per line, kB', '', ...results.map((r) => (r.bytesPerLine / 1024).toFixed(1))],
  ];
  const widths = header.map((_, i) =>
    Math.max(...[header, ...rows].map((r) => (r[i] ?? '').length)),
  );
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  console.log(`\n${line(header)}\n|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows) console.log(line(r));
  if (flags.json) {
    const { writeFile } = await import('node:fs/promises');
    await writeFile(flags.json, JSON.stringify({ baseline, results }, null, 2));
  }
  if (twice.length > 0) {
    console.error(
      'bench:scale: a month end moved nothing, bills were made for nobody, or something was done twice or left out (see the table)',
    );
    process.exitCode = 1;
  }
}

await main();
