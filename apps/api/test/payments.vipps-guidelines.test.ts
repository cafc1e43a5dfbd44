import { randomUUID } from 'node:crypto';
import type { HubConnection } from '@microsoft/signalr';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { APP_VERSION } from '@alda/contract/constants';
import type { OrderPlacedResponse, PaymentUpdated } from '@alda/contract/schemas/orders';
import {
  PaymentOutcomeUnknownError,
  PaymentProviderError,
} from '../src/adapters/payments/provider';
import {
  createVippsClient,
  RETRY_ATTEMPTS,
  VippsHttpError,
  VippsRateLimitedError,
} from '../src/adapters/payments/vipps-mobilepay/client';
import { WEBHOOK_MAX_AGE_S } from '../src/adapters/payments/vipps-mobilepay/signature';
import { notifyWebhookSecretsChanged } from '../src/adapters/payments/vipps-mobilepay/webhook-secrets';
import { buildApp } from '../src/app';
import { openDatabase } from '../src/db/client';
import { paymentWebhookRegistrations } from '../src/db/schema/payments';
import { runOperator } from '../src/operator';
import { seedDemoData } from '../src/seed/seed';
import { NOW, signIn } from './demo-accounts';
import {
  createTestApp,
  createTestDatabase,
  pgliteSnapshot,
  testClock,
  testConfig,
  usingPostgres,
  waitFor,
  type TestDatabase,
} from './helper';
import { collectPaymentUpdates, hubClient, listenLocally, settle, tokenOf } from './hub-helper';
import { paymentOfOrder, PACKAGE } from './payments-fixture';
import {
  authorizedPayment,
  epaymentEvent as vippsEvent,
  signedWebhook,
  VIPPS_WEBHOOK_PATH,
} from './support/vipps-webhook';
import { startVippsPrism, type VippsPrism } from './support/vipps-prism';

/*
 * Issue 61 §2: what Vipps MobilePay's guidelines ask of the adapter, each against Prism serving
 * their published documents (test/contracts/vipps-mobilepay):
 * - a payment a customer watches is polled as their polling guidelines say (first after
 *   PAYMENT_WATCH_FIRST_S, then every PAYMENT_WATCH_EVERY_S), until it settles or they leave;
 * - 429 and `Retry-After` are honoured on every call, with the same Idempotency-Key; a lost answer
 *   to a call that changes something is "unknown", a 4xx is definite;
 * - a forged webhook costs no database read, and the webhook route is limited per source;
 * - `Vipps-System-Version` is the app's version;
 * - a delivery retried with its first `x-ms-date` is taken for as long as their retries last.
 * The pace here is tenths of a second (settings), not their 5 s and 2 s.
 */

const HOST = 'minsida.alda.test';
const FIRST_MS = 600;
const EVERY_MS = 300;
const WEBHOOK_LIMIT = 20;
/** setTimeout may fire a millisecond before Date.now() says the time is up. */
const TIMER_SLACK_MS = 20;

let prism: VippsPrism;
let app: FastifyInstance;
let database: TestDatabase;
let baseUrl: string;
const clock = testClock(NOW.toISOString());
let auth: { authorization: string };
/** Every statement the app sends to the database (the forged-webhook test counts them). */
let queries: string[] = [];

/** Rewrites of Prism's answers, by path (the provider's state a test needs); cleared per test. */
const answers = new Map<string, (body: unknown) => unknown>();
/** Every request the adapter sent, with the wall-clock time it left. */
const calls: { method: string; path: string; at: number }[] = [];

const providerFetch: typeof fetch = async (input, init) => {
  const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input : input.url);
  calls.push({ method: init?.method ?? 'GET', path: url.pathname, at: Date.now() });
  const response = await fetch(input, init);
  const rewrite = answers.get(url.pathname);
  if (!rewrite || !response.ok) return response;
  const body = rewrite(await response.json());
  return new Response(JSON.stringify(body), { status: response.status, headers: response.headers });
};

