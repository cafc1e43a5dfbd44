// The servers every API benchmark measures side by side: a Fastify hello-world and the real API
// (in-memory PGlite, migrated, rate limiter off, logging silent). Benchmarks start them in a child
// process so the load generator does not share their event loop.
import Fastify, { type FastifyInstance } from 'fastify';
import { buildApp, type AppDeps } from '../apps/api/src/app';
import { loadConfig } from '../apps/api/src/config';
import { seedDemoData, seedReferenceData } from '../apps/api/src/seed/seed';

export interface BenchServers {
  hello: FastifyInstance;
  app: FastifyInstance;
  ports: { hello: number; api: number };
}

const portOf = (server: FastifyInstance) => {
  const address = server.server.address();
  return typeof address === 'object' && address ? address.port : 0;
};

/**
 * Starts both servers on free ports; `demo` seeds the demo customers, otherwise only reference
 * data. `deps` go to `buildApp` (the hub benchmark lifts the per-customer connection cap).
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
  await hello.listen({ port: 0, host: '127.0.0.1' });

  const config = loadConfig({
    ...process.env,
    DATA_DIR: 'memory',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_MAX: '0',
    NODE_ENV: 'production',
    DEMO_MODE: 'false',
    JWT_SECRET: 'bench-secret-that-is-long-enough-for-hs256-0123456789',
    PAYMENT_WEBHOOK_SECRET: 'bench-webhook-secret-that-is-long-enough-0123456789',
  });
  const app = await buildApp(config, deps);
  await app.database.migrate();
  await (demo ? seedDemoData(app.db) : seedReferenceData(app.db));
  await app.listen({ port: 0, host: '127.0.0.1' });

  process.on(
    'SIGTERM',
    () => void Promise.all([hello.close(), app.close()]).then(() => process.exit(0)),
  );
  return { hello, app, ports: { hello: portOf(hello), api: portOf(app) } };
}
