import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { OrderPlacedResponse } from '@alda/contract/schemas/orders';
import { WEBHOOK_MAX_AGE_S } from '../src/adapters/payments/vipps-mobilepay/signature';
import { paymentAgreements } from '../src/db/schema/agreements';
import { orders } from '../src/db/schema/orders';
import { paymentRefunds, payments, paymentWebhookRegistrations } from '../src/db/schema/payments';
import { runOperator } from '../src/operator';
import { NOW, signIn } from './demo-accounts';
import { createTestApp, demoUser, LogCapture, testClock, type TestApp } from './helper';
import { domesticTotal, orderRow, paymentOfOrder, PACKAGE } from './payments-fixture';
import { seedDemoData } from '../src/seed/seed';
import { startVippsPrism, type VippsPrism } from './support/vipps-prism';
import {
  authorizedPayment,
  epaymentEvent as vippsEvent,
  signedWebhook,
  VIPPS_WEBHOOK_PATH,
} from './support/vipps-webhook';

/*
 * Issue 42: the Vipps MobilePay adapter against the provider's own published OpenAPI documents
 * (test/contracts/vipps-mobilepay), served by Prism with request validation on. Every request the
 * adapter sends in these journeys must be one Prism accepts: `prism.violations` stays empty.
 * Where a journey needs the provider to be in a state its static examples never show (approved,
 * charged), the answer Prism gave is rewritten on the way back, never the request.
 */

const HOST = 'minsida.alda.test';

let prism: VippsPrism;
let t: TestApp;
const clock = testClock(NOW.toISOString());
const logs = new LogCapture();
let auth: { authorization: string };
let guðrunAuth: { authorization: string };

/** Rewrites of Prism's answers, by path (the provider's state we need); cleared per test. */
const answers = new Map<string, (body: unknown) => unknown>();
/** Faults on the way to Prism: a status to answer instead, or 'hang' (never answers). */
let fault: { path: RegExp; answer: number | 'hang'; times: number } | null = null;
let tokenFetches = 0;

const providerFetch: typeof fetch = async (input, init) => {
  const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input : input.url);
  if (url.pathname === '/accesstoken/get') tokenFetches += 1;
  if (fault && fault.times > 0 && fault.path.test(url.pathname)) {
    fault.times -= 1;
    if (fault.answer === 'hang') {
      return new Promise<Response>((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
      });
    }
    const status = fault.answer;
    return new Response(
      JSON.stringify({ type: 'about:blank', title: 'Service Unavailable', status, traceId: 't-1' }),
      { status, headers: { 'content-type': 'application/problem+json' } },
    );
  }
  const response = await fetch(input, init);
  const rewrite = [...answers].find(([path]) => url.pathname === path)?.[1];
  if (!rewrite || !response.ok) return response;
  const body = rewrite(await response.json());
  return new Response(JSON.stringify(body), { status: response.status, headers: response.headers });
};

beforeAll(async () => {
  prism = await startVippsPrism();
  t = await createTestApp(
    {
      PAYMENT_PROVIDER: 'vipps-mobilepay',
      VIPPS_MOBILEPAY_API_URL: prism.url,
      VIPPS_MOBILEPAY_CLIENT_ID: 'fb492b5e-7907-4d83-ba20-c7fb60ca35de',
      VIPPS_MOBILEPAY_CLIENT_SECRET: 'client-secret-that-must-never-be-logged',
      VIPPS_MOBILEPAY_SUBSCRIPTION_KEY: 'subscription-key-that-must-never-be-logged',
      VIPPS_MOBILEPAY_MSN: '123456',
      PAYMENT_RECONCILE_INTERVAL_S: '0',
      APP_URL: `https://${HOST}`,
      LOG_LEVEL: 'info',
    },
    {
      now: clock.now,
      logStream: logs,
      // 10 s in production; short enough here that the time-out case waits little, long enough
      // for Prism's first answer on a busy machine.
      payments: { fetch: providerFetch, providerTimeoutMs: 5_000 },
    },
  );
  await seedDemoData(t.app.db, NOW);
  auth = await signIn(t.app, 'Jóannes');
  guðrunAuth = await signIn(t.app, 'Guðrun');
}, 120_000);

afterAll(async () => {
  await t?.close();
  await prism?.close();
});

beforeEach(() => {
  prism.reset();
  answers.clear();
  fault = null;
});

