import { createHash, createHmac, randomUUID } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope, errorEnvelope } from '@alda/contract/envelope';
import { orderPlacedResponse, orderResponse } from '@alda/contract/schemas/orders';
import { staffOrderDetail, staffOrdersPage } from '@alda/contract/schemas/staff-orders';
import { createNetwork } from '../src/adapters/network/create-network';
import { barringKey, NetworkPendingError } from '../src/adapters/network/network';
import { registerHub } from '../src/adapters/network/tmf641/hub';
import { createTmf641Client, Tmf641HttpError } from '../src/adapters/network/tmf641/client';
import { lineBalances } from '../src/db/schema/balances';
import { notifications } from '../src/db/schema/data-transfers';
import {
  networkHubSubscriptions,
  networkServiceOrders,
  type NetworkServiceOrderRow,
} from '../src/db/schema/network-service-orders';
import { orders } from '../src/db/schema/orders';
import { phoneLines } from '../src/db/schema/phone-lines';
import { operatorActions, provisioningSteps } from '../src/db/schema/provisioning';
import { loadConfig } from '../src/config';
import { runOperator } from '../src/operator';
import { DEMO_PASSWORD } from '../src/seed/demo-users';
import { seedDemoData } from '../src/seed/seed';
import { LINES, NOW, signIn, type DemoName } from './demo-accounts';
import { createTestApp, LogCapture, parse, testClock, usingPostgres, type TestApp } from './helper';
import { iccidEndingIn, placeSignup, type signupBody } from './provisioning-fixtures';
import { signInStaff } from './staff-helper';
import { startTmf641Prism, type Tmf641Prism } from './support/tmf641-prism';
import { tmf641Problems } from './support/tmf641-schemas';

/*
 * Issue 43 item 1: the network adapter on TM Forum TMF641 Service Ordering v4
 * (docs/decisions/0082-network-tmf641.md), through the real app on a real database, with
 * Stoplight Prism serving TM Forum's own TMF641 document as the OSS (test/support/tmf641-prism.ts).
 * Every request the adapter sends must pass Prism's request validation. Prism answers with the
 * document's static example (every order is `"string"`, always `acknowledged`), so the OSS's
 * progress is played here by posting its events to our listener, as an OSS does: bodies of the
 * document's event schemas, posted with no header of ours to the callback the hub was given
 * (issue 61 §4).
 */

const SECRET = 'tmf641-listener-secret-for-tests-0123456789';
const TOKEN = 'oss-token-for-tests';
const STEP_S = 30;
const POLL_S = 120;
const WAIT_S = 2;
const CONFIRM_S = 259_200;
const placed = dataEnvelope(orderPlacedResponse);
const one = dataEnvelope(orderResponse);

type Auth = { authorization: string };

