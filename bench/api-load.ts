// API load benchmark (issue 13, "Benchmarks that tell"): a bare node:http hello-world, a Fastify
// hello-world and the API's start-up reads and polls, measured in the same run with the same
// settings, so the ratio (real / hello-world) is comparable across machines even when absolute
// numbers are not (this machine is shared and noisy). For each target: req/s, p50/p99, the ratio
// to each hello-world, the servers' CPU time per answer (and the Fastify hello-world's against
// it: steadier than req/s when the machine drifts), and the database queries per request,
// counted (statements through the query builder over sequential requests after the load run,
// BEGIN/COMMIT left out) — and the goals next to the ratios.
//
// The API runs with every background job off. On PostgreSQL some targets are measured again on
// an API with the jobs on as production runs them (NODE_ENV=production, LOG_LEVEL=warn, every
// job at its default interval; bench/jobs-off.ts), against the same hello-worlds, and the
// distance from node:http to that API is split in three: the framework (node:http → Fastify
// hello-world), our hooks and handler (→ the API, jobs off) and the jobs (→ jobs on, against a
// control: the API with its jobs off in a second process as fresh as the one with them on).
// `--jobs each` also measures them with each job off in turn (the job's setting 0), and with
// every job off but LOG_LEVEL=warn; `--jobs off` skips the API with jobs on.
//
//   npx tsx bench/api-load.ts [--duration 6] [--rounds 3] [--connections 50] [--count 200]
//                             [--db pglite|postgres|both] [--only <text>,…] [--summary <file>]
//                             [--jobs on|each|off]
//
// Databases: in-memory PGlite always; PostgreSQL when one is reachable, at BENCH_PG_URL, else
// DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres. The bench creates its own
// database `bench_<random>` on that server (migrated, demo seeded), and drops it at the end:
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench
// Without a reachable server it says that it skips PostgreSQL; a URL given explicitly that cannot
// be reached fails the run. `--only a,b` measures only the targets whose names contain a or b
// (and hello-world); bench/polling.ts runs the polls that way.
//
// The servers run in a child process (bench/servers.ts) so the load generator does not share
// their event loop, from a bundle built as the API's production build is (bench/bundle-servers.mjs):
// what is measured is what `npm start` runs. An API with its jobs on runs in a child process of
// its own, on a database of its own, started after the other targets are measured; the
// hello-worlds it is compared with stay in the first one (so the jobs' timers do not slow them
// down too). A target whose answers have an unexpected status fails the run.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { STATUS_REQUEST } from './status-request';
import { JOBS } from './jobs-off';
import type { Ready } from './servers';
import { bundleBenchEntry } from './bundle-servers.mjs';

// ---------------------------------------------------------------------------------------------
// The goals: the req/s ratio to hello-world in the same run, and for the 304 poll no database
// query at all. Issue 13 set them; issue 45 ("The API's lost ground") raised the 304 poll's to
// 0.60× and GET /api/subscriptions' to 0.45×. Both issues measure the polls and GET
// /api/subscriptions on PostgreSQL; they are shown for both databases. Those are against the
// Fastify hello-world with the API's jobs off; the operator's-volume goals (`against: 'node'`)
// are the same two against the bare node:http hello-world with the jobs on (PostgreSQL).

interface Goal {
  minRatio: number;
  maxQueries?: number;
  /** The hello-world the ratio is taken against: Fastify's unless said. */
  against?: 'node';
  text: string;
}

export const GOALS = {
  healthz: { minRatio: 0.7, text: '≥ 0.70× (13)' },
  content: { minRatio: 0.5, text: '≥ 0.50× (13)' },
  subscriptions: { minRatio: 0.45, text: '≥ 0.45× (45)' },
  poll304: { minRatio: 0.6, maxQueries: 0, text: '≥ 0.60×, 0 q (45)' },
  poll200: { minRatio: 0.15, text: '≥ 0.15× (13)' },
  subscriptionsJobsOn: { minRatio: 0.45, against: 'node', text: '≥ 0.45× node, jobs on' },
  poll304JobsOn: { minRatio: 0.6, against: 'node', text: '≥ 0.60× node, jobs on' },
} satisfies Record<string, Goal>;
type GoalId = keyof typeof GOALS;

// ---------------------------------------------------------------------------------------------
// Targets.

