import { randomUUID } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope, errorEnvelope } from '@alda/contract/envelope';
import { orderPlacedResponse, orderResponse } from '@alda/contract/schemas/orders';
import { staffOrderDetail, staffOrdersPage } from '@alda/contract/schemas/staff-orders';
import { NetworkPendingError } from '../src/adapters/network/network';
import { registerHub } from '../src/adapters/network/tmf641/hub';
import { createTmf641Client } from '../src/adapters/network/tmf641/client';
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

/*
 * Issue 43 item 1: the network adapter on TM Forum TMF641 Service Ordering v4
 * (docs/decisions/0082-network-tmf641.md), through the real app on a real database, with
 * Stoplight Prism serving TM Forum's own TMF641 document as the OSS (test/support/tmf641-prism.ts).
 * Every request the adapter sends must pass Prism's request validation. Prism answers with the
 * document's static example (every order is `"string"`, always `acknowledged`), so the OSS's
 * progress is played here by posting its events to our listener, as an OSS does.
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
      eventTime?: string;
      eventType?: string;
    } = {},
  ) => ({
    eventId: randomUUID(),
    eventTime: options.eventTime ?? nextEventTime(),
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
  const send = (body: unknown, options: { path?: string; authorization?: string | null } = {}) =>
    t.app.inject({
      method: 'POST',
      url: `/tmf-api/listener/serviceOrdering/v4/listener/${options.path ?? 'serviceOrderStateChangeEvent'}`,
      headers:
        options.authorization === null
          ? {}
          : { authorization: options.authorization ?? `Bearer ${SECRET}` },
      payload: body as Record<string, unknown>,
    });
  /** The OSS completes (or fails) an order: 204 from our listener. */
  const ossSays = async (key: string, state: string, options: Parameters<typeof event>[2] = {}) => {
    const res = await send(event(await rowOf(key), state, options));
    expect(res.statusCode, res.body).toBe(204);
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
      callback: `${t.config.appUrl}/tmf-api/listener/serviceOrdering/v4`,
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
    expect(sent.statusCode).toBe(204);
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
    expect((await send(completed)).statusCode).toBe(204);
    // Late: an older inProgress and acknowledged, then the completion again, and a completion at
    // the same time with other values.
    expect((await send(event(row, 'inProgress', { eventTime: t2 }))).statusCode).toBe(204);
    expect((await send(event(row, 'acknowledged', { eventTime: t1 }))).statusCode).toBe(204);
    expect((await send(completed)).statusCode).toBe(204);
    const same = event(row, 'failed', {
      eventTime: t3,
      error: { code: 'X', reason: 'too late' },
    });
    expect((await send(same)).statusCode).toBe(204);
    expect(await rowOf(key)).toMatchObject({
      state: 'completed',
      errorCode: null,
      characteristics: { smdpAddress: 'smdp.oss.test', matchingId: 'AAAA-BBBB-CCCC-DDDD' },
    });
    expect(await run()).toEqual({ performed: 1, failed: 0 });
    expect((await send(completed)).statusCode).toBe(204);
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

  it('issue 43: the listener takes only the shared secret (401 without or with another), refuses a malformed event (400 with its code) and answers 204 for an order it does not know', async () => {
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
    const badState = await send(event({ tmfId: 'x', externalId: 'y' }, 'finished'));
    expect(badState.statusCode).toBe(400);

    const unknown = await send(body, { path: 'serviceOrderAttributeValueChangeEvent' });
    expect(unknown.statusCode).toBe(204);
    expect(logged('tmf641: event for a service order we do not know')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ tmfId: 'oss-order-1', outcome: 'unknown' }),
      ]),
    );
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
});
