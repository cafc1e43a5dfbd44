import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope, errorEnvelope } from '@alda/contract/envelope';
import { placeOfPostCode } from '@alda/contract/localities/lookup';
import { isValidIccid } from '@alda/contract/rules/iccid';
import { orderPlacedResponse, orderResponse, ordersResponse } from '@alda/contract/schemas/orders';
import { simPickupLocationsResponse } from '@alda/contract/schemas/provisioning';
import { accounts } from '../src/db/schema/accounts';
import { actions } from '../src/db/schema/actions';
import { lineBalances } from '../src/db/schema/balances';
import { notifications } from '../src/db/schema/data-transfers';
import { orders } from '../src/db/schema/orders';
import { outboxMessages } from '../src/db/schema/outbox';
import { numberReservations, phoneLines } from '../src/db/schema/phone-lines';
import { operatorActions, provisioningSteps } from '../src/db/schema/provisioning';
import { placeSimChange } from '../src/modules/provisioning/service';
import { DEMO_LINE_IDS } from '../src/seed/demo-users';
import { demoOrderId } from '../src/seed/demo-accounts';
import { seedDemoData, seedReferenceData } from '../src/seed/seed';
import { signIn } from './demo-accounts';
import { createTestApp, parse, testClock, type TestApp } from './helper';
import {
  iccidEndingIn,
  newCustomer,
  postSignup,
  rejectedIccid,
  reserve,
  signupBody,
} from './provisioning-fixtures';

const placed = dataEnvelope(orderPlacedResponse);
const one = dataEnvelope(orderResponse);
const STEP_S = 30;
const CONFIRM_S = 259_200;

