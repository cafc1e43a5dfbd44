// The servers every API benchmark measures side by side: a Fastify hello-world and the real API
// (migrated, rate limiter off, logging silent, background jobs off). The API runs on in-memory
// PGlite, or on PostgreSQL when DATABASE_URL is set (an empty database: it is migrated and
// seeded here). Benchmarks start them in a child process so the load generator does not share
// their event loop.
import Fastify, { type FastifyInstance } from 'fastify';
import { JOBS_OFF } from './jobs-off';
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
} as const;

export { JOBS_OFF };

/** For the benchmarks' output: which jobs are off. */
export const JOBS_OFF_TEXT =
  'jobs off: provisioning worker, month-end, payment reconciliation, usage simulator, ' +
  "test payment provider's webhook worker";

export interface BenchServers {
  hello: FastifyInstance;
  app: FastifyInstance;
  ports: { hello: number; api: number };
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
 * Starts both servers on free ports; `demo` seeds the demo customers, otherwise only reference
 * data. `deps` go to `buildApp` (the hub benchmark lifts the per-customer connection cap).
 * Every statement the API sends through drizzle is counted (`queries`); BENCH_LOG_QUERIES=1
 * also prints each to stderr.
 */
export async function startBenchServers({
  demo,
  deps = {},
}: {
  demo: boolean;
  deps?: AppDeps;
}): Promise<BenchServers> {
  const hello = Fastify({ logger: false });
  hello.get('/', async () => ({ hello: 'world' }));

  const config = loadConfig({
    ...process.env,
    DATA_DIR: 'memory',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_MAX: '0',
    NODE_ENV: 'production',
    DEMO_MODE: 'false',
    ACCESS_TOKEN_TTL_S: '86400',
    ...BENCH_SECRETS,
    ...JOBS_OFF,
  });
  let queries = 0;
  // BENCH_LOG_QUERIES=1 prints every counted statement to stderr (to see what a target runs).
  const logQueries = process.env.BENCH_LOG_QUERIES === '1';
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    onQuery: (query) => {
      if (TRANSACTION_CONTROL.test(query)) return;
      queries += 1;
      if (logQueries) process.stderr.write(`query: ${query}\n`);
    },
  });
  const app = await buildApp(config, {
    ...deps,
    database,
    payments: { testProviderIntervalMs: 0, ...deps.payments },
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
  await hello.listen({ port: 0, host: '127.0.0.1' });
  await app.listen({ port: 0, host: '127.0.0.1' });

  process.on(
    'SIGTERM',
    () => void Promise.all([hello.close(), app.close()]).then(() => process.exit(0)),
  );
  return {
    hello,
    app,
    ports: { hello: portOf(hello), api: portOf(app) },
    queries: () => queries,
  };
}
