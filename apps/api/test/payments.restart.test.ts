import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { orderPlacedResponse, type OrderPlacedResponse } from '@alda/contract/schemas/orders';
import { buildApp } from '../src/app';
import { seedDemoData } from '../src/seed/seed';
import { NOW } from './demo-accounts';
import {
  createTestApp,
  createTestApps,
  createTestDatabase,
  testClock,
  testConfig,
  usingPostgres,
  waitFor,
} from './helper';
import {
  CARDS,
  PACKAGE,
  WEBHOOK_SECRET,
  domesticTotal,
  eventsOf,
  injectDelivery,
  orderRow,
  packagePurchase,
  paymentOfOrder,
  receiptsOf,
  submitCard,
  type DeliveryControl,
} from './payments-fixture';

/*
 * Kill and restart (SPEC §4 Payment flow): the provider has accepted a payment, but the API goes
 * away before the webhook is handled (its delivery fails while the API is down). A new app on
 * the SAME database — a PGlite folder on disk, or the same PostgreSQL database — completes the
 * payment exactly once: through the provider's redelivery from its durable queue, or through
 * reconciliation when the webhooks still cannot get through.
 */

interface Storage {
  env: Record<string, string>;
  databaseUrl: string | undefined;
  drop(): Promise<void>;
}

async function sharedStorage(): Promise<Storage> {
  if (usingPostgres) {
    const database = await createTestDatabase();
    return { env: {}, databaseUrl: database.url, drop: () => database.drop() };
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'alda-restart-'));
  return {
    env: { DATA_DIR: dir },
    databaseUrl: undefined,
    drop: () => rm(dir, { recursive: true, force: true }),
  };
}

describe(`payments survive an API restart (${usingPostgres ? 'PostgreSQL' : 'PGlite on disk'})`, () => {
  const clock = testClock(NOW.toISOString());
  let storage: Storage | undefined;
  let current: FastifyInstance | undefined;

  afterEach(async () => {
    await current?.close();
    current = undefined;
    await storage?.drop();
    storage = undefined;
  });

  /** Starts an app on the shared database; its provider delivers webhooks to this app. */
  async function start(delivery: DeliveryControl): Promise<FastifyInstance> {
    if (!storage) throw new Error('no storage');
    const config = testConfig(
      {
        PAYMENT_WEBHOOK_SECRET: WEBHOOK_SECRET,
        PAYMENT_RECONCILE_INTERVAL_S: '0',
        APP_URL: 'https://minsida.alda.test',
        ...storage.env,
      },
      storage.databaseUrl,
    );
    const built: { app?: FastifyInstance } = {};
    const app = await buildApp(config, {
      now: clock.now,
      payments: {
        testProviderIntervalMs: 0,
        deliverWebhook: injectDelivery(() => {
          if (!built.app) throw new Error('app not built');
          return built.app;
        }, delivery),
      },
    });
    built.app = app;
    await app.database.migrate();
    current = app;
    return app;
  }

  async function stop(app: FastifyInstance) {
    await app.close();
    current = undefined;
  }

  /** First life: the customer pays, the provider accepts, the webhooks do not get through. */
  async function payWhileWebhooksFail(): Promise<{
    placed: OrderPlacedResponse;
    before: number;
  }> {
    storage = await sharedStorage();
    const down: DeliveryControl = { down: true, sent: [] };
    const first = await start(down);
    await seedDemoData(first.db, NOW);
    const before = await domesticTotal(first);
    const placed = orderPlacedResponse.parse(
      await first.payments.placePaidOrder(packagePurchase()),
    );
    expect((await submitCard(first, placed, CARDS.succeed)).statusCode).toBe(303);
    await first.testProvider?.tick();
    expect(down.sent.length).toBeGreaterThan(0);
    expect((await paymentOfOrder(first, placed.order.id)).state).toBe('created');
    // The API process goes away with the payment accepted at the provider but not handled.
    await stop(first);
    return { placed, before };
  }

  async function expectPaidOnce(app: FastifyInstance, placed: OrderPlacedResponse, before: number) {
    const payment = await paymentOfOrder(app, placed.order.id);
    expect(payment.state).toBe('paid');
    expect(payment.fulfilledAt).not.toBeNull();
    expect((await orderRow(app, placed.order.id)).isComplete).toBe(true);
    expect(await receiptsOf(app, payment.id)).toHaveLength(1);
    expect(await domesticTotal(app)).toBe(before + PACKAGE.dataMb);
  }

  it('SPEC §4 Payment flow: after a restart the provider redelivers from its durable queue and the payment completes exactly once', async () => {
    const { placed, before } = await payWhileWebhooksFail();
    const up: DeliveryControl = { down: false, sent: [] };
    const second = await start(up);
    expect((await paymentOfOrder(second, placed.order.id)).state).toBe('created');
    clock.advance(2); // past the first retry's backoff
    await second.testProvider?.tick();
    expect(up.sent.length).toBeGreaterThan(0);
    await expectPaidOnce(second, placed, before);
    // later retries, reconciliation and another restart change nothing
    clock.advance(600);
    await second.testProvider?.tick();
    expect((await second.payments.reconcile({ afterS: 60 })).advanced).toBe(0);
    await stop(second);
    const third = await start({ down: false, sent: [] });
    await third.testProvider?.tick();
    await expectPaidOnce(third, placed, before);
  }, 90_000);

  it('SPEC §4 Payment flow: after a restart with the webhooks still failing, reconciliation completes the payment exactly once, and the late webhooks change nothing', async () => {
    const { placed, before } = await payWhileWebhooksFail();
    const delivery: DeliveryControl = { down: true, sent: [] };
    const second = await start(delivery);
    clock.advance(61);
    await second.testProvider?.tick();
    const round = await second.payments.reconcile({ afterS: 60 });
    expect(round.advanced).toBe(1);
    await expectPaidOnce(second, placed, before);
    // the endpoint comes back: the provider's retries arrive, are recorded, and change nothing
    delivery.down = false;
    clock.advance(600);
    await second.testProvider?.tick();
    await expectPaidOnce(second, placed, before);
  }, 90_000);
});