describe(`issue 43: the network on TMF641 Service Ordering v4 (${usingPostgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  let prism: Tmf641Prism;
  let t: TestApp;
  const clock = testClock(NOW.toISOString());
  const logs = new LogCapture();
  let numberSeq = 0;
  /** A number no one has: 2196xx, one per call. */
  const freshNumber = () => `2196${String((numberSeq += 1)).padStart(2, '0')}`;

  beforeAll(async () => {
    prism = await startTmf641Prism();
    t = await createTestApp(
      {
        NETWORK_ADAPTER: 'tmf641',
        TMF641_URL: prism.url,
        TMF641_TOKEN: TOKEN,
        TMF641_LISTENER_SECRET: SECRET,
        TMF641_POLL_S: String(POLL_S),
        TMF641_WAIT_S: String(WAIT_S),
        TMF641_BAR_POLL_S: '1',
        PROVISIONING_STEP_S: String(STEP_S),
        ACCESS_TOKEN_TTL_S: '86400',
        RATE_LIMIT_MAX: '0',
        LOG_LEVEL: 'info',
      },
      { now: clock.now, logStream: logs },
    );
    await seedDemoData(t.app.db, clock.now());
    // The demo's own orders in provisioning are left out of these rounds: each test counts what
    // the worker did with its own order.
    await t.app.db.update(orders).set({ provisioningNextAt: null });
    // The start registers our listener with the hub (in the background).
    await t.app.ready();
    await t.app.background.idle();
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await prism?.close();
  });

  const run = () => t.app.provisioning.runDue();
  /** A demo customer signed in now (the tests' clock moves by days: tokens of before expire). */
  const as = (name: DemoName) => signIn(t.app, name);
  const logged = (msg: string) => logs.lines.filter((line) => line.msg === msg);

  /** The adapter's rows, oldest first: of an order, or all. */
  const serviceOrders = async (orderId?: string): Promise<NetworkServiceOrderRow[]> =>
    (
      await t.app.db
        .select()
        .from(networkServiceOrders)
        .where(orderId ? eq(networkServiceOrders.orderId, orderId) : undefined)
    ).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
  const rowOf = async (key: string) => {
    const [row] = await t.app.db
      .select()
      .from(networkServiceOrders)
      .where(eq(networkServiceOrders.externalId, key));
    if (!row) throw new Error(`no service order ${key}`);
    return row;
  };
  /** The POSTs of service orders Prism received, by our key. */
  const posted = (key?: string) =>
    prism.requests.filter(
      (r) =>
        r.method === 'POST' &&
        r.path.endsWith('/serviceOrder') &&
        (key === undefined || (r.body as { externalId?: string }).externalId === key),
    );
  const orderRow = async (id: string) => {
    const [row] = await t.app.db.select().from(orders).where(eq(orders.id, id));
    if (!row) throw new Error(`no order ${id}`);
    return row;
  };
  const stepsOf = async (orderId: string) =>
    (
      await t.app.db
        .select()
        .from(provisioningSteps)
        .where(eq(provisioningSteps.orderId, orderId))
        .orderBy(provisioningSteps.at)
    ).map((s) => [s.step, s.actor] as const);
  const getOrder = async (headers: Auth, id: string, locale = 'en') => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/orders/${id}`,
      headers: { ...headers, 'accept-language': locale },
    });
    expect(res.statusCode).toBe(200);
    return parse(one, res).data;
  };
  const confirmSim = (headers: Auth, id: string) =>
    t.app.inject({ method: 'POST', url: `/api/orders/${id}/confirm-sim`, headers });

  /* The OSS's side: events as TMF641 has them, with an OSS clock that only moves forward. */
  let ossTime = Date.parse('2026-06-15T12:00:00.000Z');
  const nextEventTime = () => new Date((ossTime += 1000)).toISOString();
  const event = (
    row: Pick<NetworkServiceOrderRow, 'tmfId' | 'externalId'>,
    state: string,
    options: {
      results?: Record<string, string>;
      error?: { code: string; reason: string; message?: string };
      /** The event's time; null: none (the document requires none). */
      eventTime?: string | null;
      eventType?: string;
      /** The id the OSS gives the item's service. */
      serviceId?: string;
    } = {},
  ) => ({
    eventId: randomUUID(),
    ...(options.eventTime === null ? {} : { eventTime: options.eventTime ?? nextEventTime() }),
    eventType: options.eventType ?? 'ServiceOrderStateChangeEvent',
    event: {
      serviceOrder: {
        id: row.tmfId,
        href: `${prism.url}/serviceOrder/${row.tmfId}`,
        externalId: row.externalId,
        state,
        ...(options.error ? { errorMessage: [options.error] } : {}),
        serviceOrderItem: [
          {
            id: '1',
            action: 'add',
            state,
            service: {
              ...(options.serviceId ? { id: options.serviceId } : {}),
              serviceCharacteristic: Object.entries(options.results ?? {}).map(([name, value]) => ({
                name,
                valueType: 'string',
                value,
              })),
            },
          },
        ],
      },
    },
  });
  /** The callback the hub was given at start (POST /hub), as the OSS has it: its path here. */
  const callbackPath = () => {
    const hub = prism.requests.find((r) => r.method === 'POST' && r.path.endsWith('/hub'));
    return new URL((hub?.body as { callback: string }).callback).pathname;
  };
  /**
   * An event as the OSS sends it: to `<callback>/listener/<event>` with no header (issue 61 §4).
   * With `authorization` (null: none) to the listener's bearer path instead.
   */
  const send = (body: unknown, options: { path?: string; authorization?: string | null } = {}) =>
    t.app.inject({
      method: 'POST',
      url: `${options.authorization === undefined ? callbackPath() : '/tmf-api/listener/serviceOrdering/v4'}/listener/${options.path ?? 'serviceOrderStateChangeEvent'}`,
      headers: options.authorization ? { authorization: options.authorization } : {},
      payload: body as Record<string, unknown>,
    });
  /** The OSS completes (or fails) an order: a valid event, 201 from our listener. */
  const ossSays = async (key: string, state: string, options: Parameters<typeof event>[2] = {}) => {
    const body = event(await rowOf(key), state, options);
    expect(tmf641Problems('ServiceOrderStateChangeEvent', body)).toEqual([]);
    const res = await send(body);
    expect(res.statusCode, res.body).toBe(201);
  };
  /** Waits for the adapter's POST of a service order matching `spec` (a barring call in flight). */
  const postOf = async (spec: string, since: number) => {
    for (let i = 0; i < 500; i += 1) {
      const found = posted()
        .slice(since)
        .find(
          (r) =>
            (
              r.body as {
                serviceOrderItem?: { service?: { serviceSpecification?: { id?: string } } }[];
              }
            ).serviceOrderItem?.[0]?.service?.serviceSpecification?.id === spec,
        );
      if (found) return found.body as { externalId: string };
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`no ${spec} order was sent`);
  };
  const characteristics = (body: unknown) =>
    Object.fromEntries(
      (
        body as {
          serviceOrderItem: {
            service: { serviceCharacteristic: { name: string; value: unknown }[] };
          }[];
        }
      ).serviceOrderItem[0]?.service.serviceCharacteristic.map((c) => [c.name, c.value]) ?? [],
    );
  const signUp = async (body: Parameters<typeof signupBody>[0], number = freshNumber()) => ({
    ...(await placeSignup(t.app, number, body)),
    msisdn: number,
  });

  it('issue 43: at start the adapter registers our listener with the hub (POST /hub, valid) once; a restart finds it and registers nothing', async () => {
    const hubs = prism.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/hub'));
    expect(hubs).toHaveLength(1);
    expect(hubs[0]?.body).toEqual({
      callback: t.config.tmf641CallbackUrl,
      query: 'eventType=ServiceOrderStateChangeEvent,ServiceOrderAttributeValueChangeEvent',
    });
    expect(hubs[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(await t.app.db.select().from(networkHubSubscriptions)).toEqual([
      expect.objectContaining({ hubId: 'string', apiUrl: prism.url }),
    ]);
    expect(logged('network adapter')[0]).toMatchObject({ network: 'tmf641', url: prism.url });
    // A second start on the same database asks the hub nothing.
    const again = await registerHub({
      client: createTmf641Client({ url: prism.url, token: TOKEN }),
      db: t.app.db,
      log: t.app.log,
      now: clock.now,
      apiUrl: prism.url,
      callback: t.config.tmf641CallbackUrl,
    });
    expect(again).toMatchObject({ hubId: 'string', registered: false });
    expect(prism.requests.filter((r) => r.path.endsWith('/hub'))).toHaveLength(1);
    expect(prism.violations).toEqual([]);
  });

  it('issue 43: `npm run operator -- network hub register` registers anew and records who did it; the settings are required together', async () => {
    let out = '';
    const code = await runOperator(['network', 'hub', 'register', '--as', 'sigrid'], {
      env: {},
      config: t.config,
      database: t.app.database,
      now: clock.now,
      out: (text) => {
        out += text;
      },
      err: (text) => {
        out += text;
      },
    });
    expect(code, out).toBe(0);
    expect(out).toContain(`Listener registered with the TMF641 hub at ${prism.url}: string`);
    expect(prism.requests.filter((r) => r.path.endsWith('/hub'))).toHaveLength(2);
    const [entry] = await t.app.db
      .select()
      .from(operatorActions)
      .where(eq(operatorActions.verb, 'network.hub.register'));
    expect(entry).toMatchObject({ operator: 'sigrid', target: 'string' });

    expect(() => loadConfig({ NETWORK_ADAPTER: 'tmf641' })).toThrow(
      /TMF641_URL is required when NETWORK_ADAPTER=tmf641[\s\S]*TMF641_LISTENER_SECRET is required/,
    );
    expect(() =>
      loadConfig({
        NETWORK_ADAPTER: 'tmf641',
        TMF641_URL: prism.url,
        TMF641_LISTENER_SECRET: 'short',
      }),
    ).toThrow(/TMF641_LISTENER_SECRET must be at least 24 characters/);
    expect(prism.violations).toEqual([]);
  });

  it("issue 43: sign-up with a new number on eSIM — each step waits on its service order and is performed when the OSS says completed; the timeline and notifications are the simulator's, and every request is valid TMF641", async () => {
    const c = await signUp({ eSim: true });
    clock.advance(STEP_S);
    expect(await run()).toEqual({ performed: 0, failed: 0 });
    // The eSIM profile is ordered: one ServiceOrder, waiting at the OSS.
    const esimKey = `alda:order:${c.orderId}:esim_ready:0`;
    expect(await serviceOrders(c.orderId)).toEqual([
      expect.objectContaining({
        externalId: esimKey,
        kind: 'prepareEsim',
        state: 'acknowledged',
        tmfId: 'string',
      }),
    ]);
    const [esimPost] = posted(esimKey);
    expect(esimPost?.body).toMatchObject({
      externalId: esimKey,
      category: 'mobile',
      serviceOrderItem: [
        {
          id: '1',
          action: 'add',
          service: { serviceSpecification: { id: 'alda-esim-profile', name: 'eSIM profile' } },
        },
      ],
    });
    expect(characteristics(esimPost?.body)).toEqual({ msisdn: `298${c.msisdn}` });
    expect(esimPost?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    // The customer sees the order waiting on the network; nothing of the step happened.
    const waiting = await getOrder(c.headers, c.orderId);
    expect(waiting.provisioning?.steps.map((s) => s.step)).toEqual(['received']);
    expect(waiting.provisioning?.waitingFor).toBe('network');
    expect(waiting.provisioning?.expectedAt).toBe(
      new Date(clock.now().getTime() + POLL_S * 1000).toISOString(),
    );
    // Asked again before then: nothing is due, nothing is sent.
    expect(await run()).toEqual({ performed: 0, failed: 0 });
    expect(posted(esimKey)).toHaveLength(1);

    await ossSays(esimKey, 'inProgress');
    expect((await rowOf(esimKey)).state).toBe('inProgress');
    await ossSays(esimKey, 'completed', {
      results: { smdpAddress: 'smdp.oss.test', matchingId: 'QWER-TYUP-ASDF-GHJK' },
    });
    // The event made the order due now: the worker performs the step at once.
    expect((await orderRow(c.orderId)).provisioningNextAt?.getTime()).toBe(clock.now().getTime());
    expect(await run()).toEqual({ performed: 1, failed: 0 });
    expect(posted(esimKey)).toHaveLength(1);
    const [line] = await t.app.db.select().from(phoneLines).where(eq(phoneLines.msisdn, c.msisdn));
    expect(line?.esimMatchingId).toBe('QWER-TYUP-ASDF-GHJK');

    // The customer confirms the eSIM works: the number is put in service on it.
    const confirmed = await confirmSim(c.headers, c.orderId);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const activateKey = `alda:order:${c.orderId}:activate:0`;
    expect(characteristics(posted(activateKey)[0]?.body)).toEqual({
      msisdn: `298${c.msisdn}`,
      esimMatchingId: 'QWER-TYUP-ASDF-GHJK',
    });
    expect((await getOrder(c.headers, c.orderId)).provisioning?.waitingFor).toBe('network');
    await ossSays(activateKey, 'completed');
    expect(await run()).toEqual({ performed: 1, failed: 0 });

    const done = await getOrder(c.headers, c.orderId);
    expect(done.isComplete).toBe(true);
    expect(done.provisioning?.steps.map((s) => s.step)).toEqual([
      'received',
      'esim_ready',
      'active',
    ]);
    const titles = (
      await t.app.db.select().from(notifications).where(eq(notifications.userId, c.userId))
    ).map((n) => n.params.title?.fo);
    expect(titles).toEqual(
      expect.arrayContaining([
        'Bílegging móttikin',
        'eSIM er klárt at leggja inn',
        'Haldið er virkið',
      ]),
    );
    expect(posted().filter((r) => r.path.endsWith('/serviceOrder'))).not.toHaveLength(0);
    expect(prism.violations).toEqual([]);
  });

  it('issue 43: sign-up with a physical SIM sent home — the SIM from stock and the number into service are two orders; one not finished retries the step later, the one done is not ordered again', async () => {
    const c = await signUp({
      eSim: false,
      simShippingAddress: { address: 'Klaksvíksvegur 5', postCode: '700', city: 'Klaksvík' },
    });
    clock.advance(STEP_S);
    await run();
    expect((await stepsOf(c.orderId)).map(([step]) => step)).toEqual(['received', 'sim_sent']);
    expect(await serviceOrders(c.orderId)).toEqual([]);
    // Not confirmed by the customer: the worker makes it active after PROVISIONING_SIM_CONFIRM_S.
    clock.advance(CONFIRM_S);
    expect(await run()).toEqual({ performed: 0, failed: 0 });
    const simKey = `alda:order:${c.orderId}:issueSim:0`;
    const activateKey = `alda:order:${c.orderId}:activate:0`;
    expect((await serviceOrders(c.orderId)).map((r) => r.externalId)).toEqual([simKey]);
    expect(posted(simKey)[0]?.body).toMatchObject({
      serviceOrderItem: [{ service: { serviceSpecification: { id: 'alda-sim-card' } } }],
    });

    const iccid = iccidEndingIn('2468');
    await ossSays(simKey, 'completed', { results: { iccid, pin: '1357', puk: '24681357' } });
    // The SIM is taken; the number is not in service on it yet: the step waits again.
    expect(await run()).toEqual({ performed: 0, failed: 0 });
    expect(posted(simKey)).toHaveLength(1);
    expect(characteristics(posted(activateKey)[0]?.body)).toEqual({
      msisdn: `298${c.msisdn}`,
      iccid,
    });
    await ossSays(activateKey, 'completed');
    expect(await run()).toEqual({ performed: 1, failed: 0 });
    expect(posted(simKey)).toHaveLength(1);
    expect(posted(activateKey)).toHaveLength(1);
    expect(await stepsOf(c.orderId)).toEqual([
      ['received', 'customer'],
      ['sim_sent', 'network'],
      ['active', 'worker'],
    ]);
    const [line] = await t.app.db.select().from(phoneLines).where(eq(phoneLines.msisdn, c.msisdn));
    expect(line).toMatchObject({ status: 'active', iccid, simPin: '1357', simPuk: '24681357' });
    expect(prism.violations).toEqual([]);
  });

  it('issue 43: a port-in sends the donor SIM card number; the OSS refusing it (PORT_SIMCARD_MISMATCH) is a rejected port, and the corrected number a new order that sets the port date', async () => {
    const number = freshNumber();
    const ownCard = iccidEndingIn('1122');
    const wrong = iccidEndingIn('9999');
    const c = await signUp(
      {
        eSim: false,
        simcardNumber: ownCard,
        porting: { phoneNumber: number, simcardNumber: wrong },
      },
      number,
    );
    clock.advance(STEP_S);
    await run(); // port_requested
    clock.advance(STEP_S);
    await run(); // port_date_set asked
    const firstKey = `alda:order:${c.orderId}:port_date_set:0`;
    expect(posted(firstKey)[0]?.body).toMatchObject({
      serviceOrderItem: [
        { action: 'add', service: { serviceSpecification: { id: 'alda-number-port-in' } } },
      ],
    });
    expect(characteristics(posted(firstKey)[0]?.body)).toEqual({
      msisdn: `298${number}`,
      donorIccid: wrong,
    });
    await ossSays(firstKey, 'failed', {
      error: {
        code: 'PORT_SIMCARD_MISMATCH',
        reason: 'The donor operator refused the port',
        message: 'SIM card number does not match',
      },
    });
    expect(await run()).toEqual({ performed: 1, failed: 0 });
    const rejected = await getOrder(c.headers, c.orderId);
    expect(rejected.provisioning?.waitingFor).toBe('customer_correction');
    expect(rejected.provisioning?.steps.at(-1)).toMatchObject({
      step: 'port_rejected',
      reason: "The SIM card number does not match your current provider's records.",
    });

    const right = iccidEndingIn('5678');
    const fix = await t.app.inject({
      method: 'PATCH',
      url: `/api/orders/${c.orderId}/porting`,
      headers: c.headers,
      payload: { simcardNumber: right },
    });
    expect(fix.statusCode, fix.body).toBe(200);
    clock.advance(STEP_S);
    await run(); // port_requested again
    clock.advance(STEP_S);
    await run();
    const secondKey = `alda:order:${c.orderId}:port_date_set:1`;
    expect(characteristics(posted(secondKey)[0]?.body)).toEqual({
      msisdn: `298${number}`,
      donorIccid: right,
    });
    const portDate = new Date(clock.now().getTime() + 2 * 86_400_000);
    await ossSays(secondKey, 'completed', { results: { portDate: portDate.toISOString() } });
    expect(await run()).toEqual({ performed: 1, failed: 0 });
    expect((await orderRow(c.orderId)).portDate?.toISOString()).toBe(portDate.toISOString());
    clock.set(portDate.toISOString());
    await run(); // number_moved
    clock.advance(STEP_S);
    await run(); // active: the number into service on the customer's own card
    const activateKey = `alda:order:${c.orderId}:activate:1`;
    expect(characteristics(posted(activateKey)[0]?.body)).toEqual({
      msisdn: `298${number}`,
      iccid: ownCard,
    });
    await ossSays(activateKey, 'completed');
    await run();
    expect((await stepsOf(c.orderId)).map(([step]) => step)).toEqual([
      'received',
      'port_requested',
      'port_rejected',
      'port_requested',
      'port_date_set',
      'number_moved',
      'active',
    ]);
    expect(prism.violations).toEqual([]);
  });

  it('issue 43: a SIM change to eSIM is an eSIM profile and the number put on it, each one valid service order', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/subscriptions/${LINES.joannesWork}/sim/replacement`,
      headers: { ...(await as('Jóannes')), 'idempotency-key': randomUUID() },
      payload: { eSim: true, simPickupLocationId: null, sendHome: false, password: DEMO_PASSWORD },
    });
    expect(res.statusCode, res.body).toBe(201);
    const orderId = parse(placed, res).data.order.id;
    const { msisdn } = await orderRow(orderId);
    clock.advance(STEP_S);
    await run();
    const esimKey = `alda:order:${orderId}:esim_ready:0`;
    await ossSays(esimKey, 'completed', {
      results: { smdpAddress: 'smdp.oss.test', matchingId: 'ZXCV-BNMQ-WERT-YUPA' },
    });
    await run();
    expect((await confirmSim(await as('Jóannes'), orderId)).statusCode).toBe(200);
    const activateKey = `alda:order:${orderId}:activate:0`;
    expect(characteristics(posted(activateKey)[0]?.body)).toEqual({
      msisdn: `298${msisdn}`,
      esimMatchingId: 'ZXCV-BNMQ-WERT-YUPA',
    });
    await ossSays(activateKey, 'completed');
    await run();
    expect((await stepsOf(orderId)).map(([step]) => step)).toEqual([
      'received',
      'esim_ready',
      'active',
    ]);
    const [line] = await t.app.db
      .select()
      .from(phoneLines)
      .where(eq(phoneLines.id, LINES.joannesWork));
    expect(line).toMatchObject({ simType: 'esim', esimMatchingId: 'ZXCV-BNMQ-WERT-YUPA' });
    expect(prism.violations).toEqual([]);
  });

  it('issue 43: the owner pausing a member’s data and the roaming cap letting a number roam again are barring orders the request waits for; every one is valid', async () => {
    const owner = await as('Jóannes');
    const patch = (url: string, payload: Record<string, unknown>) =>
      t.app.inject({ method: 'PATCH', url, headers: owner, payload });

    // Data paused: the PATCH waits for the OSS, which completes the order meanwhile.
    let since = posted().length;
    const pausing = patch(`/api/subscriptions/${LINES.sunneva}/controls`, { dataPaused: true });
    const bar = await postOf('alda-data-barring', since);
    expect(bar).toMatchObject({
      serviceOrderItem: [
        { action: 'modify', service: { serviceSpecification: { name: 'Data barring' } } },
      ],
    });
    expect(characteristics(bar)).toEqual({ msisdn: '298214456', dataBarred: true });
    expect(bar.externalId).toMatch(
      new RegExp(`^alda:bar:${LINES.sunneva}:data:true:[0-9a-f-]{36}$`),
    );
    const sent = await send(event({ tmfId: 'string', externalId: bar.externalId }, 'completed'));
    expect(sent.statusCode).toBe(201);
    const paused = await pausing;
    expect(paused.statusCode, paused.body).toBe(200);
    expect((await rowOf(bar.externalId)).state).toBe('completed');

    // The roaming cap raised above what is charged: the stopped number roams again.
    await t.app.db
      .update(lineBalances)
      .set({ roamingChargedOere: 37_300, roamingStoppedAt: clock.now() })
      .where(eq(lineBalances.lineId, LINES.sunneva));
    since = posted().length;
    const raising = patch(`/api/subscriptions/${LINES.sunneva}/roaming-cap`, {
      capOere: 100_000,
      confirmed: true,
    });
    const unbar = await postOf('alda-roaming-data-barring', since);
    expect(characteristics(unbar)).toEqual({ msisdn: '298214456', roamingDataBarred: false });
    await send(event({ tmfId: 'string', externalId: unbar.externalId }, 'completed'));
    const raised = await raising;
    expect(raised.statusCode, raised.body).toBe(200);
    const [balance] = await t.app.db
      .select()
      .from(lineBalances)
      .where(eq(lineBalances.lineId, LINES.sunneva));
    expect(balance?.roamingStoppedAt).toBeNull();
    expect(prism.violations).toEqual([]);
  });

  it('issue 43: a barring the OSS does not finish within TMF641_WAIT_S is refused (503 NETWORK_UNAVAILABLE), nothing changes, and the network is told to set it back', async () => {
    const [before] = await t.app.db
      .select()
      .from(phoneLines)
      .where(eq(phoneLines.id, LINES.sunneva));
    expect(before?.dataPausedAt).not.toBeNull();
    const since = posted().length;
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/subscriptions/${LINES.sunneva}/controls`,
      headers: await as('Jóannes'),
      payload: { dataPaused: false },
    });
    expect(res.statusCode).toBe(503);
    expect(parse(errorEnvelope, res).error.code).toBe('NETWORK_UNAVAILABLE');
    const [after] = await t.app.db
      .select()
      .from(phoneLines)
      .where(eq(phoneLines.id, LINES.sunneva));
    expect(after?.dataPausedAt).toEqual(before?.dataPausedAt);
    // The lift may still happen at the OSS: it is followed by a bar again.
    const sent = posted()
      .slice(since)
      .map((r) => characteristics(r.body).dataBarred);
    expect(sent).toEqual([false, true]);
    expect(
      logged('controls: the network did not finish the change in time; refused and set back'),
    ).toHaveLength(1);
    expect(prism.violations).toEqual([]);
  }, 30_000);

  it('issue 43: a call asked again with the same key never makes a second order; after TMF641_POLL_S without an event the adapter asks GET /serviceOrder/{id}', async () => {
    const key = `test:idempotency:${randomUUID()}`;
    const ask = () => t.app.network.prepareEsim('219699', { key });
    await expect(ask()).rejects.toBeInstanceOf(NetworkPendingError);
    await expect(ask()).rejects.toMatchObject({ key, state: 'acknowledged', retryAfterS: POLL_S });
    expect(posted(key)).toHaveLength(1);
    const gets = () => prism.requests.filter((r) => r.method === 'GET').length;
    const before = gets();
    clock.advance(POLL_S - 1);
    await expect(ask()).rejects.toBeInstanceOf(NetworkPendingError);
    expect(gets()).toBe(before);
    clock.advance(1);
    await expect(ask()).rejects.toBeInstanceOf(NetworkPendingError);
    expect(prism.requests.filter((r) => r.method === 'GET').at(-1)?.path).toMatch(
      /\/serviceOrder\/string$/,
    );
    expect(gets()).toBe(before + 1);
    expect((await rowOf(key)).polledAt?.getTime()).toBe(clock.now().getTime());
    expect(logged('tmf641: no event for TMF641_POLL_S; polled the service order')).not.toHaveLength(
      0,
    );
    expect(posted(key)).toHaveLength(1);
    expect(prism.violations).toEqual([]);
  });

  it('issue 43: the worker falls back to polling an order no event came for, and asks again TMF641_POLL_S later', async () => {
    const c = await signUp({ eSim: true });
    clock.advance(STEP_S);
    await run();
    const key = `alda:order:${c.orderId}:esim_ready:0`;
    const getsOf = () =>
      prism.requests.filter((r) => r.method === 'GET' && r.path.endsWith('/serviceOrder/string'))
        .length;
    const before = getsOf();
    clock.advance(POLL_S);
    expect(await run()).toEqual({ performed: 0, failed: 0 });
    expect(getsOf()).toBe(before + 1);
    expect((await orderRow(c.orderId)).provisioningNextAt?.getTime()).toBe(
      clock.now().getTime() + POLL_S * 1000,
    );
    expect((await rowOf(key)).state).toBe('acknowledged');
    expect(prism.violations).toEqual([]);
  });

  it('issue 43: events out of order and repeated never move an order back; the step is performed once', async () => {
    const c = await signUp({ eSim: true });
    clock.advance(STEP_S);
    await run();
    const key = `alda:order:${c.orderId}:esim_ready:0`;
    const row = await rowOf(key);
    const t1 = nextEventTime();
    const t2 = nextEventTime();
    const t3 = nextEventTime();
    const completed = event(row, 'completed', {
      eventTime: t3,
      results: { smdpAddress: 'smdp.oss.test', matchingId: 'AAAA-BBBB-CCCC-DDDD' },
    });
    expect((await send(completed)).statusCode).toBe(201);
    // Late: an older inProgress and acknowledged, then the completion again, and a completion at
    // the same time with other values.
    expect((await send(event(row, 'inProgress', { eventTime: t2 }))).statusCode).toBe(201);
    expect((await send(event(row, 'acknowledged', { eventTime: t1 }))).statusCode).toBe(201);
    expect((await send(completed)).statusCode).toBe(201);
    const same = event(row, 'failed', {
      eventTime: t3,
      error: { code: 'X', reason: 'too late' },
    });
    expect((await send(same)).statusCode).toBe(201);
    expect(await rowOf(key)).toMatchObject({
      state: 'completed',
      errorCode: null,
      characteristics: { smdpAddress: 'smdp.oss.test', matchingId: 'AAAA-BBBB-CCCC-DDDD' },
    });
    expect(await run()).toEqual({ performed: 1, failed: 0 });
    expect((await send(completed)).statusCode).toBe(201);
    expect(await run()).toEqual({ performed: 0, failed: 0 });
    expect((await stepsOf(c.orderId)).map(([step]) => step)).toEqual(['received', 'esim_ready']);
  });

  it("issue 43: an order the OSS failed stops with the OSS's reason for staff — in the queue's failed filter (the attention list) and the timeline — while the customer reads our words; a retry is a new order", async () => {
    const c = await signUp({ eSim: true });
    clock.advance(STEP_S);
    await run();
    const key = `alda:order:${c.orderId}:esim_ready:0`;
    await ossSays(key, 'failed', {
      error: {
        code: 'SMDP_UNAVAILABLE',
        reason: 'The SM-DP+ did not answer',
        message: 'Profile not reserved',
      },
    });
    expect(await run()).toEqual({ performed: 1, failed: 0 });
    const ossWords = 'SMDP_UNAVAILABLE: The SM-DP+ did not answer — Profile not reserved';
    const [step] = await t.app.db
      .select()
      .from(provisioningSteps)
      .where(and(eq(provisioningSteps.orderId, c.orderId), eq(provisioningSteps.step, 'failed')));
    expect(step).toMatchObject({
      actor: 'network',
      reasonCode: 'NETWORK_ORDER_FAILED',
      reasonText: ossWords,
    });

    // The customer: the order stopped, in our words, not the OSS's.
    const customer = await getOrder(c.headers, c.orderId);
    expect(customer.provisioning?.waitingFor).toBe('none');
    expect(customer.provisioning?.steps.at(-1)?.reason).toBe(
      'The network could not carry out this step. We are looking into it and will be in touch.',
    );

    // Staff: the failed filter lists it with the OSS's reason; the order shows the network order.
    const staff = await signInStaff(t.app, 'provisioning', clock.now);
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/staff/orders?state=failed',
      headers: { ...staff.headers, 'accept-language': 'en' },
    });
    expect(list.statusCode).toBe(200);
    const page = parse(dataEnvelope(staffOrdersPage), list).data;
    expect(page.items.find((o) => o.id === c.orderId)).toMatchObject({
      state: 'failed',
      lastStep: 'failed',
      stopReason: ossWords,
    });
    expect(page.counts.failed).toBeGreaterThan(0);
    const detail = await t.app.inject({
      method: 'GET',
      url: `/api/staff/orders/${c.orderId}`,
      headers: { ...staff.headers, 'accept-language': 'en' },
    });
    const order = parse(dataEnvelope(staffOrderDetail), detail).data;
    expect(order.steps.at(-1)).toMatchObject({
      step: 'failed',
      actor: 'network',
      reasonCode: 'NETWORK_ORDER_FAILED',
      operatorReason: ossWords,
    });
    expect(order.networkOrders).toEqual([
      expect.objectContaining({
        externalId: key,
        call: 'prepareEsim',
        state: 'failed',
        errorCode: 'SMDP_UNAVAILABLE',
        reason: 'The SM-DP+ did not answer — Profile not reserved',
      }),
    ]);
    expect(logged('tmf641: service order failed')).toEqual(
      expect.arrayContaining([expect.objectContaining({ key, code: 'SMDP_UNAVAILABLE' })]),
    );

    // Staff retry: the step is due again and asks the network anew (a new key, a new order).
    const retry = await t.app.inject({
      method: 'POST',
      url: `/api/staff/orders/${c.orderId}/retry`,
      headers: staff.headers,
      payload: { reason: 'The SM-DP+ is back' },
    });
    expect(retry.statusCode, retry.body).toBe(200);
    await run();
    expect(posted(`alda:order:${c.orderId}:esim_ready:1`)).toHaveLength(1);
    expect(prism.violations).toEqual([]);
  });

  it('issue 43: the listener takes only the shared secret (401 without or with another), refuses a malformed event (400 with its code) and answers 201 for an order it does not know', async () => {
    const body = event({ tmfId: 'oss-order-1', externalId: 'not-ours' }, 'completed');
    const none = await send(body, { authorization: null });
    expect(none.statusCode).toBe(401);
    expect(parse(errorEnvelope, none).error.code).toBe('UNAUTHORIZED');
    const wrong = await send(body, { authorization: `Bearer ${SECRET.slice(0, -1)}x` });
    expect(wrong.statusCode).toBe(401);
    const basic = await send(body, { authorization: `Basic ${SECRET}` });
    expect(basic.statusCode).toBe(401);

    const noTime = await send({ ...body, eventTime: 'yesterday' });
    expect(noTime.statusCode).toBe(400);
    expect(parse(errorEnvelope, noTime).error.code).toBe('VALIDATION_FAILED');
    const noOrder = await send({ ...body, event: {} });
    expect(noOrder.statusCode).toBe(400);
    // Over the bearer path too.
    const bearerNoOrder = await send({ ...body, event: {} }, { authorization: `Bearer ${SECRET}` });
    expect(bearerNoOrder.statusCode).toBe(400);

    const unknown = await send(body, { path: 'serviceOrderAttributeValueChangeEvent' });
    expect(unknown.statusCode).toBe(201);
    expect(logged('tmf641: event for a service order we do not know')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ tmfId: 'oss-order-1', outcome: 'unknown' }),
      ]),
    );
  });

  it('issue 61 §4: the hub is given an unguessable callback; the OSS posts its events there with no header of ours and gets 201 with an EventSubscription; a wrong secret is 404 and changes nothing; the bearer path still works; the secret is in no log line, the table or the audit', async () => {
    const [hub] = prism.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/hub'));
    const callback = (hub?.body as { callback: string }).callback;
    const base = `${t.config.appUrl}/tmf-api/listener/serviceOrdering/v4/`;
    expect(callback.startsWith(base)).toBe(true);
    const secretSegment = callback.slice(base.length);
    expect(secretSegment).toMatch(/^[0-9a-f]{64}$/);
    // As ADR 0082 tells the operator to make it by hand (openssl dgst -sha256 -hmac).
    expect(secretSegment).toBe(
      createHmac('sha256', SECRET).update('alda-tmf641-callback').digest('hex'),
    );
    expect(secretSegment).not.toContain(SECRET);
    // A restart derives the same callback from TMF641_LISTENER_SECRET; another secret another.
    expect(
      loadConfig({ APP_URL: t.config.appUrl, TMF641_LISTENER_SECRET: SECRET }).tmf641CallbackUrl,
    ).toBe(callback);
    expect(
      loadConfig({ APP_URL: t.config.appUrl, TMF641_LISTENER_SECRET: `${SECRET}-rotated` })
        .tmf641CallbackUrl,
    ).not.toBe(callback);

    const key = `test:callback:${randomUUID()}`;
    await expect(t.app.network.prepareEsim(freshNumber(), { key })).rejects.toBeInstanceOf(
      NetworkPendingError,
    );
    const body = event(await rowOf(key), 'inProgress');
    expect(tmf641Problems('ServiceOrderStateChangeEvent', body)).toEqual([]);
    const at = (segment: string, path = 'serviceOrderStateChangeEvent') =>
      `/tmf-api/listener/serviceOrdering/v4/${segment}/listener/${path}`;

    // Wrong secrets — another one, one character off, with the right bearer — are 404: nothing changes.
    const flipped = `${secretSegment.slice(0, -1)}${secretSegment.endsWith('0') ? '1' : '0'}`;
    for (const [segment, headers] of [
      ['0'.repeat(64), {}],
      [flipped, {}],
      [flipped, { authorization: `Bearer ${SECRET}` }],
      ['listener-secret', {}],
    ] as const) {
      const res = await t.app.inject({ method: 'POST', url: at(segment), headers, payload: body });
      expect(res.statusCode, segment).toBe(404);
      expect(parse(errorEnvelope, res).error.code).toBe('ROUTE_NOT_FOUND');
    }
    expect((await rowOf(key)).state).toBe('acknowledged');

    // The callback the hub was given, no Authorization header: taken, 201 as the document shows.
    const taken = await t.app.inject({
      method: 'POST',
      url: `${new URL(callback).pathname}/listener/serviceOrderStateChangeEvent`,
      headers: { 'content-type': 'application/json;charset=utf-8' },
      payload: JSON.stringify(body),
    });
    expect(taken.statusCode, taken.body).toBe(201);
    const answer = taken.json<unknown>();
    expect(tmf641Problems('EventSubscription', answer)).toEqual([]);
    expect(answer).toEqual({ id: body.eventId, callback: '/tmf-api/listener/serviceOrdering/v4' });
    expect((await rowOf(key)).state).toBe('inProgress');
    // The attribute value change too.
    const attribute = event(await rowOf(key), 'inProgress', {
      eventType: 'ServiceOrderAttributeValueChangeEvent',
    });
    expect(tmf641Problems('ServiceOrderAttributeValueChangeEvent', attribute)).toEqual([]);
    const attr = await t.app.inject({
      method: 'POST',
      url: at(secretSegment, 'serviceOrderAttributeValueChangeEvent'),
      payload: attribute,
    });
    expect(attr.statusCode, attr.body).toBe(201);

    // An OSS that can send a header may use the bearer path; without it, 401.
    const completed = event(await rowOf(key), 'completed', {
      results: { smdpAddress: 'smdp.oss.test', matchingId: 'CALL-BACK-0000-0001' },
    });
    expect((await send(completed, { authorization: null })).statusCode).toBe(401);
    expect((await rowOf(key)).state).toBe('inProgress');
    const bearer = await send(completed, { authorization: `Bearer ${SECRET}` });
    expect(bearer.statusCode, bearer.body).toBe(201);
    expect(tmf641Problems('EventSubscription', bearer.json())).toEqual([]);
    expect((await rowOf(key)).state).toBe('completed');

    // The secret is written nowhere: not in a log line, the hub's row, or the operator's audit.
    expect(JSON.stringify(logs.lines)).not.toContain(secretSegment);
    const hubRows = await t.app.db.select().from(networkHubSubscriptions);
    expect(JSON.stringify(hubRows)).not.toContain(secretSegment);
    expect(hubRows.map((r) => r.callback)).toContain(
      `${base}[secret ${createHash('sha256').update(secretSegment).digest('hex').slice(0, 8)}]`,
    );
    const audit = await t.app.db.select().from(operatorActions);
    expect(JSON.stringify(audit)).not.toContain(secretSegment);
    expect(prism.violations).toEqual([]);
  });

  it('issue 61 §4: a new secret registers the new callback and removes the old subscription at the hub', async () => {
    const rotated = loadConfig({
      APP_URL: t.config.appUrl,
      TMF641_LISTENER_SECRET: `${SECRET}-rotated`,
    }).tmf641CallbackUrl;
    /*
     * Prism answers every POST /hub with the id "string": here each answer gets an id of its own,
     * so the DELETE shows which subscription was removed — the old one, never the new.
     */
    let hubSeq = 0;
    const hubFetch: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      if (init?.method !== 'POST' || !new URL(String(input)).pathname.endsWith('/hub') || !res.ok)
        return res;
      const body = (await res.json()) as object;
      return Response.json({ ...body, id: `hub-${(hubSeq += 1)}` }, { status: res.status });
    };
    const client = createTmf641Client({ url: prism.url, token: TOKEN, fetch: hubFetch });
    const hubPath = '/tmf-api/serviceOrdering/v4/hub';
    const [old] = await t.app.db.select().from(networkHubSubscriptions);
    // Registered at start, through Prism itself.
    expect(old?.hubId).toBe('string');

    const before = prism.requests.length;
    const done = await registerHub({
      client,
      db: t.app.db,
      log: t.app.log,
      now: clock.now,
      apiUrl: prism.url,
      callback: rotated,
    });
    expect(done).toMatchObject({ hubId: 'hub-1', registered: true });
    expect(done.callback).toMatch(/\/v4\/\[secret [0-9a-f]{8}\]$/);
    const calls = prism.requests.slice(before).map((r) => [r.method, r.path]);
    expect(calls).toEqual([
      ['POST', hubPath],
      ['DELETE', `${hubPath}/${old?.hubId}`],
    ]);
    expect((prism.requests.at(-2)?.body as { callback: string }).callback).toBe(rotated);
    expect(await t.app.db.select().from(networkHubSubscriptions)).toEqual([
      expect.objectContaining({ callback: done.callback, hubId: 'hub-1' }),
    ]);
    // Back to the tests' secret (the listener of this app takes only that): the rotated
    // callback's subscription is the one removed.
    const back = prism.requests.length;
    const restored = await registerHub({
      client,
      db: t.app.db,
      log: t.app.log,
      now: clock.now,
      apiUrl: prism.url,
      callback: t.config.tmf641CallbackUrl,
    });
    expect(restored).toMatchObject({ hubId: 'hub-2', registered: true });
    expect(prism.requests.slice(back).map((r) => [r.method, r.path])).toEqual([
      ['POST', hubPath],
      ['DELETE', `${hubPath}/hub-1`],
    ]);
    expect(await t.app.db.select().from(networkHubSubscriptions)).toEqual([
      expect.objectContaining({ callback: old?.callback, hubId: 'hub-2' }),
    ]);
    expect(prism.violations).toEqual([]);
  });

  it('issue 61 §4: eventTime is optional (timeOcurred, else the time received, counts) and an offset without a colon (+0000, +0130) is taken', async () => {
    const key = `test:event-time:${randomUUID()}`;
    await expect(t.app.network.prepareEsim(freshNumber(), { key })).rejects.toBeInstanceOf(
      NetworkPendingError,
    );
    // No time at all: valid for the document, taken at the time received (our clock).
    const untimed = event(await rowOf(key), 'pending', { eventTime: null });
    expect(untimed).not.toHaveProperty('eventTime');
    expect(tmf641Problems('ServiceOrderStateChangeEvent', untimed)).toEqual([]);
    const res = await send(untimed);
    expect(res.statusCode, res.body).toBe(201);
    expect(await rowOf(key)).toMatchObject({ state: 'pending', eventTime: clock.now() });

    // `+0000`: the same instant as `Z`.
    const later = new Date(clock.now().getTime() + 60_000);
    const noColon = later.toISOString().replace(/Z$/, '+0000');
    const inProgress = await send(event(await rowOf(key), 'inProgress', { eventTime: noColon }));
    expect(inProgress.statusCode, inProgress.body).toBe(201);
    expect(await rowOf(key)).toMatchObject({ state: 'inProgress', eventTime: later });

    // `+0130` without seconds' fraction: 13:31:00+0130 is 12:01:00Z, a minute later again.
    const laterStill = new Date(later.getTime() + 60_000);
    // The same instant written at +01:30, without the colon or a fraction of a second.
    const hhmm = (d: Date) =>
      `${new Date(d.getTime() + 90 * 60_000).toISOString().slice(0, 19)}+0130`;
    const held = await send(event(await rowOf(key), 'held', { eventTime: hhmm(laterStill) }));
    expect(held.statusCode, held.body).toBe(201);
    expect(await rowOf(key)).toMatchObject({ state: 'held', eventTime: laterStill });

    // `timeOcurred` (the document's other time) when there is no eventTime.
    const last = new Date(laterStill.getTime() + 60_000);
    const occurred = {
      ...event(await rowOf(key), 'completed', {
        eventTime: null,
        results: { smdpAddress: 'smdp.oss.test', matchingId: 'TIME-LESS-0000-0001' },
      }),
      timeOcurred: last.toISOString().replace(/\.\d{3}Z$/, '-0000'),
    };
    expect(tmf641Problems('ServiceOrderStateChangeEvent', occurred)).toEqual([]);
    expect((await send(occurred)).statusCode).toBe(201);
    expect(await rowOf(key)).toMatchObject({ state: 'completed', eventTime: last });

    // Still refused: a time that is not one, or a day that does not exist.
    for (const bad of [
      'yesterday',
      '2026-02-30T12:00:00Z',
      '2026-06-15T12:00:00',
      '2026-06-15T25:00:00+0000',
    ]) {
      const refused = await send({ ...occurred, eventTime: bad });
      expect(refused.statusCode, bad).toBe(400);
      expect(parse(errorEnvelope, refused).error.code).toBe('VALIDATION_FAILED');
    }
  });

  it('issue 61 §4: a state the document does not have, or cased otherwise, is kept and logged and the order taken as still open — never as "no order", so it is never placed again', async () => {
    /*
     * The OSS: Prism checks every request as before; its answers are then given the states an
     * OSS of its own mind sends (`InProgress`, `inprogress`, `weird`). One POST's answer is
     * lost (503 after Prism took it), as when the OSS made the order and the answer went missing.
     */
    const states = new Map<string, string>();
    let loseNextPost = false;
    const ossFetch: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      const url = new URL(String(input));
      const text = await res.text();
      if (!res.ok) return new Response(text, { status: res.status, headers: res.headers });
      const body = JSON.parse(text) as unknown;
      if (init?.method === 'POST' && url.pathname.endsWith('/serviceOrder')) {
        const key = (JSON.parse(String(init.body)) as { externalId: string }).externalId;
        if (loseNextPost) {
          loseNextPost = false;
          return new Response('{"code":"503","reason":"gateway"}', { status: 503 });
        }
        return Response.json(
          { ...(body as object), id: `so-${key}`, externalId: key, state: states.get(key) },
          { status: 201 },
        );
      }
      if (init?.method === 'GET' && url.searchParams.has('externalId')) {
        const key = url.searchParams.get('externalId') ?? '';
        const [example] = body as object[];
        return Response.json([
          { ...example, id: `so-${key}`, externalId: key, state: states.get(key) },
        ]);
      }
      if (init?.method === 'GET' && /\/serviceOrder\/so-/.test(url.pathname)) {
        const key = decodeURIComponent(url.pathname.split('/serviceOrder/so-')[1] ?? '');
        return Response.json({
          ...(body as object),
          id: `so-${key}`,
          externalId: key,
          state: states.get(key),
        });
      }
      return new Response(text, { status: res.status, headers: res.headers });
    };
    const oss = createNetwork(t.config, t.app.database, t.app.log, clock.now, ossFetch).network;
    const unknownStateLogs = () =>
      logged(
        'tmf641: the OSS gave a state TMF641 does not have; kept as written, the order taken as still open',
      );
    const before = unknownStateLogs().length;

    // 1. The POST's answer says `InProgress`: recorded as it is, asked again never re-POSTed.
    const first = `test:state:${randomUUID()}`;
    states.set(first, 'InProgress');
    await expect(oss.prepareEsim(freshNumber(), { key: first })).rejects.toMatchObject({
      name: 'NetworkPendingError',
      state: 'InProgress',
    });
    await expect(oss.prepareEsim(freshNumber(), { key: first })).rejects.toBeInstanceOf(
      NetworkPendingError,
    );
    expect(posted(first)).toHaveLength(1);
    expect(await rowOf(first)).toMatchObject({ state: 'InProgress', tmfId: `so-${first}` });

    // 2. The POST's answer lost; the look-up by externalId finds it `inprogress`: no second POST.
    const second = `test:state:${randomUUID()}`;
    states.set(second, 'inprogress');
    loseNextPost = true;
    const number = freshNumber();
    await expect(oss.prepareEsim(number, { key: second })).rejects.toBeInstanceOf(Tmf641HttpError);
    await expect(oss.prepareEsim(number, { key: second })).rejects.toMatchObject({
      name: 'NetworkPendingError',
      state: 'inprogress',
    });
    await expect(oss.prepareEsim(number, { key: second })).rejects.toBeInstanceOf(
      NetworkPendingError,
    );
    expect(posted(second)).toHaveLength(1);
    expect(await rowOf(second)).toMatchObject({ state: 'inprogress' });

    // 3. Polled after TMF641_POLL_S, the OSS answers `weird`: kept, still open, still one order.
    states.set(first, 'weird');
    clock.advance(POLL_S);
    await expect(oss.prepareEsim(freshNumber(), { key: first })).rejects.toMatchObject({
      name: 'NetworkPendingError',
      state: 'weird',
    });
    expect(await rowOf(first)).toMatchObject({ state: 'weird', polledAt: clock.now() });
    expect(posted(first)).toHaveLength(1);

    // 4. An event with `Completed`: kept as written (201), not taken as done, nor as no order.
    const cased = event(await rowOf(first), 'Completed', {
      results: { smdpAddress: 'smdp.oss.test', matchingId: 'CASE-DIFF-0000-0001' },
    });
    const res = await send(cased);
    expect(res.statusCode, res.body).toBe(201);
    expect((await rowOf(first)).state).toBe('Completed');
    await expect(oss.prepareEsim(freshNumber(), { key: first })).rejects.toBeInstanceOf(
      NetworkPendingError,
    );
    expect(posted(first)).toHaveLength(1);
    // A terminal state the document has still ends it.
    expect(
      (
        await send(
          event(await rowOf(first), 'completed', {
            results: { smdpAddress: 'smdp.oss.test', matchingId: 'CASE-DIFF-0000-0001' },
          }),
        )
      ).statusCode,
    ).toBe(201);
    await expect(oss.prepareEsim(freshNumber(), { key: first })).resolves.toMatchObject({
      matchingId: 'CASE-DIFF-0000-0001',
    });

    // Each one logged, with the state as the OSS wrote it.
    expect(
      unknownStateLogs()
        .slice(before)
        .map((l) => [l.key, l.state]),
    ).toEqual(
      expect.arrayContaining([
        [first, 'InProgress'],
        [second, 'inprogress'],
        [first, 'weird'],
        [first, 'Completed'],
      ]),
    );
    expect(prism.violations).toEqual([]);
  });

  it("issue 61 §4: a modify names the line's service by the id the OSS gave when it completed the add", async () => {
    const msisdn = freshNumber();
    const activateKey = `test:activate:${randomUUID()}`;
    const activate = () =>
      t.app.network.activate(
        { msisdn, iccid: '8929801123456789012', esimMatchingId: null },
        { key: activateKey },
      );
    await expect(activate()).rejects.toBeInstanceOf(NetworkPendingError);
    /** The adapter's row of a call in flight, once written (no transaction here). */
    const recorded = async (key: string) => {
      for (let i = 0; i < 250; i += 1) {
        const [row] = await t.app.db
          .select()
          .from(networkServiceOrders)
          .where(eq(networkServiceOrders.externalId, key));
        if (row) return row;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(`no service order ${key}`);
    };
    const bar = async (barred: boolean) => {
      const since = posted().length;
      const waiting = t.app.network.setDataBarred(msisdn, barred, {
        key: barringKey(msisdn, 'data', barred),
      });
      const body = await postOf('alda-data-barring', since);
      // Once recorded: before, the event would be matched by the OSS's id, Prism's "string",
      // which other orders have too.
      const done = await send(event(await recorded(body.externalId), 'completed'));
      expect(done.statusCode, done.body).toBe(201);
      await waiting;
      return body as unknown as {
        serviceOrderItem: { action: string; service: { id?: string } }[];
      };
    };
    // Before the OSS gave the line's service an id, a modify has none to give.
    expect((await bar(true)).serviceOrderItem[0]?.service).not.toHaveProperty('id');

    const serviceId = `svc-${randomUUID()}`;
    await ossSays(activateKey, 'completed', { serviceId });
    await expect(activate()).resolves.toBeUndefined();
    expect(await rowOf(activateKey)).toMatchObject({ state: 'completed', serviceId });

    const lifted = await bar(false);
    expect(lifted.serviceOrderItem[0]).toMatchObject({
      action: 'modify',
      service: { id: serviceId },
    });
    expect(characteristics(lifted)).toEqual({ msisdn: `298${msisdn}`, dataBarred: false });
    // The roaming bar as well.
    const since = posted().length;
    const roaming = t.app.network.setRoamingDataBarred(msisdn, true, {
      key: barringKey(msisdn, 'roaming', true),
    });
    const roamingBody = await postOf('alda-roaming-data-barring', since);
    await recorded(roamingBody.externalId);
    expect(roamingBody).toMatchObject({
      serviceOrderItem: [{ action: 'modify', service: { id: serviceId } }],
    });
    await send(event(await rowOf(roamingBody.externalId), 'completed'));
    await roaming;
    expect(prism.violations).toEqual([]);
  });

  it('issue 61 §4: a configuration where a waiting bar could not ask the OSS before TMF641_WAIT_S runs out is refused', () => {
    const tmf641 = {
      NETWORK_ADAPTER: 'tmf641',
      TMF641_URL: prism.url,
      TMF641_LISTENER_SECRET: SECRET,
    };
    expect(() => loadConfig({ ...tmf641, TMF641_WAIT_S: '5', TMF641_BAR_POLL_S: '6' })).toThrow(
      /TMF641_BAR_POLL_S must not be greater than TMF641_WAIT_S \(5\)/,
    );
    expect(() => loadConfig({ ...tmf641, TMF641_WAIT_S: '0' })).toThrow(/TMF641_BAR_POLL_S/);
    expect(loadConfig({ ...tmf641, TMF641_WAIT_S: '5', TMF641_BAR_POLL_S: '5' })).toMatchObject({
      tmf641WaitS: 5,
      tmf641BarPollS: 5,
    });
    // The defaults hold; TMF641_POLL_S (the provisioning orders' cadence) is not bound by the wait.
    expect(loadConfig(tmf641)).toMatchObject({
      tmf641WaitS: 10,
      tmf641BarPollS: 3,
      tmf641PollS: 30,
    });
  });
});

