// Child process of bench/api-load.ts: starts the bench servers with the demo customers (on PGlite,
// or on PostgreSQL when DATABASE_URL is set), signs two of them in, and prints one JSON line
// (`Ready`). BENCH_JOBS says what the API's background jobs are: `off` (the default), `on` (as
// production runs them), or `on:-SETTING,-SETTING` (on but those; bench/jobs-off.ts `JOBS`). Then it answers `queries` on stdin with `{"queries": n}`, the number of statements
// the API has sent to the database so far, and `cpu` with `{"cpu": µs}`, the CPU time (user and
// system) this process has used so far.
import { createInterface } from 'node:readline';
import { JOBS, jobsText, startBenchServers, type JobsMode } from './bench-servers';
import { DEMO_PASSWORD, DEMO_USERS } from '../apps/api/src/seed/demo-users';

export interface Ready {
  /** The bare node:http hello-world. */
  node: number;
  /** The Fastify hello-world (and the bare Fastify status route). */
  hello: number;
  api: number;
  /** Where the data lives, as the API's start-up log says it. */
  database: string;
  /** What the API's background jobs were. */
  jobs: string;
  /** `Bearer …` of Jóannes: a family owner with an individual line and an EU package. */
  owner: string;
  /** `Bearer …` of Sunneva: seeded notifications and a pending data request from Guðrun. */
  member: string;
}

/** BENCH_JOBS, read. */
export function jobsMode(value: string | undefined): JobsMode {
  if (!value || value === 'off') return 'off';
  const [on, list = ''] = value.split(':');
  const off = list
    .split(',')
    .filter(Boolean)
    .map((item) => JOBS.find((j) => `-${j.setting}` === item)?.setting);
  if (on !== 'on' || off.includes(undefined))
    throw new Error(`BENCH_JOBS=${value}: not understood`);
  return { off: off.filter((s) => s !== undefined) };
}

const jobs = jobsMode(process.env.BENCH_JOBS);
const { app, ports, queries } = await startBenchServers({ demo: true, jobs });

const login = async (firstname: string) => {
  const user = DEMO_USERS.find((u) => u.firstname === firstname);
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/email-login',
    payload: { email: user?.email, password: DEMO_PASSWORD },
  });
  if (res.statusCode !== 200) throw new Error(`login ${firstname}: ${res.statusCode} ${res.body}`);
  return `Bearer ${res.json<{ data: { accessToken: string } }>().data.accessToken}`;
};
const owner = await login('Jóannes');
const member = await login('Sunneva');
// A pending request from Guðrun gives Sunneva's data-transfer list a body.
const request = await app.inject({
  method: 'POST',
  url: '/api/data-transfers',
  headers: { authorization: await login('Guðrun') },
  payload: { kind: 'request', fromPhoneNumber: '557812', phoneNumber: '214456', dataAmount: 500 },
});
if (request.statusCode >= 300) throw new Error(`data request: ${request.statusCode}`);

const ready: Ready = {
  node: ports.node,
  hello: ports.hello,
  api: ports.api,
  database: app.database.location,
  jobs: jobsText(jobs),
  owner,
  member,
};
process.stdout.write(`${JSON.stringify(ready)}\n`);

createInterface({ input: process.stdin })
  .on('line', (line) => {
    if (line.trim() === 'queries') {
      process.stdout.write(`${JSON.stringify({ queries: queries() })}\n`);
    } else if (line.trim() === 'cpu') {
      const { user, system } = process.cpuUsage();
      process.stdout.write(`${JSON.stringify({ cpu: user + system })}\n`);
    }
  })
  // The parent is gone (interrupted): do not leave the servers running.
  .on('close', () => process.kill(process.pid, 'SIGTERM'));