const VIPPS_ENV = {
  PAYMENT_PROVIDER: 'vipps-mobilepay',
  VIPPS_MOBILEPAY_CLIENT_ID: 'fb492b5e-7907-4d83-ba20-c7fb60ca35de',
  VIPPS_MOBILEPAY_CLIENT_SECRET: 'client-secret-that-must-never-be-logged',
  VIPPS_MOBILEPAY_SUBSCRIPTION_KEY: 'subscription-key-that-must-never-be-logged',
  VIPPS_MOBILEPAY_MSN: '123456',
  PAYMENT_RECONCILE_INTERVAL_S: '0',
  APP_URL: `https://${HOST}`,
};

beforeAll(async () => {
  prism = await startVippsPrism({ apis: ['epayment', 'accesstoken', 'webhooks'] });
  database = await createTestDatabase({ migrated: true });
  const config = testConfig(
    {
      ...VIPPS_ENV,
      VIPPS_MOBILEPAY_API_URL: prism.url,
      PAYMENT_WATCH_FIRST_S: String(FIRST_MS / 1000),
      PAYMENT_WATCH_EVERY_S: String(EVERY_MS / 1000),
      PAYMENT_WEBHOOK_RATE_LIMIT_PER_MIN: String(WEBHOOK_LIMIT),
      // The forged-webhook count is of the webhook alone, not of the read-cache self-check.
      READ_CACHE_CHECK: 'false',
    },
    database.url,
  );
  const opened = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    pgliteSnapshot: usingPostgres ? undefined : await pgliteSnapshot(),
    onQuery: (query) => queries.push(query),
  });
  app = await buildApp(config, {
    database: opened,
    now: clock.now,
    payments: { fetch: providerFetch, providerTimeoutMs: 5_000 },
  });
  await app.database.migrate();
  await seedDemoData(app.db, NOW);
  auth = await signIn(app, 'Jóannes');
  const registered = await runOperator(['payments', 'webhooks', 'register'], {
    env: { OPERATOR: 'ops-anna' },
    config,
    database: app.database,
    now: clock.now,
    fetch: providerFetch,
    out: () => {},
    err: () => {},
  });
  expect(registered).toBe(0);
  baseUrl = await listenLocally(app);
}, 120_000);

afterAll(async () => {
  await app?.close();
  await database?.drop();
  await prism?.close();
});

beforeEach(() => {
  prism.reset();
  answers.clear();
  calls.length = 0;
});

/** A package paid with MobilePay: created at Vipps MobilePay, nobody has approved it yet. */
async function placeMobilePay() {
  const res = await app.inject({
    method: 'POST',
    url: '/api/packages',
    headers: { ...auth, 'idempotency-key': randomUUID() },
    payload: { packageId: PACKAGE.id, phoneNumber: '214455', payWith: 'mobilepay' },
  });
  expect(res.statusCode).toBe(201);
  const placed = res.json<{ data: OrderPlacedResponse }>().data;
  const payment = await paymentOfOrder(app, placed.order.id);
  return { orderId: placed.order.id, paymentId: payment.id };
}

/** GETs of the payment itself (each watch round also reads its event log). */
const readsOf = (paymentId: string) =>
  calls.filter((c) => c.method === 'GET' && c.path === `/epayment/v1/payments/${paymentId}`);

/** The approved (reserved) payment, as GET answers once the customer approved it in MobilePay. */
const approved = (body: unknown) => authorizedPayment(body, PACKAGE.priceOere);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function listen(orderId: string): Promise<{
  connection: HubConnection;
  updates: PaymentUpdated[];
  listenedAt: number;
}> {
  const connection = hubClient(baseUrl, tokenOf(auth));
  const updates = collectPaymentUpdates(connection);
  await connection.start();
  const listenedAt = Date.now();
  await connection.invoke('ListenToOrder', orderId);
  return { connection, updates, listenedAt };
}

/** The gaps between the starts of consecutive reads. */
const gaps = (reads: { at: number }[]) => reads.slice(1).map((read, i) => read.at - reads[i]!.at);