/** A TCP port free on 127.0.0.1 (for a listening app that Prism forwards to). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe(`issue 43: end to end against the demo's TMF641 server, every request through Prism (${usingPostgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  let prism: Tmf641Prism;
  let t: TestApp;
  const clock = testClock(NOW.toISOString());
  const DEMO_STEP_S = 1;
  /** A waiting bar asks the OSS after this much silence (the app's clock, moved by the test). */
  const BAR_POLL_S = 1;
  let numberSeq = 0;

  beforeAll(async () => {
    const port = await freePort();
    // Prism as a proxy: each request is checked against the document, then goes to the demo.
    prism = await startTmf641Prism({
      upstream: `http://127.0.0.1:${port}/tmf-api/serviceOrdering/v4`,
    });
    t = await createTestApp(
      {
        DEMO_MODE: 'true',
        NETWORK_ADAPTER: 'tmf641',
        TMF641_URL: prism.url,
        TMF641_LISTENER_SECRET: SECRET,
        TMF641_POLL_S: String(POLL_S),
        TMF641_BAR_POLL_S: String(BAR_POLL_S),
        // Long: a bar that polls ends as soon as the OSS is done; one that does not, here (503).
        TMF641_WAIT_S: '30',
        TMF641_DEMO_STEP_MS: String(DEMO_STEP_S * 1000),
        APP_URL: `http://127.0.0.1:${port}`,
        PROVISIONING_STEP_S: String(STEP_S),
        USAGE_SIMULATOR_INTERVAL_S: '0',
        ACCESS_TOKEN_TTL_S: '86400',
        RATE_LIMIT_MAX: '0',
      },
      { now: clock.now },
    );
    await seedDemoData(t.app.db, clock.now());
    await t.app.db.update(orders).set({ provisioningNextAt: null });
    await t.app.listen({ port, host: '127.0.0.1' });
    // Registered at start — tried again once the app listens, as on one machine.
    for (let i = 0; i < 300; i += 1) {
      if ((await t.app.db.$count(networkHubSubscriptions)) > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await t.app.db.$count(networkHubSubscriptions)).toBe(1);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await prism?.close();
  });

  const run = () => t.app.provisioning.runDue();
  const steps = async (orderId: string) =>
    (
      await t.app.db
        .select()
        .from(provisioningSteps)
        .where(eq(provisioningSteps.orderId, orderId))
        .orderBy(provisioningSteps.at)
    ).map((s) => s.step);
  /** The demo's orders move one state per TMF641_DEMO_STEP_MS of the app's clock. */
  const demoSteps = async (count = 2) => {
    const demo = t.app.tmf641Demo;
    if (!demo) throw new Error('no demo TMF641 server');
    for (let i = 0; i < count; i += 1) {
      clock.advance(DEMO_STEP_S);
      await demo.tick();
    }
  };
  const signUpEsim = () => placeSignup(t.app, `2194${String((numberSeq += 1)).padStart(2, '0')}`);

  it('issue 43: a sign-up on eSIM completes by the OSS’s events: the eSIM profile, then the number into service on it', async () => {
    const c = await signUpEsim();
    clock.advance(STEP_S);
    await run();
    await demoSteps();
    const [esim] = await t.app.db
      .select()
      .from(networkServiceOrders)
      .where(eq(networkServiceOrders.orderId, c.orderId));
    expect(esim).toMatchObject({ kind: 'prepareEsim', state: 'completed', polledAt: null });
    expect(await run()).toEqual({ performed: 1, failed: 0 });
    expect(await steps(c.orderId)).toEqual(['received', 'esim_ready']);

    const confirm = await t.app.inject({
      method: 'POST',
      url: `/api/orders/${c.orderId}/confirm-sim`,
      headers: c.headers,
    });
    expect(confirm.statusCode, confirm.body).toBe(200);
    await demoSteps();
    expect(await run()).toEqual({ performed: 1, failed: 0 });
    expect(await steps(c.orderId)).toEqual(['received', 'esim_ready', 'active']);
    const [line] = await t.app.db.select().from(phoneLines).where(eq(phoneLines.userId, c.userId));
    expect(line).toMatchObject({ status: 'active', simType: 'esim' });
    expect(line?.esimMatchingId).toBe(esim?.characteristics.matchingId);
    expect(prism.violations).toEqual([]);
  });

  it('issue 43: with no events (our listener gone from the hub) the order is completed by polling after TMF641_POLL_S', async () => {
    const [hub] = await t.app.db.select().from(networkHubSubscriptions);
    const off = await t.app.inject({
      method: 'DELETE',
      url: `/tmf-api/serviceOrdering/v4/hub/${hub?.hubId ?? ''}`,
    });
    expect(off.statusCode).toBe(204);
    const c = await signUpEsim();
    clock.advance(STEP_S);
    await run();
    await demoSteps();
    const key = `alda:order:${c.orderId}:esim_ready:0`;
    const [row] = await t.app.db
      .select()
      .from(networkServiceOrders)
      .where(eq(networkServiceOrders.externalId, key));
    // Done at the OSS, but nobody told us.
    expect(row?.state).toBe('acknowledged');
    expect(await run()).toEqual({ performed: 0, failed: 0 });
    clock.advance(POLL_S);
    expect(await run()).toEqual({ performed: 1, failed: 0 });
    expect(await steps(c.orderId)).toEqual(['received', 'esim_ready']);
    expect(
      prism.requests.filter((r) => r.method === 'GET' && r.path.includes('/serviceOrder/')),
    ).toHaveLength(1);
    expect(prism.violations).toEqual([]);
  });

  it('issue 61 §4: a bar finishes without events — the waiting request asks the OSS after TMF641_BAR_POLL_S, before TMF641_WAIT_S runs out', async () => {
    // No listener at the hub: the OSS completes the order and tells nobody.
    for (const hub of await t.app.db.select().from(networkHubSubscriptions)) {
      const off = await t.app.inject({
        method: 'DELETE',
        url: `/tmf-api/serviceOrdering/v4/hub/${hub.hubId}`,
      });
      expect([204, 404]).toContain(off.statusCode);
    }
    const barPosts = () =>
      prism.requests.filter(
        (r) =>
          r.method === 'POST' &&
          r.path.endsWith('/serviceOrder') &&
          JSON.stringify(r.body).includes('alda-data-barring'),
      );
    const before = barPosts().length;
    const pausing = t.app.inject({
      method: 'PATCH',
      url: `/api/subscriptions/${LINES.sunneva}/controls`,
      headers: await signIn(t.app, 'Jóannes'),
      payload: { dataPaused: true },
    });
    for (let i = 0; i < 500 && barPosts().length === before; i += 1)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const [bar] = barPosts().slice(before);
    const key = (bar?.body as { externalId: string }).externalId;
    // Placed at the OSS once its answer went back through Prism.
    for (let i = 0; i < 500 && bar?.status === 0; i += 1)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(bar?.status).toBe(201);
    // The OSS carries it out (acknowledged → inProgress → completed): no event is sent.
    await demoSteps();
    // Time goes on, as it does outside a test: the app's clock moves BAR_POLL_S every 200 ms of
    // real time until the answer comes. One move is not enough: a poll sent before the last step
    // may hear "inProgress" after the move and date its news at the clock's new instant, and a
    // clock that then stood still would never let the silence run out again.
    let answered = false;
    void pausing.finally(() => {
      answered = true;
    });
    for (let i = 0; i < 150 && !answered; i += 1) {
      clock.advance(BAR_POLL_S);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const paused = await pausing;
    expect(paused.statusCode, paused.body).toBe(200);
    const [row] = await t.app.db
      .select()
      .from(networkServiceOrders)
      .where(eq(networkServiceOrders.externalId, key));
    expect(row).toMatchObject({ kind: 'setDataBarred', state: 'completed', eventTime: null });
    expect(row?.polledAt).not.toBeNull();
    expect(
      prism.requests.filter(
        (r) => r.method === 'GET' && r.path.endsWith(`/serviceOrder/${row?.tmfId ?? ''}`),
      ).length,
    ).toBeGreaterThan(0);
    const [line] = await t.app.db.select().from(phoneLines).where(eq(phoneLines.id, LINES.sunneva));
    expect(line?.dataPausedAt).not.toBeNull();
    expect(prism.violations).toEqual([]);
  }, 60_000);
});
