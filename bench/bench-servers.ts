// The servers every API benchmark measures side by side: a bare node:http hello-world, a Fastify
// hello-world and the real API (migrated, rate limiter off, logging silent, background jobs off;
// or the jobs on as production runs them). The API runs on in-memory PGlite, or on PostgreSQL
// when DATABASE_URL is set (an empty database: it is migrated and seeded here). Benchmarks start
// them in a child process so the load generator does not share their event loop.
import { createServer, type Server } from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import { JOBS, JOBS_OFF, type JobSetting } from './jobs-off';
import { STATUS_REQUEST } from './status-request';
import { buildApp, type AppDeps } from '../apps/api/src/app';
import { loadConfig } from '../apps/api/src/config';
import { openDatabase } from '../apps/api/src/db/client';
import { seedDemoData, seedReferenceData } from '../apps/api/src/seed/seed';

/**
 * Every secret production requires (config.ts refuses to start without them), so the benches run
 * what `NODE_ENV=production` runs. A secret production comes to require is added here, or the
 * bench smoke in `npm test` (bench/smoke.test.ts) fails.
 */
export const BENCH_SECRETS = {
  JWT_SECRET: 'bench-secret-that-is-long-enough-for-hs256-0123456789',
  PAYMENT_WEBHOOK_SECRET: 'bench-webhook-secret-that-is-long-enough-0123456789',
  STAFF_SECRET_KEY: 'bench-staff-secret-key-that-is-long-enough-0123456789',
  LINK_SECRET: 'bench-link-secret-that-is-long-enough-0123456789',
  // A web push key pair made for the benches (public: never for production).
  VAPID_PUBLIC_KEY:
    'BBZT0xbQRZF5mmxa5WFOJpWSMBBXedfZjdgO3vLnIG0ntiInV5zD4NtFAwVovjDcWcsjeQ2mp58DL4rG7Xazs5Y',
  VAPID_PRIVATE_KEY: 'SVKnAjFtUMUsaMXpoRtsTA7iyf7Foi5kWwZZdSI8lX0',
  VAPID_SUBJECT: 'mailto:bench@alda.fo',
} as const;

export { JOBS, JOBS_OFF, type JobSetting };

/** For the benchmarks' output: which jobs are off. */
export const JOBS_OFF_TEXT = `jobs off: ${JOBS.map((j) => j.name).join(', ')}, usage simulator`;

/**
 * The API's background jobs: `off` (the default: every job off, logging silent), or on as
 * production runs them — LOG_LEVEL=warn, every job at its default interval (a job setting in the
 * environment is ignored) — except the jobs in `off`.
 */
export type JobsMode = 'off' | { off: readonly JobSetting[] };

/** For the benchmarks' output: what the API's jobs were. */
export function jobsText(jobs: JobsMode): string {
  if (jobs === 'off') return JOBS_OFF_TEXT;
  const off = JOBS.filter((j) => jobs.off.includes(j.setting)).map((j) => j.name);
  return (
    'jobs on as production runs them (NODE_ENV=production, LOG_LEVEL=warn, default intervals)' +
    (off.length > 0 ? ` except ${off.join(', ')}` : '')
  );
}

/** The settings of a jobs mode, over whatever job settings the environment has. */
function jobSettings(jobs: JobsMode): Record<string, string | undefined> {
  if (jobs === 'off') return { LOG_LEVEL: 'silent', ...JOBS_OFF };
  const settings: Record<string, string | undefined> = { LOG_LEVEL: 'warn' };
  for (const { setting } of JOBS) {
    if (setting === 'TEST_PROVIDER_WORKER') continue;
    settings[setting] = jobs.off.includes(setting) ? '0' : undefined;
  }
  return settings;
}

/** A port free on 127.0.0.1 now (the API's address must be known before it listens). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}

/** The JSON body of both hello-worlds. */
const HELLO_BODY_OBJECT = { hello: 'world' };
const HELLO_BODY = JSON.stringify(HELLO_BODY_OBJECT);

/** The floor under every framework: node:http answering the same body, nothing else. */
function nodeHello(): Server {
  return createServer((_request, response) => {
    response.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(HELLO_BODY),
    });
    response.end(HELLO_BODY);
  });
}