interface Target {
  name: string;
  /** `node` is the bare node:http hello-world, `hello` the Fastify one, `api` the real API. */
  server: 'node' | 'hello' | 'api';
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
  expect: number;
  goal?: GoalId;
  /** Measured on the API with its jobs on too (PostgreSQL), with this goal if any. */
  jobsOn?: { goal?: GoalId };
  /** Also measure the 304 answer to a matching If-None-Match, if the first answer has an ETag. */
  conditional?: { goal?: GoalId; jobsOn?: { goal?: GoalId } };
  /** The 304 variant is required: without an ETag the run fails. */
  requireEtag?: boolean;
}

const NODE_HELLO = 'hello-world (node:http)';
/** The variant of the API with every job on as production runs them. */
const JOBS_ON = 'jobs on';
/**
 * The control of the jobs' step: the API with its jobs off in a second process like the one with
 * them on (started as late, as fresh, against the first process's hello-worlds), so the step
 * compares like with like.
 */
const JOBS_OFF_CONTROL = 'jobs off, second process';
const FASTIFY_HELLO = 'hello-world (Fastify)';

function targetsFor(ready: Ready): Target[] {
  const fo = { 'accept-language': 'fo' };
  const owner = { ...fo, authorization: ready.owner };
  const member = { ...fo, authorization: ready.member };
  const get = (path: string, headers: Record<string, string>) => ({
    server: 'api' as const,
    method: 'GET' as const,
    path,
    headers,
    expect: 200,
  });
  return [
    { name: NODE_HELLO, ...get('/', {}), server: 'node' },
    { name: FASTIFY_HELLO, ...get('/', {}), server: 'hello' },
    { name: 'GET /healthz', ...get('/healthz', {}), goal: 'healthz', jobsOn: {} },
    {
      name: 'GET /api/content/terms',
      ...get('/api/content/terms', fo),
      goal: 'content',
      conditional: { goal: 'content' },
    },
    {
      name: 'POST /api/status',
      ...get('/api/status', { ...fo, 'content-type': 'application/json' }),
      method: 'POST',
      body: JSON.stringify(STATUS_REQUEST),
      goal: 'content',
      conditional: { goal: 'content' },
    },
    {
      // The floor under the status check: its request and answer on a bare Fastify route.
      name: 'POST /status (Fastify, bare)',
      ...get('/status', { ...fo, 'content-type': 'application/json' }),
      server: 'hello',
      method: 'POST',
      body: JSON.stringify(STATUS_REQUEST),
    },
    { name: 'GET /api/plans', ...get('/api/plans', owner), conditional: {} },
    { name: 'GET /api/packages', ...get('/api/packages', owner), conditional: {} },
    {
      name: 'GET /api/subscriptions',
      ...get('/api/subscriptions', owner),
      goal: 'subscriptions',
      jobsOn: { goal: 'subscriptionsJobsOn' },
      conditional: { goal: 'subscriptions', jobsOn: {} },
    },
    {
      name: 'GET /api/notifications',
      ...get('/api/notifications?page=0&perPage=15', member),
      goal: 'poll200',
      jobsOn: {},
      conditional: { goal: 'poll304', jobsOn: { goal: 'poll304JobsOn' } },
      requireEtag: true,
    },
    {
      name: 'GET /api/data-transfers',
      ...get('/api/data-transfers', member),
      goal: 'poll200',
      conditional: { goal: 'poll304' },
      requireEtag: true,
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// The servers' child process.

interface Servers {
  ready: Ready;
  /** Statements the API has sent to the database so far. */
  queries(): Promise<number>;
  /** CPU time (µs, user + system) the servers' process has used so far. */
  cpu(): Promise<number>;
  stop(): Promise<void>;
}

/** `jobs` is the child's BENCH_JOBS (bench/servers.ts): off unless given. */
async function startServers(databaseUrl: string | undefined, jobs = 'off'): Promise<Servers> {
  const env: NodeJS.ProcessEnv = { ...process.env, BENCH_JOBS: jobs };
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  else delete env.DATABASE_URL;
  const child: ChildProcess = spawn(process.execPath, [await bundleBenchEntry('servers')], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env,
  });
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code, signal) =>
      reject(new Error(`the servers' process exited (${signal ?? code})`)),
    ),
  );
  exited.catch(() => {});
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  /** The next line on the child's stdout that is a JSON object (anything else is passed on). */
  const nextMessage = async <T>(): Promise<T> => {
    for (;;) {
      const { value, done } = await Promise.race([lines.next(), exited]);
      if (done) throw new Error("the servers' process closed its output");
      const line = String(value);
      if (line.startsWith('{')) return JSON.parse(line) as T;
      console.log(line);
    }
  };
  const ready = await nextMessage<Ready>();
  return {
    ready,
    queries: async () => {
      child.stdin!.write('queries\n');
      return (await nextMessage<{ queries: number }>()).queries;
    },
    cpu: async () => {
      child.stdin!.write('cpu\n');
      return (await nextMessage<{ cpu: number }>()).cpu;
    },
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await gone;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Measuring.

interface Options {
  /** Seconds each target is measured, in `rounds` turns with hello-world. */
  duration: number;
  rounds: number;
  warmup: number;
  connections: number;
  /** Sequential requests over which queries are counted. */
  count: number;
  only?: string;
}

export interface Row {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  /** req/s against the Fastify hello-world's, and against the node:http one's. */
  ratio: number;
  ratioNode: number;
  /** The servers' CPU time per answer (µs), and hello-world's against it (higher is cheaper). */
  cpuUs: number;
  cpuRatio: number;
  queriesPerRequest: number;
  unexpected: number;
  goal?: GoalId;
  /** Measured with the API's jobs on too (on PostgreSQL): the rows of the decomposition. */
  jobsOn?: boolean;
}

interface Measured {
  /** `PGlite` or `PostgreSQL`, and the API's jobs when they were on (`variant`). */
  label: string;
  base: string;
  /** `jobs on`, `jobs on but <job>`, … (`jobVariants`); none with the jobs off. */
  variant?: string;
  database: string;
  jobs: string;
  rows: Row[];
  notes: string[];
}

/**
 * Where the targets are served: the hello-worlds by `ref`, the API by `api` (the same process
 * when the API's jobs are off; with the jobs on, a process of its own).
 */
interface Place {
  ref: Servers;
  api: Servers;
}

const serversOf = (place: Place, t: Target) => (t.server === 'api' ? place.api : place.ref);

const urlOf = (place: Place, t: Target) =>
  `http://127.0.0.1:${serversOf(place, t).ready[t.server]}${t.path}`;

const send = (place: Place, t: Target) =>
  fetch(urlOf(place, t), { method: t.method, headers: t.headers, body: t.body });

/**
 * The targets to measure: the 304 variant of a conditional target comes right after it when its
 * first answer carries an ETag that a matching If-None-Match turns into a 304.
 */
async function expand(place: Place, targets: Target[], notes: string[]): Promise<Target[]> {
  const out: Target[] = [];
  for (const t of targets) {
    out.push(t);
    if (!t.conditional) continue;
    const first = await send(place, t);
    await first.arrayBuffer();
    const etag = first.headers.get('etag');
    if (!etag) {
      if (t.requireEtag) throw new Error(`${t.name}: no ETag in its answer (${first.status})`);
      notes.push(`${t.name}: no ETag, so no 304 variant`);
      continue;
    }
    const variant: Target = {
      ...t,
      name: `${t.name} 304`,
      headers: { ...t.headers, 'if-none-match': etag },
      expect: 304,
      goal: t.conditional.goal,
      jobsOn: t.conditional.jobsOn,
      conditional: undefined,
    };
    const again = await send(place, variant);
    await again.arrayBuffer();
    if (again.status !== 304 && !t.requireEtag) {
      notes.push(`${t.name}: ETag ${etag}, but If-None-Match answered ${again.status}`);
      continue;
    }
    out.push(variant);
  }
  return out;
}

/** Answers with another status than expected, by status (and errors, timeouts). */
function unexpectedOf(result: autocannon.Result, expect: number): Map<string, number> {
  const wrong = new Map<string, number>();
  if (result.errors > 0) wrong.set('errors', result.errors);
  if (result.timeouts > 0) wrong.set('timeouts', result.timeouts);
  for (const [code, stat] of Object.entries(
    result.statusCodeStats as Record<string, { count: number } | undefined>,
  )) {
    if (Number(code) !== expect && stat?.count) wrong.set(code, stat.count);
  }
  return wrong;
}

const total = (counts: Map<string, number>) => [...counts.values()].reduce((a, b) => a + b, 0);

/** The query count once it has not moved for 200 ms. */
async function settled(servers: Servers): Promise<number> {
  let last = await servers.queries();
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const now = await servers.queries();
    if (now === last) return now;
    last = now;
  }
}

