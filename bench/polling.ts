// Polling benchmark (issue 5, docs/decisions/0041-polling-etag.md): what one 60-s poll costs the
// API when nothing changed (304 from the change version) and when it did (200 with the body),
// next to a Fastify hello-world measured in the same run with the same settings.
//   npx tsx bench/polling.ts [--duration 5] [--connections 50]
// The file is both the load generator (parent) and, with --serve, the servers (child), so the
// load does not share the servers' event loop.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};

interface Ready {
  hello: number;
  api: number;
  authorization: string;
  etags: Record<string, string>;
}

async function serve(): Promise<void> {
  const { startBenchServers } = await import('./bench-servers');
  const { DEMO_PASSWORD, DEMO_USERS } = await import('../apps/api/src/seed/demo-users');
  const { app, ports } = await startBenchServers({ demo: true });

  // Sunneva has seeded notifications; a pending request from Guðrun gives the list a body.
  const login = async (firstname: string) => {
    const user = DEMO_USERS.find((u) => u.firstname === firstname);
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/email-login',
      payload: { email: user?.email, password: DEMO_PASSWORD },
    });
    return `Bearer ${res.json<{ data: { accessToken: string } }>().data.accessToken}`;
  };
  const sunneva = await login('Sunneva');
  await app.inject({
    method: 'POST',
    url: '/api/data-transfers',
    headers: { authorization: await login('Guðrun') },
    payload: { kind: 'request', fromPhoneNumber: '557812', phoneNumber: '214456', dataAmount: 500 },
  });
  const etags: Record<string, string> = {};
  for (const url of ['/api/notifications?page=0&perPage=15', '/api/data-transfers']) {
    const res = await app.inject({
      method: 'GET',
      url,
      headers: { authorization: sunneva, 'accept-language': 'fo' },
    });
    etags[url] = String(res.headers.etag);
  }
  const ready: Ready = { hello: ports.hello, api: ports.api, authorization: sunneva, etags };
  process.stdout.write(`${JSON.stringify(ready)}\n`);
}

async function load(): Promise<void> {
  const duration = arg('duration', 5);
  const connections = arg('connections', 50);
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), '--serve'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const ready = await new Promise<Ready>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout! });
    rl.once('line', (line) => resolve(JSON.parse(line) as Ready));
    child.once('exit', (code) => reject(new Error(`servers exited with ${code}`)));
  });
  const api = `http://127.0.0.1:${ready.api}`;
  const auth = { authorization: ready.authorization, 'accept-language': 'fo' };
  const targets: { name: string; url: string; headers?: Record<string, string>; expect: number }[] =
    [{ name: 'hello-world (Fastify)', url: `http://127.0.0.1:${ready.hello}/`, expect: 200 }];
  for (const [path, etag] of Object.entries(ready.etags)) {
    const short = path.split('?')[0]!;
    targets.push({
      name: `${short} 304`,
      url: `${api}${path}`,
      headers: { ...auth, 'if-none-match': etag },
      expect: 304,
    });
    targets.push({ name: `${short} 200`, url: `${api}${path}`, headers: auth, expect: 200 });
  }

  const rows: { name: string; rps: number; p50: number; p99: number; bad: number }[] = [];
  for (const t of targets) {
    await autocannon({ url: t.url, headers: t.headers, connections, duration: 1 });
    const r = await autocannon({ url: t.url, headers: t.headers, connections, duration });
    const expected =
      (r.statusCodeStats as Record<string, { count: number } | undefined>)[String(t.expect)]
        ?.count ?? 0;
    rows.push({
      name: t.name,
      rps: r.requests.average,
      p50: r.latency.p50,
      p99: r.latency.p99,
      bad: r.errors + r.timeouts + (r.requests.total - expected),
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
      'unexpected'.padStart(12),
  );
  for (const r of rows) {
    console.log(
      r.name.padEnd(28) +
        r.rps.toFixed(0).padStart(10) +
        String(r.p50).padStart(9) +
        String(r.p99).padStart(9) +
        (r.rps / base.rps).toFixed(2).padStart(13) +
        String(r.bad).padStart(12),
    );
  }
  // Allow for the few requests autocannon leaves unanswered when a run stops.
  if (rows.some((r) => r.bad > connections)) {
    console.error('\nSome answers had the wrong status: the figures above are not valid.');
    process.exit(1);
  }
}

await (process.argv.includes('--serve') ? serve() : load());
