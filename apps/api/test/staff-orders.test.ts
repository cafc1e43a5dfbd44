import { randomUUID } from 'node:crypto';
import { and, eq, like } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope, errorEnvelope } from '@alda/contract/envelope';
import { orderPlacedResponse, orderResponse } from '@alda/contract/schemas/orders';
import {
  STAFF_ORDER_FILTERS,
  staffOrderDetail,
  staffOrdersPage,
  type StaffOrderDetail,
  type StaffOrderFilter,
} from '@alda/contract/schemas/staff-orders';
import { operatorActions } from '../src/db/schema/provisioning';
import { runOperator } from '../src/operator';
import { demoOrderId } from '../src/seed/demo-accounts';
import { createDemoApp, NOW } from './demo-accounts';
import { parse, testClock } from './helper';
import {
  iccidEndingIn,
  newCustomer,
  postSignup,
  rejectedIccid,
  reserve,
  signupBody,
} from './provisioning-fixtures';
import { signInStaff, type TestStaff } from './staff-helper';

/*
 * The staff console's orders area (issue 31, docs/decisions/0075-staff-console.md) on the real
 * app and database (PGlite, or PostgreSQL with DATABASE_URL): the queue's filters, ETag polling,
 * the provisioning commands through the operator service (one set of rules with
 * `npm run operator`), the refusals per role and per bad input, one audit entry per command, and
 * the rejected port handled end to end while the customer's app sees the order move.
 */

/** Guðrun's second number, ported from another provider on an eSIM (demo-provisioning.ts). */
const GUDRUN_ORDER = demoOrderId(8);
/** Bárður's number on the Joensen family plan: the SIM card was sent home (waits on him). */
const BARDUR_ORDER = demoOrderId(5);
const STEP_S = 30;

const clock = testClock(NOW.toISOString());
let t: Awaited<ReturnType<typeof createDemoApp>>;
let provisioning: TestStaff;
let support: TestStaff;
let content: TestStaff;
let admin: TestStaff;
let numberSeq = 0;
/** A number no one has: 2196xx, one per call. */
const freshNumber = () => `2196${String((numberSeq += 1)).padStart(2, '0')}`;

beforeAll(async () => {
  t = await createDemoApp(
    { RATE_LIMIT_MAX: '0', ACCESS_TOKEN_TTL_S: '86400', PROVISIONING_STEP_S: String(STEP_S) },
    { now: clock.now },
  );
  provisioning = await signInStaff(t.app, 'provisioning', clock.now);
  support = await signInStaff(t.app, 'support', clock.now);
  content = await signInStaff(t.app, 'content', clock.now);
  admin = await signInStaff(t.app, 'admin', clock.now);
});
afterAll(async () => {
  await t?.close();
});

/** Moves the app's clock; staff sessions stay alive (15 minutes idle) as long as tests use them. */
const advance = (seconds: number) => clock.advance(seconds);
const runWorker = () => t.app.provisioning.runDue();

const get = (url: string, staff: TestStaff, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { ...staff.headers, ...headers } });
const post = (url: string, staff: TestStaff, payload: unknown, locale = 'en') =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { ...staff.headers, 'accept-language': locale },
    payload: payload as Record<string, unknown>,
  });

async function queue(state: StaffOrderFilter, staff = provisioning, q?: string) {
  const query = new URLSearchParams({ state, ...(q ? { q } : {}) });
  const res = await get(`/api/staff/orders?${query}`, staff);
  expect(res.statusCode, res.body).toBe(200);
  return parse(dataEnvelope(staffOrdersPage), res).data;
}
const idsIn = async (state: StaffOrderFilter) => (await queue(state)).items.map((o) => o.id);

async function order(id: string, staff = provisioning, locale = 'en'): Promise<StaffOrderDetail> {
  const res = await get(`/api/staff/orders/${id}`, staff, { 'accept-language': locale });
  expect(res.statusCode, res.body).toBe(200);
  return parse(dataEnvelope(staffOrderDetail), res).data;
}

const command = (verb: string, id: string, payload: unknown = {}, staff = provisioning) =>
  post(`/api/staff/orders/${id}/${verb}`, staff, payload);

function detailOf(res: LightMyRequestResponse): StaffOrderDetail {
  expect(res.statusCode, res.body).toBe(200);
  return parse(dataEnvelope(staffOrderDetail), res).data;
}
const errorOf = (res: LightMyRequestResponse) => parse(errorEnvelope, res).error;