/** One autocannon run against a target, and its server's CPU time per answer in it (µs). */
async function load(place: Place, t: Target, connections: number, duration: number) {
  const servers = serversOf(place, t);
  const cpuBefore = await servers.cpu();
  const result = await autocannon({
    url: urlOf(place, t),
    method: t.method,
    headers: t.headers,
    body: t.body,
    connections,
    duration,
  });
  // What the server spends per answer, whatever else slows the machine down: steadier than
  // req/s, though what autocannon leaves in the queue at the end counts a little too.
  const cpuPerRequest = ((await servers.cpu()) - cpuBefore) / Math.max(1, result.requests.total);
  return { result, cpuPerRequest };
}

type Run = Awaited<ReturnType<typeof load>>;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** A hello-world's row from its runs; `ratio`s are against the other hello-world's rounds. */
function helloRow(name: string, runs: Run[], ratio: number, ratioNode: number): Row {
  return {
    name,
    rps: median(runs.map((r) => r.result.requests.average)),
    p50: median(runs.map((r) => r.result.latency.p50)),
    p99: median(runs.map((r) => r.result.latency.p99)),
    ratio,
    ratioNode,
    cpuUs: median(runs.map((r) => r.cpuPerRequest)),
    cpuRatio: 1,
    queriesPerRequest: 0,
    unexpected: 0,
  };
}