describe('provisioning: sign-up, steps, customer and operator actions (SPEC §4 "Subscription processing can take days", §5, ADR 0055)', () => {
  let t: TestApp;
  const clock = testClock('2026-03-10T10:00:00.000Z');
  let numberSeq = 0;
  /** A number no one has: 2197xx, one per call. */
  const freshNumber = () => `2197${String((numberSeq += 1)).padStart(2, '0')}`;

  beforeAll(async () => {
    t = await createTestApp(
      { ACCESS_TOKEN_TTL_S: '86400', RATE_LIMIT_MAX: '0' },
      { now: clock.now },
    );
    await seedReferenceData(t.app.db);
    await seedDemoData(t.app.db, clock.now());
  });
  afterAll(() => t.close());

  const run = () => t.app.provisioning.runDue();
  const getOrder = async (headers: { authorization: string }, id: string, locale = 'en') => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/orders/${id}`,
      headers: { ...headers, 'accept-language': locale },
    });
    expect(res.statusCode).toBe(200);
    return parse(one, res).data;
  };
  const lineOf = async (id: string) => {
    const [row] = await t.app.db.select().from(phoneLines).where(eq(phoneLines.id, id));
    if (!row) throw new Error(`no line ${id}`);
    return row;
  };
  const rowOf = async (id: string) => {
    const [row] = await t.app.db.select().from(orders).where(eq(orders.id, id));
    if (!row) throw new Error(`no order ${id}`);
    return row;
  };
  const countOf = async (userId: string) => ({
    accounts: await t.app.db.$count(accounts, eq(accounts.ownerUserId, userId)),
    orders: await t.app.db.$count(orders, eq(orders.userId, userId)),
    lines: await t.app.db.$count(phoneLines, eq(phoneLines.userId, userId)),
  });
  const notificationTitles = async (userId: string) =>
    (await t.app.db.select().from(notifications).where(eq(notifications.userId, userId))).map(
      (n) => n.params.title?.fo ?? '',
    );

  it("GET /api/sim-pickup-locations: the five shops with addresses of the locality list and opening hours in the caller's language", async () => {
    const { headers } = await newCustomer(t.app);
    const list = async (locale: string) => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/sim-pickup-locations',
        headers: { ...headers, 'accept-language': locale },
      });
      expect(res.statusCode).toBe(200);
      return parse(dataEnvelope(simPickupLocationsResponse), res).data;
    };
    const fo = await list('fo');
    const en = await list('en');
    expect(fo.map((s) => s.name)).toEqual(['Tórshavn', 'Klaksvík', 'Runavík', 'Vágur', 'Tvøroyri']);
    for (const shop of fo) {
      expect(placeOfPostCode(shop.postCode, shop.city)?.name).toBe(shop.city);
      expect(shop.address).toMatch(/\S+ \d+/);
    }
    expect(fo[0]?.openingHours[0]).toMatch(/^Mánadag–fríggjadag/);
    expect(en[0]?.openingHours[0]).toMatch(/^Monday–Friday/);
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/sim-pickup-locations' });
    expect(anonymous.statusCode).toBe(401);
  });

  it("SPEC §3 Orders: GET /api/orders has provisioning on provisioned orders and null on the rest; the demo's processing orders complete through the worker and phone login works for them", async () => {
    const guðrun = await signIn(t.app, 'Guðrun');
    const res = await t.app.inject({ method: 'GET', url: '/api/orders', headers: guðrun });
    const list = parse(dataEnvelope(ordersResponse), res).data;
    const pending = list.find((o) => o.id === demoOrderId(8));
    // Guðrun's second number is ported on an eSIM; the other provider set the port date.
    expect(pending?.provisioning).toMatchObject({
      delivery: 'esim',
      isPorting: true,
      waitingFor: 'network',
      steps: [
        { step: 'received' },
        { step: 'esim_ready' },
        { step: 'port_requested' },
        { step: 'port_date_set' },
      ],
      upcoming: ['number_moved', 'active'],
    });
    expect(pending?.provisioning?.portDate).toBe(pending?.provisioning?.expectedAt);
    expect(list.find((o) => o.id === demoOrderId(7))?.provisioning).toBeNull();

    // Nothing moves before the port date, nor before Bárður's SIM may activate by itself.
    clock.advance(24 * 3600);
    await run();
    expect((await rowOf(demoOrderId(5))).isComplete).toBe(false);
    expect((await rowOf(demoOrderId(8))).isComplete).toBe(false);

    clock.advance(24 * 3600 + 60);
    await run();
    clock.advance(STEP_S);
    await run();
    for (const id of [demoOrderId(5), demoOrderId(8)])
      expect((await rowOf(id)).isComplete).toBe(true);
    expect((await lineOf(DEMO_LINE_IDS.gudrunSecond)).status).toBe('active');
    expect((await lineOf(DEMO_LINE_IDS.bardur)).status).toBe('active');
    const second = await lineOf(DEMO_LINE_IDS.gudrunSecond);
    const [account] = await t.app.db
      .select()
      .from(accounts)
      .where(eq(accounts.id, second.accountId ?? ''));
    expect(account).toMatchObject({ status: 'active', planId: 'individual-5' });
    const pin = await t.app.inject({
      method: 'POST',
      url: '/api/auth/request-pin',
      remoteAddress: '10.9.9.8',
      payload: { phoneNumber: '557813' },
    });
    expect(pin.statusCode, pin.body).toBe(200);
  });

  it('SPEC §5 sign-up, eSIM with a new number: 201 with the order and its first step, one transaction of account, line, order, log entry and notification; the same key answers the same order', async () => {
    const c = await newCustomer(t.app, { locale: 'en' });
    const msisdn = freshNumber();
    const reservationId = await reserve(t.app, c.headers, msisdn);
    const body = signupBody({ phoneNumberReservationId: reservationId, euPackage: true });
    const key = randomUUID();
    const res = await postSignup(t.app, c.headers, body, key);
    expect(res.statusCode, res.body).toBe(201);
    const { data } = parse(placed, res);
    expect(data.paymentUrl).toBeNull();
    expect(data.order).toMatchObject({
      kind: 'new_subscription',
      isMainSubscription: true,
      isComplete: false,
      planId: 'individual-5',
      phoneNumber: msisdn,
      price: null,
    });
    expect(data.order.provisioning).toMatchObject({
      steps: [{ step: 'received', reason: null }],
      upcoming: ['esim_ready', 'active'],
      waitingFor: 'network',
      expectedAt: new Date(clock.now().getTime() + STEP_S * 1000).toISOString(),
      delivery: 'esim',
      pickupLocation: null,
      isPorting: false,
      portDate: null,
    });
    const row = await rowOf(data.order.id);
    const line = await lineOf(row.lineId ?? '');
    // A new line starts locked against port-outs and SIM changes (issue 32, ADR 0076).
    expect(line).toMatchObject({
      status: 'processing',
      userId: c.userId,
      simType: 'esim',
      numberLocked: true,
      unlockAt: null,
    });
    const [account] = await t.app.db
      .select()
      .from(accounts)
      .where(eq(accounts.id, row.accountId ?? ''));
    expect(account).toMatchObject({ status: 'processing', planId: null, type: 'individual_plan' });
    expect(
      await t.app.db.$count(numberReservations, eq(numberReservations.id, reservationId)),
    ).toBe(0);
    expect(
      await t.app.db.$count(
        actions,
        and(eq(actions.userId, c.userId), eq(actions.type, 'subscription_created')),
      ),
    ).toBe(1);
    expect(await notificationTitles(c.userId)).toContain('Bílegging móttikin');
    await t.app.background.idle();
    const mails = await t.app.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.channel, 'email'));
    expect(
      mails.some((m) => m.subject === 'Alda: Order received' && m.text.includes('Hi Kári')),
    ).toBe(true);

    // Same key, same body: the same order, nothing new.
    const again = await postSignup(t.app, c.headers, body, key);
    expect(again.statusCode).toBe(201);
    expect(parse(placed, again).data.order.id).toBe(data.order.id);
    expect((await countOf(c.userId)).orders).toBe(1);
    // Same key, another body: refused.
    const other = await postSignup(t.app, c.headers, { ...body, euPackage: false }, key);
    expect(other.statusCode).toBe(422);
    expect(parse(errorEnvelope, other).error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('SPEC §4 "Subscription processing can take days": the eSIM order is ready to install after a step, then active — line, account with plan and EU package, balance of the month, phone login', async () => {
    const c = await newCustomer(t.app);
    const msisdn = freshNumber();
    const res = await postSignup(
      t.app,
      c.headers,
      signupBody({
        phoneNumberReservationId: await reserve(t.app, c.headers, msisdn),
        euPackage: true,
        planId: 'individual-20',
      }),
      randomUUID(),
    );
    const orderId = parse(placed, res).data.order.id;
    const pin = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/request-pin',
        remoteAddress: '10.9.9.9',
        payload: { phoneNumber: msisdn },
      });
    const before = await pin();
    expect(parse(errorEnvelope, before).error.code).toBe('PHONE_PROCESSING');

    await run();
    expect((await getOrder(c.headers, orderId)).provisioning?.steps).toHaveLength(1);
    clock.advance(STEP_S);
    await run();
    const ready = await getOrder(c.headers, orderId);
    expect(ready.provisioning?.steps.map((s) => s.step)).toEqual(['received', 'esim_ready']);
    expect(ready.provisioning?.upcoming).toEqual(['active']);
    // The customer installs the eSIM: the order waits for them (or activates by itself later).
    expect(ready.provisioning?.waitingFor).toBe('customer_sim');
    const row = await rowOf(orderId);
    expect(row.esimMatchingId).toMatch(/^[A-Z0-9]{4}(-[A-Z0-9]{4}){3}$/);
    expect(await notificationTitles(c.userId)).toContain('eSIM er klárt at leggja inn');

    clock.advance(STEP_S);
    await run();
    expect((await getOrder(c.headers, orderId)).isComplete).toBe(false);
    const confirmed = await t.app.inject({
      method: 'POST',
      url: `/api/orders/${orderId}/confirm-sim`,
      headers: c.headers,
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const done = await getOrder(c.headers, orderId);
    expect(done.isComplete).toBe(true);
    expect(done.provisioning).toMatchObject({ waitingFor: 'none', upcoming: [], expectedAt: null });
    expect(done.provisioning?.steps.map((s) => s.step)).toEqual([
      'received',
      'esim_ready',
      'active',
    ]);
    const line = await lineOf(row.lineId ?? '');
    expect(line).toMatchObject({
      status: 'active',
      simType: 'esim',
      esimMatchingId: row.esimMatchingId,
      esimInstalled: true,
      activatedAt: clock.now(),
    });
    const [account] = await t.app.db
      .select()
      .from(accounts)
      .where(eq(accounts.id, row.accountId ?? ''));
    expect(account).toMatchObject({ status: 'active', planId: 'individual-20', euPackage: true });
    const [balance] = await t.app.db
      .select()
      .from(lineBalances)
      .where(eq(lineBalances.lineId, line.id));
    expect(balance?.domesticTotalMb).toBeGreaterThan(0);
    expect(balance?.euAllowanceMb).not.toBeNull();
    expect(await notificationTitles(c.userId)).toContain('Haldið er virkið');
    expect((await pin()).statusCode).toBe(200);
  });

  it('SPEC §4: a SIM picked up at the Klaksvík shop waits for the customer, who confirms it works; only the customer may (404 for others, 409 ORDER_NOT_WAITING after)', async () => {
    const c = await newCustomer(t.app);
    const stranger = await newCustomer(t.app);
    const res = await postSignup(
      t.app,
      c.headers,
      signupBody({
        phoneNumberReservationId: await reserve(t.app, c.headers, freshNumber()),
        eSim: false,
        simPickupLocationId: 'klaksvik',
      }),
      randomUUID(),
      'fo',
    );
    expect(res.statusCode, res.body).toBe(201);
    const order = parse(placed, res).data.order;
    expect(order.provisioning?.pickupLocation).toMatchObject({ name: 'Klaksvík', postCode: '700' });
    expect(order.provisioning?.upcoming).toEqual(['sim_ready_for_pickup', 'active']);
    const confirm = (headers: { authorization: string }) =>
      t.app.inject({ method: 'POST', url: `/api/orders/${order.id}/confirm-sim`, headers });
    expect(parse(errorEnvelope, await confirm(c.headers)).error.code).toBe('ORDER_NOT_WAITING');

    clock.advance(STEP_S);
    await run();
    const waiting = await getOrder(c.headers, order.id);
    expect(waiting.provisioning).toMatchObject({
      waitingFor: 'customer_sim',
      expectedAt: new Date(clock.now().getTime() + CONFIRM_S * 1000).toISOString(),
    });
    const all = await t.app.db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, c.userId));
    expect(all.map((n) => n.params.body?.fo ?? '').join('\n')).toMatch(
      /SIM-kortið til .* liggur klárt í handlinum í Klaksvík \(Klaksvíksvegur 30, 700 Klaksvík\)/,
    );

    expect((await confirm(stranger.headers)).statusCode).toBe(404);
    const ok = await confirm(c.headers);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(parse(one, ok).data).toMatchObject({ isComplete: true });
    const line = await lineOf((await rowOf(order.id)).lineId ?? '');
    expect(line.status).toBe('active');
    expect(isValidIccid(line.iccid ?? '')).toBe(true);
    expect(line.iccid).toMatch(/^89298/);
    expect(line.simPin).toMatch(/^\d{4}$/);
    expect(line.simPuk).toMatch(/^\d{8}$/);
    const steps = await t.app.db
      .select()
      .from(provisioningSteps)
      .where(eq(provisioningSteps.orderId, order.id));
    expect(steps.find((s) => s.step === 'active')?.actor).toBe('customer');
    expect(parse(errorEnvelope, await confirm(c.headers)).error.code).toBe('ORDER_NOT_WAITING');
  });

  it('SPEC §4: a SIM sent home becomes active by itself after PROVISIONING_SIM_CONFIRM_S; the city must match the postal code (SPEC §5 CITY_POSTCODE_MISMATCH)', async () => {
    const c = await newCustomer(t.app);
    const reservationId = await reserve(t.app, c.headers, freshNumber());
    const home = (city: string) =>
      signupBody({
        phoneNumberReservationId: reservationId,
        eSim: false,
        simShippingAddress: { address: 'Klaksvíksvegur 5', postCode: '700', city },
      });
    const wrong = await postSignup(t.app, c.headers, home('Tórshavn'), randomUUID());
    expect(wrong.statusCode).toBe(400);
    expect(parse(errorEnvelope, wrong).error).toMatchObject({
      code: 'VALIDATION_FAILED',
      field: 'simShippingAddress.city',
    });
    expect(await countOf(c.userId)).toEqual({ accounts: 0, orders: 0, lines: 0 });

    const res = await postSignup(t.app, c.headers, home('klaksvík'), randomUUID());
    expect(res.statusCode, res.body).toBe(201);
    const orderId = parse(placed, res).data.order.id;
    expect((await rowOf(orderId)).shippingCity).toBe('Klaksvík');
    clock.advance(STEP_S);
    await run();
    expect((await rowOf(orderId)).provisioningWaitingFor).toBe('customer_sim');
    clock.advance(CONFIRM_S);
    await run();
    const row = await rowOf(orderId);
    expect(row.isComplete).toBe(true);
    const steps = await t.app.db
      .select()
      .from(provisioningSteps)
      .where(eq(provisioningSteps.orderId, orderId));
    expect(steps.map((s) => [s.step, s.actor])).toEqual([
      ['received', 'customer'],
      ['sim_sent', 'network'],
      ['active', 'worker'],
    ]);
  });

  it('SPEC §1 number porting: a rejected port waits for the customer, who corrects the SIM card number; the port is asked again and the number moves', async () => {
    const c = await newCustomer(t.app);
    const stranger = await newCustomer(t.app);
    const msisdn = freshNumber();
    const res = await postSignup(
      t.app,
      c.headers,
      signupBody({ porting: { phoneNumber: msisdn, simcardNumber: rejectedIccid() } }),
      randomUUID(),
    );
    expect(res.statusCode, res.body).toBe(201);
    const orderId = parse(placed, res).data.order.id;
    expect(parse(placed, res).data.order.provisioning?.upcoming).toEqual([
      'esim_ready',
      'port_requested',
      'port_date_set',
      'number_moved',
      'active',
    ]);
    for (let i = 0; i < 3; i += 1) {
      clock.advance(STEP_S);
      await run();
    }
    const rejected = await getOrder(c.headers, orderId);
    expect(rejected.provisioning?.steps.map((s) => s.step)).toEqual([
      'received',
      'esim_ready',
      'port_requested',
      'port_rejected',
    ]);
    expect(rejected.provisioning).toMatchObject({
      waitingFor: 'customer_correction',
      expectedAt: null,
    });
    expect(rejected.provisioning?.steps.at(-1)?.reason).toMatch(/SIM card number does not match/);
    const fo = await getOrder(c.headers, orderId, 'fo');
    expect(fo.provisioning?.steps.at(-1)?.reason).toMatch(/SIM-kortnummarið passar ikki/);
    expect(await notificationTitles(c.userId)).toContain('Nummarflytingin varð avvíst');
    // Nothing happens by itself while it waits.
    clock.advance(STEP_S * 10);
    await run();
    expect((await rowOf(orderId)).provisioningWaitingFor).toBe('customer_correction');

    const correct = (headers: { authorization: string }, simcardNumber: string) =>
      t.app.inject({
        method: 'PATCH',
        url: `/api/orders/${orderId}/porting`,
        headers,
        payload: { simcardNumber },
      });
    const bad = await correct(c.headers, '8929800000000000001');
    expect(bad.statusCode).toBe(400);
    expect(parse(errorEnvelope, bad).error.field).toBe('simcardNumber');
    const good = iccidEndingIn('4711');
    expect((await correct(stranger.headers, good)).statusCode).toBe(404);
    const ok = await correct(c.headers, good);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(parse(one, ok).data.provisioning?.waitingFor).toBe('network');
    expect((await rowOf(orderId)).portingSimcardNumber).toBe(good);
    expect(parse(errorEnvelope, await correct(c.headers, good)).error.code).toBe(
      'ORDER_NOT_WAITING',
    );

    clock.advance(STEP_S);
    await run(); // port_requested again
    clock.advance(STEP_S);
    await run(); // port_date_set
    const dated = await getOrder(c.headers, orderId);
    expect(dated.provisioning?.steps.at(-1)?.step).toBe('port_date_set');
    expect(dated.provisioning?.portDate).not.toBeNull();
    clock.advance(STEP_S);
    await run(); // number_moved (on the port date)
    clock.advance(STEP_S);
    await run(); // active
    const done = await getOrder(c.headers, orderId);
    expect(done.isComplete).toBe(true);
    expect(done.provisioning?.steps.map((s) => s.step)).toEqual([
      'received',
      'esim_ready',
      'port_requested',
      'port_rejected',
      'port_requested',
      'port_date_set',
      'number_moved',
      'active',
    ]);
  });

  it('SPEC §5 sign-up refusals: clear 4xx codes, never 500, and nothing written', async () => {
    const c = await newCustomer(t.app);
    const noCard = await newCustomer(t.app, { agreement: false });
    const other = await newCustomer(t.app);
    const othersReservation = await reserve(t.app, other.headers, freshNumber());
    const own = await reserve(t.app, c.headers, freshNumber());
    const cases: [string, { authorization: string }, unknown, number, string, string?][] = [
      [
        'unknown plan',
        c.headers,
        signupBody({ planId: 'no-such-plan', phoneNumberReservationId: own }),
        422,
        'PLAN_NOT_AVAILABLE',
      ],
      [
        'family without the same-address confirmation',
        c.headers,
        signupBody({ planId: 'family-20', phoneNumberReservationId: own }),
        400,
        'VALIDATION_FAILED',
        'sameAddressConfirmed',
      ],
      [
        'no card on file',
        noCard.headers,
        signupBody({
          phoneNumberReservationId: await reserve(t.app, noCard.headers, freshNumber()),
        }),
        409,
        'AGREEMENT_REQUIRED',
      ],
      [
        'unknown shop',
        c.headers,
        signupBody({ phoneNumberReservationId: own, eSim: false, simPickupLocationId: 'sumba' }),
        422,
        'PICKUP_LOCATION_NOT_FOUND',
      ],
      [
        "someone else's reservation",
        c.headers,
        signupBody({ phoneNumberReservationId: othersReservation }),
        409,
        'RESERVATION_EXPIRED',
      ],
      [
        'porting a number that is ours',
        c.headers,
        signupBody({ porting: { phoneNumber: '214455', simcardNumber: iccidEndingIn('1234') } }),
        409,
        'NUMBER_ALREADY_OURS',
      ],
      [
        'an invalid SIM card number',
        c.headers,
        signupBody({
          phoneNumberReservationId: own,
          eSim: false,
          simcardNumber: '8929812345678901234',
        }),
        400,
        'VALIDATION_FAILED',
        'simcardNumber',
      ],
    ];
    for (const [what, headers, body, status, code, field] of cases) {
      const res = await postSignup(t.app, headers, body, randomUUID());
      expect(res.statusCode, `${what}: ${res.body}`).toBe(status);
      const error = parse(errorEnvelope, res).error;
      expect(error.code, what).toBe(code);
      if (field) expect(error.field, what).toBe(field);
    }
    const noKey = await postSignup(
      t.app,
      c.headers,
      signupBody({ phoneNumberReservationId: own }),
      null,
    );
    expect(parse(errorEnvelope, noKey).error.code).toBe('IDEMPOTENCY_KEY_REQUIRED');
    expect(await countOf(c.userId)).toEqual({ accounts: 0, orders: 0, lines: 0 });
    expect(await countOf(noCard.userId)).toEqual({ accounts: 0, orders: 0, lines: 0 });
    // The reservation survived the refusals and still places the order.
    const ok = await postSignup(
      t.app,
      c.headers,
      signupBody({ phoneNumberReservationId: own }),
      randomUUID(),
    );
    expect(ok.statusCode, ok.body).toBe(201);

    // An expired reservation: RESERVATION_EXPIRED, and it is gone.
    const late = await newCustomer(t.app);
    const expiring = await reserve(t.app, late.headers, freshNumber());
    clock.advance(31 * 60);
    const expired = await postSignup(
      t.app,
      late.headers,
      signupBody({ phoneNumberReservationId: expiring }),
      randomUUID(),
    );
    expect(parse(errorEnvelope, expired).error.code).toBe('RESERVATION_EXPIRED');
    expect(await t.app.db.$count(numberReservations, eq(numberReservations.id, expiring))).toBe(0);
  });

  it('SPEC §3 family plan: with the same-address confirmation it is placed; a second family account of the owner is refused (FAMILY_ACCOUNT_EXISTS)', async () => {
    const c = await newCustomer(t.app);
    const family = (reservationId: string) =>
      signupBody({
        planId: 'family-20',
        sameAddressConfirmed: true,
        phoneNumberReservationId: reservationId,
      });
    const first = await postSignup(
      t.app,
      c.headers,
      family(await reserve(t.app, c.headers, freshNumber())),
      randomUUID(),
    );
    expect(first.statusCode, first.body).toBe(201);
    const second = await postSignup(
      t.app,
      c.headers,
      family(await reserve(t.app, c.headers, freshNumber())),
      randomUUID(),
    );
    expect(parse(errorEnvelope, second).error.code).toBe('FAMILY_ACCOUNT_EXISTS');
    const jóannes = await signIn(t.app, 'Jóannes');
    const res = await postSignup(
      t.app,
      jóannes,
      family(await reserve(t.app, jóannes, freshNumber())),
      randomUUID(),
    );
    expect(parse(errorEnvelope, res).error.code).toBe('FAMILY_ACCOUNT_EXISTS');
  });

  it('ADR 0055 operators: advance, fail with a reason the customer sees, retry and complete — each written to operator_actions', async () => {
    const c = await newCustomer(t.app);
    const res = await postSignup(
      t.app,
      c.headers,
      signupBody({
        phoneNumberReservationId: await reserve(t.app, c.headers, freshNumber()),
        eSim: false,
        simShippingAddress: { address: 'Sjógøta 1', postCode: '800', city: 'Tvøroyri' },
      }),
      randomUUID(),
    );
    const orderId = parse(placed, res).data.order.id;
    const p = t.app.provisioning;
    const advanced = await p.advance(orderId, 'operator:anna', 'card posted by hand');
    expect(advanced).toMatchObject({
      lastStep: 'sim_sent',
      waitingFor: 'customer_sim',
      nextStep: 'active',
    });
    const failed = await p.fail(orderId, 'operator:anna', 'Kortið kom aftur við postinum');
    expect(failed).toMatchObject({
      lastStep: 'failed',
      waitingFor: 'none',
      nextStep: null,
      upcoming: [],
    });
    const seen = await getOrder(c.headers, orderId);
    expect(seen.provisioning?.steps.at(-1)).toMatchObject({
      step: 'failed',
      reason: 'Kortið kom aftur við postinum',
    });
    expect(seen.provisioning?.waitingFor).toBe('none');
    expect((await p.listOrders('failed')).map((o) => o.orderId)).toContain(orderId);
    await expect(p.fail(orderId, 'operator:anna', 'again')).rejects.toMatchObject({
      code: 'ORDER_NOT_WAITING',
    });
    // Stopped: the worker leaves it alone.
    clock.advance(CONFIRM_S);
    await run();
    expect((await rowOf(orderId)).isComplete).toBe(false);

    const retried = await p.retry(orderId, 'operator:anna');
    expect(retried).toMatchObject({ waitingFor: 'network', nextStep: 'active' });
    const completed = await p.complete(orderId, 'operator:bjarni', 'customer called');
    expect(completed).toMatchObject({ isComplete: true, lastStep: 'active' });
    await expect(p.advance(orderId, 'operator:anna')).rejects.toMatchObject({
      code: 'ORDER_NOT_WAITING',
    });
    await expect(p.describe(randomUUID())).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const described = await p.describe(orderId);
    expect(described.steps.map((s) => `${s.step}:${s.actor}`)).toEqual([
      'received:customer',
      'sim_sent:operator:anna',
      'failed:operator:anna',
      'active:operator:bjarni',
    ]);
    const log = await t.app.db
      .select()
      .from(operatorActions)
      .where(eq(operatorActions.target, orderId));
    expect(log.map((a) => `${a.operator} ${a.verb}`).sort()).toEqual(
      ['anna advance', 'anna fail', 'anna retry', 'bjarni complete'].sort(),
    );
    expect(isValidIccid((await lineOf((await rowOf(orderId)).lineId ?? '')).iccid ?? '')).toBe(
      true,
    );
  });

  it('ADR 0055 sim_change: a switch to eSIM keeps the old SIM until the new one is active, then replaces it', async () => {
    const lineId = DEMO_LINE_IDS.sunneva;
    const old = await lineOf(lineId);
    expect(old.simType).toBe('physical');
    const order = await t.app.db.transaction((tx) =>
      placeSimChange(tx, {
        userId: old.userId ?? '',
        lineId,
        delivery: 'esim',
        now: clock.now(),
        stepS: STEP_S,
      }),
    );
    await expect(
      t.app.db.transaction((tx) =>
        placeSimChange(tx, {
          userId: old.userId ?? '',
          lineId,
          delivery: 'esim',
          now: clock.now(),
          stepS: STEP_S,
        }),
      ),
    ).rejects.toMatchObject({ code: 'ORDER_PROCESSING' });
    clock.advance(STEP_S);
    await run();
    const during = await lineOf(lineId);
    expect(during).toMatchObject({ simType: 'physical', iccid: old.iccid, status: 'active' });
    expect((await rowOf(order.id)).esimMatchingId).toMatch(/^[A-Z0-9]{4}-/);
    // Not installed and confirmed: the new eSIM takes over by itself after the confirm time.
    clock.advance(CONFIRM_S);
    await run();
    const after = await lineOf(lineId);
    expect(after).toMatchObject({
      simType: 'esim',
      iccid: null,
      simPin: null,
      esimMatchingId: (await rowOf(order.id)).esimMatchingId,
      esimInstalled: true,
      status: 'active',
      activatedAt: old.activatedAt,
    });
    expect((await rowOf(order.id)).isComplete).toBe(true);
  });
});
