import type { Duplex } from 'node:stream';
import { HubConnectionState, type HubConnection } from '@microsoft/signalr';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HUB_RECONNECT_DELAYS_MS } from '@alda/contract/constants';
import { seedDemoData } from '../src/seed/seed';
import { NOW, signIn } from './demo-accounts';
import { createTestApp, testClock, waitFor } from './helper';
import {
  changePayment,
  collectPaymentUpdates,
  hubClient,
  listenLocally,
  placePendingOrder,
  RawHubClient,
  settle,
  tokenOf,
  userId,
  waitForCount,
} from './hub-helper';

/*
 * Connection lifetime of the payment hub (SPEC §4 "Payment flow", §9 live-connection
 * constants): pings when idle, the client timeout, automatic reconnect after the server drops
 * the socket, and the Close message on shutdown. Timings are shortened through the hub options
 * (keep-alive 200 ms, client timeout 1.5 s instead of 15 s and 30 s).
 */

// Wide enough margins for a loaded CI machine, short enough to keep the file fast.
const KEEP_ALIVE_MS = 200;
const SERVER_TIMEOUT_MS = 1_500;

async function startApp() {
  const t = await createTestApp(
    {},
    { now: () => NOW, hub: { keepAliveMs: KEEP_ALIVE_MS, serverTimeoutMs: SERVER_TIMEOUT_MS } },
  );
  await seedDemoData(t.app.db, NOW);
  const token = tokenOf(await signIn(t.app, 'Jóannes'));
  const baseUrl = await listenLocally(t.app);
  // The server end of every upgraded socket, so a test can drop one as a network failure would.
  const sockets: Duplex[] = [];
  t.app.server.on('upgrade', (_request, socket: Duplex) => sockets.push(socket));
  return { t, token, baseUrl, sockets };
}

/** An official client tuned to the shortened timings (its pings keep the server's timer fed). */
function tunedClient(baseUrl: string, token: string | (() => string), reconnect?: number[]) {
  const connection = hubClient(baseUrl, token, reconnect ? { reconnect } : {});
  connection.keepAliveIntervalInMilliseconds = KEEP_ALIVE_MS;
  connection.serverTimeoutInMilliseconds = SERVER_TIMEOUT_MS * 2;
  return connection;
}

describe('keep-alive, timeout and reconnect (SPEC §9 live-connection constants)', () => {
  let env: Awaited<ReturnType<typeof startApp>>;
  const connections: HubConnection[] = [];
  const raws: RawHubClient[] = [];
  beforeAll(async () => {
    env = await startApp();
  });
  afterAll(() => env.t.close());
  afterEach(async () => {
    for (const c of connections.splice(0)) await c.stop();
    for (const r of raws.splice(0)) r.close();
  });

  it('SPEC §9: the server pings a connection it has sent nothing to for the keep-alive interval', async () => {
    const client = await RawHubClient.connect(env.baseUrl, env.token);
    raws.push(client);
    await settle(KEEP_ALIVE_MS * 4);
    const pings = client.messages.filter((m) => m.type === 6);
    expect(pings.length).toBeGreaterThanOrEqual(2);
    expect(client.closeCode).toBeUndefined();
  });

  it('SPEC §9: the server closes a client it heard nothing from for the timeout, with a Close message', async () => {
    const client = await RawHubClient.connect(env.baseUrl, env.token);
    raws.push(client);
    const started = Date.now();
    await client.closed;
    expect(Date.now() - started).toBeGreaterThanOrEqual(SERVER_TIMEOUT_MS - 100);
    expect(client.messages.at(-1)).toEqual({
      type: 7,
      error: 'Server timeout elapsed without receiving a message from the client.',
      allowReconnect: true,
    });
    expect(client.closeCode).toBe(1000);
  });

  it('a timed-out client that does not answer the closing handshake is cut soon, not after 30 s', async () => {
    const hub = env.t.app.paymentHub;
    // Earlier tests' connections are gone first (the server sees their close a moment later).
    await waitFor(async () => (hub.connections === 0 ? true : undefined));
    const client = await RawHubClient.connect(env.baseUrl, env.token);
    raws.push(client);
    expect(hub.connections).toBe(1);
    client.freeze();
    // Timeout, then a 2 s grace for the closing handshake.
    await waitFor(
      async () => (hub.connections === 0 ? true : undefined),
      SERVER_TIMEOUT_MS + 5_000,
    );
  });

  it('a client that pings stays connected past the timeout; so does the official client', async () => {
    const raw = await RawHubClient.connect(env.baseUrl, env.token);
    raws.push(raw);
    const pinger = setInterval(() => raw.sendMessages({ type: 6 }), KEEP_ALIVE_MS);
    const official = tunedClient(env.baseUrl, env.token);
    connections.push(official);
    await official.start();
    try {
      await settle(SERVER_TIMEOUT_MS * 2);
    } finally {
      clearInterval(pinger);
    }
    expect(raw.closeCode).toBeUndefined();
    expect(official.state).toBe(HubConnectionState.Connected);
  });

  it('SPEC §4 Payment flow: with reconnect delays 0, 2, 10, 30 s the official client comes back after the server drops the socket, and listening again works', async () => {
    const order = await placePendingOrder(env.t.app.db, userId('Jóannes'));
    const connection = tunedClient(env.baseUrl, env.token, [...HUB_RECONNECT_DELAYS_MS]);
    connections.push(connection);
    const updates = collectPaymentUpdates(connection);
    const states: string[] = [];
    connection.onreconnecting(() => states.push('reconnecting'));
    connection.onreconnected(() => states.push('reconnected'));
    await connection.start();
    const firstId = connection.connectionId;
    await connection.invoke('ListenToOrder', order.id);

    const before = env.sockets.length;
    env.sockets.at(-1)?.destroy();
    await waitFor(async () => (states.includes('reconnected') ? true : undefined));
    expect(states).toEqual(['reconnecting', 'reconnected']);
    expect(env.sockets.length).toBe(before + 1);
    expect(connection.connectionId).not.toBe(firstId);
    expect(connection.state).toBe(HubConnectionState.Connected);

    // A new connection listens to nothing: the client listens again (as the web app does).
    await connection.invoke('ListenToOrder', order.id);
    await changePayment(env.t.app.db, order, 'paid');
    expect((await waitForCount(updates, 1))[0]).toMatchObject({
      orderId: order.id,
      status: 'paid',
    });
  });
});

