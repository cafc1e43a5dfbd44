import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_HUB_PATH } from '@alda/contract/schemas/orders';
import { seedDemoData } from '../src/seed/seed';
import { NOW, signIn } from './demo-accounts';
import { createTestApp, LogCapture, type TestApp } from './helper';
import {
  changePayment,
  listenLocally,
  negotiate,
  placePendingOrder,
  RawHubClient,
  RS,
  settle,
  tokenOf,
  userId,
} from './hub-helper';

/*
 * The payment hub byte by byte with a raw `ws` client (dotnet/aspnetcore
 * src/SignalR/docs/specs/HubProtocol.md and TransportProtocols.md): negotiate, the upgrade and
 * its refusals, the handshake, 0x1E framing, invocations with and without completions.
 */

let t: TestApp;
let baseUrl: string;
let wsUrl: string;
let joannes: string;
let sunneva: string;
const logs = new LogCapture();
const clients: RawHubClient[] = [];

beforeAll(async () => {
  t = await createTestApp(
    { LOG_LEVEL: 'info' },
    {
      now: () => NOW,
      logStream: logs,
      hub: {
        connectionTokenTtlMs: 1_000,
        maxMessageBytes: 4_096,
        maxOrdersPerConnection: 3,
        maxConnectionsPerUser: 6,
      },
    },
  );
  await seedDemoData(t.app.db, NOW);
  joannes = tokenOf(await signIn(t.app, 'Jóannes'));
  sunneva = tokenOf(await signIn(t.app, 'Sunneva'));
  baseUrl = await listenLocally(t.app);
  wsUrl = `${baseUrl.replace(/^http/, 'ws')}${PAYMENT_HUB_PATH}`;
});
afterAll(() => t.close());
afterEach(() => {
  for (const client of clients.splice(0)) client.close();
});

async function connect(
  accessToken = joannes,
  options: Parameters<typeof RawHubClient.connect>[2] = {},
) {
  const client = await RawHubClient.connect(baseUrl, accessToken, options);
  clients.push(client);
  return client;
}

function upgrade(query: Record<string, string>, headers: Record<string, string> = {}) {
  const url = new URL(wsUrl);
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  const client = new RawHubClient(url.toString(), headers);
  clients.push(client);
  return client;
}

describe('negotiate and upgrade (TransportProtocols.md)', () => {
  it('negotiate v1 offers only WebSockets with Text, a connection id and a separate token', async () => {
    const { status, body } = await negotiate(baseUrl, joannes);
    expect(status).toBe(200);
    expect(body).toEqual({
      negotiateVersion: 1,
      connectionId: expect.any(String),
      connectionToken: expect.any(String),
      availableTransports: [{ transport: 'WebSockets', transferFormats: ['Text'] }],
    });
    expect(body.connectionToken).not.toBe(body.connectionId);
    // The official client puts the token into the URL unencoded.
    expect(String(body.connectionToken)).toMatch(/^[A-Za-z0-9._-]+$/);
  });

  it('accepts the access token in the query (browsers) as well as in the Authorization header', async () => {
    const viaQuery = await connect(joannes, { via: 'query' });
    const viaHeader = await connect(joannes, { via: 'header' });
    expect(viaQuery.messages).toEqual([{}]);
    expect(viaHeader.messages).toEqual([{}]);
  });

  it('refuses the upgrade before it happens: no or a bad access token 401, an unknown id 404', async () => {
    const { body } = await negotiate(baseUrl, joannes);
    const token = String(body.connectionToken);

    const noToken = upgrade({ id: token });
    const badToken = upgrade({ id: token, access_token: 'nope' });
    const unknownId = upgrade({ id: 'made-up' }, { authorization: `Bearer ${joannes}` });
    const noId = upgrade({}, { authorization: `Bearer ${joannes}` });
    await Promise.all([noToken.closed, badToken.closed, unknownId.closed, noId.closed]);
    expect(noToken.refusedWith).toBe(401);
    expect(badToken.refusedWith).toBe(401);
    expect(unknownId.refusedWith).toBe(404);
    expect(noId.refusedWith).toBe(404);
  });

  it('a connection token is single-use, expires, and belongs to the user it was issued to', async () => {
    const first = String((await negotiate(baseUrl, joannes)).body.connectionToken);
    const used = upgrade({ id: first, access_token: joannes });
    await used.opened;
    const again = upgrade({ id: first, access_token: joannes });
    await again.closed;
    expect(again.refusedWith).toBe(404);

    const someoneElses = String((await negotiate(baseUrl, joannes)).body.connectionToken);
    const stolen = upgrade({ id: someoneElses, access_token: sunneva });
    await stolen.closed;
    expect(stolen.refusedWith).toBe(404);

    const late = String((await negotiate(baseUrl, joannes)).body.connectionToken);
    await settle(1_100); // connectionTokenTtlMs is 1 s in this file
    const expired = upgrade({ id: late, access_token: joannes });
    await expired.closed;
    expect(expired.refusedWith).toBe(404);
  });

  it('refuses a customer more than maxConnectionsPerUser open connections (429), before spending the token', async () => {
    const six = await Promise.all(Array.from({ length: 6 }, () => connect(sunneva)));
    const token = String((await negotiate(baseUrl, sunneva)).body.connectionToken);
    const seventh = upgrade({ id: token, access_token: sunneva });
    await seventh.closed;
    expect(seventh.refusedWith).toBe(429);
    // Jóannes is not affected by Sunneva's connections.
    await connect(joannes);

    six[0]?.close();
    await six[0]?.closed;
    await settle(100);
    const again = upgrade({ id: token, access_token: sunneva });
    await again.opened;
  });

  it('writes one log line per connect and disconnect, without the access token', async () => {
    const client = await connect();
    client.close();
    await client.closed;
    await settle(100);
    const hubLines = logs.lines.filter((l) => String(l.msg).startsWith('hub '));
    expect(hubLines.some((l) => l.msg === 'hub connected')).toBe(true);
    expect(hubLines.some((l) => l.msg === 'hub disconnected')).toBe(true);
    const all = JSON.stringify(logs.lines);
    expect(all).not.toContain(joannes);
    // The upgrade itself is not a Fastify request: no request log line for the hub path.
    expect(
      logs.lines.some((l) =>
        String((l.req as { url?: string })?.url).startsWith(`${PAYMENT_HUB_PATH}?`),
      ),
    ).toBe(false);
  });
});