describe('a payment the customer watches is polled as their polling guidelines say (issue 61 §2)', () => {
  it('on the hub: first after PAYMENT_WATCH_FIRST_S, then every PAYMENT_WATCH_EVERY_S, and no more once it is paid', async () => {
    const { orderId, paymentId } = await placeMobilePay();
    const { connection, updates, listenedAt } = await listen(orderId);
    try {
      await waitFor(async () => (readsOf(paymentId).length >= 3 ? true : undefined), 15_000);
      const reads = readsOf(paymentId);
      expect(reads[0]!.at - listenedAt).toBeGreaterThanOrEqual(FIRST_MS - TIMER_SLACK_MS);
      for (const gap of gaps(reads)) {
        expect(gap).toBeGreaterThanOrEqual(EVERY_MS - TIMER_SLACK_MS);
        // Each round's own work (two GETs on Prism) on a busy machine, and no more.
        expect(gap).toBeLessThan(EVERY_MS + 3_000);
      }
      // Approved in MobilePay and its webhook lost: the next read finds it reserved, captures it,
      // and the customer hears it paid without waiting for a reconciliation round.
      answers.set(`/epayment/v1/payments/${paymentId}`, approved);
      await waitFor(async () => updates.find((u) => u.status === 'paid'), 15_000);
      expect(
        calls.filter((c) => c.path === `/epayment/v1/payments/${paymentId}/capture`),
      ).toHaveLength(1);
      const settledAt = readsOf(paymentId).length;
      await sleep(EVERY_MS * 5);
      expect(readsOf(paymentId)).toHaveLength(settledAt);
      expect(prism.violations).toEqual([]);
    } finally {
      await connection.stop();
    }
  });

  it('on the hub: no more reads once the customer leaves', async () => {
    const { orderId, paymentId } = await placeMobilePay();
    const { connection } = await listen(orderId);
    await waitFor(async () => (readsOf(paymentId).length >= 2 ? true : undefined), 15_000);
    await connection.stop();
    await waitFor(async () => (app.paymentHub.connections === 0 ? true : undefined));
    // A read that had already started may still be on its way; none starts after it.
    await settle(EVERY_MS);
    const left = readsOf(paymentId).length;
    await sleep(FIRST_MS + EVERY_MS * 4);
    expect(readsOf(paymentId)).toHaveLength(left);
  });

  it('nobody watching: nothing is read before the reconciliation round', async () => {
    const { paymentId } = await placeMobilePay();
    await sleep(FIRST_MS + EVERY_MS * 3);
    expect(readsOf(paymentId)).toEqual([]);
  });

  it('the status screen without the hub (GET /api/orders/{id}): polled at the same pace until paid', async () => {
    const { orderId, paymentId } = await placeMobilePay();
    const readAt = Date.now();
    const res = await app.inject({ method: 'GET', url: `/api/orders/${orderId}`, headers: auth });
    expect(res.statusCode).toBe(200);
    await waitFor(async () => (readsOf(paymentId).length >= 2 ? true : undefined), 15_000);
    expect(readsOf(paymentId)[0]!.at - readAt).toBeGreaterThanOrEqual(FIRST_MS - TIMER_SLACK_MS);
    answers.set(`/epayment/v1/payments/${paymentId}`, approved);
    await waitFor(
      async () => ((await paymentOfOrder(app, orderId)).state === 'paid' ? true : undefined),
      15_000,
    );
    await settle(EVERY_MS * 2);
    const settledAt = readsOf(paymentId).length;
    await sleep(EVERY_MS * 4);
    expect(readsOf(paymentId)).toHaveLength(settledAt);
  });
});

describe('Vipps-System-Version is the app’s version (issue 61 §2)', () => {
  it('on the calls Prism receives from the app', async () => {
    await placeMobilePay();
    const [create] = prism.requests.filter((r) => r.path === '/epayment/v1/payments');
    expect(create?.headers['vipps-system-version']).toBe(APP_VERSION);
    expect(create?.headers['vipps-system-plugin-version']).toBe(APP_VERSION);
  });
});

/** An ePayment webhook as the Webhooks API sends it; signed with the registered secret. */
async function sendEvent(
  body: Record<string, unknown>,
  options: { secret?: string; signedAt?: Date; from?: string; sent?: string } = {},
) {
  const secret =
    options.secret ??
    (await app.db.select().from(paymentWebhookRegistrations))[0]?.secret ??
    'no secret';
  return signedRequest(body, secret, options);
}