/**
 * Measures the targets (`jobsOn`: those measured with the jobs on, with their jobs-on goals).
 * Each round runs the node:http hello-world, the Fastify hello-world and the target, in turn.
 */
async function measure(
  place: Place,
  options: Options,
  base: string,
  variant?: string,
): Promise<Measured> {
  const jobsOn = variant !== undefined;
  const label = variant ? `${base}, ${variant}` : base;
  const ready = place.api.ready;
  const notes: string[] = [];
  const only = options.only?.split(',').filter(Boolean);
  const chosen = targetsFor(ready).filter(
    (t) =>
      t.name === NODE_HELLO ||
      t.name === FASTIFY_HELLO ||
      ((!only || only.some((part) => t.name.includes(part))) && (!jobsOn || t.jobsOn)),
  );
  const all = await expand(place, chosen, notes);
  const node = all.find((t) => t.name === NODE_HELLO);
  const hello = all.find((t) => t.name === FASTIFY_HELLO);
  if (!node || !hello) throw new Error('no hello-world target');
  const rest = all
    .filter((t) => t !== node && t !== hello && (!jobsOn || t.jobsOn))
    .map((t) => (jobsOn ? { ...t, goal: t.jobsOn?.goal } : t));
  const rows: Row[] = [];
  const nodeRuns: Run[] = [];
  const helloRuns: Run[] = [];
  /** Each round's Fastify hello-world against the node:http one right before it. */
  const frameworkRatios: number[] = [];
  const helloCpuRatios: number[] = [];
  const round = options.duration / options.rounds;
  const counted = place.api;
  for (const t of rest) {
    // Short warm-up so JIT and connection set-up do not count; then the server finishes what
    // the warm-up left in its queue before the measured run starts.
    if (options.warmup > 0) {
      await load(place, t, options.connections, options.warmup);
      await settled(counted);
    }
    // The machine is shared and its speed drifts by tens of percent within a minute: the target
    // and the hello-worlds take turns, a round each, and each ratio is the median of each
    // round's target against the hello-world run right before it.
    const rounds: { target: Run; node: Run; hello: Run }[] = [];
    for (let i = 0; i < options.rounds; i++) {
      const base = await load(place, node, options.connections, round);
      const fastify = await load(place, hello, options.connections, round);
      nodeRuns.push(base);
      helloRuns.push(fastify);
      frameworkRatios.push(fastify.result.requests.average / base.result.requests.average);
      helloCpuRatios.push(base.cpuPerRequest / fastify.cpuPerRequest);
      const measured = await load(place, t, options.connections, round);
      rounds.push({ node: base, hello: fastify, target: measured });
    }
    const wrong = new Map<string, number>();
    for (const { target } of rounds) {
      for (const [code, n] of unexpectedOf(target.result, t.expect)) {
        wrong.set(code, (wrong.get(code) ?? 0) + n);
      }
    }

    // Queries per request: sequential requests once the requests autocannon left in the
    // server's queue are done (the count stands still). With the jobs off nothing else runs;
    // with them on, what a job sends meanwhile is counted too.
    const before = await settled(counted);
    for (let i = 0; i < options.count; i++) {
      const res = await send(place, t);
      await res.arrayBuffer();
      const code = String(res.status);
      if (res.status !== t.expect) wrong.set(code, (wrong.get(code) ?? 0) + 1);
    }
    const queries = (await counted.queries()) - before;
    const unexpected = total(wrong);
    if (unexpected > 0) {
      const what = [...wrong].map(([code, n]) => `${n}× ${code}`).join(', ');
      notes.push(`${t.name}: expected ${t.expect}, got ${what}`);
    }

    const rps = (r: Run) => r.result.requests.average;
    rows.push({
      name: t.name,
      rps: median(rounds.map((r) => rps(r.target))),
      p50: median(rounds.map((r) => r.target.result.latency.p50)),
      p99: median(rounds.map((r) => r.target.result.latency.p99)),
      ratio: median(rounds.map((r) => rps(r.target) / rps(r.hello))),
      ratioNode: median(rounds.map((r) => rps(r.target) / rps(r.node))),
      cpuUs: median(rounds.map((r) => r.target.cpuPerRequest)),
      cpuRatio: median(rounds.map((r) => r.hello.cpuPerRequest / r.target.cpuPerRequest)),
      queriesPerRequest: queries / options.count,
      unexpected,
      goal: t.goal,
      jobsOn: t.jobsOn !== undefined,
    });
  }
  if (helloRuns.length > 0) {
    const framework = median(frameworkRatios);
    rows.unshift(
      { ...helloRow(node.name, nodeRuns, 1 / framework, 1), cpuRatio: 1 / median(helloCpuRatios) },
      helloRow(hello.name, helloRuns, 1, framework),
    );
    const span = (runs: Run[]) => {
      const values = runs.map((r) => r.result.requests.average);
      return `${Math.round(Math.min(...values))}–${Math.round(Math.max(...values))}`;
    };
    notes.push(
      `hello-worlds ran ${helloRuns.length} times each, node:http at ${span(nodeRuns)} req/s and ` +
        `Fastify at ${span(helloRuns)} (medians above); each ratio is the median of ` +
        `${options.rounds} rounds, a target's run against the hello-world runs right before it`,
    );
  }
  return { label, base, variant, database: ready.database, jobs: ready.jobs, rows, notes };
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL: a database of our own on the server, dropped at the end.

const DEFAULT_PG_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/** Connects an admin client to the server of `url` (its own database, else `postgres`). */
async function adminClient(url: string): Promise<pg.Client> {
  const connect = async (connectionString: string) => {
    const client = new pg.Client({ connectionString, connectionTimeoutMillis: 3000 });
    client.on('error', () => {});
    try {
      await client.connect();
      return client;
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
  };
  try {
    return await connect(url);
  } catch (error) {
    // The named database may not exist yet: any database on the server will do for CREATE.
    if ((error as { code?: string }).code !== '3D000') throw error;
    const fallback = new URL(url);
    fallback.pathname = '/postgres';
    return connect(fallback.toString());
  }
}

interface Scratch {
  url: string;
  drop(): Promise<void>;
}

async function createScratchDatabase(serverUrl: string): Promise<Scratch> {
  const admin = await adminClient(serverUrl);
  const name = `bench_${randomBytes(4).toString('hex')}`;
  try {
    await admin.query(`create database ${pg.escapeIdentifier(name)}`);
  } catch (error) {
    await admin.end().catch(() => {});
    throw error;
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      try {
        await admin.query(`drop database if exists ${pg.escapeIdentifier(name)} with (force)`);
      } catch {
        await admin.query(`drop database if exists ${pg.escapeIdentifier(name)}`);
      } finally {
        await admin.end().catch(() => {});
      }
    },
  };
}

/** Where to find PostgreSQL, and whether the user asked for it (then it must be reachable). */
function postgresServer(): { url: string; explicit: boolean } {
  const given = process.env.BENCH_PG_URL || process.env.DATABASE_URL;
  return given ? { url: given, explicit: true } : { url: DEFAULT_PG_URL, explicit: false };
}

const describe = (url: string) => {
  const u = new URL(url);
  return `${u.hostname}:${u.port || 5432}${u.pathname}`;
};

// ---------------------------------------------------------------------------------------------
// Output.

const fixed = (value: number, digits: number) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

const times = (value: number | undefined) => (value === undefined ? '—' : `${fixed(value, 2)}×`);

function printTable(m: Measured, options: Options): void {
  console.log(`\n${m.label}: ${m.database}`);
  console.log(
    'target'.padEnd(34) +
      'req/s'.padStart(9) +
      'p50 ms'.padStart(8) +
      'p99 ms'.padStart(8) +
      'vs node'.padStart(9) +
      'vs Fastify'.padStart(12) +
      'CPU µs/req'.padStart(12) +
      'CPU ratio'.padStart(11) +
      'queries/req'.padStart(13) +
      'unexpected'.padStart(12),
  );
  for (const r of m.rows) {
    console.log(
      r.name.padEnd(34) +
        fixed(r.rps, 0).padStart(9) +
        String(r.p50).padStart(8) +
        String(r.p99).padStart(8) +
        times(r.ratioNode).padStart(9) +
        times(r.ratio).padStart(12) +
        fixed(r.cpuUs, 0).padStart(12) +
        times(r.cpuRatio).padStart(11) +
        fixed(r.queriesPerRequest, 2).padStart(13) +
        String(r.unexpected).padStart(12),
    );
  }
  for (const note of m.notes) console.log(`  note: ${note}`);
  console.log(
    `  node ${process.version}, ${options.connections} connections, ${options.warmup} s warm-up + ` +
      `${options.duration} s measured per target in ${options.rounds} rounds; queries counted over ${options.count} ` +
      'sequential requests after the load (statements through drizzle, BEGIN/COMMIT not counted); ' +
      'CPU ratio: the Fastify hello-world’s CPU time per answer against the row’s',
  );
  console.log(`  ${m.jobs}`);
}

/** Whether a row meets its goal; undefined when the issue names none. */
function goalMet(r: Row): boolean | undefined {
  if (!r.goal) return undefined;
  const goal: Goal = GOALS[r.goal];
  return (
    (goal.against === 'node' ? r.ratioNode : r.ratio) >= goal.minRatio &&
    (goal.maxQueries === undefined || r.queriesPerRequest <= goal.maxQueries)
  );
}

const mark = (r: Row) => {
  const met = goalMet(r);
  return met === undefined ? '' : met ? ' met' : ' NOT met';
};

/**
 * The summary: one line per target with each database's ratio to the Fastify hello-world (jobs
 * off) and queries, the goal, and whether it is met; then the targets measured with the jobs on,
 * against the node:http hello-world, with their goals; then the decomposition.
 */
export function goalLines(results: Measured[]): string[] {
  const off = results.filter((m) => !m.variant);
  const cell = (r: Row | undefined) =>
    r ? `${fixed(r.ratio, 2)}× ${fixed(r.queriesPerRequest, 1)} q${mark(r)}` : '—';
  const names = off[0]?.rows.map((r) => r.name) ?? [];
  const lines = [
    'target'.padEnd(34) + 'goal (issue)'.padEnd(23) + off.map((m) => m.label.padEnd(22)).join(''),
  ];
  for (const name of names.filter((n) => n !== NODE_HELLO && n !== FASTIFY_HELLO)) {
    const rows = off.map((m) => m.rows.find((r) => r.name === name));
    const goal = rows[0]?.goal;
    lines.push(
      name.padEnd(34) +
        (goal ? GOALS[goal].text : '—').padEnd(23) +
        rows.map((r) => cell(r).padEnd(22)).join(''),
    );
  }
  lines.push(
    `(against the Fastify hello-world, the API's jobs off; the Fastify hello-world itself gave ` +
      `${off.map((m) => `${times(m.rows.find((r) => r.name === FASTIFY_HELLO)?.ratioNode)} of node:http on ${m.label}`).join(', ')})`,
  );
  const on = results.find((m) => m.variant === JOBS_ON);
  if (on) {
    lines.push('', `${on.label}: against the node:http hello-world (${on.jobs})`);
    for (const r of on.rows.filter(
      (row) => row.name !== NODE_HELLO && row.name !== FASTIFY_HELLO,
    )) {
      lines.push(
        r.name.padEnd(34) +
          (r.goal ? GOALS[r.goal].text : '—').padEnd(23) +
          `${fixed(r.ratioNode, 2)}× of node:http${mark(r)}`,
      );
    }
  }
  for (const m of off) {
    const of = (variant: string) => results.find((j) => j.base === m.base && j.variant === variant);
    lines.push('', ...decompositionLines(m, of(JOBS_ON), of(JOBS_OFF_CONTROL)));
  }
  const each = results.filter(
    (m) => m.variant && m.variant !== JOBS_ON && m.variant !== JOBS_OFF_CONTROL,
  );
  if (on && each.length > 0) lines.push('', ...eachJobLines(on, each));
  return lines;
}

/**
 * From the node:http hello-world to the API, step by step, each step's req/s ratio against the
 * step before it (medians of rounds): node:http → Fastify hello-world (the framework), → the API
 * with its jobs off (our hooks and handler), → the API with its jobs on (the jobs: against the
 * control, the API with its jobs off in a second process, when there is one).
 */
export function decompositionLines(
  off: Measured,
  on: Measured | undefined,
  control?: Measured,
): string[] {
  const framework = off.rows.find((r) => r.name === FASTIFY_HELLO)?.ratioNode;
  const names = (on ?? off).rows.filter((r) => r.jobsOn).map((r) => r.name);
  const lines = [
    `From node:http to the API on ${off.label}, each step against the one before (req/s):`,
    'target'.padEnd(34) +
      'framework'.padStart(11) +
      'hooks+handler'.padStart(15) +
      'jobs'.padStart(8) +
      '= API vs node'.padStart(15) +
      'jobs off vs node'.padStart(18) +
      'control vs node'.padStart(17),
  ];
  for (const name of names) {
    const a = off.rows.find((r) => r.name === name);
    const b = on?.rows.find((r) => r.name === name);
    const c = control?.rows.find((r) => r.name === name);
    const base = c ?? a;
    lines.push(
      name.padEnd(34) +
        times(framework).padStart(11) +
        times(a?.ratio).padStart(15) +
        times(base && b ? b.ratioNode / base.ratioNode : undefined).padStart(8) +
        times(b?.ratioNode).padStart(15) +
        times(a?.ratioNode).padStart(18) +
        times(c?.ratioNode).padStart(17),
    );
  }
  lines.push(
    '(framework: the Fastify hello-world against node:http; hooks+handler: the API with its jobs ' +
      'off against the Fastify hello-world; jobs: the API with its jobs on against the control, the ' +
      'API with its jobs off in a second process as fresh as it, each against node:http' +
      (on ? '' : '; the jobs are measured on PostgreSQL only') +
      ')',
  );
  return lines;
}

/** `--jobs each`: the API's ratio to node:http with every job on, and with each off in turn. */
function eachJobLines(on: Measured, each: Measured[]): string[] {
  const names = on.rows.map((r) => r.name).filter((n) => n !== NODE_HELLO && n !== FASTIFY_HELLO);
  const width = 46;
  const lines = [
    'Each job off in turn (req/s against node:http):',
    'jobs'.padEnd(width) + names.map((n) => n.replace('GET /api/', '').padStart(18)).join(''),
  ];
  for (const m of [on, ...each]) {
    const what = m === on ? 'every job on' : m.variant!;
    lines.push(
      what.padEnd(width) +
        names.map((n) => times(m.rows.find((r) => r.name === n)?.ratioNode).padStart(18)).join(''),
    );
  }
  return lines;
}

// ---------------------------------------------------------------------------------------------

/** The API's jobs measured: with `--jobs each`, every job on and then each off in turn. */
function jobVariants(which: string): { jobs: string; what: string }[] {
  const on = { jobs: 'on', what: JOBS_ON };
  const control = { jobs: 'off', what: JOBS_OFF_CONTROL };
  if (which !== 'each') return [control, on];
  return [
    control,
    on,
    ...JOBS.map((j) => ({ jobs: `on:-${j.setting}`, what: `jobs on but ${j.name}` })),
    {
      jobs: `on:${JOBS.map((j) => `-${j.setting}`).join(',')}`,
      what: 'every job off, LOG_LEVEL=warn',
    },
  ];
}

export async function main(argv: string[]): Promise<number> {
  const arg = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i === -1 ? undefined : argv[i + 1];
  };
  const number = (name: string, fallback: number) => {
    const value = Number(arg(name) ?? fallback);
    if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a number`);
    return value;
  };
  const options: Options = {
    duration: number('duration', 6),
    rounds: Math.max(1, number('rounds', 3)),
    warmup: number('warmup', 1),
    connections: number('connections', 50),
    count: Math.max(1, number('count', 200)),
    only: arg('only'),
  };
  const which = arg('db') ?? 'both';
  const jobsFlag = arg('jobs') ?? 'on';
  if (!['on', 'each', 'off'].includes(jobsFlag)) throw new Error('--jobs must be on, each or off');
  const results: Measured[] = [];
  let failed = false;
  let skipped: string | undefined;
  /** Scratch databases to drop should the run be interrupted. */
  const scratches = new Set<Scratch>();
  const interrupted = () =>
    void Promise.all([...scratches].map((s) => s.drop())).finally(() => process.exit(130));

  const report = (measured: Measured) => {
    printTable(measured, options);
    results.push(measured);
    if (measured.rows.some((r) => r.unexpected > 0)) {
      console.error(
        `\nFAILED: some answers on ${measured.label} had an unexpected status ` +
          '(column "unexpected"): the figures above are not valid.',
      );
      failed = true;
    }
  };

  /** The API with its jobs on, on a database of its own, against `ref`'s hello-worlds. */
  const withJobs = async (
    ref: Servers,
    serverUrl: string,
    base: string,
    what: string,
    jobs: string,
  ) => {
    const scratch = await createScratchDatabase(serverUrl);
    scratches.add(scratch);
    try {
      const api = await startServers(scratch.url, jobs);
      try {
        report(await measure({ ref, api }, options, base, what));
      } finally {
        await api.stop();
      }
    } finally {
      scratches.delete(scratch);
      await scratch.drop();
    }
  };

  const run = async (databaseUrl: string | undefined, label: string, serverUrl?: string) => {
    const servers = await startServers(databaseUrl);
    try {
      report(await measure({ ref: servers, api: servers }, options, label));
      if (serverUrl && jobsFlag !== 'off') {
        for (const variant of jobVariants(jobsFlag)) {
          await withJobs(servers, serverUrl, label, variant.what, variant.jobs);
        }
      }
    } finally {
      await servers.stop();
    }
  };

  process.on('SIGINT', interrupted);
  try {
    if (which === 'pglite' || which === 'both') await run(undefined, 'PGlite');

    if (which === 'postgres' || which === 'both') {
      const server = postgresServer();
      let scratch: Scratch | undefined;
      try {
        scratch = await createScratchDatabase(server.url);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        if (server.explicit || which === 'postgres') {
          console.error(`\nFAILED: PostgreSQL at ${describe(server.url)}: ${reason}`);
          failed = true;
        } else {
          skipped = `PostgreSQL SKIPPED: none reachable at ${describe(server.url)} (${reason})`;
          console.log(
            `\n${skipped}. Set BENCH_PG_URL or DATABASE_URL to a server the bench may create ` +
              'a database on.',
          );
        }
      }
      if (scratch) {
        scratches.add(scratch);
        console.log(
          `\nPostgreSQL: fresh database ${describe(scratch.url)} (dropped at the end; ` +
            'the API with its jobs on gets one of its own)',
        );
        try {
          await run(scratch.url, 'PostgreSQL', server.url);
        } finally {
          scratches.delete(scratch);
          await scratch.drop();
        }
      }
    }
  } finally {
    process.off('SIGINT', interrupted);
  }

  if (results.length > 0) {
    const lines = goalLines(results);
    if (skipped) lines.push(`(${skipped})`);
    console.log(
      `\nRatios vs hello-world and queries per request, with their goals; the decomposition`,
    );
    for (const line of lines) console.log(line);
    const file = arg('summary');
    if (file) writeFileSync(file, JSON.stringify({ results, goalLines: lines, failed }, null, 2));
  }
  return failed ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
