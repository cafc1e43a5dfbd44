// Child process of bench/api-load.ts: starts a Fastify hello-world and the real API (in-memory
// PGlite, migrated, reference data seeded) on free ports, then prints their ports as one JSON
// line. The load generator runs in the parent so it does not share this event loop.
import Fastify from 'fastify';
import { buildApp } from '../apps/api/src/app';
import { loadConfig } from '../apps/api/src/config';
import { seedReferenceData } from '../apps/api/src/db/seed';

const hello = Fastify({ logger: false });
hello.get('/', async () => ({ hello: 'world' }));
await hello.listen({ port: 0, host: '127.0.0.1' });

const config = loadConfig({
  ...process.env,
  DATA_DIR: 'memory',
  LOG_LEVEL: 'silent',
  RATE_LIMIT_MAX: '0',
  NODE_ENV: 'production',
  DEMO_MODE: 'true',
});
const app = await buildApp(config);
await app.database.migrate();
await seedReferenceData(app.db);
await app.listen({ port: 0, host: '127.0.0.1' });

const portOf = (s: typeof hello) => {
  const a = s.server.address();
  return typeof a === 'object' && a ? a.port : 0;
};
process.stdout.write(`${JSON.stringify({ hello: portOf(hello), api: portOf(app) })}\n`);
process.on('SIGTERM', () => void Promise.all([hello.close(), app.close()]).then(() => process.exit(0)));
