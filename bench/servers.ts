// Child process of bench/api-load.ts: starts the bench servers with the demo customers (on PGlite,
// or on PostgreSQL when DATABASE_URL is set), signs two of them in, and prints one JSON line
// (`Ready`). Then it answers `queries` on stdin with `{"queries": n}`, the number of statements
// the API has sent to the database so far, and `cpu` with `{"cpu": µs}`, the CPU time (user and
// system) this process has used so far.
import { createInterface } from 'node:readline';
import { JOBS_OFF_TEXT, startBenchServers } from './bench-servers';
import { DEMO_PASSWORD, DEMO_USERS } from '../apps/api/src/seed/demo-users';

export interface Ready {
  hello: number;
  api: number;
  /** Where the data lives, as the API's start-up log says it. */
  database: string;
  jobsOff: string;
  /** `Bearer …` of Jóannes: a family owner with an individual line and an EU package. */
  owner: string;
  /** `Bearer …` of Sunneva: seeded notifications and a pending data request from Guðrun. */
  member: string;
}

const { app, ports, queries } = await startBenchServers({ demo: true });

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
  hello: ports.hello,
  api: ports.api,
  database: app.database.location,
  jobsOff: JOBS_OFF_TEXT,
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
