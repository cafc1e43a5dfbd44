import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dataEnvelope } from '@alda/contract/envelope';
import { monthlyPriceResponse } from '@alda/contract/schemas/billing';
import type { OrderPlacedResponse } from '@alda/contract/schemas/orders';
import { paymentAgreements } from '../src/db/schema/agreements';
import { orders } from '../src/db/schema/orders';
import {
  paymentRefunds,
  payments,
  paymentWebhookRegistrations,
  receipts,
} from '../src/db/schema/payments';
import { monthEndRound } from '../src/jobs/month-end';
import {
  createMonthChargeService,
  monthChargeKey,
} from '../src/modules/billing/month-charge-service';
import { createBillingService } from '../src/modules/billing/service';
import { createMonthEndService } from '../src/modules/month-end/service';
import { REFUND_MAX_ATTEMPTS } from '../src/modules/payments/service';
import { runOperator } from '../src/operator';
import { seedDemoData } from '../src/seed/seed';
import { signIn } from './demo-accounts';
import { createTestApp, demoUser, parse, testClock, type TestApp } from './helper';
import { domesticTotal, PACKAGE, paymentOfOrder } from './payments-fixture';
import { startVippsPrism, type VippsPrism } from './support/vipps-prism';
import { authorizedPayment, epaymentEvent, signedWebhook } from './support/vipps-webhook';

/*
 * Lost answers (ADR 0081 "Lost answers"): Vipps MobilePay took a POST, but its answer never
 * reached us (a time-out, a connection reset). Their guide says "retry the request or poll the
 * resource": a lost answer is unknown, never "failed", until they say so.
 *
 * The provider here is a stand-in: every request goes to Prism, which serves their published
 * documents with request validation on (a request they would refuse is a violation), behind this
 * file's own fetch, which can lose an answer on the way back (the request reached Prism and was
 * taken) or a request on the way there (it never reached them). It remembers what it took — the
 * charges, captures and refunds, by their Idempotency-Key, as the provider does — and answers
 * reads from that: a charge it took is CHARGED, one it never took is a 404.
 */

const HOST = 'minsida.alda.test';
const AGREEMENT = 'agr_lost_answers_1';
const JOANNES = demoUser('Jóannes').id;
const quiet = pino({ level: 'silent' });

let prism: VippsPrism;
let t: TestApp;
const clock = testClock('2026-06-15T12:00:00.000Z');

/** Where the next matching request's answer (or the request itself) is lost. */
let lose: { method: string; path: RegExp; where: 'answer' | 'request'; times: number } | null =
  null;

/** What the stand-in provider took, by kind, each keyed by its Idempotency-Key. */
const took = {
  charges: new Map<string, { orderId: string; amount: number }>(),
  captures: new Map<string, { reference: string; value: number }>(),
  refunds: new Map<string, { reference: string; value: number }>(),
  /** ePayment payments created (reference → amount). */
  created: new Map<string, number>(),
};

const problem = (status: number, title: string) =>
  new Response(JSON.stringify({ type: 'about:blank', title, status }), {
    status,
    headers: { 'content-type': 'application/problem+json' },
  });

const CHARGE = /^\/recurring\/v3\/agreements\/[^/]+\/charges\/([^/]+)$/;
const EPAYMENT = /^\/epayment\/v1\/payments\/([^/]+)$/;

