import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { luhnValid } from '@alda/contract/rules/iccid';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, createTestApps, testClock, usingPostgres, type TestApp } from './helper';
import { adapterOrders, type Tmf641Kind } from './support/tmf641-orders';
import { startTmf641Prism, type Tmf641Prism } from './support/tmf641-prism';
import { readAll } from './support/prism-router';
import { tmf641Problems } from './support/tmf641-schemas';

/*
 * issue 43 §1: "The simulator also answers as a TMF641 server under /tmf-api/serviceOrdering/v4/
 * in demo mode" (adapters/network/tmf641-demo). Orders are placed over HTTP with the bodies the
 * TMF641 adapter builds, the steps run on the test's clock (`app.tmf641Demo.tick()`), and a
 * listener in the test records the events. Every answer and event is checked against the
 * vendored TMF641 document's own schemas: the stand-in OSS speaks the standard too.
 */

const BASE = '/tmf-api/serviceOrdering/v4';
const TOKEN = 'demo-oss-token-0123456789';
const LISTENER_SECRET = 'listener-secret-0123456789abcdef';
const STEP_S = 2;

interface Received {
  path: string;
  authorization: string | undefined;
  body: {
    eventId: string;
    eventTime: string;
    eventType: string;
    fieldPath?: string;
    event: { serviceOrder: ServiceOrder };
  };
}

interface ServiceOrder {
  id: string;
  href: string;
  externalId?: string;
  state: string;
  errorMessage?: { code: string; reason: string; message?: string }[];
  serviceOrderItem: {
    id: string;
    state: string;
    errorMessage?: { code: string }[];
    service: { serviceCharacteristic: { name: string; value: unknown }[] };
  }[];
}

/**
 * The listener side in the test: records every event it takes in `received` and every attempt
 * in `attempts`; refuses (500) the next `fail(n)` attempts and those `refuse` picks.
 */