describe('reconciliation on several instances and as a timed job', () => {
  it('two instances reconciling the same stuck payment at once fulfil it exactly once (FOR UPDATE SKIP LOCKED)', async () => {
    const clock = testClock(NOW.toISOString());
    const delivery: DeliveryControl = { down: true, sent: [] };
    const built: { app?: FastifyInstance } = {};
    const t = await createTestApps(
      2,
      {
        PAYMENT_WEBHOOK_SECRET: WEBHOOK_SECRET,
        PAYMENT_RECONCILE_INTERVAL_S: '0',
        APP_URL: 'https://minsida.alda.test',
      },
      {
        now: clock.now,
        payments: {
          testProviderIntervalMs: 0,
          deliverWebhook: injectDelivery(() => {
            if (!built.app) throw new Error('app not built');
            return built.app;
          }, delivery),
        },
      },
    );
    try {
      const [a, b] = t.apps;
      if (!a || !b) throw new Error('two apps expected');
      built.app = a;
      await seedDemoData(a.db, NOW);
      const before = await domesticTotal(a);
      const placed = orderPlacedResponse.parse(await a.payments.placePaidOrder(packagePurchase()));
      await submitCard(b, placed, CARDS.succeed);
      await a.testProvider?.tick();
      clock.advance(61);
      const rounds = await Promise.all([
        a.payments.reconcile({ afterS: 60 }),
        b.payments.reconcile({ afterS: 60 }),
        a.payments.reconcile({ afterS: 60 }),
        b.payments.reconcile({ afterS: 60 }),
      ]);
      expect(rounds.reduce((sum, r) => sum + r.advanced, 0)).toBe(1);
      const payment = await paymentOfOrder(a, placed.order.id);
      expect(payment.state).toBe('paid');
      expect(await receiptsOf(a, payment.id)).toHaveLength(1);
      expect(await domesticTotal(b)).toBe(before + PACKAGE.dataMb);
    } finally {
      await t.close();
    }
  }, 60_000);

  it('PAYMENT_RECONCILE_INTERVAL_S runs reconciliation by itself while webhooks cannot get through', async () => {
    const delivery: DeliveryControl = { down: true, sent: [] };
    const built: { app?: FastifyInstance } = {};
    const t = await createTestApp(
      {
        PAYMENT_WEBHOOK_SECRET: WEBHOOK_SECRET,
        PAYMENT_RECONCILE_INTERVAL_S: '1',
        PAYMENT_RECONCILE_AFTER_S: '1',
        APP_URL: 'https://minsida.alda.test',
      },
      {
        payments: {
          testProviderIntervalMs: 0,
          deliverWebhook: injectDelivery(() => {
            if (!built.app) throw new Error('app not built');
            return built.app;
          }, delivery),
        },
      },
    );
    try {
      built.app = t.app;
      await seedDemoData(t.app.db, NOW);
      await t.app.ready();
      const placed = orderPlacedResponse.parse(
        await t.app.payments.placePaidOrder(packagePurchase()),
      );
      await submitCard(t.app, placed, CARDS.succeed);
      await t.app.testProvider?.tick();
      const paid = await waitFor(async () => {
        const payment = await paymentOfOrder(t.app, placed.order.id);
        return payment.state === 'paid' ? payment : undefined;
      }, 15_000);
      expect(paid.fulfilledAt).not.toBeNull();
      // the provider tried, nothing got through: the job did it, not a webhook
      expect(delivery.sent.length).toBeGreaterThan(0);
      expect(await eventsOf(t.app, paid.id)).toHaveLength(0);
    } finally {
      await t.close();
    }
  }, 60_000);
});
