// `npm run bench`: every benchmark, one after another. Each prints its own figures; at the end the
// API ratios are repeated with their goals (the goals live in bench/api-load.ts).
//   npm run bench [-- --duration 6 --rounds 3 --connections 50]
//   npm run bench -- --smoke   # every bench for a few seconds: does it still run? (bench/smoke.test.ts)
// The soak bench (10 minutes) is not in the list: `npm run bench:soak`; its smoke run is in
// bench/smoke.test.ts.
// PostgreSQL is measured when one is reachable (BENCH_PG_URL, DATABASE_URL or 127.0.0.1:5432):
// the API bench creates and drops its own database on it (see bench/api-load.ts).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SMOKE_FLAGS } from './smoke-flags.mjs';

/** `--duration`, `--rounds` and `--connections` go on to the API bench. */
const smoke = process.argv.includes('--smoke');
const apiFlags = smoke
  ? SMOKE_FLAGS.api
  : ['duration', 'rounds', 'connections'].flatMap((name) => {
      const i = process.argv.indexOf(`--${name}`);
      return i === -1 ? [] : [`--${name}`, process.argv[i + 1]];
    });
const dir = mkdtempSync(path.join(os.tmpdir(), 'alda-bench-'));
const summary = path.join(dir, 'api-load.json');
// The hub bench would migrate and seed into DATABASE_URL itself: here it runs on PGlite.
const pgliteEnv = { ...process.env };
delete pgliteEnv.DATABASE_URL;

/** [title, command, spawn options]. */
const steps = [
  [
    'API load and polls vs hello-world, queries per request (PGlite, then PostgreSQL)',
    ['npx', 'tsx', 'bench/api-load.ts', ...apiFlags, '--summary', summary],
  ],
  [
    // On PostgreSQL: DATABASE_URL=<empty database> npx tsx bench/hub.ts
    'Payment hub (idle connections, memory, PaymentUpdated latency; on PGlite)',
    ['npx', 'tsx', 'bench/hub.ts', ...(smoke ? SMOKE_FLAGS.hub : [])],
    { env: pgliteEnv },
  ],
  ['Bundle size per route', ['node', 'bench/bundle-size.mjs']],
  [
    'Lighthouse, mobile preset: a returning customer and a first open',
    ['npx', 'tsx', 'bench/lighthouse.ts', ...(smoke ? SMOKE_FLAGS.lighthouse : [])],
  ],
];
if (smoke) console.log('smoke run: every bench for a few seconds; the figures are not judged');
const failed = [];
for (const [title, [cmd, ...args], options = {}] of steps) {
  console.log(`\n### ${title}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...options });
  if (r.status !== 0) failed.push(title.split(' (')[0]);
}

console.log('\n### Summary: API ratios vs hello-world in the same run, with their goals');
if (existsSync(summary)) {
  for (const line of JSON.parse(readFileSync(summary, 'utf8')).goalLines) console.log(line);
} else {
  console.log('(no API figures: the API bench did not finish)');
}
rmSync(dir, { recursive: true, force: true });
if (failed.length > 0) console.error(`\nFAILED: ${failed.join('; ')}`);
process.exit(failed.length > 0 ? 1 : 0);