async function startListener() {
  const received: Received[] = [];
  const attempts: Received[] = [];
  let failNext = 0;
  let refuse: (body: Received['body']) => boolean = () => false;
  const server: Server = createServer((req, res) => {
    readAll(req).then(
      (raw) => {
        const event: Received = {
          path: req.url ?? '',
          authorization: (req.headers as IncomingHttpHeaders).authorization,
          body: JSON.parse(raw.toString('utf8')) as Received['body'],
        };
        attempts.push(event);
        if (failNext > 0 || refuse(event.body)) {
          failNext = Math.max(0, failNext - 1);
          res.writeHead(500).end();
          return;
        }
        received.push(event);
        res.writeHead(204).end();
      },
      () => res.writeHead(400).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/tmf-api/listener/serviceOrdering/v4`,
    received,
    attempts,
    fail(times: number) {
      failNext = times;
    },
    refuse(which: (body: Received['body']) => boolean) {
      refuse = which;
    },
    reset() {
      received.length = 0;
      attempts.length = 0;
      failNext = 0;
      refuse = () => false;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const auth = { authorization: `Bearer ${TOKEN}` };

function post(
  app: FastifyInstance,
  path: string,
  body: unknown,
  headers: Record<string, string> = auth,
) {
  return app.inject({ method: 'POST', url: BASE + path, payload: body as object, headers });
}
function get(app: FastifyInstance, path: string, headers: Record<string, string> = auth) {
  return app.inject({ method: 'GET', url: BASE + path, headers });
}

const characteristics = (order: ServiceOrder) =>
  Object.fromEntries(
    order.serviceOrderItem.flatMap((item) =>
      item.service.serviceCharacteristic.map((c) => [c.name, c.value]),
    ),
  );

describe('issue 43: the demo TMF641 server', () => {
  let t: TestApp;
  let listener: Awaited<ReturnType<typeof startListener>>;
  const clock = testClock('2030-03-01T10:00:00.000Z');
  const tick = () => t.app.tmf641Demo!.tick();
  const step = async () => {
    clock.advance(STEP_S);
    return tick();
  };
  let hubId: string;

  beforeAll(async () => {
    listener = await startListener();
    t = await createTestApp(
      {
        DEMO_MODE: 'true',
        USAGE_SIMULATOR_INTERVAL_S: '0',
        TMF641_TOKEN: TOKEN,
        TMF641_LISTENER_SECRET: LISTENER_SECRET,
        TMF641_DEMO_STEP_MS: String(STEP_S * 1000),
        PROVISIONING_STEP_S: '30',
        APP_URL: 'https://minsida.alda.test',
      },
      { now: clock.now },
    );
    const hub = await post(t.app, '/hub', {
      callback: listener.url,
      query: 'eventType=ServiceOrderStateChangeEvent,ServiceOrderAttributeValueChangeEvent',
    });
    expect(hub.statusCode, hub.body).toBe(201);
    expect(tmf641Problems('EventSubscription', hub.json())).toEqual([]);
    hubId = (hub.json() as { id: string }).id;
  });
  afterAll(async () => {
    await t?.close();
    await listener?.close();
  });
  beforeEach(async () => {
    // Whatever an earlier test left due runs out first, unheard.
    clock.advance(3600);
    await tick();
    listener.reset();
  });

  it('is mounted in demo mode only', async () => {
    const off = await createTestApp({ DEMO_MODE: 'false' });
    try {
      expect(off.app.tmf641Demo).toBeNull();
      const res = await post(off.app, '/serviceOrder', adapterOrders().prepareEsim);
      expect(res.statusCode).toBe(404);
    } finally {
      await off.close();
    }
  });

  it('registers a listener once per callback (201 EventSubscription) and forgets it on DELETE /hub/{id}', async () => {
    const again = await post(t.app, '/hub', {
      callback: listener.url,
      query: 'eventType=ServiceOrderStateChangeEvent,ServiceOrderAttributeValueChangeEvent',
    });
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual({
      id: hubId,
      callback: listener.url,
      query: 'eventType=ServiceOrderStateChangeEvent,ServiceOrderAttributeValueChangeEvent',
    });
    const other = await post(t.app, '/hub', { callback: `${listener.url}/other` });
    expect(other.statusCode).toBe(201);
    const otherId = (other.json() as { id: string }).id;
    expect(otherId).not.toBe(hubId);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `${BASE}/hub/${otherId}`,
      headers: auth,
    });
    expect(deleted.statusCode).toBe(204);
    const unknown = await t.app.inject({
      method: 'DELETE',
      url: `${BASE}/hub/${otherId}`,
      headers: auth,
    });
    expect(unknown.statusCode).toBe(404);
    expect(tmf641Problems('Error', unknown.json())).toEqual([]);
    // Orders made now send nothing to the removed listener.
    await post(t.app, '/serviceOrder', adapterOrders('214470').prepareEsim);
    await step();
    expect(listener.received.map((r) => r.path)).toEqual([
      '/tmf-api/listener/serviceOrdering/v4/listener/serviceOrderStateChangeEvent',
    ]);
  });

  it('takes the six kinds of order, acknowledges them, and completes them step by step with the simulator’s results, telling the listener each time', async () => {
    const orders = adapterOrders('214456');
    const placed: Record<string, ServiceOrder> = {};
    for (const [kind, body] of Object.entries(orders)) {
      const res = await post(t.app, '/serviceOrder', body);
      expect(res.statusCode, `${kind}: ${res.body}`).toBe(201);
      expect(res.headers['content-type']).toBe('application/json;charset=utf-8');
      const order = res.json() as ServiceOrder;
      expect(tmf641Problems('ServiceOrder', order), kind).toEqual([]);
      expect(order).toMatchObject({
        id: expect.any(String),
        href: `https://minsida.alda.test${BASE}/serviceOrder/${order.id}`,
        externalId: body.externalId,
        state: 'acknowledged',
        serviceOrderItem: [{ id: '1', state: 'acknowledged' }],
      });
      placed[kind] = order;
    }

    // Nothing moves before a step has passed.
    expect(await tick()).toEqual({ advanced: 0, sent: 0 });
    expect(listener.received).toEqual([]);

    await step();
    expect(listener.received).toHaveLength(6);
    for (const event of listener.received) {
      expect(event.path).toBe(
        '/tmf-api/listener/serviceOrdering/v4/listener/serviceOrderStateChangeEvent',
      );
      expect(event.authorization).toBe(`Bearer ${LISTENER_SECRET}`);
      expect(event.body).toMatchObject({
        eventType: 'ServiceOrderStateChangeEvent',
        eventTime: clock.now().toISOString(),
        event: {
          serviceOrder: { state: 'inProgress', serviceOrderItem: [{ state: 'inProgress' }] },
        },
      });
      expect(tmf641Problems('ServiceOrderStateChangeEvent', event.body)).toEqual([]);
    }
    const inProgress = await get(t.app, `/serviceOrder/${placed.issueSim!.id}`);
    expect(inProgress.json()).toMatchObject({ state: 'inProgress' });
    listener.received.length = 0;

    await step();
    const byKind = (kind: Tmf641Kind, type = 'ServiceOrderStateChangeEvent') =>
      listener.received.find(
        (r) => r.body.eventType === type && r.body.event.serviceOrder.id === placed[kind]!.id,
      );
    for (const kind of Object.keys(orders) as Tmf641Kind[]) {
      const event = byKind(kind);
      expect(event?.body.event.serviceOrder.state, kind).toBe('completed');
      expect(tmf641Problems('ServiceOrderStateChangeEvent', event?.body)).toEqual([]);
    }
    // The items' results, as the adapter reads them from serviceCharacteristic.
    const esim = characteristics(byKind('prepareEsim')!.body.event.serviceOrder);
    expect(esim).toMatchObject({
      msisdn: '298214456',
      smdpAddress: 'smdp.alda.fo',
      matchingId: expect.stringMatching(/^[A-Z0-9]{4}(-[A-Z0-9]{4}){3}$/),
    });
    const sim = characteristics(byKind('issueSim')!.body.event.serviceOrder);
    expect(sim).toMatchObject({
      iccid: expect.stringMatching(/^8929801\d{12}$/),
      pin: expect.stringMatching(/^\d{4}$/),
      puk: expect.stringMatching(/^\d{8}$/),
    });
    expect(luhnValid(sim.iccid as string)).toBe(true);
    const port = characteristics(byKind('requestPort')!.body.event.serviceOrder);
    // The simulator's port date: PROVISIONING_STEP_S after the order was carried out.
    expect(port.portDate).toBe(new Date(clock.now().getTime() + 30_000).toISOString());
    expect(characteristics(byKind('setDataBarred')!.body.event.serviceOrder)).toMatchObject({
      dataBarred: true,
    });
    // The bars are kept by the demo's network, which can be asked.
    expect(t.app.tmf641Demo!.network.isDataBarred('214456')).toBe(true);
    expect(t.app.tmf641Demo!.network.isRoamingDataBarred('214456')).toBe(true);

    // Results also come as an attribute value change; orders without results send none.
    const changes = listener.received.filter(
      (r) => r.body.eventType === 'ServiceOrderAttributeValueChangeEvent',
    );
    expect(changes.map((r) => r.body.event.serviceOrder.id).sort()).toEqual(
      [placed.prepareEsim!.id, placed.issueSim!.id, placed.requestPort!.id].sort(),
    );
    for (const change of changes) {
      expect(change.path).toBe(
        '/tmf-api/listener/serviceOrdering/v4/listener/serviceOrderAttributeValueChangeEvent',
      );
      expect(change.body.fieldPath).toBe('serviceOrderItem.service.serviceCharacteristic');
      expect(tmf641Problems('ServiceOrderAttributeValueChangeEvent', change.body)).toEqual([]);
    }
    expect(listener.received).toHaveLength(9);

    // Polling shows the same truth, and nothing moves any more.
    const polled = await get(t.app, `/serviceOrder/${placed.issueSim!.id}`);
    expect(polled.statusCode).toBe(200);
    expect(tmf641Problems('ServiceOrder', polled.json())).toEqual([]);
    expect(polled.json()).toMatchObject({
      state: 'completed',
      completionDate: clock.now().toISOString(),
    });
    expect(characteristics(polled.json() as ServiceOrder)).toEqual(sim);
    expect((await step()).advanced).toBe(0);
  });

  it('fails a port whose donor SIM card number ends in 0000 with PORT_SIMCARD_MISMATCH', async () => {
    const body = adapterOrders('214458', { donorIccid: '8929802123456780000' }).requestPort;
    const placed = (await post(t.app, '/serviceOrder', body)).json() as ServiceOrder;
    await step();
    await step();
    const states = listener.received
      .filter((r) => r.body.event.serviceOrder.id === placed.id)
      .map((r) => [r.body.eventType, r.body.event.serviceOrder.state]);
    expect(states).toEqual([
      ['ServiceOrderStateChangeEvent', 'inProgress'],
      ['ServiceOrderStateChangeEvent', 'failed'],
    ]);
    const failed = listener.received.at(-1)!.body;
    expect(tmf641Problems('ServiceOrderStateChangeEvent', failed)).toEqual([]);
    expect(failed.event.serviceOrder.errorMessage).toEqual([
      expect.objectContaining({ code: 'PORT_SIMCARD_MISMATCH', reason: expect.any(String) }),
    ]);
    expect(failed.event.serviceOrder.serviceOrderItem[0]).toMatchObject({
      state: 'failed',
      errorMessage: [expect.objectContaining({ code: 'PORT_SIMCARD_MISMATCH' })],
    });
    const polled = await get(t.app, `/serviceOrder/${placed.id}`);
    expect(polled.json()).toMatchObject({
      state: 'failed',
      errorMessage: [{ code: 'PORT_SIMCARD_MISMATCH' }],
    });
  });

  it('answers the same externalId with the order there is, never a second one (409 if its items differ)', async () => {
    const body = adapterOrders('214459').issueSim;
    // The document's own media type, as a TMF client may send it.
    const first = await t.app.inject({
      method: 'POST',
      url: `${BASE}/serviceOrder`,
      headers: { ...auth, 'content-type': 'application/json;charset=utf-8' },
      payload: JSON.stringify(body),
    });
    const again = await post(t.app, '/serviceOrder', body);
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect((again.json() as ServiceOrder).id).toBe((first.json() as ServiceOrder).id);
    // Also once it has completed and carries its results.
    await step();
    await step();
    const afterwards = await post(t.app, '/serviceOrder', body);
    expect(afterwards.json()).toMatchObject({
      id: (first.json() as ServiceOrder).id,
      state: 'completed',
    });

    const found = await get(
      t.app,
      `/serviceOrder?externalId=${encodeURIComponent(body.externalId)}`,
    );
    expect(found.statusCode).toBe(200);
    expect(found.headers['x-total-count']).toBe('1');
    expect((found.json() as ServiceOrder[]).map((o) => o.id)).toEqual([
      (first.json() as ServiceOrder).id,
    ]);
    for (const order of found.json() as unknown[])
      expect(tmf641Problems('ServiceOrder', order)).toEqual([]);

    const otherNumber = adapterOrders('214460').issueSim;
    const conflict = await post(t.app, '/serviceOrder', {
      ...otherNumber,
      externalId: body.externalId,
    });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json()).toMatchObject({ code: 'EXTERNAL_ID_CONFLICT', status: '409' });
    expect(tmf641Problems('Error', conflict.json())).toEqual([]);
  });

  it('refuses what TMF641 or its catalogue does not allow with 400 and a TMF Error, and stores nothing', async () => {
    const before = (await get(t.app, '/serviceOrder?limit=1')).headers['x-total-count'];
    const valid = adapterOrders('214461').prepareEsim;
    const item = valid.serviceOrderItem[0];
    const { action: _action, ...noAction } = item;
    const { id: _id, ...noId } = item;
    const cases: [unknown, string, RegExp][] = [
      [{ externalId: 'x' }, 'INVALID_SERVICE_ORDER', /^serviceOrderItem is required/],
      [
        { ...valid, serviceOrderItem: [] },
        'INVALID_SERVICE_ORDER',
        /serviceOrderItem needs at least one/,
      ],
      [
        { ...valid, serviceOrderItem: [noAction] },
        'INVALID_SERVICE_ORDER',
        /serviceOrderItem\.0\.action is required/,
      ],
      [
        { ...valid, serviceOrderItem: [noId] },
        'INVALID_SERVICE_ORDER',
        /serviceOrderItem\.0\.id is required/,
      ],
      [
        { ...valid, serviceOrderItem: [{ ...item, action: 'activate' }] },
        'INVALID_SERVICE_ORDER',
        /action must be one of add, modify, delete, noChange/,
      ],
      [
        { ...valid, serviceOrderItem: [{ ...item, action: 'delete' }] },
        'UNSUPPORTED_ACTION',
        /delete is not supported/,
      ],
      [
        {
          ...valid,
          serviceOrderItem: [{ ...item, service: { serviceSpecification: { id: 'fibre' } } }],
        },
        'UNKNOWN_SERVICE_SPECIFICATION',
        /fibre is not in the catalogue/,
      ],
      [
        {
          ...valid,
          serviceOrderItem: [
            {
              ...item,
              service: {
                ...item.service,
                serviceCharacteristic: [{ name: 'msisdn', value: '12' }],
              },
            },
          ],
        },
        'INVALID_CHARACTERISTIC',
        /msisdn must be the number/,
      ],
      [
        {
          ...valid,
          serviceOrderItem: [
            { ...item, service: { ...item.service, serviceCharacteristic: [{ name: 'msisdn' }] } },
          ],
        },
        'INVALID_SERVICE_ORDER',
        /serviceCharacteristic\.0\.value is required/,
      ],
      [[valid], 'INVALID_SERVICE_ORDER', /^body /],
    ];
    for (const [body, code, reason] of cases) {
      const res = await post(t.app, '/serviceOrder', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({
        code,
        reason: expect.stringMatching(reason),
        status: '400',
      });
      expect(tmf641Problems('Error', res.json())).toEqual([]);
    }
    const notJson = await t.app.inject({
      method: 'POST',
      url: `${BASE}/serviceOrder`,
      headers: { ...auth, 'content-type': 'application/json' },
      payload: '{"serviceOrderItem": [',
    });
    expect(notJson.statusCode).toBe(400);
    expect(tmf641Problems('Error', notJson.json())).toEqual([]);
    const noCallback = await post(t.app, '/hub', {
      query: 'eventType=ServiceOrderStateChangeEvent',
    });
    expect(noCallback.statusCode).toBe(400);
    expect(noCallback.json()).toMatchObject({
      code: 'INVALID_EVENT_SUBSCRIPTION',
      reason: 'callback is required',
    });
    expect((await get(t.app, '/serviceOrder?limit=1')).headers['x-total-count']).toBe(before);
  });

  it('answers an unknown order or path with 404 and a TMF Error', async () => {
    const unknown = await get(t.app, '/serviceOrder/6a0d2d4c-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'NOT_FOUND', status: '404' });
    expect(tmf641Problems('Error', unknown.json())).toEqual([]);
    const noPath = await get(t.app, '/productOrder');
    expect(noPath.statusCode).toBe(404);
    expect(tmf641Problems('Error', noPath.json())).toEqual([]);
  });

  it('asks for the bearer token TMF641_TOKEN (401 TMF Error without it or with another)', async () => {
    const refused: Record<string, string>[] = [
      {},
      { authorization: 'Bearer wrong-token' },
      { authorization: TOKEN },
    ];
    for (const headers of refused) {
      const res = await post(t.app, '/serviceOrder', adapterOrders('214462').issueSim, headers);
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer /);
      expect(res.json()).toMatchObject({ code: 'UNAUTHORIZED', status: '401' });
      expect(tmf641Problems('Error', res.json())).toEqual([]);
    }
    const read = await get(t.app, '/serviceOrder', {});
    expect(read.statusCode).toBe(401);
  });

  it('retries an event the listener refused, without holding the order or the later events up', async () => {
    const placed = (
      await post(t.app, '/serviceOrder', adapterOrders('214463').prepareEsim)
    ).json() as ServiceOrder;
    const seen = () =>
      listener.received.map((r) => [r.body.eventType, r.body.event.serviceOrder.state]);
    listener.fail(1);
    await step(); // inProgress: its event is refused, to be tried again in 1 s
    expect(listener.attempts).toHaveLength(1);
    expect(listener.received).toEqual([]);
    listener.fail(1);
    await step(); // completed: the order went on; the inProgress event is refused again (2 s)
    expect((await get(t.app, `/serviceOrder/${placed.id}`)).json()).toMatchObject({
      state: 'completed',
    });
    expect(seen()).toEqual([
      ['ServiceOrderStateChangeEvent', 'completed'],
      ['ServiceOrderAttributeValueChangeEvent', 'completed'],
    ]);
    clock.advance(1);
    await tick(); // not due yet
    expect(listener.received).toHaveLength(2);
    clock.advance(1);
    await tick();
    // Late and out of order, as events may come; the listener keeps the newest by eventTime.
    expect(seen().at(-1)).toEqual(['ServiceOrderStateChangeEvent', 'inProgress']);
    expect(listener.attempts).toHaveLength(5);
  });

  it('gives an event up after five refused attempts; the later events still arrive', async () => {
    const placed = (
      await post(t.app, '/serviceOrder', adapterOrders('214464').issueSim)
    ).json() as ServiceOrder;
    listener.refuse((body) => body.event.serviceOrder.state === 'inProgress');
    await step();
    for (const seconds of [1, 2, 4, 8, 16, 32, 3600]) {
      clock.advance(seconds);
      await tick();
    }
    const tries = (state: string) =>
      listener.attempts.filter(
        (r) =>
          r.body.event.serviceOrder.id === placed.id && r.body.event.serviceOrder.state === state,
      ).length;
    expect(tries('inProgress')).toBe(5);
    expect(
      listener.received.map((r) => [r.body.eventType, r.body.event.serviceOrder.state]),
    ).toEqual([
      ['ServiceOrderStateChangeEvent', 'completed'],
      ['ServiceOrderAttributeValueChangeEvent', 'completed'],
    ]);
  });

  it('sends a listener only the event types its query asks for', async () => {
    const stateOnly = await startListener();
    try {
      const hub = await post(t.app, '/hub', {
        callback: stateOnly.url,
        query: 'eventType=ServiceOrderStateChangeEvent',
      });
      const placed = (
        await post(t.app, '/serviceOrder', adapterOrders('214465').issueSim)
      ).json() as ServiceOrder;
      await step();
      await step();
      expect(
        stateOnly.received.map((r) => [r.body.eventType, r.body.event.serviceOrder.state]),
      ).toEqual([
        ['ServiceOrderStateChangeEvent', 'inProgress'],
        ['ServiceOrderStateChangeEvent', 'completed'],
      ]);
      expect(
        listener.received
          .filter((r) => r.body.event.serviceOrder.id === placed.id)
          .map((r) => r.body.eventType),
      ).toContain('ServiceOrderAttributeValueChangeEvent');
      await t.app.inject({
        method: 'DELETE',
        url: `${BASE}/hub/${(hub.json() as { id: string }).id}`,
        headers: auth,
      });
    } finally {
      await stateOnly.close();
    }
  });
});

