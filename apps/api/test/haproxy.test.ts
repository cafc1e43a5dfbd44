import { createHash, createHmac } from 'node:crypto';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HubConnection } from '@microsoft/signalr';
import { PAYMENT_HUB_PATH } from '@alda/contract/schemas/orders';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoData } from '../src/seed/seed';
import { NOW, signIn } from './demo-accounts';
import { createTestApps, LogCapture, waitFor, type TestApps } from './helper';
import {
  changePayment,
  collectPaymentUpdates,
  hubClient,
  listenLocally,
  placePendingOrder,
  RawHubClient,
  tokenOf,
  userId,
} from './hub-helper';
import { startHaproxy, type Haproxy } from './support/haproxy';

/*
 * Issue 44 §4: the shipped deploy/haproxy/alda.cfg itself, with Debian's HAProxy in front of two
 * in-process instances (on PGlite they share the one database; on PostgreSQL each has a pool):
 * X-Forwarded-For with TRUST_PROXY, the payment hub's WebSocket through it (and no access token
 * in its log), the /readyz health check taking a draining instance out without a failed request,
 * and the API's error envelope when no instance is left. The health check runs every 100 ms
 * here (ALDA_CHECK_INTER) instead of every second; fall and rise are the file's (2).
 *
 * Two instances, two processes or not, behind HAProxy under PostgreSQL: two-instances.test.ts;
 * three under load, killed and restarted: scripts/scale-test.sh.
 */

const CHECK_INTER_MS = 100;
const CHECK_FALL = 2;

/**
 * One request on a connection of its own (the first request of a client connection is what
 * HAProxy answers 502 when the instance dies on it; see the retry test), from `localAddress`
 * (127.0.0.0/8 is all loopback on Linux).
 */
function send(
  url: string,
  options: { method?: string; localAddress?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; server: string | undefined; body: string }> {
  const { method = 'GET', localAddress = '127.0.0.1', headers = {} } = options;
  return new Promise((resolve, reject) => {
    const req = request(url, { method, localAddress, headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          server: res.headers['x-alda-server'] as string | undefined,
          body,
        }),
      );
    });
    req.on('error', reject);
    req.setTimeout(10_000, () => req.destroy(new Error('timed out')));
    req.end();
  });
}