async function operator(argv: string[]) {
  let out = '';
  let err = '';
  const code = await runOperator(argv, {
    env: { OPERATOR: 'ops-anna' },
    config: t.config,
    database: t.app.database,
    now: clock.now,
    fetch: providerFetch,
    out: (text) => {
      out += text;
    },
    err: (text) => {
      err += text;
    },
  });
  return { code, out, err };
}

function buyPackage(payWith: string, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/api/packages',
    headers: { ...auth, 'idempotency-key': randomUUID(), ...headers },
    payload: { packageId: PACKAGE.id, phoneNumber: '214455', payWith },
  });
}

/** An ePayment webhook as the Webhooks API sends it, signed with the registered secret. */
async function sendEvent(
  body: Record<string, unknown>,
  options: { secret?: string; raw?: string; signedAt?: Date } = {},
) {
  const [registration] = await t.app.db.select().from(paymentWebhookRegistrations);
  return t.app.inject(
    signedWebhook(body, {
      secret: options.secret ?? registration?.secret ?? '',
      signedAt: options.signedAt ?? clock.now(),
      host: HOST,
      ...(options.raw !== undefined ? { sent: options.raw } : {}),
    }),
  );
}

const epaymentEvent = (reference: string, name: string, value: number, extra = {}) =>
  vippsEvent(reference, name, value, clock.now(), extra);

const sent = (method: string, path: string | RegExp) =>
  prism.requests.filter(
    (r) => r.method === method && (typeof path === 'string' ? r.path === path : path.test(r.path)),
  );