describe.runIf(usingPostgres)(
  'issue 43: the demo TMF641 server on several instances (PostgreSQL)',
  () => {
    it('keeps orders and listeners in the database: one instance takes the order, another carries it out and tells the listener, both answer the truth', async () => {
      const listener = await startListener();
      const clock = testClock('2030-03-01T10:00:00.000Z');
      const { apps, close } = await createTestApps(
        2,
        { DEMO_MODE: 'true', USAGE_SIMULATOR_INTERVAL_S: '0', TMF641_DEMO_STEP_MS: '2000' },
        { now: clock.now },
      );
      try {
        const [a, b] = apps as [FastifyInstance, FastifyInstance];
        // Only the test moves the orders here: the instances' own rounds are stopped.
        for (const app of apps) {
          await app.ready();
          await app.tmf641Demo!.stop();
        }
        expect((await post(b, '/hub', { callback: listener.url }, {})).statusCode).toBe(201);
        const body = adapterOrders('214467').issueSim;
        const placed = (await post(a, '/serviceOrder', body, {})).json() as ServiceOrder;
        expect(((await post(b, '/serviceOrder', body, {})).json() as ServiceOrder).id).toBe(
          placed.id,
        );
        for (let i = 0; i < 2; i += 1) {
          clock.advance(2);
          await b.tmf641Demo!.tick();
        }
        expect((await get(a, `/serviceOrder/${placed.id}`, {})).json()).toMatchObject({
          state: 'completed',
        });
        expect(
          listener.received.map((r) => [r.body.eventType, r.body.event.serviceOrder.state]),
        ).toEqual([
          ['ServiceOrderStateChangeEvent', 'inProgress'],
          ['ServiceOrderStateChangeEvent', 'completed'],
          ['ServiceOrderAttributeValueChangeEvent', 'completed'],
        ]);
        expect((await a.tmf641Demo!.tick()).sent).toBe(0);
      } finally {
        await close();
        await listener.close();
      }
    });
  },
);