const standIn: typeof fetch = async (input, init) => {
  const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input : input.url);
  const method = (init?.method ?? 'GET').toUpperCase();
  const losing = lose && lose.times > 0 && lose.method === method && lose.path.test(url.pathname);
  if (losing && lose) lose.times -= 1;
  if (losing && lose?.where === 'request') {
    throw new TypeError('fetch failed', { cause: new Error('connect ECONNRESET') });
  }
  const response = await fetch(input, init);
  const headers = new Headers(init?.headers);
  const key = headers.get('idempotency-key') ?? '';
  /** The fields of their request bodies this stand-in reads (CreateChargeV3, CreatePaymentRequest, …). */
  interface Sent {
    orderId?: string;
    amount?: number | { value: number };
    reference?: string;
    modificationAmount?: { value: number };
  }
  const body: Sent = typeof init?.body === 'string' ? (JSON.parse(init.body) as Sent) : {};
  const oere = (amount: Sent['amount']) =>
    typeof amount === 'number' ? amount : (amount?.value ?? 0);
  // What the provider took (Prism accepted the request): the same key is the same thing.
  if (method === 'POST' && response.ok) {
    if (/^\/recurring\/v3\/agreements\/[^/]+\/charges$/.test(url.pathname)) {
      took.charges.set(key, { orderId: body.orderId ?? '', amount: oere(body.amount) });
    } else if (url.pathname === '/epayment/v1/payments') {
      took.created.set(body.reference ?? '', oere(body.amount));
    } else if (url.pathname.endsWith('/capture')) {
      took.captures.set(key, {
        reference: url.pathname.split('/')[4] ?? '',
        value: body.modificationAmount?.value ?? 0,
      });
    } else if (url.pathname.endsWith('/refund')) {
      took.refunds.set(key, {
        reference: url.pathname.split('/')[4] ?? '',
        value: body.modificationAmount?.value ?? oere(body.amount),
      });
    }
  }
  if (losing) {
    await response.body?.cancel();
    throw new TypeError('fetch failed', { cause: new Error('socket hang up') });
  }
  if (method !== 'GET' || !response.ok) return response;
  // Reads answer what was taken (Prism's example rewritten on the way back), or 404.
  const charge = CHARGE.exec(url.pathname);
  if (charge) {
    const made = [...took.charges.values()].find((c) => c.orderId === charge[1]);
    if (!made) return problem(404, 'Not Found');
    const example = (await response.json()) as object;
    return Response.json({
      ...example,
      id: charge[1],
      status: 'CHARGED',
      amount: made.amount,
      currency: 'DKK',
    });
  }
  const epayment = EPAYMENT.exec(url.pathname);
  if (epayment) {
    const reference = epayment[1] ?? '';
    const amount = took.created.get(reference);
    if (amount === undefined) return problem(404, 'Not Found');
    const captured = [...took.captures.values()]
      .filter((c) => c.reference === reference)
      .reduce((sum, c) => sum + c.value, 0);
    const example = (await response.json()) as object;
    return Response.json({ ...authorizedPayment(example, amount, captured), reference });
  }
  return response;
};

beforeAll(async () => {
  prism = await startVippsPrism();
  t = await createTestApp(
    {
      PAYMENT_PROVIDER: 'vipps-mobilepay',
      VIPPS_MOBILEPAY_API_URL: prism.url,
      VIPPS_MOBILEPAY_CLIENT_ID: 'fb492b5e-7907-4d83-ba20-c7fb60ca35de',
      VIPPS_MOBILEPAY_CLIENT_SECRET: 'client-secret',
      VIPPS_MOBILEPAY_SUBSCRIPTION_KEY: 'subscription-key',
      VIPPS_MOBILEPAY_MSN: '123456',
      PAYMENT_RECONCILE_INTERVAL_S: '0',
      MONTH_END_INTERVAL_S: '0',
      APP_URL: `https://${HOST}`,
    },
    { now: clock.now, payments: { fetch: standIn, providerTimeoutMs: 5_000 } },
  );
  await seedDemoData(t.app.db, clock.now());
  // Our webhook is registered with their Webhooks API (the operator's command), as in production.
  const registered = await runOperator(['payments', 'webhooks', 'register'], {
    env: { OPERATOR: 'ops-anna' },
    config: t.config,
    database: t.app.database,
    now: clock.now,
    fetch: standIn,
    out: () => {},
    err: (text) => {
      throw new Error(text);
    },
  });
  expect(registered).toBe(0);
  // Jóannes approved a MobilePay agreement (Recurring v3) before: it is the one the month uses.
  await t.app.db
    .update(paymentAgreements)
    .set({ provider: 'vipps-mobilepay', providerReference: AGREEMENT, cardBrand: 'MobilePay' })
    .where(eq(paymentAgreements.userId, JOANNES));
}, 120_000);

afterAll(async () => {
  await t?.close();
  await prism?.close();
});

beforeEach(() => {
  prism.reset();
  lose = null;
});

/** One month-end round as app.ts runs it: the month end, then the month's charges. */
async function monthEnd() {
  const billing = createBillingService({
    db: t.app.db,
    now: clock.now,
    payments: () => t.app.payments,
  });
  const charge = createMonthChargeService({ db: t.app.db, now: clock.now, log: quiet, billing });
  const monthEndService = createMonthEndService({ db: t.app.db, now: clock.now, log: quiet });
  const { charge: result } = await monthEndRound({
    intervalS: 0,
    run: () => monthEndService.run(),
    charge: () => charge.run(),
    log: quiet,
  });
  return result;
}

const monthOrders = (period: string) =>
  t.app.db
    .select()
    .from(orders)
    .innerJoin(payments, eq(payments.orderId, orders.id))
    .where(
      and(
        eq(orders.userId, JOANNES),
        eq(orders.kind, 'subscription_payment'),
        eq(orders.billingPeriod, period),
      ),
    );