export interface BenchServers {
  hello: FastifyInstance;
  app: FastifyInstance;
  ports: { node: number; hello: number; api: number };
  /** Statements the API has sent to the database so far (BEGIN/COMMIT/savepoints left out). */
  queries: () => number;
}

const portOf = (server: FastifyInstance) => {
  const address = server.server.address();
  return typeof address === 'object' && address ? address.port : 0;
};

/** Transaction control, which node-postgres sends through drizzle's logger and PGlite does not. */
const TRANSACTION_CONTROL = /^\s*(begin|commit|rollback|savepoint|release)\b/i;

/**
 * Starts the three servers on free ports; `demo` seeds the demo customers, otherwise only
 * reference data. `deps` go to `buildApp` (the hub benchmark lifts the per-customer connection
 * cap); `jobs` says whether the API's background jobs run (off by default). Every statement the
 * API sends through drizzle is counted (`queries`); BENCH_LOG_QUERIES=1 also prints each to
 * stderr, with the time since start (to tell a job's rounds by their period).
 */
export async function startBenchServers({
  demo,
  deps = {},
  jobs = 'off',
}: {
  demo: boolean;
  deps?: AppDeps;
  jobs?: JobsMode;
}): Promise<BenchServers> {
  const node = nodeHello();
  const hello = Fastify({ logger: false });
  hello.get('/', async () => HELLO_BODY_OBJECT);

  // The API's own address, as production knows it (APP_URL): the test payment provider posts
  // its webhooks there.
  const apiPort = await freePort();
  const config = loadConfig({
    ...process.env,
    APP_URL: `http://127.0.0.1:${apiPort}`,
    DATA_DIR: 'memory',
    RATE_LIMIT_MAX: '0',
    NODE_ENV: 'production',
    DEMO_MODE: 'false',
    ACCESS_TOKEN_TTL_S: '86400',
    ...BENCH_SECRETS,
    ...jobSettings(jobs),
  });
  let queries = 0;
  const started = performance.now();
  // BENCH_LOG_QUERIES=1 prints every counted statement to stderr (to see what a target runs).
  const logQueries = process.env.BENCH_LOG_QUERIES === '1';
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    onQuery: (query) => {
      if (TRANSACTION_CONTROL.test(query)) return;
      queries += 1;
      if (logQueries) {
        const s = ((performance.now() - started) / 1000).toFixed(2);
        process.stderr.write(`query ${s} s: ${query}\n`);
      }
    },
  });
  const testProviderOn = jobs !== 'off' && !jobs.off.includes('TEST_PROVIDER_WORKER');
  const app = await buildApp(config, {
    // The API's log lines go to stderr: a bench child's stdout is its messages to the parent.
    logStream: { write: (line: string) => void process.stderr.write(line) },
    ...deps,
    database,
    payments: { ...(testProviderOn ? {} : { testProviderIntervalMs: 0 }), ...deps.payments },
  });
  await app.database.migrate();
  // As main.ts does: reference data always (content pages), the demo customers when asked.
  await seedReferenceData(app.db);
  if (demo) await seedDemoData(app.db);
  // The floor of the status check: the same request and the same answer on a bare Fastify route
  // (the body parsed as JSON, nothing checked, the API's answer sent as it is).
  const status = await app.inject({
    method: 'POST',
    url: '/api/status',
    headers: { 'accept-language': 'fo' },
    payload: STATUS_REQUEST,
  });
  if (status.statusCode !== 200) throw new Error(`status check: ${status.statusCode}`);
  hello.post('/status', async (_request, reply) =>
    reply.type('application/json; charset=utf-8').send(status.body),
  );
  await new Promise<void>((resolve) => node.listen(0, '127.0.0.1', resolve));
  await hello.listen({ port: 0, host: '127.0.0.1' });
  await app.listen({ port: apiPort, host: '127.0.0.1' });

  const closeNode = () =>
    new Promise<void>((resolve) => {
      node.close(() => resolve());
      node.closeAllConnections();
    });
  process.on(
    'SIGTERM',
    () => void Promise.all([closeNode(), hello.close(), app.close()]).then(() => process.exit(0)),
  );
  const nodeAddress = node.address();
  return {
    hello,
    app,
    ports: {
      node: typeof nodeAddress === 'object' && nodeAddress ? nodeAddress.port : 0,
      hello: portOf(hello),
      api: portOf(app),
    },
    queries: () => queries,
  };
}