function signedRequest(
  body: Record<string, unknown>,
  secret: string,
  /** `sent`: the body sent instead of the one signed (altered on the way). */
  options: { signedAt?: Date; from?: string; sent?: string } = {},
) {
  return app.inject({
    ...signedWebhook(body, {
      secret,
      signedAt: options.signedAt ?? clock.now(),
      host: HOST,
      ...(options.sent !== undefined ? { sent: options.sent } : {}),
    }),
    remoteAddress: options.from ?? '127.0.0.1',
  });
}

const epaymentEvent = (reference: string, name: string) =>
  vippsEvent(reference, name, PACKAGE.priceOere, clock.now());

describe('webhooks as their Webhooks API sends them (issue 61 §2)', () => {
  it('takes a delivery retried with its first x-ms-date up to their 7 days of retries, and refuses a replay older than the window', async () => {
    const day = 86_400_000;
    const retried = await placeMobilePay();
    const late = await sendEvent(epaymentEvent(retried.paymentId, 'AUTHORIZED'), {
      signedAt: new Date(clock.now().getTime() - 7 * day + 60_000),
    });
    expect(late.statusCode).toBe(200);
    expect(await paymentOfOrder(app, retried.orderId)).toMatchObject({ state: 'paid' });

    const replayed = await placeMobilePay();
    const old = await sendEvent(epaymentEvent(replayed.paymentId, 'AUTHORIZED'), {
      signedAt: new Date(clock.now().getTime() - (WEBHOOK_MAX_AGE_S + 60) * 1000),
    });
    expect(old.statusCode).toBe(400);
    expect(old.json()).toMatchObject({ error: { code: 'WEBHOOK_SIGNATURE_INVALID' } });
    expect(await paymentOfOrder(app, replayed.orderId)).toMatchObject({ state: 'created' });
  });

  it('a forged webhook costs no database read: the secrets are in memory', async () => {
    const { paymentId } = await placeMobilePay();
    const event = epaymentEvent(paymentId, 'AUTHORIZED');
    const [registration] = await app.db.select().from(paymentWebhookRegistrations);
    // Whatever runs after the purchase (its commit, NOTIFYs) is over before counting.
    await settle(300);
    queries = [];
    const forged = await sendEvent(event, { secret: 'a-secret-nobody-registered-0123456789' });
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toMatchObject({ error: { code: 'WEBHOOK_SIGNATURE_INVALID' } });
    const altered = await sendEvent(event, {
      secret: registration!.secret,
      sent: JSON.stringify({ ...event, amount: { currency: 'DKK', value: 1 } }),
    });
    expect(altered.statusCode).toBe(400);
    expect(altered.json()).toMatchObject({ error: { code: 'WEBHOOK_SIGNATURE_INVALID' } });
    expect(queries).toEqual([]);
  });

  it('a webhook registered elsewhere (the operator, another instance) is known through its NOTIFY', async () => {
    const { paymentId, orderId } = await placeMobilePay();
    const secret = `secret-of-another-registration-${randomUUID()}`;
    // Its own address: the polling below is not counted with the earlier tests' webhooks from
    // 127.0.0.1 against WEBHOOK_LIMIT (a 429 would never turn into the 200 it waits for).
    const from = '203.0.113.60';
    // Refused while unknown: the memory is filled, and not read again because of it.
    const before = await signedRequest(epaymentEvent(paymentId, 'AUTHORIZED'), secret, { from });
    expect(before.statusCode).toBe(400);
    // What `payments webhooks register` does in its own process: the row and the NOTIFY.
    await app.db.transaction(async (tx) => {
      await tx.insert(paymentWebhookRegistrations).values({
        provider: 'vipps-mobilepay',
        id: randomUUID(),
        url: `https://${HOST}${VIPPS_WEBHOOK_PATH}`,
        events: ['epayments.payment.authorized.v1'],
        secret,
        createdAt: clock.now(),
      });
      await notifyWebhookSecretsChanged(tx);
    });
    const accepted = await waitFor(async () => {
      const res = await signedRequest(epaymentEvent(paymentId, 'AUTHORIZED'), secret, { from });
      return res.statusCode === 200 ? res : undefined;
    });
    expect(accepted.statusCode).toBe(200);
    expect(await paymentOfOrder(app, orderId)).toMatchObject({ state: 'paid' });
  });

  it(`limits the route per source: the ${WEBHOOK_LIMIT + 1}st request a minute from one address gets 429, another address passes`, async () => {
    const event = epaymentEvent(randomUUID(), 'AUTHORIZED');
    const forged = (from: string) => sendEvent(event, { secret: 'forged-0123456789', from });
    for (let i = 0; i < WEBHOOK_LIMIT; i += 1) {
      expect((await forged('198.51.100.7')).statusCode).toBe(400);
    }
    const over = await forged('198.51.100.7');
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({ error: { code: 'RATE_LIMITED' } });
    expect((await forged('198.51.100.8')).statusCode).toBe(400);
  });
});