const chargePosts = () =>
  prism.requests.filter(
    (r) => r.method === 'POST' && r.path === `/recurring/v3/agreements/${AGREEMENT}/charges`,
  );

async function monthlyPrice() {
  const res = await t.app.inject({
    method: 'GET',
    url: '/api/billing/monthly-price',
    headers: await signIn(t.app, 'Jóannes'),
  });
  return parse(dataEnvelope(monthlyPriceResponse), res).data;
}

/** An ePayment webhook as their Webhooks API sends it, signed with the registered secret. */
async function sendEvent(reference: string, name: string, value: number) {
  const [registration] = await t.app.db.select().from(paymentWebhookRegistrations);
  const event = epaymentEvent(reference, name, value, clock.now());
  return t.app.inject(
    signedWebhook(event, { secret: registration?.secret ?? '', signedAt: clock.now(), host: HOST }),
  );
}

describe('a lost answer is unknown, never "failed", until Vipps MobilePay says so (issue 61 §1; SPEC §1 view and pay for subscriptions)', () => {
  it('the month charge they took but whose answer was lost: kept pending, read by reconciliation, charged exactly once, one receipt', async () => {
    // 1 July 00:05 in Tórshavn: the month-end round charges July on the agreement.
    clock.set('2026-06-30T23:05:00.000Z');
    lose = {
      method: 'POST',
      path: /^\/recurring\/v3\/agreements\/[^/]+\/charges$/,
      where: 'answer',
      times: 1,
    };
    const first = await monthEnd();
    expect(first).toMatchObject({ period: '2026-07', unavailable: 1, failed: 0 });
    expect(took.charges.size).toBe(1);

    // Not failed: pending, under the id the charge has at the provider (our orderId), key kept.
    const [held] = await monthOrders('2026-07');
    expect(held?.payments).toMatchObject({
      state: 'pending',
      providerPaymentId: `ch:${AGREEMENT}:${held?.payments.id}`,
      failureReason: null,
    });
    expect(held?.orders).toMatchObject({
      paymentStatus: 'pending',
      isCancelled: false,
      idempotencyKey: monthChargeKey(JOANNES, '2026-07'),
    });
    // The customer is not told the month failed, and is not asked to pay it again.
    const waiting = await monthlyPrice();
    expect(waiting.paidOrderId).toBeNull();
    const pay = await t.app.inject({
      method: 'POST',
      url: '/api/billing/pay',
      headers: { ...(await signIn(t.app, 'Jóannes')), 'idempotency-key': randomUUID() },
      payload: { payWith: 'mobilepay' },
    });
    // Paying the month in the app meanwhile answers the open charge: nothing is paid twice.
    expect(pay.json<{ data: OrderPlacedResponse }>().data.order.id).toBe(held?.orders.id);
    expect(prism.requests.filter((r) => r.path === '/epayment/v1/payments')).toEqual([]);

    // A second round before reconciliation has read it: no second charge.
    clock.advance(600);
    await monthEnd();
    expect(chargePosts()).toHaveLength(1);

    // Reconciliation reads the charge they took: CHARGED, so the month is paid.
    await t.app.payments.reconcile({ afterS: 60 });
    const [paid] = await monthOrders('2026-07');
    expect(paid?.payments.state).toBe('paid');
    expect(paid?.orders.paymentStatus).toBe('paid');
    expect((await monthlyPrice()).paidOrderId).toBe(paid?.orders.id);

    // And a third round later on: nothing more.
    clock.advance(3_600);
    await monthEnd();
    expect(await monthOrders('2026-07')).toHaveLength(1);
    expect(took.charges.size).toBe(1);
    expect(chargePosts()).toHaveLength(1);
    const ledger = await t.app.db
      .select()
      .from(receipts)
      .where(eq(receipts.orderId, paid?.orders.id ?? ''));
    expect(ledger).toHaveLength(1);
    expect(prism.violations).toEqual([]);
  });

  it('a month charge that never reached them: failed only after their 404, then charged once by the next round', async () => {
    clock.set('2026-07-31T23:05:00.000Z'); // 1 August 00:05 in Tórshavn
    const chargesBefore = took.charges.size;
    lose = {
      method: 'POST',
      path: /^\/recurring\/v3\/agreements\/[^/]+\/charges$/,
      where: 'request',
      times: 1,
    };
    expect(await monthEnd()).toMatchObject({ period: '2026-08', unavailable: 1 });
    const [unknown] = await monthOrders('2026-08');
    expect(unknown?.payments.state).toBe('pending');
    const chargeId = unknown?.payments.id ?? '';

    // Reconciliation asks for the charge; they have none under that id: only now failed.
    clock.advance(120);
    await t.app.payments.reconcile({ afterS: 60 });
    const gets = prism.requests.filter(
      (r) =>
        r.method === 'GET' &&
        r.path === `/recurring/v3/agreements/${AGREEMENT}/charges/${chargeId}`,
    );
    expect(gets).toHaveLength(1);
    const [given] = await monthOrders('2026-08');
    expect(given?.payments).toMatchObject({
      state: 'failed',
      failureReason: 'not_made_at_provider',
    });
    expect(given?.orders).toMatchObject({ isCancelled: true, idempotencyKey: null });

    // The next round charges the month: one charge in all, with a new orderId and key.
    await monthEnd();
    expect(took.charges.size).toBe(chargesBefore + 1);
    const august = await monthOrders('2026-08');
    const placed = august.find((row) => row.payments.state !== 'failed');
    // Taken by them (answered): open here until their charge is read on its due date.
    expect(placed?.payments.state).toBe('created');
    expect(placed?.payments.providerPaymentId).not.toBeNull();
    const [post] = chargePosts().slice(-1);
    expect(post?.headers['idempotency-key']).toBe(placed?.payments.id);
    expect(post?.body).toMatchObject({ orderId: placed?.payments.id });
    expect(prism.violations).toEqual([]);
  });

  it('a purchase whose capture answer was lost: pending, never failed; reconciliation sees it captured, data added once, one capture', async () => {
    const auth = await signIn(t.app, 'Jóannes');
    const before = await domesticTotal(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/packages',
      headers: { ...auth, 'idempotency-key': randomUUID() },
      payload: { packageId: PACKAGE.id, phoneNumber: '214455', payWith: 'mobilepay' },
    });
    expect(res.statusCode).toBe(201);
    const placed = res.json<{ data: OrderPlacedResponse }>().data;
    const payment = await paymentOfOrder(t.app, placed.order.id);

    // Approved in MobilePay; our capture reaches them, its answer does not reach us.
    lose = { method: 'POST', path: /\/capture$/, where: 'answer', times: 1 };
    expect((await sendEvent(payment.id, 'AUTHORIZED', PACKAGE.priceOere)).statusCode).toBe(200);
    expect(await paymentOfOrder(t.app, placed.order.id)).toMatchObject({ state: 'pending' });
    expect(await domesticTotal(t.app)).toBe(before);

    clock.advance(120);
    await t.app.payments.reconcile({ afterS: 60 });
    expect(await paymentOfOrder(t.app, placed.order.id)).toMatchObject({ state: 'paid' });
    expect(await domesticTotal(t.app)).toBe(before + PACKAGE.dataMb);
    const captures = [...took.captures.values()].filter((c) => c.reference === payment.id);
    expect(captures).toHaveLength(1);
    const ledger = await t.app.db
      .select()
      .from(receipts)
      .where(eq(receipts.orderId, placed.order.id));
    expect(ledger).toHaveLength(1);
    expect(prism.violations).toEqual([]);
  });

  it('a purchase whose create answer was lost: the customer hears "try again", the payment stays open until they say 404', async () => {
    const auth = await signIn(t.app, 'Jóannes');
    const key = randomUUID();
    const buy = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/packages',
        headers: { ...auth, 'idempotency-key': key, 'accept-language': 'en' },
        payload: { packageId: PACKAGE.id, phoneNumber: '214455', payWith: 'card' },
      });
    lose = { method: 'POST', path: /^\/epayment\/v1\/payments$/, where: 'request', times: 1 };
    const first = await buy();
    expect(first.statusCode).toBe(503);
    expect(first.json()).toMatchObject({ error: { code: 'PAYMENT_PROVIDER_UNAVAILABLE' } });
    const [order] = await t.app.db
      .select()
      .from(orders)
      .where(and(eq(orders.userId, JOANNES), eq(orders.idempotencyKey, key)));
    const payment = await paymentOfOrder(t.app, order?.id ?? '');
    expect(payment).toMatchObject({ state: 'pending', providerPaymentId: `ep:${payment.id}` });
    // The same request again while nobody knows: still "try again", and no second payment.
    expect((await buy()).statusCode).toBe(503);
    expect(prism.requests.filter((r) => r.path === '/epayment/v1/payments')).toHaveLength(0);

    clock.advance(120);
    await t.app.payments.reconcile({ afterS: 60 });
    expect(await paymentOfOrder(t.app, order?.id ?? '')).toMatchObject({
      state: 'failed',
      failureReason: 'not_made_at_provider',
    });
    // Now it is known that nothing was made: the same key places it anew.
    const again = await buy();
    expect(again.statusCode).toBe(201);
    expect(prism.violations).toEqual([]);
  });

  it('a refund whose answer is lost again and again is never called failed; sent again with the same key, refunded once', async () => {
    const auth = await signIn(t.app, 'Jóannes');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/packages',
      headers: { ...auth, 'idempotency-key': randomUUID() },
      payload: { packageId: PACKAGE.id, phoneNumber: '214455', payWith: 'card' },
    });
    const placed = res.json<{ data: OrderPlacedResponse }>().data;
    const payment = await paymentOfOrder(t.app, placed.order.id);
    await sendEvent(payment.id, 'AUTHORIZED', PACKAGE.priceOere);
    expect((await paymentOfOrder(t.app, placed.order.id)).state).toBe('paid');

    const refund = await t.app.payments.requestRefund({
      paymentId: payment.id,
      amountOere: PACKAGE.priceOere,
      reason: 'goodwill',
      by: { actor: 'staff:anna@alda.fo', staffUserId: null },
    });
    // Every answer lost, more times than a refund that fails is tried.
    lose = { method: 'POST', path: /\/refund$/, where: 'answer', times: REFUND_MAX_ATTEMPTS + 1 };
    for (let round = 0; round <= REFUND_MAX_ATTEMPTS; round += 1) {
      expect(await t.app.payments.refundDue()).toMatchObject({ refunded: 0 });
      clock.advance(7 * 3_600);
    }
    const [waiting] = await t.app.db
      .select()
      .from(paymentRefunds)
      .where(eq(paymentRefunds.id, refund.id));
    expect(waiting?.state).toBe('pending');

    // Their answer comes through at last: refunded, and they paid back once.
    expect(await t.app.payments.refundDue()).toMatchObject({ refunded: 1 });
    const [done] = await t.app.db
      .select()
      .from(paymentRefunds)
      .where(eq(paymentRefunds.id, refund.id));
    expect(done?.state).toBe('refunded');
    const sentRefunds = prism.requests.filter(
      (r) => r.method === 'POST' && r.path === `/epayment/v1/payments/${payment.id}/refund`,
    );
    expect(sentRefunds.length).toBe(REFUND_MAX_ATTEMPTS + 2);
    expect(new Set(sentRefunds.map((r) => r.headers['idempotency-key']))).toEqual(
      new Set([refund.id]),
    );
    expect([...took.refunds.keys()].filter((k) => k === refund.id)).toHaveLength(1);
    expect(prism.violations).toEqual([]);
  });
});