describe('issue 43 §5: the demo TMF641 server under Prism (proxy): requests and answers against the document', () => {
  let t: TestApp;
  let prism: Tmf641Prism;
  const clock = testClock('2030-03-01T10:00:00.000Z');

  beforeAll(async () => {
    t = await createTestApp(
      { DEMO_MODE: 'true', USAGE_SIMULATOR_INTERVAL_S: '0', TMF641_DEMO_STEP_MS: '2000' },
      { now: clock.now },
    );
    // The demo's own database is made on first use: before Prism times anything.
    expect((await t.app.inject({ method: 'GET', url: `${BASE}/serviceOrder` })).statusCode).toBe(
      200,
    );
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    prism = await startTmf641Prism({ upstream: `http://127.0.0.1:${port}${BASE}` });
  });
  afterAll(async () => {
    await prism?.close();
    await t?.close();
  });
  afterEach(() => prism.reset());

  async function send(method: string, path: string, body?: unknown) {
    const res = await fetch(prism.url + path, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
  }

  it('passes every request of the six kinds, the reads and the hub, and every answer of the demo, through to completion', async () => {
    const hub = await send('POST', '/hub', {
      callback: 'http://127.0.0.1:9/tmf-api/listener/serviceOrdering/v4',
    });
    expect(hub.status).toBe(201);
    const ids: string[] = [];
    for (const body of Object.values(adapterOrders('214466'))) {
      const res = await send('POST', '/serviceOrder', body);
      expect(res.status).toBe(201);
      ids.push((res.body as ServiceOrder).id);
    }
    for (let i = 0; i < 2; i += 1) {
      clock.advance(2);
      await t.app.tmf641Demo!.tick();
    }
    for (const id of ids) {
      const res = await send('GET', `/serviceOrder/${id}`);
      expect(res.body).toMatchObject({ id, state: 'completed' });
    }
    const byKey = await send(
      'GET',
      `/serviceOrder?externalId=${encodeURIComponent(adapterOrders('214466').issueSim.externalId)}`,
    );
    expect(byKey.status).toBe(200);
    const unknown = await send('GET', '/serviceOrder/no-such-order');
    expect(unknown.status).toBe(404);
    expect((await send('DELETE', `/hub/${(hub.body as { id: string }).id}`)).status).toBe(204);
    expect(prism.violations).toEqual([]);
    expect(prism.responseViolations).toEqual([]);
  });

  it('lets Prism record what the document refuses, even when the demo answers it', async () => {
    const res = await send('POST', '/serviceOrder', { externalId: 'alda:no-items' });
    expect(res.status).toBe(400);
    expect(prism.violations.map((v) => [v.location.join('.'), v.code])).toEqual([
      ['request.body', 'required'],
    ]);
  });
});