describe('Vipps MobilePay against their published OpenAPI documents (issue 42)', () => {
  it('registers the webhook through their Webhooks API and keeps the secret out of the output', async () => {
    const res = await operator(['payments', 'webhooks', 'register']);
    expect(res.err).toBe('');
    expect(res.code).toBe(0);
    expect(res.out).toContain('Webhook registered with Vipps MobilePay');
    expect(res.out).toContain(`URL:    https://${HOST}${VIPPS_WEBHOOK_PATH}`);
    expect(res.out).toContain('epayments.payment.authorized.v1');
    const [stored] = await t.app.db.select().from(paymentWebhookRegistrations);
    expect(stored?.secret).toBeTruthy();
    expect(res.out).not.toContain(stored?.secret ?? 'none');
    const [registration] = sent('POST', '/webhooks/v1/webhooks');
    expect(registration?.body).toMatchObject({
      url: `https://${HOST}${VIPPS_WEBHOOK_PATH}`,
      events: expect.arrayContaining(['epayments.payment.captured.v1']),
    });
    const list = await operator(['payments', 'webhooks', 'list']);
    expect(list.code).toBe(0);
    expect(list.out).toMatch(/https:\/\/example\.com\/callbacks/);
    expect(prism.violations).toEqual([]);
  });

  it('tells the app MobilePay and card are offered, and the agreement only for the month', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/payments/methods' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: {
        provider: 'vipps-mobilepay',
        methods: ['mobilepay', 'card'],
        agreementVia: 'mobilepay',
        agreementForPurchases: false,
      },
    });
  });

  it('pays a package with MobilePay: create (WALLET), AUTHORIZED webhook, capture, data added once', async () => {
    const before = await domesticTotal(t.app);
    const res = await buyPackage('mobilepay');
    expect(res.statusCode).toBe(201);
    const placed = res.json<{ data: OrderPlacedResponse }>().data;
    // The redirect URL is taken from their answer.
    expect(placed.paymentUrl).toBe(
      'https://landing.vipps.no?token=eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1Ni',
    );
    const payment = await paymentOfOrder(t.app, placed.order.id);
    expect(payment).toMatchObject({
      method: 'mobilepay',
      provider: 'vipps-mobilepay',
      state: 'created',
    });

    const [create] = sent('POST', '/epayment/v1/payments');
    expect(create?.headers['idempotency-key']).toBe(payment.id);
    expect(create?.headers['merchant-serial-number']).toBe('123456');
    expect(create?.body).toEqual({
      amount: { currency: 'DKK', value: PACKAGE.priceOere },
      paymentMethod: { type: 'WALLET' },
      reference: payment.id,
      returnUrl: `https://${HOST}/betaling/${placed.order.id}`,
      userFlow: 'WEB_REDIRECT',
      paymentDescription: expect.any(String),
    });

    // Approved in MobilePay: reserved, then we capture all of it and the data is added.
    const authorized = epaymentEvent(payment.id, 'AUTHORIZED', PACKAGE.priceOere);
    expect((await sendEvent(authorized)).statusCode).toBe(200);
    const [capture] = sent('POST', `/epayment/v1/payments/${payment.id}/capture`);
    expect(capture?.headers['idempotency-key']).toBe(`capture-${payment.id}`);
    expect(capture?.body).toEqual({
      modificationAmount: { currency: 'DKK', value: PACKAGE.priceOere },
    });
    expect(await paymentOfOrder(t.app, placed.order.id)).toMatchObject({ state: 'paid' });
    expect(await domesticTotal(t.app)).toBe(before + PACKAGE.dataMb);

    // Repeated and late events change nothing: fulfilment is exactly once.
    expect((await sendEvent(authorized)).statusCode).toBe(200);
    const captured = epaymentEvent(payment.id, 'CAPTURED', PACKAGE.priceOere);
    expect((await sendEvent(captured)).statusCode).toBe(200);
    expect((await sendEvent(captured)).statusCode).toBe(200);
    expect(await domesticTotal(t.app)).toBe(before + PACKAGE.dataMb);
    expect(sent('POST', /\/capture$/)).toHaveLength(1);
    expect((await orderRow(t.app, placed.order.id)).paymentStatus).toBe('paid');
    expect(prism.violations).toEqual([]);
  });

  it('switches to the MobilePay app in the native shell, and pays a card on their web page', async () => {
    const native = await buyPackage('mobilepay', { 'x-alda-platform': 'ios' });
    expect(native.statusCode).toBe(201);
    const card = await buyPackage('card', { 'x-alda-platform': 'android' });
    expect(card.statusCode).toBe(201);
    const [wallet, web] = sent('POST', '/epayment/v1/payments');
    expect(wallet?.body).toMatchObject({
      paymentMethod: { type: 'WALLET' },
      userFlow: 'NATIVE_REDIRECT',
    });
    // "CARD has to be combined with a userFlow of WEB_REDIRECT", in the app too.
    expect(web?.body).toMatchObject({ paymentMethod: { type: 'CARD' }, userFlow: 'WEB_REDIRECT' });
    expect(prism.violations).toEqual([]);
  });

  it('refuses the agreement for a package (charged two days later) and MobilePay nowhere else', async () => {
    const res = await buyPackage('agreement');
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ error: { code: 'PAYMENT_METHOD_UNAVAILABLE' } });
    expect(prism.requests).toEqual([]);
  });

  it('refuses a forged, altered or stale event with a log line, and answers an unknown reference 200', async () => {
    const placed = (await buyPackage('mobilepay')).json<{ data: OrderPlacedResponse }>().data;
    const payment = await paymentOfOrder(t.app, placed.order.id);
    const event = epaymentEvent(payment.id, 'AUTHORIZED', PACKAGE.priceOere);

    const forged = await sendEvent(event, { secret: 'a-secret-we-never-registered' });
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toMatchObject({ error: { code: 'WEBHOOK_SIGNATURE_INVALID' } });
    const altered = await sendEvent(event, {
      raw: JSON.stringify({ ...event, amount: { currency: 'DKK', value: 1 } }),
    });
    expect(altered.statusCode).toBe(400);
    // Older than their retries last (7 days; ADR 0081 "Guidelines: polling, 429, webhooks").
    const stale = await sendEvent(event, {
      signedAt: new Date(clock.now().getTime() - (WEBHOOK_MAX_AGE_S + 1) * 1000),
    });
    expect(stale.statusCode).toBe(400);
    expect(
      logs.lines.filter((line) => line.msg === 'webhook refused').length,
    ).toBeGreaterThanOrEqual(3);
    expect((await paymentOfOrder(t.app, placed.order.id)).state).toBe('created');

    const unknown = await sendEvent(epaymentEvent('not-a-payment-of-ours', 'AUTHORIZED', 100));
    expect(unknown.statusCode).toBe(200);
    expect(logs.lines.some((line) => line.msg === 'webhook for an unknown payment ignored')).toBe(
      true,
    );
    expect(sent('POST', /\/capture$/)).toEqual([]);
  });

  it('refuses an amount or currency that differs from ours, logged at error level', async () => {
    const placed = (await buyPackage('mobilepay')).json<{ data: OrderPlacedResponse }>().data;
    const payment = await paymentOfOrder(t.app, placed.order.id);
    for (const amount of [
      { currency: 'DKK', value: PACKAGE.priceOere - 100 },
      { currency: 'NOK', value: PACKAGE.priceOere },
    ]) {
      const res = await sendEvent(epaymentEvent(payment.id, 'AUTHORIZED', 0, { amount }));
      expect(res.statusCode).toBe(200);
    }
    const errors = logs.lines.filter(
      (line) => line.level === 50 && String(line.msg).startsWith('webhook refused: its amount'),
    );
    expect(errors).toHaveLength(2);
    expect((await paymentOfOrder(t.app, placed.order.id)).state).toBe('created');
    expect(sent('POST', /\/capture$/)).toEqual([]);
  });

  it('settles by reconciliation a payment whose webhook never came (payment and event log)', async () => {
    const placed = (await buyPackage('mobilepay')).json<{ data: OrderPlacedResponse }>().data;
    const payment = await paymentOfOrder(t.app, placed.order.id);
    const path = `/epayment/v1/payments/${payment.id}`;
    answers.set(path, (body) => authorizedPayment(body, PACKAGE.priceOere));
    clock.advance(120);
    await t.app.payments.reconcile({ afterS: 60 });
    expect(sent('GET', path)).toHaveLength(1);
    expect(sent('GET', `${path}/events`)).toHaveLength(1);
    expect(sent('POST', `${path}/capture`)).toHaveLength(1);
    expect(await paymentOfOrder(t.app, placed.order.id)).toMatchObject({ state: 'paid' });
    expect(prism.violations).toEqual([]);
  });

  it('cancels the reservation of a payment given up here before the customer approved it, never captures it', async () => {
    const placed = (await buyPackage('mobilepay')).json<{ data: OrderPlacedResponse }>().data;
    const payment = await paymentOfOrder(t.app, placed.order.id);
    // The customer left MobilePay; their payment expired, and then they approved it after all.
    await sendEvent(epaymentEvent(payment.id, 'EXPIRED', PACKAGE.priceOere));
    expect(await paymentOfOrder(t.app, placed.order.id)).toMatchObject({ state: 'cancelled' });
    const before = await domesticTotal(t.app);
    await sendEvent(epaymentEvent(payment.id, 'AUTHORIZED', PACKAGE.priceOere));
    const [cancel] = sent('POST', `/epayment/v1/payments/${payment.id}/cancel`);
    expect(cancel?.headers['idempotency-key']).toBe(`cancel-${payment.id}`);
    expect(sent('POST', /\/capture$/)).toEqual([]);
    expect(await paymentOfOrder(t.app, placed.order.id)).toMatchObject({ state: 'cancelled' });
    expect(await domesticTotal(t.app)).toBe(before);
    expect(prism.violations).toEqual([]);
  });

  it('leaves to a person the open payments of the provider used before the switch', async () => {
    // A payment still open with the test provider when PAYMENT_PROVIDER changed.
    const placed = (await buyPackage('card')).json<{ data: OrderPlacedResponse }>().data;
    const before = await paymentOfOrder(t.app, placed.order.id);
    await t.app.db
      .update(payments)
      .set({ provider: 'test', providerPaymentId: 'tp_before_the_switch', state: 'pending' })
      .where(eq(payments.id, before.id));
    prism.reset();
    const warnings = logs.lines.length;
    clock.advance(120);
    await t.app.payments.reconcile({ afterS: 60 });
    // (Other tests' open MobilePay payments are read; this one is not.)
    expect(prism.requests.filter((r) => r.path.includes('tp_before_the_switch'))).toEqual([]);
    expect(
      logs.lines.slice(warnings).filter((l) => l.msg === 'reconciliation: provider unavailable'),
    ).toEqual([]);
    expect(await paymentOfOrder(t.app, placed.order.id)).toMatchObject({
      provider: 'test',
      state: 'pending',
    });
    // Out of the way of the tests after this one.
    await t.app.db.update(payments).set({ state: 'cancelled' }).where(eq(payments.id, before.id));
  });

  it('refunds from the staff console through the adapter, in part and then the rest', async () => {
    const placed = (await buyPackage('card')).json<{ data: OrderPlacedResponse }>().data;
    const payment = await paymentOfOrder(t.app, placed.order.id);
    await sendEvent(epaymentEvent(payment.id, 'AUTHORIZED', PACKAGE.priceOere));
    expect((await paymentOfOrder(t.app, placed.order.id)).state).toBe('paid');
    prism.reset();
    const by = { actor: 'staff:anna@alda.fo', staffUserId: null };
    await t.app.payments.requestRefund({
      paymentId: payment.id,
      amountOere: 1_000,
      reason: 'goodwill',
      by,
    });
    await t.app.payments.requestRefund({
      paymentId: payment.id,
      amountOere: 2_900,
      reason: 'the rest',
      by,
    });
    expect(await t.app.payments.refundDue()).toEqual({ claimed: 2, refunded: 2 });
    const refunds = sent('POST', `/epayment/v1/payments/${payment.id}/refund`);
    expect(refunds.map((r) => r.body)).toEqual(
      expect.arrayContaining([
        { modificationAmount: { currency: 'DKK', value: 1_000 } },
        { modificationAmount: { currency: 'DKK', value: 2_900 } },
      ]),
    );
    const rows = await t.app.db
      .select()
      .from(paymentRefunds)
      .where(eq(paymentRefunds.paymentId, payment.id));
    expect(rows.map((r) => r.state).sort()).toEqual(['refunded', 'refunded']);
    expect(new Set(refunds.map((r) => r.headers['idempotency-key']))).toEqual(
      new Set(rows.map((r) => r.id)),
    );
    expect(prism.violations).toEqual([]);
  });

  it('takes a payment agreement in MobilePay (Recurring v3), charges the month on it, and ends it', async () => {
    const registered = await t.app.inject({
      method: 'POST',
      url: '/api/agreements',
      headers: { ...guðrunAuth, 'idempotency-key': randomUUID() },
      payload: {},
    });
    expect(registered.statusCode).toBe(201);
    const placed = registered.json<{ data: OrderPlacedResponse }>().data;
    expect(placed.paymentUrl).toBe('https://api.vipps.no/v2/register/U6JUjQXq8HQmmV');
    const [draft] = sent('POST', '/recurring/v3/agreements');
    expect(draft?.body).toMatchObject({
      pricing: { type: 'VARIABLE', currency: 'DKK', suggestedMaxAmount: expect.any(Number) },
      interval: { unit: 'MONTH', count: 1 },
      merchantRedirectUrl: `https://${HOST}/betaling/${placed.order.id}`,
      merchantAgreementUrl: `https://${HOST}/min-brukari/gjaldsavtala`,
    });

    // Approved in MobilePay: the agreement is polled (their rule) and becomes the active one.
    clock.advance(120);
    await t.app.payments.reconcile({ afterS: 60 });
    expect(sent('GET', '/recurring/v3/agreements/agr_5kSeqz')).toHaveLength(1);
    const agreement = await t.app.inject({
      method: 'GET',
      url: '/api/agreements',
      headers: guðrunAuth,
    });
    expect(agreement.json()).toMatchObject({
      data: { status: 'active', cardBrand: 'MobilePay', cardLast4: null, cardExpiry: null },
    });

    // The month on the agreement: a DIRECT_CAPTURE charge due two days later, our id as orderId.
    const pay = await t.app.inject({
      method: 'POST',
      url: '/api/billing/pay',
      headers: { ...guðrunAuth, 'idempotency-key': randomUUID() },
      payload: { payWith: 'agreement' },
    });
    expect(pay.statusCode).toBe(201);
    const month = pay.json<{ data: OrderPlacedResponse }>().data;
    const charge = await paymentOfOrder(t.app, month.order.id);
    const [create] = sent('POST', '/recurring/v3/agreements/agr_5kSeqz/charges');
    expect(create?.headers['idempotency-key']).toBe(charge.id);
    expect(create?.body).toMatchObject({
      amount: charge.amountOere,
      transactionType: 'DIRECT_CAPTURE',
      due: '2026-06-17',
      orderId: charge.id,
    });
    // Charged by the provider on the due date: reconciliation reads it and the month is paid.
    const chargePath = `/recurring/v3/agreements/agr_5kSeqz/charges/chg_WCVbcAbRCmu2zk`;
    answers.set(chargePath, (body) => ({
      ...(body as object),
      status: 'CHARGED',
      amount: charge.amountOere,
      currency: 'DKK',
    }));
    clock.advance(2 * 86_400);
    // Two days went by: sign in again (here and for the tests after this one).
    guðrunAuth = await signIn(t.app, 'Guðrun');
    auth = await signIn(t.app, 'Jóannes');
    await t.app.payments.reconcile({ afterS: 60 });
    expect(sent('GET', chargePath)).toHaveLength(1);
    expect(await paymentOfOrder(t.app, month.order.id)).toMatchObject({ state: 'paid' });

    // Ending the agreement in the app stops it at the provider.
    const ended = await t.app.inject({
      method: 'DELETE',
      url: '/api/agreements',
      headers: guðrunAuth,
    });
    expect(ended.statusCode).toBe(200);
    const [stop] = sent('PATCH', '/recurring/v3/agreements/agr_5kSeqz');
    expect(stop?.body).toEqual({ status: 'STOPPED' });
    const rows = await t.app.db
      .select()
      .from(paymentAgreements)
      .where(eq(paymentAgreements.userId, demoUser('Guðrun').id));
    expect(rows.every((row) => row.status === 'cancelled')).toBe(true);
    expect(prism.violations).toEqual([]);
  });

  describe('faults: a clear "try again", never a second charge (issue 42 §7; issue 61 §1)', () => {
    const buyWith = (key: string) => () =>
      t.app.inject({
        method: 'POST',
        url: '/api/packages',
        headers: { ...auth, 'idempotency-key': key, 'accept-language': 'fo' },
        payload: { packageId: PACKAGE.id, phoneNumber: '214455', payWith: 'mobilepay' },
      });
    const tryAgain = {
      error: { code: 'PAYMENT_PROVIDER_UNAVAILABLE', message: expect.stringMatching(/Royn aftur/) },
    };

    it('when the provider refuses with a problem body: nothing was made, the same key tries again', async () => {
      fault = { path: /^\/epayment\/v1\/payments$/, answer: 409, times: 1 };
      const request = buyWith(randomUUID());
      const failed = await request();
      expect(failed.statusCode).toBe(503);
      expect(failed.json()).toMatchObject(tryAgain);
      // Try again, same key: a new payment with a new reference; the first can never be approved.
      const retried = await request();
      expect(retried.statusCode).toBe(201);
      const creates = sent('POST', '/epayment/v1/payments').filter((r) => r.status === 201);
      expect(creates).toHaveLength(1);
      expect(prism.violations).toEqual([]);
    });

    it.each([
      ['answers 5xx', 502 as const],
      ['times out', 'hang' as const],
    ])(
      'when the provider %s: unknown, not failed, until their 404; then the same key tries again',
      async (_name, answer) => {
        fault = { path: /^\/epayment\/v1\/payments$/, answer, times: 1 };
        const key = randomUUID();
        const request = buyWith(key);
        const failed = await request();
        expect(failed.statusCode).toBe(503);
        expect(failed.json()).toMatchObject(tryAgain);
        const [order] = await t.app.db.select().from(orders).where(eq(orders.idempotencyKey, key));
        const payment = await paymentOfOrder(t.app, order?.id ?? '');
        expect(payment).toMatchObject({ state: 'pending', providerPaymentId: `ep:${payment.id}` });
        // The same key while nobody knows: "try again", and nothing sent to them.
        expect((await request()).statusCode).toBe(503);
        expect(sent('POST', '/epayment/v1/payments')).toEqual([]);
        // They do not know the payment (404): only now is it given up, and the key free again.
        fault = {
          path: new RegExp(`^/epayment/v1/payments/${payment.id}$`),
          answer: 404,
          times: 1,
        };
        clock.advance(120);
        await t.app.payments.reconcile({ afterS: 60 });
        expect(await paymentOfOrder(t.app, order?.id ?? '')).toMatchObject({
          state: 'failed',
          failureReason: 'not_made_at_provider',
        });
        const retried = await request();
        expect(retried.statusCode).toBe(201);
        const creates = sent('POST', '/epayment/v1/payments').filter((r) => r.status === 201);
        expect(creates).toHaveLength(1);
        expect(prism.violations).toEqual([]);
      },
    );
  });

  it('fetches the access token once, keeps it, and fetches a new one once on a 401', async () => {
    const before = tokenFetches;
    await buyPackage('card');
    await buyPackage('card');
    expect(tokenFetches - before).toBe(0);
    fault = { path: /^\/epayment\/v1\/payments$/, answer: 401, times: 1 };
    expect((await buyPackage('card')).statusCode).toBe(201);
    expect(tokenFetches - before).toBe(1);
  });

  it('never writes a secret to the log', () => {
    const text = JSON.stringify(logs.lines);
    expect(text).not.toContain('client-secret-that-must-never-be-logged');
    expect(text).not.toContain('subscription-key-that-must-never-be-logged');
    expect(text).not.toContain('eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1Ni <truncated>');
  });
});
