// API load benchmark: Fastify hello-world and real endpoints of the API, measured in the same run
// with the same settings, so the ratio (real / hello-world) is comparable across machines even
// when absolute numbers are not (this machine is shared and noisy).
//   npx tsx bench/api-load.ts [--duration 5] [--connections 50]
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const duration = arg('duration', 5);
const connections = arg('connections', 50);

const here = path.dirname(fileURLToPath(import.meta.url));
const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'servers.ts')], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const ports = await new Promise<{ hello: number; api: number }>((resolve, reject) => {
  const rl = createInterface({ input: child.stdout! });
  rl.once('line', (line) => resolve(JSON.parse(line)));
  child.once('exit', (code) => reject(new Error(`servers exited with ${code}`)));
});

interface Target {
  name: string;
  url: string;
  method?: 'GET' | 'POST';
  body?: string;
  headers?: Record<string, string>;
}
const api = `http://127.0.0.1:${ports.api}`;
const targets: Target[] = [
  { name: 'hello-world (Fastify)', url: `http://127.0.0.1:${ports.hello}/` },
  { name: 'GET /healthz', url: `${api}/healthz` },
  {
    name: 'GET /api/content/terms',
    url: `${api}/api/content/terms`,
    headers: { 'accept-language': 'en' },
  },
  {
    name: 'POST /api/status',
    url: `${api}/api/status`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      currentVersion: '3.0.0',
      deviceMeta: {
        name: 'bench',
        platform: 'android',
        osVersion: '15',
        model: 'Pixel 8',
        isVirtual: true,
      },
    }),
  },
];

const rows: {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}[] = [];
for (const t of targets) {
  // Short warm-up so JIT and connection set-up do not count.
  await autocannon({ ...t, connections, duration: 1 });
  const r = await autocannon({ ...t, connections, duration });
  rows.push({
    name: t.name,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors,
    non2xx: r.non2xx,
  });
}
child.kill('SIGTERM');

const base = rows[0]!;
console.log(`\n${connections} connections, ${duration} s per target, node ${process.version}\n`);
console.log(
  'target'.padEnd(28) +
    'req/s'.padStart(10) +
    'p50 ms'.padStart(9) +
    'p99 ms'.padStart(9) +
    'req/s ratio'.padStart(13) +
    'p99 ratio'.padStart(11) +
    'non-2xx'.padStart(9),
);
for (const r of rows) {
  console.log(
    r.name.padEnd(28) +
      r.rps.toFixed(0).padStart(10) +
      String(r.p50).padStart(9) +
      String(r.p99).padStart(9) +
      (r.rps / base.rps).toFixed(2).padStart(13) +
      (r.p99 / Math.max(base.p99, 1)).toFixed(2).padStart(11) +
      String(r.non2xx + r.errors).padStart(9),
  );
}
if (rows.some((r) => r.non2xx + r.errors > 0)) {
  console.error('\nSome requests failed: the figures above are not valid.');
  process.exit(1);
}
