// Payment hub benchmark (issue 6, docs/decisions/0051-payment-hub.md): how many idle hub
// connections one API instance holds and what each costs in memory, and how long a committed
// payment change takes to reach a listening official client as PaymentUpdated (p50/p99).
//   npx tsx bench/hub.ts [--connections 1000,2000] [--events 300]
// The file is both the client side (parent: raw `ws` connections that do the negotiate and the
// handshake like the official client, plus one @microsoft/signalr connection for the latency)
// and, with --serve, the API (child, started with --expose-gc so memory is read after a
// collection). `DATABASE_URL=… npx tsx bench/hub.ts` runs the API on PostgreSQL (use an empty
// database: the bench migrates and seeds the demo into it).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { HttpTransportType, HubConnectionBuilder, LogLevel } from '@microsoft/signalr';
import { WebSocket } from 'ws';
import { PAYMENT_HUB_PATH } from '../packages/contract/src/schemas/orders';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : String(process.argv[i + 1]);
};

const RS = '\u001e';
/** Wall-clock milliseconds with sub-ms resolution, comparable between two processes. */
const clock = () => performance.timeOrigin + performance.now();

interface Memory {
  rss: number;
  heapUsed: number;
  connections: number;
}

// ---------------------------------------------------------------------------------------------
// Child: the API, and a tiny stdin protocol to read memory and commit payment changes.

async function serve(): Promise<void> {
  const { startBenchServers } = await import('./bench-servers');
  const { DEMO_PASSWORD, DEMO_USERS } = await import('../apps/api/src/seed/demo-users');
  const { orders } = await import('../apps/api/src/db/schema/orders');
  const { notifyPaymentUpdated } = await import('../apps/api/src/modules/payments/events');
  const { eq } = await import('drizzle-orm');
  // All connections are one customer's; the per-customer cap (10) would stop the bench.
  const { app, ports } = await startBenchServers({
    demo: true,
    deps: { hub: { maxConnectionsPerUser: Number.MAX_SAFE_INTEGER } },
  });

  const user = DEMO_USERS.find((u) => u.firstname === 'Jóannes')!;
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/email-login',
    payload: { email: user.email, password: DEMO_PASSWORD },
  });
  const accessToken = res.json<{ data: { accessToken: string } }>().data.accessToken;
  const events = Number(arg('events', '300'));
  const placed = await app.db
    .insert(orders)
    .values(
      Array.from({ length: events }, () => ({
        userId: user.id,
        kind: 'extra_package' as const,
        priceOere: 4_900,
        paymentStatus: 'pending' as const,
      })),
    )
    .returning({ id: orders.id });

  const send = (message: object) => process.stdout.write(`${JSON.stringify(message)}\n`);
  const rl = createInterface({ input: process.stdin });
  rl.on('line', (line) => {
    const [command, orderId] = line.split(' ');
    if (command === 'memory') {
      globalThis.gc?.();
      globalThis.gc?.();
      const m = process.memoryUsage();
      send({
        memory: { rss: m.rss, heapUsed: m.heapUsed, connections: app.paymentHub.connections },
      });
    } else if (command === 'pay' && orderId) {
      // As the payments service does it: the change and the NOTIFY in one transaction.
      void app.db
        .transaction(async (tx) => {
          await tx
            .update(orders)
            .set({ paymentStatus: 'paid', isComplete: true, completedAt: new Date() })
            .where(eq(orders.id, orderId));
          await notifyPaymentUpdated(tx, { orderId, userId: user.id });
        })
        .then(() => send({ committed: orderId, at: clock() }));
    }
  });
  send({ ready: { port: ports.api, accessToken, orderIds: placed.map((o) => o.id) } });
}

// ---------------------------------------------------------------------------------------------
// Parent: connections and measurements.