describe('the webhook limit holds also with the per-IP limit for people off (issue 61 §2)', () => {
  it('RATE_LIMIT_MAX=0: the webhook route still answers 429 over PAYMENT_WEBHOOK_RATE_LIMIT_PER_MIN', async () => {
    const t = await createTestApp(
      { RATE_LIMIT_MAX: '0', PAYMENT_WEBHOOK_RATE_LIMIT_PER_MIN: '3' },
      { payments: { testProviderIntervalMs: 0 } },
    );
    try {
      const post = () =>
        t.app.inject({
          method: 'POST',
          url: '/api/payments/webhooks/test',
          headers: { 'content-type': 'application/json', 'alda-signature': 't=1,v1=00' },
          payload: '{}',
        });
      for (let i = 0; i < 3; i += 1) expect((await post()).statusCode).toBe(400);
      expect((await post()).statusCode).toBe(429);
    } finally {
      await t.close();
    }
  });
});

function credentials() {
  return {
    apiUrl: prism.url,
    clientId: VIPPS_ENV.VIPPS_MOBILEPAY_CLIENT_ID,
    clientSecret: VIPPS_ENV.VIPPS_MOBILEPAY_CLIENT_SECRET,
    subscriptionKey: VIPPS_ENV.VIPPS_MOBILEPAY_SUBSCRIPTION_KEY,
    msn: VIPPS_ENV.VIPPS_MOBILEPAY_MSN,
  };
}