describe('an agreement belongs to the provider that made it (issue 61 §2; SPEC §2 profile.agreement)', () => {
  it("never sends the test provider's agreement to Vipps MobilePay: the month is not charged on it nor called failed, and the customer is asked to renew it", async () => {
    // Guðrun's agreement is the test provider's (demo data); the app now runs on Vipps MobilePay.
    const GUDRUN = demoUser('Guðrun').id;
    clock.set('2026-08-31T23:05:00.000Z'); // 1 September 00:05 in Tórshavn
    await monthEnd();
    expect(prism.requests.filter((r) => r.path.includes('demo-card-gudrun'))).toEqual([]);
    const september = await t.app.db
      .select()
      .from(orders)
      .where(and(eq(orders.userId, GUDRUN), eq(orders.kind, 'subscription_payment')));
    expect(september.filter((o) => o.billingPeriod === '2026-09')).toEqual([]);

    const auth = await signIn(t.app, 'Guðrun');
    const agreement = await t.app.inject({ method: 'GET', url: '/api/agreements', headers: auth });
    expect(agreement.json()).toMatchObject({ data: { status: 'expired', needsRenewal: true } });
    // Paying the month with it is refused as "approve an agreement first", never sent on.
    const pay = await t.app.inject({
      method: 'POST',
      url: '/api/billing/pay',
      headers: { ...auth, 'idempotency-key': randomUUID() },
      payload: { payWith: 'agreement' },
    });
    expect(pay.statusCode).toBe(409);
    expect(pay.json()).toMatchObject({ error: { code: 'AGREEMENT_REQUIRED' } });
    // Ending it here does not send the test provider's id to Vipps MobilePay either.
    const ended = await t.app.inject({ method: 'DELETE', url: '/api/agreements', headers: auth });
    expect(ended.statusCode).toBe(200);
    expect(prism.requests.filter((r) => r.path.includes('demo-card-gudrun'))).toEqual([]);
    expect(prism.violations).toEqual([]);
  });
});