describe('shutdown', () => {
  it('on close the server sends Close with allowReconnect and code 1000; the official client starts reconnecting', async () => {
    const env = await startApp();
    let closedApp = false;
    try {
      const raw = await RawHubClient.connect(env.baseUrl, env.token);
      const official = tunedClient(env.baseUrl, env.token, [60_000]);
      const states: string[] = [];
      official.onreconnecting((error) => states.push(`reconnecting: ${String(error)}`));
      await official.start();

      await env.t.close();
      closedApp = true;
      await raw.closed;
      expect(raw.messages.at(-1)).toEqual({ type: 7, allowReconnect: true });
      expect(raw.closeCode).toBe(1000);
      await waitFor(async () => (states.length > 0 ? true : undefined));
      expect(official.state).toBe(HubConnectionState.Reconnecting);
      await official.stop();
    } finally {
      if (!closedApp) await env.t.close();
    }
  });
});

describe('access token expiry (ADR 0051)', () => {
  async function startClockedApp() {
    const clock = testClock(NOW.toISOString());
    const t = await createTestApp(
      {},
      { now: clock.now, hub: { keepAliveMs: KEEP_ALIVE_MS, serverTimeoutMs: SERVER_TIMEOUT_MS } },
    );
    await seedDemoData(t.app.db, NOW);
    const baseUrl = await listenLocally(t.app);
    const signInToken = async () => tokenOf(await signIn(t.app, 'Jóannes'));
    return { t, clock, baseUrl, signInToken, ttlS: t.config.accessTokenTtlS };
  }

  it('a connection lives as long as its access token: then Close with allowReconnect, and the official client comes back with the fresh token its factory gives', async () => {
    const env = await startClockedApp();
    try {
      const order = await placePendingOrder(env.t.app.db, userId('Jóannes'));
      let token = await env.signInToken();
      const given: string[] = [];
      const connection = tunedClient(
        env.baseUrl,
        () => {
          given.push(token);
          return token;
        },
        [0, 200, 200],
      );
      const states: string[] = [];
      connection.onreconnecting((error) => states.push(`reconnecting: ${error?.message}`));
      connection.onreconnected(() => states.push('reconnected'));
      const updates = collectPaymentUpdates(connection);
      await connection.start();
      const firstId = connection.connectionId;

      // Half-way through the token's life nothing happens; the app meanwhile holds a newer token.
      env.clock.advance(env.ttlS / 2);
      await settle();
      expect(states).toEqual([]);
      const first = token;
      token = await env.signInToken();
      expect(token).not.toBe(first);

      // The first token expires: the server ends the connection and the client reconnects.
      env.clock.advance(env.ttlS / 2 + 1);
      await waitFor(async () => (states.includes('reconnected') ? true : undefined));
      expect(states).toEqual([
        'reconnecting: Server returned an error on close: The access token has expired.',
        'reconnected',
      ]);
      expect(connection.connectionId).not.toBe(firstId);
      expect(given.at(-1)).toBe(token);
      await connection.invoke('ListenToOrder', order.id);
      await changePayment(env.t.app.db, order, 'paid');
      expect((await waitForCount(updates, 1))[0]).toMatchObject({ status: 'paid' });
      await connection.stop();
    } finally {
      await env.t.close();
    }
  });

  it('a client whose factory only has the expired token is refused on reconnect (negotiate 401) and ends disconnected', async () => {
    const env = await startClockedApp();
    try {
      const token = await env.signInToken();
      const connection = tunedClient(env.baseUrl, token, [0]);
      const closed = new Promise<Error | undefined>((resolve) => connection.onclose(resolve));
      await connection.start();
      env.clock.advance(env.ttlS + 1);
      await closed;
      expect(connection.state).toBe(HubConnectionState.Disconnected);
    } finally {
      await env.t.close();
    }
  });
});
