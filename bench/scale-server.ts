// Child process of bench/scale.ts: one API instance on a scale-seeded PostgreSQL database
// (DATABASE_URL), as production runs it — NODE_ENV=production, every background job on its
// production timer, LOG_LEVEL=warn — except the per-address limit for people (RATE_LIMIT_MAX=0:
// the bench is one address). It signs in a staff member (support) and prints one line
// `READY {json}`; then it answers `rss` on stdin with `{"rss": bytes}`. SCALE_CLOCK_OFFSET_MS
// moves the app's clock by that much (the same for every instance of a run): the month end's
// instances start shortly before a month's first midnight, and their own job moves the month.
import { createInterface } from 'node:readline';
import { generate } from 'otplib';
import { BENCH_SECRETS } from './bench-servers';
import { buildApp } from '../apps/api/src/app';
import { loadConfig } from '../apps/api/src/config';

export interface ScaleReady {
  port: number;
  pid: number;
  /** `Bearer …` of a support agent (console search). */
  staff: string;
  /** The usage feed's token. */
  feedToken: string;
}

export const SCALE_FEED_TOKEN = 'bench-usage-feed-token-that-is-long-enough-0123456789';

const config = loadConfig({
  ...process.env,
  NODE_ENV: 'production',
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  RATE_LIMIT_MAX: '0',
  DEMO_MODE: 'false',
  ACCESS_TOKEN_TTL_S: '86400',
  USAGE_FEED_TOKEN: SCALE_FEED_TOKEN,
  USAGE_FEED_RATE_PER_MIN: '0',
  PORT: process.env.PORT ?? '0',
  ...BENCH_SECRETS,
});
if (!config.databaseUrl) throw new Error('bench/scale-server.ts needs DATABASE_URL');
const offsetMs = Number(process.env.SCALE_CLOCK_OFFSET_MS ?? 0);
const app = await buildApp(config, { now: () => new Date(Date.now() + offsetMs) });
await app.database.migrate();

const email = `bench-support-${process.pid}-${Date.now()}@staff.alda.fo`;
const password = 'Bench-Staff-Password-1';
const enrolment = await app.staffAccounts.create(
  { email, name: 'Bench support', role: 'support', password },
  { actor: 'bench', staffUserId: null },
);
const signIn = await app.inject({
  method: 'POST',
  url: '/api/staff/auth/sign-in',
  payload: {
    email,
    password,
    totpCode: await generate({
      secret: enrolment.totpSecret,
      epoch: Math.floor((Date.now() + offsetMs) / 1000),
    }),
  },
});
if (signIn.statusCode !== 200)
  throw new Error(`staff sign-in: ${signIn.statusCode} ${signIn.body}`);
const staff = `Bearer ${signIn.json<{ data: { token: string } }>().data.token}`;

await app.listen({ port: config.port, host: '127.0.0.1' });
const address = app.server.address();
const ready: ScaleReady = {
  port: typeof address === 'object' && address ? address.port : 0,
  pid: process.pid,
  staff,
  feedToken: SCALE_FEED_TOKEN,
};
process.stdout.write(`READY ${JSON.stringify(ready)}\n`);

createInterface({ input: process.stdin })
  .on('line', (line) => {
    if (line.trim() === 'rss')
      process.stdout.write(`${JSON.stringify({ rss: process.memoryUsage.rss() })}\n`);
  })
  .on('close', () => void app.close().then(() => process.exit(0)));
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