describe('429 and Retry-After on every call (issue 61 §2)', () => {
  /** Answers before Prism's: by path, each one once, in order. */
  let busy: { path: RegExp; status: number | 'hang'; retryAfter?: string }[] = [];
  let attempts: { path: string; idempotencyKey: string | null }[] = [];
  let waits: number[] = [];

  beforeEach(() => {
    busy = [];
    attempts = [];
    waits = [];
  });

  const busyFetch: typeof fetch = async (input, init) => {
    const url = new URL(
      typeof input === 'string' ? input : input instanceof URL ? input : input.url,
    );
    const headers = new Headers(init?.headers);
    attempts.push({ path: url.pathname, idempotencyKey: headers.get('idempotency-key') });
    const index = busy.findIndex((b) => b.path.test(url.pathname));
    if (index >= 0) {
      const [answer] = busy.splice(index, 1);
      if (answer!.status === 'hang') {
        return new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
        });
      }
      return new Response(JSON.stringify({ title: 'busy', status: answer!.status }), {
        status: answer!.status,
        headers: {
          'content-type': 'application/problem+json',
          ...(answer!.retryAfter !== undefined ? { 'retry-after': answer!.retryAfter } : {}),
        },
      });
    }
    return fetch(input, init);
  };

  const client = () =>
    createVippsClient({
      credentials: credentials(),
      now: clock.now,
      systemVersion: APP_VERSION,
      fetch: busyFetch,
      timeoutMs: 2_000,
      sleep: async (ms) => {
        waits.push(ms);
      },
    });

  const createPayment = (vipps: ReturnType<typeof client>, key: string) =>
    vipps.call<{ redirectUrl: string }>('POST', '/epayment/v1/payments', {
      idempotencyKey: key,
      body: {
        amount: { currency: 'DKK', value: PACKAGE.priceOere },
        paymentMethod: { type: 'WALLET' },
        reference: key,
        returnUrl: `https://${HOST}/betaling/x`,
        userFlow: 'WEB_REDIRECT',
        paymentDescription: 'Alda: 1 GB',
      },
    });

  it('asks again after Retry-After (seconds) with the same Idempotency-Key', async () => {
    const vipps = client();
    await vipps.accessToken();
    busy = [{ path: /^\/epayment\/v1\/payments$/, status: 429, retryAfter: '2' }];
    const key = randomUUID();
    const answer = await createPayment(vipps, key);
    expect(answer.redirectUrl).toBeTruthy();
    const creates = attempts.filter((a) => a.path === '/epayment/v1/payments');
    expect(creates.map((a) => a.idempotencyKey)).toEqual([key, key]);
    expect(waits).toEqual([2_000]);
    expect(prism.requests.filter((r) => r.path === '/epayment/v1/payments')).toHaveLength(1);
    expect(prism.violations).toEqual([]);
  });

  it('reads Retry-After as an HTTP date, on a GET and on the access token', async () => {
    const vipps = client();
    const inThree = new Date(clock.now().getTime() + 3_000).toUTCString();
    busy = [
      { path: /^\/accesstoken\/get$/, status: 429, retryAfter: inThree },
      { path: /^\/epayment\/v1\/payments\/[^/]+$/, status: 503, retryAfter: '1' },
    ];
    const reference = randomUUID();
    await createPayment(vipps, reference);
    await vipps.call('GET', `/epayment/v1/payments/${reference}`);
    expect(waits).toEqual([3_000, 1_000]);
    expect(attempts.filter((a) => a.path === '/accesstoken/get')).toHaveLength(2);
  });

  it('a 429 without Retry-After waits a second; one that stays fails as rate-limited after RETRY_ATTEMPTS tries', async () => {
    const vipps = client();
    await vipps.accessToken();
    const path = /^\/epayment\/v1\/payments\/[^/]+$/;
    busy = [{ path, status: 429 }];
    const reference = randomUUID();
    await createPayment(vipps, reference);
    await vipps.call('GET', `/epayment/v1/payments/${reference}`);
    expect(waits).toEqual([1_000]);

    waits = [];
    attempts = [];
    busy = Array.from({ length: RETRY_ATTEMPTS }, () => ({ path, status: 429, retryAfter: '1' }));
    const error: unknown = await vipps
      .call('GET', `/epayment/v1/payments/${reference}`)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VippsRateLimitedError);
    expect((error as Error).message).toMatch(/rate-limited/);
    expect(attempts).toHaveLength(RETRY_ATTEMPTS);
    expect(waits).toHaveLength(RETRY_ATTEMPTS - 1);
  });

  it('a Retry-After longer than a call may wait fails at once as rate-limited, never a lost answer', async () => {
    const vipps = client();
    await vipps.accessToken();
    busy = [{ path: /^\/epayment\/v1\/payments$/, status: 429, retryAfter: '120' }];
    const error = await createPayment(vipps, randomUUID()).catch((e) => e);
    expect(error).toBeInstanceOf(VippsRateLimitedError);
    expect(error).not.toBeInstanceOf(PaymentOutcomeUnknownError);
    expect(waits).toEqual([]);
  });

  it('a POST without an answer (time-out, 5xx) is an unknown outcome; a 4xx is a definite refusal; a GET without one is neither', async () => {
    const vipps = client();
    await vipps.accessToken();
    const create = /^\/epayment\/v1\/payments$/;
    busy = [{ path: create, status: 'hang' }];
    expect(await createPayment(vipps, randomUUID()).catch((e) => e)).toBeInstanceOf(
      PaymentOutcomeUnknownError,
    );
    busy = [{ path: create, status: 502 }];
    expect(await createPayment(vipps, randomUUID()).catch((e) => e)).toBeInstanceOf(
      PaymentOutcomeUnknownError,
    );
    busy = [{ path: create, status: 409 }];
    const refused = await createPayment(vipps, randomUUID()).catch((e) => e);
    expect(refused).toBeInstanceOf(VippsHttpError);
    expect(refused).not.toBeInstanceOf(PaymentOutcomeUnknownError);
    busy = [{ path: /^\/epayment\/v1\/payments\/[^/]+$/, status: 'hang' }];
    const read = await vipps.call('GET', `/epayment/v1/payments/${randomUUID()}`).catch((e) => e);
    expect(read).toBeInstanceOf(PaymentProviderError);
    expect(read).not.toBeInstanceOf(PaymentOutcomeUnknownError);
  });
});