describe('negotiate from the native shell (cross-origin, CORS_ORIGINS)', () => {
  let shell: TestApp;
  beforeAll(async () => {
    shell = await createTestApp({ CORS_ORIGINS: 'capacitor://localhost' });
  });
  afterAll(() => shell.close());

  it("the preflight allows the official client's negotiate headers", async () => {
    const res = await shell.app.inject({
      method: 'OPTIONS',
      url: `${PAYMENT_HUB_PATH}/negotiate?negotiateVersion=1`,
      headers: {
        origin: 'capacitor://localhost',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,x-requested-with,x-signalr-user-agent',
      },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('capacitor://localhost');
    const allowed = String(res.headers['access-control-allow-headers'])
      .split(',')
      .map((h) => h.trim());
    expect(allowed).toEqual(
      expect.arrayContaining(['authorization', 'x-requested-with', 'x-signalr-user-agent']),
    );
  });
});

describe('handshake and framing (HubProtocol.md)', () => {
  it('answers the JSON handshake with {} and an unknown protocol with an error, then closes', async () => {
    const ok = await connect(joannes, { handshake: false });
    ok.send(`{"protocol":"json","version":1}${RS}`);
    await ok.waitForMessage(() => true);
    expect(ok.raw[0]).toBe(`{}${RS}`);

    const bad = await connect(joannes, { handshake: false });
    bad.send(`{"protocol":"messagepack","version":1}${RS}`);
    await bad.closed;
    expect(bad.messages).toEqual([{ error: "The protocol 'messagepack' is not supported." }]);
    expect(bad.closeCode).toBe(1000);
  });

  it('handles two messages in one frame, and the handshake together with the first invocation', async () => {
    const order = await placePendingOrder(t.app.db, userId('Jóannes'));
    const client = await connect(joannes, { handshake: false });
    client.send(
      `{"protocol":"json","version":1}${RS}` +
        JSON.stringify({
          type: 1,
          invocationId: '1',
          target: 'ListenToOrder',
          arguments: [order.id],
        }) +
        RS,
    );
    await client.waitForMessage((m) => m.invocationId === '1');
    client.sendMessages(
      { type: 1, invocationId: '2', target: 'StopListeningToOrder', arguments: [order.id] },
      { type: 1, invocationId: '3', target: 'ListenToOrder', arguments: [order.id] },
    );
    await client.waitForMessage((m) => m.invocationId === '3');
    expect(client.messages).toEqual([
      {},
      { type: 3, invocationId: '1' },
      { type: 3, invocationId: '2' },
      { type: 3, invocationId: '3' },
    ]);
  });

  it('joins a message split across frames', async () => {
    const order = await placePendingOrder(t.app.db, userId('Jóannes'));
    const client = await connect();
    const text = JSON.stringify({
      type: 1,
      invocationId: '7',
      target: 'ListenToOrder',
      arguments: [order.id],
    });
    client.send(text.slice(0, 20));
    await settle(50);
    client.send(text.slice(20) + RS);
    await client.waitForMessage((m) => m.invocationId === '7');
    expect(client.messages.at(-1)).toEqual({ type: 3, invocationId: '7' });
  });

  it('a non-blocking invocation (no invocationId) gets no completion but takes effect', async () => {
    const order = await placePendingOrder(t.app.db, userId('Jóannes'));
    const client = await connect();
    client.sendMessages({ type: 1, target: 'ListenToOrder', arguments: [order.id] });
    await settle(100);
    await changePayment(t.app.db, order, 'paid');
    const event = await client.waitForMessage((m) => m.target === 'PaymentUpdated');
    expect(event).toMatchObject({
      type: 1,
      target: 'PaymentUpdated',
      arguments: [{ orderId: order.id, status: 'paid' }],
    });
    expect(event).not.toHaveProperty('invocationId');
    expect(client.messages.filter((m) => m.type === 3)).toEqual([]);
  });

  it('answers wrong argument counts, streaming and unknown methods with completion errors', async () => {
    const client = await connect();
    client.sendMessages(
      { type: 1, invocationId: 'a', target: 'ListenToOrder', arguments: [] },
      { type: 4, invocationId: 'b', target: 'ListenToOrder', arguments: ['x'] },
      { type: 1, invocationId: 'c', target: 'Nope', arguments: [] },
    );
    await client.waitForMessage((m) => m.invocationId === 'c');
    const byId = Object.fromEntries(
      client.messages.filter((m) => m.type === 3).map((m) => [m.invocationId, m.error]),
    );
    expect(byId.a).toMatch(/takes 1 argument/);
    expect(byId.b).toBe('Streaming is not supported.');
    expect(byId.c).toBe("Unknown hub method 'Nope'");
  });

  it('closes with a Close message carrying the error on a message that is not JSON', async () => {
    const client = await connect();
    client.send(`{not json${RS}`);
    await client.closed;
    expect(client.messages.at(-1)).toMatchObject({
      type: 7,
      error: expect.stringContaining('not valid JSON'),
    });
    expect(client.closeCode).toBe(1000);
  });

  it('cuts a client that sends more than the message size limit', async () => {
    const client = await connect();
    client.send('x'.repeat(5_000)); // maxMessageBytes is 4 kB in this file
    await client.closed;
    expect(client.closeCode).toBe(1009);
  });

  it('limits how many orders one connection listens to; stopping one makes room', async () => {
    const own = [];
    for (let i = 0; i < 4; i += 1) own.push(await placePendingOrder(t.app.db, userId('Jóannes')));
    const client = await connect();
    client.sendMessages(
      ...own.map((order, i) => ({
        type: 1,
        invocationId: `l${i}`,
        target: 'ListenToOrder',
        arguments: [order.id],
      })),
      { type: 1, invocationId: 's0', target: 'StopListeningToOrder', arguments: [own[0]?.id] },
      { type: 1, invocationId: 'l3again', target: 'ListenToOrder', arguments: [own[3]?.id] },
    );
    await client.waitForMessage((m) => m.invocationId === 'l3again');
    const completions = client.messages.filter((m) => m.type === 3);
    expect(completions).toEqual([
      { type: 3, invocationId: 'l0' },
      { type: 3, invocationId: 'l1' },
      { type: 3, invocationId: 'l2' },
      { type: 3, invocationId: 'l3', error: 'Listening to too many orders.' },
      { type: 3, invocationId: 's0' },
      { type: 3, invocationId: 'l3again' },
    ]);
  });

  it("ignores a client's Ping and ends the connection on the client's Close", async () => {
    const client = await connect();
    client.sendMessages({ type: 6 });
    await settle(100);
    expect(client.messages).toEqual([{}]);
    client.sendMessages({ type: 7 });
    await client.closed;
    expect(client.closeCode).toBe(1000);
  });
});
