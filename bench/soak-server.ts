// Child process of bench/soak.ts: the real API (bench-servers.ts: migrated, jobs off, rate limit
// off, logs silent; PGlite in memory, or PostgreSQL when DATABASE_URL is set) with `SOAK_USERS`
// customers, each signed in on one device (a session row and an access token, made directly:
// signing 20,000 customers in through the password hash would take minutes). Prints one JSON
// line {api, database, tokens}, then answers `mem` on stdin with the process's memory after a
// full garbage collection (run with --expose-gc).
import { createInterface } from 'node:readline';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../apps/api/src/db/rows';
import { createAccessTokens } from '../apps/api/src/modules/auth/tokens';
import { startBenchServers } from './bench-servers';

const users = Number(process.env.SOAK_USERS ?? 20_000);
const { app, ports } = await startBenchServers({ demo: false });

const rows = await app.db.execute(sql`
  with made as (
    insert into users (firstname, lastname, email, password_hash)
    select 'Soak', 'Customer ' || i, 'soak' || i || '@alda.test', null
      from generate_series(1, ${users}) as i
    returning id
  )
  insert into sessions (user_id) select id from made returning id, user_id`);
const list = rowsOf(rows) as { user_id: string; id: string }[];
const tokens = createAccessTokens(app.config.jwtSecret, 86_400);
const now = new Date();
const signed: string[] = [];
for (const row of list) signed.push(await tokens.sign({ sub: row.user_id, sid: row.id }, now));

process.stdout.write(
  `${JSON.stringify({ api: ports.api, database: app.database.location, tokens: signed })}\n`,
);

const gc = (globalThis as { gc?: () => void }).gc;
createInterface({ input: process.stdin })
  .on('line', (line) => {
    if (line.trim() !== 'mem') return;
    gc?.();
    const { rss, heapUsed, external } = process.memoryUsage();
    process.stdout.write(`${JSON.stringify({ rss, heapUsed, external })}\n`);
  })
  .on('close', () => process.kill(process.pid, 'SIGTERM'));