/** One idle hub connection as the official client opens it: negotiate, upgrade, handshake. */
async function openRaw(base: string, accessToken: string): Promise<WebSocket> {
  const res = await fetch(`${base}${PAYMENT_HUB_PATH}/negotiate?negotiateVersion=1`, {
    method: 'POST',
    headers: { authorization: `Bearer ${accessToken}` },
  });
  if (res.status !== 200) throw new Error(`negotiate ${res.status}`);
  const { connectionToken } = (await res.json()) as { connectionToken: string };
  const ws = new WebSocket(
    `${base.replace(/^http/, 'ws')}${PAYMENT_HUB_PATH}?id=${connectionToken}`,
    { headers: { authorization: `Bearer ${accessToken}` }, perMessageDeflate: false },
  );
  await new Promise<void>((resolve, reject) => {
    ws.once('error', reject);
    ws.once('open', () => ws.send(`{"protocol":"json","version":1}${RS}`));
    ws.once('message', () => resolve());
  });
  ws.on('error', () => {});
  return ws;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

async function main(): Promise<void> {
  const steps = arg('connections', '1000,2000').split(',').map(Number);
  const events = Number(arg('events', '300'));
  const started = Date.now();
  const child = spawn(
    process.execPath,
    [
      '--expose-gc',
      '--import',
      'tsx',
      fileURLToPath(import.meta.url),
      '--serve',
      '--events',
      String(events),
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout! });
  const waiting: ((message: Record<string, unknown>) => boolean)[] = [];
  lines.on('line', (line) => {
    const message = JSON.parse(line) as Record<string, unknown>;
    const i = waiting.findIndex((match) => match(message));
    if (i !== -1) waiting.splice(i, 1);
  });
  const next = <T>(key: string, command?: string) =>
    new Promise<T>((resolve) => {
      waiting.push((message) => {
        if (!(key in message)) return false;
        resolve(message[key] as T);
        return true;
      });
      if (command) child.stdin!.write(`${command}\n`);
    });

  const ready = await next<{ port: number; accessToken: string; orderIds: string[] }>('ready');
  const base = `http://127.0.0.1:${ready.port}`;

  // Keep-alive: a client pings every 15 s (SPEC §9); the run is short, but do as clients do.
  const sockets: WebSocket[] = [];
  const pinger = setInterval(() => {
    for (const ws of sockets) if (ws.readyState === WebSocket.OPEN) ws.send(`{"type":6}${RS}`);
  }, 15_000);

  const baseline = await next<Memory>('memory', 'memory');
  const rows: { connections: number; seconds: number; rss: number; heap: number }[] = [];
  for (const target of steps) {
    const t0 = Date.now();
    while (sockets.length < target) {
      const batch = Math.min(100, target - sockets.length);
      sockets.push(
        ...(await Promise.all(
          Array.from({ length: batch }, () => openRaw(base, ready.accessToken)),
        )),
      );
    }
    const seconds = (Date.now() - t0) / 1000;
    const memory = await next<Memory>('memory', 'memory');
    if (memory.connections !== target) throw new Error(`server holds ${memory.connections}`);
    rows.push({
      connections: target,
      seconds,
      rss: (memory.rss - baseline.rss) / target,
      heap: (memory.heapUsed - baseline.heapUsed) / target,
    });
  }

  // Latency: one official client listens to an order, the server commits its payment, the
  // client gets PaymentUpdated — with all idle connections still open.
  const hub = new HubConnectionBuilder()
    .withUrl(`${base}${PAYMENT_HUB_PATH}`, {
      accessTokenFactory: () => ready.accessToken,
      transport: HttpTransportType.WebSockets,
    })
    .configureLogging(LogLevel.None)
    .build();
  const received = new Map<string, number>();
  hub.on('PaymentUpdated', (payload: { orderId: string }) =>
    received.set(payload.orderId, clock()),
  );
  await hub.start();
  const latencies: number[] = [];
  for (const orderId of ready.orderIds) {
    await hub.invoke('ListenToOrder', orderId);
    const arrived = new Promise<void>((resolve) => {
      const check = () => (received.has(orderId) ? resolve() : setTimeout(check, 0.5));
      check();
    });
    const committedAt = await next<number>('at', `pay ${orderId}`);
    await arrived;
    await hub.invoke('StopListeningToOrder', orderId);
    latencies.push(received.get(orderId)! - committedAt);
  }
  await hub.stop();
  clearInterval(pinger);
  for (const ws of sockets) ws.terminate();
  child.kill('SIGTERM');

  latencies.sort((a, b) => a - b);
  const db = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite (in memory)';
  console.log(`\nPayment hub, API on ${db}, node ${process.version}\n`);
  console.log(
    'idle connections'.padEnd(18) +
      'open s'.padStart(8) +
      'RSS kB/conn'.padStart(13) +
      'heap kB/conn'.padStart(14),
  );
  for (const r of rows) {
    console.log(
      String(r.connections).padEnd(18) +
        r.seconds.toFixed(1).padStart(8) +
        (r.rss / 1024).toFixed(1).padStart(13) +
        (r.heap / 1024).toFixed(1).padStart(14),
    );
  }
  console.log(
    `\ncommit → PaymentUpdated at the client, ${latencies.length} events, ` +
      `${rows.at(-1)?.connections ?? 0} idle connections open: ` +
      `p50 ${percentile(latencies, 50).toFixed(2)} ms, p99 ${percentile(latencies, 99).toFixed(2)} ms, ` +
      `max ${latencies.at(-1)?.toFixed(2)} ms`,
  );
  console.log(`run time ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

await (process.argv.includes('--serve') ? serve() : main());