/** The console's audit entries of an order (`order.*`). */
const auditOf = (orderId: string) =>
  t.app.db
    .select()
    .from(operatorActions)
    .where(and(eq(operatorActions.target, orderId), like(operatorActions.verb, 'order.%')));

/** A new customer's sign-up (eSIM, a new number, or a port with `simcardNumber`): its order id. */
async function placeOrder(porting?: { simcardNumber: string }) {
  const customer = await newCustomer(t.app);
  const res = await postSignup(
    t.app,
    customer.headers,
    signupBody(
      porting
        ? { porting: { phoneNumber: freshNumber(), simcardNumber: porting.simcardNumber } }
        : { phoneNumberReservationId: await reserve(t.app, customer.headers, freshNumber()) },
    ),
    randomUUID(),
  );
  expect(res.statusCode, res.body).toBe(201);
  return { customer, orderId: parse(dataEnvelope(orderPlacedResponse), res).data.order.id };
}

/** A port the other provider rejects: the worker performs eSIM ready, port requested, rejected. */
async function rejectedPort() {
  const placed = await placeOrder({ simcardNumber: rejectedIccid() });
  for (let i = 0; i < 3; i += 1) {
    advance(STEP_S);
    await runWorker();
  }
  return placed;
}

/** The customer's app: GET /api/orders/:id as the customer. */
async function customerOrder(headers: { authorization: string }, id: string) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/orders/${id}`,
    headers: { ...headers, 'accept-language': 'en' },
  });
  expect(res.statusCode, res.body).toBe(200);
  return parse(dataEnvelope(orderResponse), res).data;
}

/** The customer app's 60-second poll (SPEC §4 "Polling"): the notifications with their ETag. */
async function customerPoll(headers: { authorization: string }, etag?: string) {
  const res = await t.app.inject({
    method: 'GET',
    url: '/api/notifications',
    headers: { ...headers, 'accept-language': 'en', ...(etag ? { 'if-none-match': etag } : {}) },
  });
  expect([200, 304]).toContain(res.statusCode);
  return { status: res.statusCode, etag: String(res.headers.etag) };
}

describe('who may use the orders area (each role refused where it must be)', () => {
  it('content is refused everything: the queue, an order, every command and the port correction (403)', async () => {
    for (const url of ['/api/staff/orders', `/api/staff/orders/${GUDRUN_ORDER}`]) {
      const res = await get(url, content);
      expect(res.statusCode).toBe(403);
      expect(errorOf(res).code).toBe('FORBIDDEN');
    }
    for (const verb of ['advance', 'complete', 'fail', 'retry']) {
      const res = await command(verb, GUDRUN_ORDER, { reason: 'Ticket 123' }, content);
      expect(res.statusCode, verb).toBe(403);
    }
    const correction = await command(
      'port-correction',
      GUDRUN_ORDER,
      { simcardNumber: iccidEndingIn('4711'), reason: 'Ticket 123' },
      content,
    );
    expect(correction.statusCode).toBe(403);
  });

  it('support reads the queue and an order but is refused advance, complete, fail and retry (403), and nothing changes', async () => {
    expect((await queue('processing', support)).items.length).toBeGreaterThan(0);
    expect((await order(GUDRUN_ORDER, support)).id).toBe(GUDRUN_ORDER);
    for (const verb of ['advance', 'complete', 'fail', 'retry']) {
      const res = await command(verb, GUDRUN_ORDER, { reason: 'Ticket 123' }, support);
      expect(res.statusCode, verb).toBe(403);
      expect(errorOf(res).code).toBe('FORBIDDEN');
    }
    expect(await auditOf(GUDRUN_ORDER)).toEqual([]);
  });

  it('no token is 401, a customer token is 401 (staff routes take staff tokens only)', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/api/staff/orders' });
    expect(none.statusCode).toBe(401);
    const customer = await t.app.inject({
      method: 'POST',
      url: `/api/staff/orders/${GUDRUN_ORDER}/advance`,
      headers: t.as.Guðrun,
      payload: {},
    });
    expect(customer.statusCode).toBe(401);
  });

  it('admin passes every guard', async () => {
    expect((await queue('processing', admin)).state).toBe('processing');
  });
});

describe('the queue (GET /api/staff/orders)', () => {
  it("lists the demo's orders being set up with customer, number, kind, state, last step and next due", async () => {
    const page = await queue('processing');
    expect(page.stepS).toBe(STEP_S);
    const gudrun = page.items.find((o) => o.id === GUDRUN_ORDER);
    expect(gudrun).toMatchObject({
      msisdn: '557813',
      kind: 'new_subscription',
      isPorting: true,
      delivery: 'esim',
      state: 'waiting-network',
      waitingFor: 'network',
      lastStep: 'port_date_set',
      nextStep: 'number_moved',
      late: false,
    });
    expect(gudrun?.customer.name).toMatch(/^Guðrun /);
    expect(gudrun?.lastStepAt).not.toBeNull();
    expect(gudrun?.nextAt).toBe(new Date(NOW.getTime() + 2 * 86_400_000).toISOString());
    expect(page.items.find((o) => o.id === BARDUR_ORDER)).toMatchObject({
      state: 'waiting-customer',
      waitingFor: 'customer_sim',
      delivery: 'home',
      lastStep: 'sim_sent',
    });
  });

  it('each filter lists the orders in its state: waiting network / customer, rejected, failed, due today, late', async () => {
    // A rejected port, a failed order and a fresh order whose next step is due in one step.
    const rejected = await rejectedPort();
    const failed = await placeOrder();
    detailOf(await command('fail', failed.orderId, { reason: 'Ticket 77: the customer asked' }));
    const fresh = await placeOrder();

    expect(await idsIn('waiting-network')).toEqual(
      expect.arrayContaining([GUDRUN_ORDER, fresh.orderId]),
    );
    expect(await idsIn('waiting-network')).not.toContain(BARDUR_ORDER);
    expect(await idsIn('waiting-customer')).toEqual(
      expect.arrayContaining([BARDUR_ORDER, rejected.orderId]),
    );
    expect(await idsIn('rejected')).toContain(rejected.orderId);
    expect(await idsIn('rejected')).not.toContain(BARDUR_ORDER);
    expect(await idsIn('failed')).toContain(failed.orderId);
    expect(await idsIn('processing')).not.toContain(failed.orderId);
    expect(await idsIn('all')).toEqual(
      expect.arrayContaining([failed.orderId, rejected.orderId, GUDRUN_ORDER]),
    );
    // Due before the end of today (Faroese time): the fresh order, in one step; the demo's port
    // date is in two days.
    expect(await idsIn('due-today')).toContain(fresh.orderId);
    expect(await idsIn('due-today')).not.toContain(GUDRUN_ORDER);
    expect(await idsIn('due-today')).not.toContain(rejected.orderId);
    expect(await idsIn('late')).not.toContain(fresh.orderId);

    // The worker does not run: one step period past its due time, the fresh order is late.
    advance(STEP_S * 2 + 1);
    const late = await queue('late');
    expect(late.items.map((o) => o.id)).toContain(fresh.orderId);
    expect(late.items.find((o) => o.id === fresh.orderId)?.late).toBe(true);
    expect(late.items.map((o) => o.id)).not.toContain(BARDUR_ORDER);
    expect(late.counts.late).toBe(late.items.length);
    // The counts are those of the filters.
    for (const filter of ['rejected', 'failed', 'waiting-customer'] as const)
      expect((await queue('late')).counts[filter], filter).toBe((await queue(filter)).items.length);

    // The command line has the same filter (one rule).
    let out = '';
    const code = await runOperator(['orders', '--state', 'late'], {
      env: {},
      config: t.config,
      database: t.app.database,
      now: clock.now,
      osUser: () => 'os-user',
      out: (text) => {
        out += text;
      },
      err: () => {},
    });
    expect(code).toBe(0);
    expect(out).toContain(fresh.orderId);
    expect(out).not.toContain(GUDRUN_ORDER);

    // The worker catches up: no longer late.
    await runWorker();
    expect(await idsIn('late')).not.toContain(fresh.orderId);
  });

  it('q finds an order by number, customer name or order id', async () => {
    expect((await queue('processing', provisioning, '557 813')).items.map((o) => o.id)).toEqual([
      GUDRUN_ORDER,
    ]);
    expect((await queue('processing', provisioning, 'GUÐRUN')).items.map((o) => o.id)).toContain(
      GUDRUN_ORDER,
    );
    expect(
      (await queue('all', provisioning, BARDUR_ORDER.slice(0, 13))).items.map((o) => o.id),
    ).toContain(BARDUR_ORDER);
    expect((await queue('processing', provisioning, 'nobody-at-all')).items).toEqual([]);
  });

  it('refuses an unknown filter and a limit out of range (400, never 500)', async () => {
    for (const query of ['state=stuck', 'limit=0', 'limit=501', 'limit=x']) {
      const res = await get(`/api/staff/orders?${query}`, provisioning);
      expect(res.statusCode, query).toBe(400);
      expect(errorOf(res).code).toBe('VALIDATION_FAILED');
    }
  });

  it('answers 304 for an unchanged ETag (cheap polling) and 200 once an order moved', async () => {
    const { orderId } = await placeOrder();
    const first = await get('/api/staff/orders?state=processing', provisioning);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/"/);
    const again = await get('/api/staff/orders?state=processing', provisioning, {
      'if-none-match': etag,
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const detail = await get(`/api/staff/orders/${orderId}`, provisioning);
    const detailEtag = String(detail.headers.etag);
    expect(
      (await get(`/api/staff/orders/${orderId}`, provisioning, { 'if-none-match': detailEtag }))
        .statusCode,
    ).toBe(304);

    detailOf(await command('advance', orderId));

    const changed = await get('/api/staff/orders?state=processing', provisioning, {
      'if-none-match': etag,
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    const movedDetail = await get(`/api/staff/orders/${orderId}`, provisioning, {
      'if-none-match': detailEtag,
    });
    expect(movedDetail.statusCode).toBe(200);
  });
});

describe('one order (GET /api/staff/orders/:id)', () => {
  it('shows the step timeline with who did each, the customer and the line, and the commands the state allows', async () => {
    const detail = await order(GUDRUN_ORDER);
    expect(detail.steps.map((s) => [s.step, s.actor])).toEqual([
      ['received', 'customer'],
      ['esim_ready', 'network'],
      ['port_requested', 'network'],
      ['port_date_set', 'network'],
    ]);
    expect(detail.customer.name).toMatch(/^Guðrun /);
    expect(detail.customer.email).toContain('@');
    expect(detail.line).toMatchObject({ msisdn: '557813', status: 'processing' });
    expect(detail.upcoming).toEqual(['number_moved', 'active']);
    expect(detail.porting).toMatchObject({ rejection: null, correction: null });
    expect(detail.porting?.simcardNumber).toMatch(/^\d{19}$/);
    expect(detail.actions).toEqual({
      advance: { allowed: true, refusal: null },
      complete: { allowed: true, refusal: null },
      fail: { allowed: true, refusal: null },
      retry: { allowed: false, refusal: 'not-retryable' },
      'port-correction': { allowed: false, refusal: 'not-rejected' },
    });
  });

  it('404 for an unknown order, 400 for an id that is not a uuid', async () => {
    const unknown = await get(`/api/staff/orders/${randomUUID()}`, provisioning);
    expect(unknown.statusCode).toBe(404);
    expect(errorOf(unknown).code).toBe('NOT_FOUND');
    const bad = await get('/api/staff/orders/not-an-id', provisioning);
    expect(bad.statusCode).toBe(400);
    const command404 = await command('retry', randomUUID());
    expect(command404.statusCode).toBe(404);
  });
});

describe("the commands (provisioning): the operator service's rules, one audit entry each", () => {
  it('fail and complete need a reason the customer sees (400 STAFF_REASON_REQUIRED), and write nothing without one', async () => {
    const { orderId } = await placeOrder();
    for (const verb of ['fail', 'complete']) {
      for (const payload of [{}, { reason: '' }, { reason: '  ' }, { reason: 12 }]) {
        const res = await command(verb, orderId, payload);
        expect(res.statusCode, `${verb} ${JSON.stringify(payload)}`).toBe(400);
        expect(errorOf(res)).toMatchObject({ code: 'STAFF_REASON_REQUIRED', field: 'reason' });
        expect(errorOf(res).message).toBe('Give a reason (ticket or call reference).');
      }
    }
    const fo = await post(`/api/staff/orders/${orderId}/fail`, provisioning, {}, 'fo');
    expect(errorOf(fo).message).toBe('Skriva eina orsøk (mál- ella samtalunummar).');
    const tooLong = await command('advance', orderId, { reason: 'x'.repeat(501) });
    expect(tooLong.statusCode).toBe(400);
    expect(await auditOf(orderId)).toEqual([]);
    expect((await order(orderId)).lastStep).toBe('received');
  });

  it('SPEC §4 "Subscription processing can take days": fail stops the order with the reason the customer sees; retry makes it due again; exactly one audit entry per command with staff:<email>', async () => {
    const { customer, orderId } = await placeOrder();
    const reason = 'Ticket 4711: the network refused the eSIM profile';
    const failed = detailOf(await command('fail', orderId, { reason }));
    expect(failed).toMatchObject({ state: 'failed', waitingFor: 'none', lastStep: 'failed' });
    expect(failed.steps.at(-1)).toMatchObject({
      step: 'failed',
      actor: `staff:${provisioning.email}`,
      operatorReason: reason,
    });
    expect(failed.actions.retry.allowed).toBe(true);
    expect(failed.actions.advance).toEqual({ allowed: false, refusal: 'failed' });
    expect(failed.actions.fail).toEqual({ allowed: false, refusal: 'already-failed' });
    expect((await customerOrder(customer.headers, orderId)).provisioning?.steps.at(-1)).toEqual(
      expect.objectContaining({ step: 'failed', reason }),
    );

    let audit = await auditOf(orderId);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      operator: `staff:${provisioning.email}`,
      staffUserId: provisioning.id,
      kind: 'change',
      verb: 'order.fail',
      targetType: 'order',
      target: orderId,
      reason,
    });
    expect(failed.history.map((e) => e.action)).toEqual(['order.fail']);

    const retried = detailOf(await command('retry', orderId, {}));
    expect(retried).toMatchObject({ state: 'waiting-network', waitingFor: 'network' });
    expect(retried.nextAt).toBe(clock.now().toISOString());
    audit = await auditOf(orderId);
    expect(audit.map((a) => a.verb).sort()).toEqual(['order.fail', 'order.retry']);
    expect(audit.find((a) => a.verb === 'order.retry')?.reason).toBeNull();
  });

  it('a command the state does not allow is 409 STAFF_ACTION_NOT_ALLOWED with its localized message, and writes no audit entry', async () => {
    const { orderId } = await placeOrder();
    const retry = await command('retry', orderId);
    expect(retry.statusCode).toBe(409);
    expect(errorOf(retry)).toMatchObject({
      code: 'STAFF_ACTION_NOT_ALLOWED',
      message: 'This cannot be done in its present state.',
    });
    detailOf(await command('fail', orderId, { reason: 'Ticket 1: stopped' }));
    expect((await command('fail', orderId, { reason: 'Ticket 2: again' })).statusCode).toBe(409);
    expect((await command('advance', orderId)).statusCode).toBe(409);
    detailOf(await command('complete', orderId, { reason: 'Ticket 3: done by hand' }));
    for (const verb of ['advance', 'complete', 'fail', 'retry']) {
      const res = await command(verb, orderId, { reason: 'Ticket 4: once more' });
      expect(res.statusCode, verb).toBe(409);
    }
    const audit = await auditOf(orderId);
    expect(audit.map((a) => a.verb).sort()).toEqual(['order.complete', 'order.fail']);
    const done = await order(orderId);
    expect(done).toMatchObject({ state: 'complete', lastStep: 'active' });
    expect(done.line?.status).toBe('active');
    expect(Object.values(done.actions).every((a) => !a.allowed)).toBe(true);
  });

  it("advance performs the next step now, and the customer's app sees the order move (change version bumped → 200 on its 304 poll)", async () => {
    const before = await customerOrder(t.as.Guðrun, GUDRUN_ORDER);
    expect(before.provisioning?.steps.at(-1)?.step).toBe('port_date_set');
    const first = await customerPoll(t.as.Guðrun);
    expect((await customerPoll(t.as.Guðrun, first.etag)).status).toBe(304);

    const moved = detailOf(await command('advance', GUDRUN_ORDER, {}));
    expect(moved.lastStep).toBe('number_moved');
    expect(moved.steps.at(-1)?.actor).toBe(`staff:${provisioning.email}`);

    const after = await customerPoll(t.as.Guðrun, first.etag);
    expect(after.status).toBe(200);
    expect(after.etag).not.toBe(first.etag);
    expect((await customerOrder(t.as.Guðrun, GUDRUN_ORDER)).provisioning?.steps.at(-1)?.step).toBe(
      'number_moved',
    );
    expect((await auditOf(GUDRUN_ORDER)).map((a) => a.verb)).toEqual(['order.advance']);
  });
});

describe('a rejected port (issue 31: see the reason, the correction, retry, the customer sees it)', () => {
  it("SPEC §1 number porting: rejected → the customer corrects in the app → staff see the provider's reason and the correction → retry → the port is asked again and the customer's app shows it", async () => {
    const { customer, orderId } = await rejectedPort();

    const rejected = await order(orderId);
    expect(await idsIn('rejected')).toContain(orderId);
    expect(rejected).toMatchObject({ state: 'rejected', lastStep: 'port_rejected' });
    expect(rejected.porting?.rejection).toMatchObject({
      code: 'PORT_SIMCARD_MISMATCH',
      reason: "The SIM card number does not match your current provider's records.",
    });
    expect(rejected.steps.at(-1)).toMatchObject({
      step: 'port_rejected',
      reasonCode: 'PORT_SIMCARD_MISMATCH',
      operatorReason: null,
    });
    expect((await order(orderId, provisioning, 'fo')).porting?.rejection?.reason).toMatch(
      /SIM-kortnummarið passar ikki/,
    );
    expect(rejected.porting?.correction).toEqual({
      state: 'waiting',
      simcardNumber: null,
      at: null,
      by: null,
    });
    expect(rejected.actions['port-correction'].allowed).toBe(true);
    expect(rejected.actions.retry.allowed).toBe(true);

    // The customer corrects the SIM card number in the app.
    advance(60);
    const correctedAt = clock.now().toISOString();
    const good = iccidEndingIn('4711');
    const patch = await t.app.inject({
      method: 'PATCH',
      url: `/api/orders/${orderId}/porting`,
      headers: customer.headers,
      payload: { simcardNumber: good },
    });
    expect(patch.statusCode, patch.body).toBe(200);

    const corrected = await order(orderId);
    expect(await idsIn('rejected')).not.toContain(orderId);
    expect(corrected.porting?.correction).toEqual({
      state: 'entered',
      simcardNumber: good,
      at: correctedAt,
      by: 'customer',
    });
    expect(corrected.porting?.rejection?.code).toBe('PORT_SIMCARD_MISMATCH');

    // Staff retry now instead of waiting a step; the customer's poll sees it.
    const poll = await customerPoll(customer.headers);
    expect((await customerPoll(customer.headers, poll.etag)).status).toBe(304);
    advance(5);
    const retried = detailOf(await command('retry', orderId, { reason: 'Call 5512' }));
    expect(retried).toMatchObject({ waitingFor: 'network', nextAt: clock.now().toISOString() });
    // The correction is still known after the retry (the retry's audit entry says where it stood).
    expect(retried.porting?.correction).toMatchObject({
      state: 'entered',
      at: correctedAt,
      by: 'customer',
    });
    expect((await customerPoll(customer.headers, poll.etag)).status).toBe(200);
    expect((await customerOrder(customer.headers, orderId)).provisioning).toMatchObject({
      waitingFor: 'network',
      expectedAt: clock.now().toISOString(),
    });

    // The worker asks the other provider again with the corrected number: accepted this time.
    const seen = await customerPoll(customer.headers);
    await runWorker();
    const moved = await order(orderId);
    expect(moved.steps.map((s) => s.step).slice(-2)).toEqual(['port_rejected', 'port_requested']);
    expect((await customerPoll(customer.headers, seen.etag)).status).toBe(200);
    expect((await customerOrder(customer.headers, orderId)).provisioning?.steps.at(-1)?.step).toBe(
      'port_requested',
    );
    expect((await auditOf(orderId)).map((a) => [a.verb, a.operator])).toEqual([
      ['order.retry', `staff:${provisioning.email}`],
    ]);
  });

  it('support enters the correction for the customer (same rule as the app, audited once); then the order waits on the network', async () => {
    const { customer, orderId } = await rejectedPort();
    const url = `/api/staff/orders/${orderId}/port-correction`;
    const good = iccidEndingIn('5813');

    const noReason = await post(url, support, { simcardNumber: good });
    expect(errorOf(noReason).code).toBe('STAFF_REASON_REQUIRED');
    const badIccid = await post(url, support, {
      simcardNumber: '8929800000000000001',
      reason: 'Call 881',
    });
    expect(badIccid.statusCode).toBe(400);
    expect(errorOf(badIccid)).toMatchObject({
      code: 'VALIDATION_FAILED',
      field: 'simcardNumber',
    });
    expect(await auditOf(orderId)).toEqual([]);

    const poll = await customerPoll(customer.headers);
    const res = await post(url, support, {
      simcardNumber: good.replace(/(\d{4})/g, '$1 '),
      reason: 'Call 881',
    });
    const detail = detailOf(res);
    expect(detail).toMatchObject({ state: 'waiting-network', waitingFor: 'network' });
    expect(detail.porting).toMatchObject({
      simcardNumber: good,
      correction: {
        state: 'entered',
        simcardNumber: good,
        at: clock.now().toISOString(),
        by: `staff:${support.email}`,
      },
    });
    const audit = await auditOf(orderId);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      operator: `staff:${support.email}`,
      staffUserId: support.id,
      verb: 'order.port-correction',
      targetType: 'order',
      reason: 'Call 881',
      details: { simcardNumber: good, previous: rejectedIccid() },
    });
    // The customer's app sees the order waiting on the network again.
    expect((await customerPoll(customer.headers, poll.etag)).status).toBe(200);
    expect((await customerOrder(customer.headers, orderId)).provisioning?.waitingFor).toBe(
      'network',
    );

    // Not waiting for a correction any more: 409, nothing written.
    const again = await post(url, support, { simcardNumber: good, reason: 'Call 882' });
    expect(again.statusCode).toBe(409);
    expect(errorOf(again).code).toBe('STAFF_ACTION_NOT_ALLOWED');
    expect(await auditOf(orderId)).toHaveLength(1);
    // Provisioning may enter it too (on an order that waits for it).
    const other = await rejectedPort();
    detailOf(
      await post(`/api/staff/orders/${other.orderId}/port-correction`, provisioning, {
        simcardNumber: good,
        reason: 'Ticket 90',
      }),
    );
  });

  it('a retry of a rejected port without a correction asks again with the same number: rejected again', async () => {
    const { orderId } = await rejectedPort();
    const retried = detailOf(await command('retry', orderId, {}));
    expect(retried.porting?.correction?.state).toBe('asked-again');
    advance(1);
    await runWorker(); // port_requested
    advance(STEP_S);
    await runWorker(); // rejected again
    const again = await order(orderId);
    expect(again.steps.map((s) => s.step).slice(-3)).toEqual([
      'port_rejected',
      'port_requested',
      'port_rejected',
    ]);
    expect(again.porting?.correction?.state).toBe('waiting');
  });

  it('a rejected port failed before any correction says so; one failed after the customer corrected says when they did', async () => {
    const uncorrected = await rejectedPort();
    const stopped = detailOf(
      await command('fail', uncorrected.orderId, { reason: 'Ticket 91: the customer gave up' }),
    );
    expect(stopped.porting?.correction).toMatchObject({ state: 'stopped', by: null });
    expect(stopped.porting?.rejection?.code).toBe('PORT_SIMCARD_MISMATCH');

    const corrected = await rejectedPort();
    advance(7);
    const correctedAt = clock.now().toISOString();
    const patch = await t.app.inject({
      method: 'PATCH',
      url: `/api/orders/${corrected.orderId}/porting`,
      headers: corrected.customer.headers,
      payload: { simcardNumber: iccidEndingIn('6120') },
    });
    expect(patch.statusCode, patch.body).toBe(200);
    advance(3);
    const failed = detailOf(
      await command('fail', corrected.orderId, { reason: 'Ticket 92: wrong number after all' }),
    );
    expect(failed.porting?.correction).toEqual({
      state: 'entered',
      simcardNumber: iccidEndingIn('6120'),
      at: correctedAt,
      by: 'customer',
    });
  });
});

describe('older orders page by page (`before`, keyset as the audit log)', () => {
  async function queuePage(state: StaffOrderFilter, query: Record<string, string>) {
    const res = await get(`/api/staff/orders?${new URLSearchParams({ state, ...query })}`, support);
    expect(res.statusCode, res.body).toBe(200);
    return parse(dataEnvelope(staffOrdersPage), res).data;
  }

  /** Walks every page of a filter with `before`; each page's rows and `nextBefore`. */
  async function walk(state: StaffOrderFilter, query: Record<string, string>) {
    const pages: Awaited<ReturnType<typeof queuePage>>[] = [];
    let before: string | null = null;
    do {
      const page = await queuePage(state, { ...query, ...(before ? { before } : {}) });
      pages.push(page);
      if (page.nextBefore !== null) expect(page.nextBefore).toBe(page.items.at(-1)?.id);
      before = page.nextBefore;
      expect(pages.length).toBeLessThan(200);
    } while (before !== null);
    return pages;
  }

  let late: string[] = [];
  beforeAll(async () => {
    // More orders: two at the same instant (ties broken by id), a failed one, a rejected port.
    await placeOrder();
    await placeOrder();
    advance(1);
    const failed = await placeOrder();
    detailOf(await command('fail', failed.orderId, { reason: 'Ticket 301' }));
    advance(1);
    await rejectedPort();
    // Two late orders, then a newer one that is not: `late` is read from the open orders and
    // drops the newer one inside a read (orderInState is the whole rule), so a page reads on.
    late = [(await placeOrder()).orderId];
    advance(1);
    late.unshift((await placeOrder()).orderId);
    advance(STEP_S * 2 + 1);
    await placeOrder();
  });

  it('walks every order of each filter exactly once, newest first, as one long page lists them; the last page says nextBefore null', async () => {
    for (const state of STAFF_ORDER_FILTERS) {
      const whole = await queuePage(state, { limit: '500' });
      expect(whole.nextBefore, state).toBeNull();
      const expected = whole.items.map((o) => o.id);
      // Newest first; orders of the same instant by id, descending.
      for (const [i, row] of whole.items.entries()) {
        const next = whole.items[i + 1];
        if (!next) continue;
        const order =
          row.createdAt === next.createdAt ? row.id > next.id : row.createdAt > next.createdAt;
        expect(order, `${state}: ${row.id} before ${next.id}`).toBe(true);
      }
      for (const limit of [1, 2, 3]) {
        const pages = await walk(state, { limit: String(limit) });
        const ids = pages.flatMap((page) => page.items.map((o) => o.id));
        expect(ids, `${state}, ${limit} a page`).toEqual(expected);
        expect(pages.slice(0, -1).every((page) => page.items.length === limit)).toBe(true);
        expect(pages.at(-1)?.nextBefore).toBeNull();
        // Every page has the counts of the filters (the same on each).
        expect(pages.every((page) => page.counts.processing === whole.counts.processing)).toBe(
          true,
        );
      }
    }
    expect((await queuePage('all', { limit: '500' })).items.length).toBeGreaterThan(6);
    expect((await queuePage('late', { limit: '500' })).items.map((o) => o.id).slice(0, 2)).toEqual(
      late,
    );
    expect((await queuePage('rejected', { limit: '500' })).items.length).toBeGreaterThan(0);
  });

  it('keeps the filter and the search on every page', async () => {
    // 2196xx: the numbers of this file's orders (a new number or a port).
    for (const state of ['all', 'processing'] as const) {
      const whole = await queuePage(state, { q: '2196', limit: '500' });
      expect(whole.items.length, state).toBeGreaterThan(2);
      expect(whole.items.every((o) => o.msisdn?.startsWith('2196'))).toBe(true);
      const pages = await walk(state, { q: '2196', limit: '2' });
      expect(pages.length).toBeGreaterThan(1);
      expect(pages.flatMap((page) => page.items.map((o) => o.id))).toEqual(
        whole.items.map((o) => o.id),
      );
      expect(pages.at(-1)?.nextBefore).toBeNull();
    }
    // A name, any case, Faroese letters folded or not; the start of a number; an order id.
    for (const q of ['GUÐRUN', 'gudrun', 'guðrun', '5578', '+298 557813', GUDRUN_ORDER]) {
      expect(
        (await queuePage('all', { q })).items.map((o) => o.id),
        q,
      ).toContain(GUDRUN_ORDER);
    }
  });

  it('a `before` that is no order is left out (the newest page, as the audit log); a malformed one is 400', async () => {
    const newest = await queuePage('all', { limit: '2' });
    expect(newest.nextBefore).not.toBeNull();
    expect(await queuePage('all', { limit: '2', before: randomUUID() })).toEqual(newest);
    const bad = await get('/api/staff/orders?before=not-an-id', support);
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad).code).toBe('VALIDATION_FAILED');
  });

  it('an older page has its own ETag: 304 while unchanged, 200 once an order on it moved', async () => {
    const first = await queuePage('processing', { limit: '1' });
    const url = `/api/staff/orders?state=processing&limit=1&before=${first.nextBefore}`;
    const older = await get(url, provisioning);
    expect(older.statusCode).toBe(200);
    const etag = String(older.headers.etag);
    const again = await get(url, provisioning, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const [moved] = parse(dataEnvelope(staffOrdersPage), older).data.items;
    if (!moved) throw new Error('no older order');
    detailOf(await command('fail', moved.id, { reason: 'Ticket 302' }));
    // Failed: no longer processing, so the page now holds the next older order.
    const changed = await get(url, provisioning, { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
  });
});
