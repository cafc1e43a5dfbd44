// Soak benchmark (issue 14 part 6): the polling load of the whole customer base held for a long
// time, with the API's memory and latency printed over time. ~50,000 customers polling twice a
// minute (SPEC §4: notifications and data requests every 60 s while the app is open) is
// ~1,700 req/s; each request is one customer's poll with their own token, If-None-Match after
// their first answer (so mostly 304s, as in life), spread over SOAK_USERS customers.
//
//   npx tsx bench/soak.ts                         # 10 minutes, 1,700 req/s, 20,000 customers
//   npx tsx bench/soak.ts --minutes 2 --rate 1000 --users 5000
//   DATABASE_URL=postgres://…/<empty db> npx tsx bench/soak.ts
//
// Prints a row per window (default 30 s): requests per second reached, p50/p99, unexpected
// answers, and the API's RSS and heap after a full GC; then the heap's growth from the first
// minute to the end. Not part of CI.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    rate: { type: 'string', default: '1700' },
    users: { type: 'string', default: '20000' },
    window: { type: 'string', default: '30' },
    connections: { type: 'string', default: '50' },
  },
});
const minutes = Number(args.minutes);
const rate = Number(args.rate);
const windowS = Number(args.window);
const connections = Number(args.connections);

const here = path.dirname(fileURLToPath(import.meta.url));
const child = spawn(
  process.execPath,
  ['--expose-gc', '--import', 'tsx', path.join(here, 'soak-server.ts')],
  {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, SOAK_USERS: args.users },
  },
);
const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
const next = async <T>(): Promise<T> => {
  for (;;) {
    const { value, done } = await lines.next();
    if (done) throw new Error('the API process closed its output');
    if (String(value).startsWith('{')) return JSON.parse(String(value)) as T;
    console.log(value);
  }
};
const started = Date.now();
const ready = await next<{ api: number; database: string; tokens: string[] }>();
console.log(
  `API on ${ready.database}, ${ready.tokens.length} customers signed in (${((Date.now() - started) / 1000).toFixed(0)} s); ` +
    `${rate} req/s for ${minutes} min in ${windowS}-s windows, ${connections} connections, node ${process.version}`,
);
const memory = async () => {
  child.stdin!.write('mem\n');
  return next<{ rss: number; heapUsed: number; external: number }>();
};

const POLLS = ['/api/notifications?page=0&perPage=15', '/api/data-transfers'];
/** ETag per customer and poll, as each phone keeps it. */
const etags = new Map<string, string>();
let turn = 0;

const MB = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
const table: {
  t: number;
  rps: number;
  p50: number;
  p99: number;
  bad: number;
  rss: number;
  heap: number;
}[] = [];
console.log('\n  time   req/s   p50 ms   p99 ms   unexpected   RSS MB   heap MB (after GC)');
const windows = Math.max(1, Math.round((minutes * 60) / windowS));
for (let w = 1; w <= windows; w += 1) {
  let bad = 0;
  const result = await autocannon({
    url: `http://127.0.0.1:${ready.api}`,
    connections,
    overallRate: rate,
    duration: windowS,
    requests: [
      {
        setupRequest: (request, context) => {
          turn = (turn + 1) % (ready.tokens.length * POLLS.length);
          const customer = Math.floor(turn / POLLS.length);
          const poll = POLLS[turn % POLLS.length]!;
          const key = `${customer} ${poll}`;
          const etag = etags.get(key);
          // One request at a time per connection: its context says whose answer comes back.
          (context as { key?: string }).key = key;
          return {
            ...request,
            method: 'GET',
            path: poll,
            headers: {
              authorization: `Bearer ${ready.tokens[customer]}`,
              ...(etag ? { 'if-none-match': etag } : {}),
            },
          };
        },
        onResponse: (status, _body, context, headers) => {
          if (status !== 200 && status !== 304) bad += 1;
          const etag = (headers as Record<string, string> | undefined)?.etag;
          const key = (context as { key?: string }).key;
          if (etag && key) etags.set(key, etag);
        },
      },
    ],
  });
  const { rss, heapUsed } = await memory();
  table.push({
    t: w * windowS,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bad: bad + result.errors + result.timeouts,
    rss,
    heap: heapUsed,
  });
  const row = table.at(-1)!;
  console.log(
    `${String(row.t).padStart(5)} s ${row.rps.toFixed(0).padStart(7)} ${String(row.p50).padStart(8)} ${String(row.p99).padStart(8)} ${String(row.bad).padStart(12)} ${MB(row.rss).padStart(8)} ${MB(row.heap).padStart(9)}`,
  );
}

// Growth is measured from the first window at the full rate: before it, each customer's first
// polls are 200s that fill the instance memory (sessions, answers), which is growth by design.
const firstMinute = table.find((row) => row.rps >= rate * 0.95) ?? table[0]!;
const last = table.at(-1)!;
const growth = last.heap - firstMinute.heap;
console.log(
  `\nheap after GC: ${MB(firstMinute.heap)} MB at ${firstMinute.t} s → ${MB(last.heap)} MB at ${last.t} s ` +
    `(${growth >= 0 ? '+' : ''}${MB(growth)} MB, ${((growth / firstMinute.heap) * 100).toFixed(1)} %); ` +
    `RSS ${MB(firstMinute.rss)} → ${MB(last.rss)} MB; worst p99 ${Math.max(...table.map((row) => row.p99))} ms; ` +
    `unexpected answers ${table.reduce((sum, row) => sum + row.bad, 0)}`,
);
child.stdin!.end();
// Answers other than 200/304 mean the figures are not those of the polls: the bench failed.
if (table.some((row) => row.bad > 0)) process.exitCode = 1;