describe('issue 44 §4: the shipped HAProxy config (deploy/haproxy/alda.cfg) in front of two instances', () => {
  let t: TestApps;
  let haproxy: Haproxy;
  let token: string;
  const logs = new LogCapture();
  const open: HubConnection[] = [];
  /** The instances' addresses, 'host:port'. */
  const backends: string[] = [];

  beforeAll(async () => {
    t = await createTestApps(
      2,
      // HAProxy connects to the instances from 127.0.0.1: the only proxy they trust. A request
      // log line per request, with the client address as the instance sees it (request.ip).
      { TRUST_PROXY: '127.0.0.1', LOG_LEVEL: 'info' },
      { now: () => NOW, logStream: logs },
    );
    const [one] = t.apps;
    if (!one) throw new Error('no app');
    await seedDemoData(one.db, NOW);
    token = tokenOf(await signIn(one, 'Jóannes'));
    for (const app of t.apps) backends.push(new URL(await listenLocally(app)).host);
    haproxy = await startHaproxy({ backends, env: { ALDA_CHECK_INTER: `${CHECK_INTER_MS}ms` } });
  });

  afterAll(async () => {
    for (const connection of open) await connection.stop().catch(() => {});
    await haproxy?.close();
    await t?.close();
  });

  /** The address the instance logged for the request to `path` (request.ip, as TRUST_PROXY resolves it). */
  async function loggedAddress(path: string): Promise<unknown> {
    const line = await waitFor(async () =>
      logs.lines.find(
        (l) =>
          l.msg === 'request completed' && (l.req as { url?: string } | undefined)?.url === path,
      ),
    );
    return (line.req as { remoteAddress?: unknown }).remoteAddress;
  }

  it("issue 44 §4: X-Forwarded-For — the instance sees the client's own address, and a client cannot forge another", async () => {
    // A client on 127.0.0.2: HAProxy appends that address; the instance trusts HAProxy
    // (127.0.0.1) and takes the address before it.
    const plain = await send(`${haproxy.url}/issue-44/xff-plain`, { localAddress: '127.0.0.2' });
    expect(plain.status).toBe(404);
    expect(haproxy.servers).toContain(plain.server);
    expect(await loggedAddress('/issue-44/xff-plain')).toBe('127.0.0.2');

    // The same client sending its own X-Forwarded-For: the made-up address comes before
    // 127.0.0.2, which the instance does not trust, so it is ignored.
    const forged = await send(`${haproxy.url}/issue-44/xff-forged`, {
      localAddress: '127.0.0.2',
      headers: { 'x-forwarded-for': '203.0.113.7' },
    });
    expect(forged.status).toBe(404);
    expect(await loggedAddress('/issue-44/xff-forged')).toBe('127.0.0.2');
  });

  it("issue 44 §4: the payment hub's WebSocket upgrade passes through HAProxy and the payment's outcome arrives", async () => {
    const before = await haproxy.serverStats();
    const connection = hubClient(haproxy.url, token);
    open.push(connection);
    const updates = collectPaymentUpdates(connection);
    await connection.start();
    // HAProxy chose an instance twice: for the negotiate and for the upgrade.
    const after = await haproxy.serverStats();
    const chosen = haproxy.servers.reduce(
      (sum, name) => sum + Number(after[name]?.lbtot) - Number(before[name]?.lbtot),
      0,
    );
    expect(chosen).toBe(2);
    const holder = t.apps.find((app) => app.paymentHub.connections === 1);
    if (!holder) throw new Error('no instance holds the WebSocket');

    const order = await placePendingOrder(holder.db, userId('Jóannes'));
    await connection.invoke('ListenToOrder', order.id);
    await changePayment(holder.db, order, 'paid');
    const paid = await waitFor(async () => updates.find((u) => u.status === 'paid'));
    expect(paid).toMatchObject({ orderId: order.id, order: { isComplete: true } });
  });

  it("issue 44 §4: HAProxy's log has the hub's path without the access token a browser puts in the query", async () => {
    const client = await RawHubClient.connect(haproxy.url, token, { via: 'query' });
    client.close();
    await client.closed;
    // HAProxy logs a tunnel when it ends.
    const lines = await waitFor(async () => {
      const hub = haproxy
        .output()
        .split('\n')
        .filter((line) => line.includes(`"GET ${PAYMENT_HUB_PATH}`));
      return hub.length > 0 ? hub : undefined;
    });
    expect(lines.join('\n')).not.toContain(token);
    expect(lines.join('\n')).toContain(`"GET ${PAYMENT_HUB_PATH} HTTP/1.1"`);
    expect(haproxy.output()).not.toContain('access_token');
  });

  it("HAProxy's log has the TMF641 callback with its secret segment masked, as the instance's own log line has it (issue 61 §4)", async () => {
    // The callback an OSS posts to: its segment is the HMAC of TMF641_LISTENER_SECRET (ADR 0082 §7).
    const segment = createHmac('sha256', 'haproxy-test-listener-secret')
      .update('alda-tmf641-callback')
      .digest('hex');
    const masked = `[secret ${createHash('sha256').update(segment).digest('hex').slice(0, 8)}]`;
    const base = '/tmf-api/listener/serviceOrdering/v4/';
    const event = `${base}${segment}/listener/serviceOrderStateChangeEvent`;
    // The instances here run the network simulator: no listener, 404 — HAProxy logs it alike.
    expect((await send(`${haproxy.url}${event}`, { method: 'POST' })).status).toBe(404);
    const line = await waitFor(async () =>
      haproxy
        .output()
        .split('\n')
        .find((l) => l.includes(`"POST ${base}`)),
    );
    expect(line).toContain(
      `"POST ${base}${masked}/listener/serviceOrderStateChangeEvent HTTP/1.1"`,
    );
    expect(haproxy.output()).not.toContain(segment);
    // The instance that answered logs the same form (log-privacy.ts).
    const logged = await waitFor(async () =>
      logs.lines.find(
        (l) =>
          l.msg === 'request completed' &&
          (l.req as { url?: string } | undefined)?.url?.startsWith(base),
      ),
    );
    expect((logged.req as { url?: string }).url).toBe(
      `${base}${masked}/listener/serviceOrderStateChangeEvent`,
    );
    expect(JSON.stringify(logs.lines)).not.toContain(segment);
  });

  it('issue 44 §4: a connection refused by a dead instance is retried on another, POST included; a request an instance died on is retried only when it is a GET', async () => {
    const [one] = t.apps;
    if (!one) throw new Error('no app');
    // A stand-in instance next to a real one: ready, but it dies on every request it gets
    // (the connection closed without an answer, as when a process is killed mid-request).
    const seen: string[] = [];
    const dying = createServer((req, res) => {
      if (req.url === '/readyz') {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
        return;
      }
      seen.push(req.method ?? '');
      req.socket.destroy();
    });
    await new Promise<void>((resolve) => dying.listen(0, '127.0.0.1', resolve));
    const { port } = dying.address() as AddressInfo;
    // Its health check must not take it out during the test: a fall HAProxy never reaches.
    const balancer = await startHaproxy({
      backends: [`127.0.0.1:${port}`, backends[0] ?? ''],
      env: { ALDA_CHECK_INTER: `${CHECK_INTER_MS}ms`, ALDA_CHECK_FALL: '100000' },
    });
    try {
      const call = (method: string, path: string) => send(`${balancer.url}${path}`, { method });
      // Round robin sends some of the requests to the dying instance (which ones depends on
      // how HAProxy counts the retries). Every GET it died on is sent again to the other and
      // answered there (404: no such route); every POST it died on is not: 502, the envelope.
      // (Each request here is the first on its client connection. On a kept-alive one HAProxy
      // answers a request the instance died on by closing the client's connection, as the
      // instance itself would have: a browser may then send it again.)
      const gets = [];
      for (let i = 0; i < 4; i += 1) gets.push(await call('GET', '/issue-44/get'));
      expect(seen.length, 'GETs the dying instance got').toBeGreaterThan(0);
      expect(gets.map((g) => [g.status, g.server])).toEqual(gets.map(() => [404, 'api2']));
      seen.length = 0;
      const posts = [];
      for (let i = 0; i < 4; i += 1) posts.push(await call('POST', '/issue-44/post'));
      expect(seen.length, 'POSTs the dying instance got').toBeGreaterThan(0);
      const failed = posts.filter((p) => p.status === 502);
      expect(failed.length, 'POSTs answered 502').toBe(seen.length);
      expect(posts.filter((p) => p.status !== 502).map((p) => [p.status, p.server])).toEqual(
        posts.filter((p) => p.status !== 502).map(() => [404, 'api2']),
      );
      expect(JSON.parse(failed[0]?.body ?? '{}')).toMatchObject({
        error: { code: 'SERVICE_UNAVAILABLE' },
      });
      seen.length = 0;

      // Now it is gone (its port refuses), still UP for HAProxy: nothing was sent, so every
      // request is sent to the other instance, POST included.
      dying.closeAllConnections();
      await new Promise((resolve) => dying.close(resolve));
      const after = [];
      for (let i = 0; i < 4; i += 1) after.push(await call('POST', '/issue-44/refused'));
      expect(after.map((p) => [p.status, p.server])).toEqual(after.map(() => [404, 'api2']));
      expect(seen, 'requests that reached the closed instance').toEqual([]);
      const redispatched = (await balancer.serverStats()).api1?.wredis;
      expect(Number(redispatched), 'redispatches away from api1').toBeGreaterThanOrEqual(3);
    } finally {
      await balancer.close();
      dying.closeAllConnections();
      dying.close();
    }
  });

  it('issue 44 §4: an instance whose /readyz answers 503 (draining) is marked DOWN after fall × inter; no request fails meanwhile; with none left HAProxy answers the API error envelope', async () => {
    const [one, two] = t.apps;
    if (!one || !two) throw new Error('two apps expected');
    // Clients keep calling through HAProxy the whole time.
    const answers: { status: number; server: string | undefined; sentAt: number }[] = [];
    let calling = true;
    const client = (async () => {
      while (calling) {
        const sentAt = performance.now();
        try {
          const res = await fetch(`${haproxy.url}/healthz`);
          await res.arrayBuffer();
          answers.push({
            status: res.status,
            server: res.headers.get('x-alda-server') ?? undefined,
            sentAt,
          });
        } catch (error) {
          answers.push({ status: 0, server: String(error), sentAt });
        }
      }
    })();
    /**
     * When api2 was seen DOWN: requests sent after it go to api1 only. (One sent just before may
     * still be answered by api2, after the mark: HAProxy finishes what it already forwarded.)
     */
    let downAt = Infinity;
    try {
      await waitFor(async () => (answers.length >= 4 ? true : undefined));

      const started = performance.now();
      two.startDraining();
      // The instance itself still serves; only its readiness says no.
      const direct = await two.inject({ method: 'GET', url: '/readyz' });
      expect(direct.statusCode).toBe(503);
      await haproxy.waitFor('api2', 'DOWN', 5_000);
      const tookMs = performance.now() - started;
      // At most fall checks after the first one that sees the 503, one interval apart (and
      // well under what the production timings would take: 2 × 1 s).
      expect(tookMs).toBeLessThan(1_000 * CHECK_FALL);
      expect(haproxy.output()).toMatch(
        /Server alda\/api2 is DOWN, reason: Layer7 wrong status, code: 503/,
      );

      // From now on only api1 answers.
      downAt = performance.now();
      await waitFor(async () =>
        answers.filter((a) => a.sentAt > downAt).length >= 10 ? true : undefined,
      );
    } finally {
      calling = false;
      await client;
    }
    const after = answers.filter((a) => a.sentAt > downAt);
    expect(after.map((a) => a.server)).toEqual(after.map(() => 'api1'));
    expect(
      answers.filter((a) => a.status !== 200),
      'failed requests',
    ).toEqual([]);
    expect(
      answers.some((a) => a.server === 'api2'),
      'api2 answered before draining',
    ).toBe(true);

    // The last instance drains too: HAProxy itself answers 503, in the API's error envelope.
    one.startDraining();
    await haproxy.waitFor('api1', 'DOWN', 5_000);
    const none = await fetch(`${haproxy.url}/api/status`);
    expect(none.status).toBe(503);
    expect(none.headers.get('content-type')).toContain('application/json');
    expect(await none.json()).toEqual({
      error: { code: 'SERVICE_UNAVAILABLE', message: expect.any(String) as string },
    });
  });
});
