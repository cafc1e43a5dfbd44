import { and, eq, like } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { dataEnvelope } from '@alda/contract/envelope';
import { monthlyPriceResponse } from '@alda/contract/schemas/billing';
import { orderPlacedResponse } from '@alda/contract/schemas/orders';
import { PaymentProviderError, type PaymentProvider } from '../src/adapters/payments/provider';
import { monthEndRound } from '../src/jobs/month-end';
import { paymentAgreements } from '../src/db/schema/agreements';
import { lineBalances } from '../src/db/schema/balances';
import { notifications } from '../src/db/schema/data-transfers';
import { orders } from '../src/db/schema/orders';
import { payments } from '../src/db/schema/payments';
import { testProviderCards, testProviderPayments } from '../src/db/schema/test-provider';
import {
  createMonthChargeService,
  monthChargeKey,
} from '../src/modules/billing/month-charge-service';
import { createBillingService } from '../src/modules/billing/service';
import { createMonthEndService } from '../src/modules/month-end/service';
import { seedDemoData } from '../src/seed/seed';
import { LINES, signIn, type DemoName } from './demo-accounts';
import { createTestApp, demoUser, parse, testClock, waitFor } from './helper';
import { injectDelivery, WEBHOOK_SECRET, type DeliveryControl } from './payments-fixture';
import { paidOrder } from './purchases-fixtures';

const log = pino({ level: 'silent' });
const JOANNES = demoUser('Jóannes').id;
const GUDRUN = demoUser('Guðrun').id;
const ROI = demoUser('Rói').id;

/** The seam tests pull to make the provider refuse agreement charges (503 for the core). */
interface ProviderSwitch {
  chargesDown: boolean;
}

/**
 * The demo seeded at `seedAt`, the clock then moved by the test; the test provider's worker and
 * the job's timer are off: rounds are run by hand, webhooks delivered through inject on `tick()`.
 */
async function chargeApp(seedAt: string, env: Record<string, string> = {}) {
  const clock = testClock(seedAt);
  const provider: ProviderSwitch = { chargesDown: false };
  const delivery: DeliveryControl = { down: false, sent: [] };
  const built: { app?: FastifyInstance } = {};
  const t = await createTestApp(
    {
      PAYMENT_WEBHOOK_SECRET: WEBHOOK_SECRET,
      PAYMENT_RECONCILE_INTERVAL_S: '0',
      APP_URL: 'https://minsida.alda.test',
      MONTH_END_INTERVAL_S: '0',
      ...env,
    },
    {
      now: clock.now,
      payments: {
        deliverWebhook: injectDelivery(() => {
          if (!built.app) throw new Error('app not built');
          return built.app;
        }, delivery),
        testProviderIntervalMs: 0,
        wrapProvider: (inner: PaymentProvider): PaymentProvider => ({
          ...inner,
          chargeAgreement: async (input) => {
            if (provider.chargesDown) throw new PaymentProviderError('connect ECONNREFUSED');
            return inner.chargeAgreement(input);
          },
        }),
      },
    },
  );
  built.app = t.app;
  const { app } = t;
  await seedDemoData(app.db, clock.now());
  const billing = createBillingService({
    db: app.db,
    now: clock.now,
    payments: () => app.payments,
  });
  const monthEnd = createMonthEndService({ db: app.db, now: clock.now, log });
  const monthCharge = (startAt?: () => string) =>
    createMonthChargeService({
      db: app.db,
      now: clock.now,
      log,
      billing,
      ...(startAt ? { startAt } : {}),
    });
  const charge = monthCharge();
  /** One round of the job as app.ts wires it: the month end, then the month's charges. */
  const round = async () => {
    const result = await monthEndRound({
      intervalS: 0,
      run: () => monthEnd.run(),
      charge: () => charge.run(),
      log,
    });
    // The provider's answers (webhooks) arrive.
    await app.testProvider?.tick();
    return result.charge;
  };
  /** The customer's `subscription_payment` orders of a month, with their payments. */
  const monthOrders = async (userId: string, period: string) => {
    const rows = await app.db
      .select()
      .from(orders)
      .innerJoin(payments, eq(payments.orderId, orders.id))
      .where(
        and(
          eq(orders.userId, userId),
          eq(orders.kind, 'subscription_payment'),
          eq(orders.billingPeriod, period),
        ),
      )
      .orderBy(orders.createdAt);
    return rows.map((r) => ({ ...r.orders, payment: r.payments }));
  };
  /** Agreement charges the provider was asked for. */
  const providerCharges = async () =>
    (await app.db.select().from(testProviderPayments)).filter((p) => p.kind === 'agreement_charge');
  /** GET /api/billing/monthly-price as the customer sees it now. */
  const price = async (who: DemoName) =>
    parse(
      dataEnvelope(monthlyPriceResponse),
      await app.inject({
        method: 'GET',
        url: '/api/billing/monthly-price',
        headers: await signIn(app, who),
      }),
    ).data;
  const cardBehaves = (id: string, behaviour: 'succeed' | 'decline') =>
    app.db.update(testProviderCards).set({ behaviour }).where(eq(testProviderCards.id, id));
  return {
    ...t,
    clock,
    provider,
    billing,
    monthEnd,
    monthCharge,
    charge,
    round,
    monthOrders,
    providerCharges,
    price,
    cardBehaves,
  };
}

type ChargeApp = Awaited<ReturnType<typeof chargeApp>>;

/** Once the provider has answered: Jóannes's and Guðrun's July is one paid order each, two charges. */
async function expectJulyPaidOnceEach(t: ChargeApp) {
  await t.app.testProvider?.tick();
  for (const userId of [JOANNES, GUDRUN]) {
    const rows = await t.monthOrders(userId, '2026-07');
    expect(rows).toHaveLength(1);
    expect(rows[0]?.payment.state).toBe('paid');
  }
  expect(await t.providerCharges()).toHaveLength(2);
}

/** Each customer's month was charged once, with its key, for the month's total, and is paid. */
async function expectChargedOnce(t: ChargeApp, userId: string, period: string, total: number) {
  const rows = await t.monthOrders(userId, period);
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({
    idempotencyKey: monthChargeKey(userId, period),
    priceOere: total,
    paymentStatus: 'paid',
    isComplete: true,
    payment: { method: 'agreement', state: 'paid', amountOere: total },
  });
}

describe('the month-end charge on the payment agreement (issue 42; SPEC §1 view and pay for subscriptions; ADR 0053)', () => {
  it('SPEC §1: on a month start (1 July 00:05 Faroese summer time) each customer with an agreement is charged the month once, paid with the card on file; a second round charges nothing', async () => {
    const t = await chargeApp('2026-06-15T12:00:00.000Z');
    try {
      t.clock.set('2026-06-30T23:05:00.000Z'); // 1 July 00:05 in Tórshavn (UTC+1)
      // The month end first keeps June's roaming charges owed: the charge includes them.
      const before = (await t.price('Jóannes')).total.gross;
      await t.monthEnd.run();
      const july = await t.price('Jóannes');
      expect(july.lines.filter((l) => l.kind === 'roaming').length).toBeGreaterThan(0);
      const joannes = july.total.gross;
      expect(joannes).toBeGreaterThan(before);
      const gudrun = (await t.price('Guðrun')).total.gross;
      expect(gudrun).toBeGreaterThan(0);

      expect(await t.round()).toMatchObject({
        period: '2026-07',
        placed: 2,
        unavailable: 0,
        failed: 0,
      });
      // One order for all of Jóannes's accounts (he owns two): the payer's month, not an account's.
      await expectChargedOnce(t, JOANNES, '2026-07', joannes);
      await expectChargedOnce(t, GUDRUN, '2026-07', gudrun);
      const paid = await t.price('Guðrun');
      expect(paid.period).toBe('2026-07');
      expect(paid.paidOrderId).toBe((await t.monthOrders(GUDRUN, '2026-07'))[0]?.id);
      // June (unpaid in the demo) is not the job's: only the current month is charged.
      expect(await t.monthOrders(GUDRUN, '2026-06')).toEqual([]);

      t.clock.advance(300);
      expect(await t.round()).toMatchObject({ period: '2026-07', placed: 0 });
      expect(await t.providerCharges()).toHaveLength(2);
      // Paying in the app now answers that the month is paid.
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/billing/pay',
        headers: { ...(await signIn(t.app, 'Guðrun')), 'idempotency-key': 'tap-pay' },
        payload: { payWith: 'agreement' },
      });
      expect(res.statusCode).toBe(409);
      expect((res.json() as { error: { code: string } }).error.code).toBe('ALREADY_PAID');
    } finally {
      await t.close();
    }
  });

  it('two rounds at once (two instances at midnight) charge each month once: the Idempotency-Key answers the second', async () => {
    const t = await chargeApp('2026-06-15T12:00:00.000Z');
    try {
      t.clock.set('2026-06-30T23:05:00.000Z');
      await t.monthEnd.run();
      // Both start at the same customer, so they meet on every one.
      const first = '00000000-0000-4000-8000-000000000000';
      const [a, b] = [t.monthCharge(() => first), t.monthCharge(() => first)];
      const results = await Promise.all([a.run(), b.run(), a.run()]);
      expect(results.every((r) => r.unavailable === 0 && r.failed === 0)).toBe(true);
      await expectJulyPaidOnceEach(t);
    } finally {
      await t.close();
    }
  });

  it('an instance that closes mid-round (SIGTERM at midnight) stops before its next transaction: the month end moves nothing more, the charges stop after the customer in hand, and the next round does the rest once', async () => {
    const t = await chargeApp('2026-06-15T12:00:00.000Z');
    try {
      t.clock.set('2026-06-30T23:05:00.000Z');
      const closing = new AbortController();
      closing.abort();
      // Told to stop before it began: no balance moves, and the round does not go on to charge.
      const stopped = await monthEndRound(
        {
          intervalS: 0,
          run: (signal) => t.monthEnd.run(undefined, signal),
          charge: () => t.charge.run(),
          log,
        },
        closing.signal,
      );
      expect(stopped).toEqual({
        monthEnd: { applied: 0, moved: 0, removed: 0 },
        bills: null,
        charge: null,
      });
      expect(
        (await t.app.db.select().from(lineBalances)).every(
          (b) => b.periodStart.toISOString() < '2026-06-30T23:00:00.000Z',
        ),
      ).toBe(true);

      await t.monthEnd.run();
      // Closing while the first customer's charge is in hand: that charge completes, the round
      // stops there.
      const midway = new AbortController();
      const first = '00000000-0000-4000-8000-000000000000';
      const closingCharge = createMonthChargeService({
        db: t.app.db,
        now: t.clock.now,
        log,
        billing: {
          pay: async (...args) => {
            const placed = await t.billing.pay(...args);
            midway.abort();
            return placed;
          },
        },
        startAt: () => first,
      });
      expect(await closingCharge.run(midway.signal)).toMatchObject({ placed: 1 });
      expect(await t.round()).toMatchObject({ placed: 1, failed: 0, unavailable: 0 });
      await expectJulyPaidOnceEach(t);
    } finally {
      await t.close();
    }
  });

  it('skips a month already paid in the app, a customer without an agreement, and a month that costs 0 kr.', async () => {
    const t = await chargeApp('2026-06-15T12:00:00.000Z');
    try {
      t.clock.set('2026-06-30T23:05:00.000Z');
      await t.monthEnd.run();
      // Guðrun paid July herself (by card in the app) in its first minutes.
      const gudrun = (await t.price('Guðrun')).total.gross;
      await paidOrder(
        t.app,
        {
          userId: GUDRUN,
          kind: 'subscription_payment',
          billingPeriod: '2026-07',
          priceOere: gudrun,
        },
        t.clock.now(),
      );
      // Rói (talutíð: 0 kr. a month) registered a card.
      await t.app.db.insert(paymentAgreements).values({
        userId: ROI,
        status: 'active',
        cardBrand: 'Visa',
        cardLast4: '1111',
        cardExpiry: '12/30',
        providerReference: 'card_roi',
        provider: 'test',
      });
      await t.app.db.insert(testProviderCards).values({
        id: 'card_roi',
        brand: 'Visa',
        last4: '1111',
        expiry: '12/30',
        behaviour: 'succeed',
      });
      expect((await t.price('Rói')).total.gross).toBe(0);

      const result = await t.round();
      // Only Jóannes is charged; Rói is looked at (0 kr.) and left; Guðrun and Sunneva are not
      // even candidates (paid; no agreement).
      expect(result).toMatchObject({ placed: 1, skipped: 1 });
      expect(await t.monthOrders(GUDRUN, '2026-07')).toHaveLength(1);
      expect((await t.monthOrders(GUDRUN, '2026-07'))[0]?.idempotencyKey).toBeNull();
      expect(await t.monthOrders(ROI, '2026-07')).toEqual([]);
      expect(await t.monthOrders(demoUser('Sunneva').id, '2026-07')).toEqual([]);
      expect(await t.providerCharges()).toHaveLength(1);
    } finally {
      await t.close();
    }
  });

  it('a customer with a payment of the month still open (card page not finished) is not charged beside it', async () => {
    const t = await chargeApp('2026-06-15T12:00:00.000Z');
    try {
      t.clock.set('2026-06-30T23:05:00.000Z');
      await t.monthEnd.run();
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/billing/pay',
        headers: { ...(await signIn(t.app, 'Guðrun')), 'idempotency-key': 'card-page' },
        payload: { payWith: 'card' },
      });
      expect(res.statusCode, res.body).toBe(201);
      const open = orderPlacedResponse.parse((res.json() as { data: unknown }).data);
      expect(open.paymentUrl).not.toBeNull();

      await t.round();
      const rows = await t.monthOrders(GUDRUN, '2026-07');
      expect(rows.map((r) => [r.id, r.payment.method, r.payment.state])).toEqual([
        [open.order.id, 'card', 'created'],
      ]);
      expect(await t.monthOrders(JOANNES, '2026-07')).toHaveLength(1);
    } finally {
      await t.close();
    }
  });

  it('waits for the month end of the customer: a cancellation due at the month start is carried out first, so the new month is priced as talutíð (nothing to charge)', async () => {
    const t = await chargeApp('2026-06-15T12:00:00.000Z');
    try {
      const cancelled = await t.app.inject({
        method: 'DELETE',
        url: '/api/subscriptions',
        headers: { ...(await signIn(t.app, 'Guðrun')), 'idempotency-key': 'cancel-gudrun' },
      });
      expect(cancelled.statusCode, cancelled.body).toBe(200);
      t.clock.set('2026-06-30T23:05:00.000Z');
      // The charge alone (as on an instance whose month end has not reached her yet).
      expect(await t.charge.run()).toMatchObject({ placed: 1, skipped: 1 });
      expect(await t.monthOrders(GUDRUN, '2026-07')).toEqual([]);
      expect(await t.round()).toMatchObject({ placed: 0 });
      expect((await t.price('Guðrun')).total.gross).toBe(0);
      expect(await t.monthOrders(GUDRUN, '2026-07')).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('a declined charge fails the payment as a failed payment in the app does (same order state, same notifications), the month stays unpaid, and the next round does not charge again', async () => {
    const t = await chargeApp('2026-06-15T12:00:00.000Z');
    try {
      await t.cardBehaves('demo-card-gudrun', 'decline');
      t.clock.set('2026-06-30T23:05:00.000Z');
      const noticesBefore = await t.app.db
        .select()
        .from(notifications)
        .where(eq(notifications.userId, GUDRUN));

      expect(await t.round()).toMatchObject({ placed: 2, failed: 0 });
      const [charged] = await t.monthOrders(GUDRUN, '2026-07');
      expect(charged).toMatchObject({
        idempotencyKey: monthChargeKey(GUDRUN, '2026-07'),
        paymentStatus: 'failed',
        isCancelled: true,
        isComplete: false,
        payment: { method: 'agreement', state: 'failed', failureReason: 'declined' },
      });
      const unpaid = await t.price('Guðrun');
      expect(unpaid.paidOrderId).toBeNull();
      expect(unpaid.total.gross).toBe(charged?.priceOere);
      // Nobody watched the charge: a notification says the month is still to pay, and where.
      const told = await t.app.db
        .select()
        .from(notifications)
        .where(eq(notifications.userId, GUDRUN));
      expect(told).toHaveLength(noticesBefore.length + 1);
      expect(told.find((n) => !noticesBefore.some((b) => b.id === n.id))).toMatchObject({
        type: 'payment',
        link: '/menu/manadargjald',
        params: { title: { fo: 'Mánaðargjaldið er ikki goldið' } },
      });

      // The same customer pays in the app with the card on file, and it is declined again: the
      // order ends the same way, with the same notification.
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/billing/pay',
        headers: { ...(await signIn(t.app, 'Guðrun')), 'idempotency-key': 'tap-pay' },
        payload: { payWith: 'agreement' },
      });
      expect(res.statusCode, res.body).toBe(201);
      await t.app.testProvider?.tick();
      const [, tapped] = await t.monthOrders(GUDRUN, '2026-07');
      const stateOf = (o: typeof charged) => ({
        kind: o?.kind,
        billingPeriod: o?.billingPeriod,
        priceOere: o?.priceOere,
        paymentStatus: o?.paymentStatus,
        isCancelled: o?.isCancelled,
        isComplete: o?.isComplete,
        payment: {
          method: o?.payment.method,
          state: o?.payment.state,
          failureReason: o?.payment.failureReason,
        },
      });
      expect(stateOf(tapped)).toEqual(stateOf(charged));
      const noticesAfter = await t.app.db
        .select()
        .from(notifications)
        .where(eq(notifications.userId, GUDRUN));
      expect(noticesAfter).toHaveLength(noticesBefore.length + 2);

      // Next rounds: the failed month is the customer's to pay; no new charge.
      const charges = (await t.providerCharges()).length;
      t.clock.advance(300);
      expect(await t.round()).toMatchObject({ placed: 0 });
      t.clock.advance(86_400);
      expect(await t.round()).toMatchObject({ placed: 0 });
      expect(await t.monthOrders(GUDRUN, '2026-07')).toHaveLength(2);
      expect(await t.providerCharges()).toHaveLength(charges);
      // Jóannes's card was fine.
      expect((await t.monthOrders(JOANNES, '2026-07'))[0]?.payment.state).toBe('paid');
    } finally {
      await t.close();
    }
  });

  it('a charge the provider did not take (unavailable) is not a charge: the round stops, the key is released, and the next round charges the month', async () => {
    const t = await chargeApp('2026-06-15T12:00:00.000Z');
    try {
      t.clock.set('2026-06-30T23:05:00.000Z');
      t.provider.chargesDown = true;
      // The first customer's charge fails to reach the provider; the rest wait for next round.
      expect(await t.round()).toMatchObject({ placed: 0, unavailable: 1 });
      const tried = [
        ...(await t.monthOrders(JOANNES, '2026-07')),
        ...(await t.monthOrders(GUDRUN, '2026-07')),
      ];
      expect(tried).toHaveLength(1);
      expect(tried[0]).toMatchObject({
        idempotencyKey: null,
        isCancelled: true,
        payment: { state: 'failed', failureReason: 'provider_unavailable' },
      });
      expect((await t.price('Guðrun')).paidOrderId).toBeNull();

      t.provider.chargesDown = false;
      t.clock.advance(300);
      expect(await t.round()).toMatchObject({ placed: 2, unavailable: 0 });
      for (const userId of [JOANNES, GUDRUN]) {
        const rows = await t.monthOrders(userId, '2026-07');
        const paid = rows.filter((r) => r.paymentStatus === 'paid');
        expect(paid).toHaveLength(1);
        expect(paid[0]?.idempotencyKey).toBe(monthChargeKey(userId, '2026-07'));
      }
    } finally {
      await t.close();
    }
  });

  it('at a year end: the last minute of 31 December charges December, the first minutes of 1 January (UTC+0) charge January — each once', async () => {
    const t = await chargeApp('2026-12-10T12:00:00.000Z');
    try {
      t.clock.set('2026-12-31T23:59:00.000Z');
      expect(await t.round()).toMatchObject({ period: '2026-12', placed: 2 });
      t.clock.set('2027-01-01T00:00:00.000Z');
      expect(await t.round()).toMatchObject({ period: '2027-01', placed: 2 });
      t.clock.advance(300);
      expect(await t.round()).toMatchObject({ period: '2027-01', placed: 0 });
      for (const userId of [JOANNES, GUDRUN]) {
        for (const period of ['2026-12', '2027-01']) {
          const rows = await t.monthOrders(userId, period);
          expect(rows.map((r) => [r.idempotencyKey, r.payment.state])).toEqual([
            [monthChargeKey(userId, period), 'paid'],
          ]);
        }
      }
      const keys = await t.app.db
        .select({ key: orders.idempotencyKey })
        .from(orders)
        .where(like(orders.idempotencyKey, 'month-charge:%'));
      expect(keys).toHaveLength(4);
    } finally {
      await t.close();
    }
  });

  it('on 29 February (a leap year): the round of 29 February 23:30 charges February, the one after midnight charges March', async () => {
    const t = await chargeApp('2028-02-20T12:00:00.000Z');
    try {
      t.clock.set('2028-02-29T23:30:00.000Z');
      expect(await t.round()).toMatchObject({ period: '2028-02', placed: 2 });
      t.clock.set('2028-03-01T00:00:30.000Z');
      expect(await t.round()).toMatchObject({ period: '2028-03', placed: 2 });
      for (const period of ['2028-02', '2028-03']) {
        expect((await t.monthOrders(GUDRUN, period)).map((r) => r.payment.state)).toEqual(['paid']);
      }
    } finally {
      await t.close();
    }
  });

  it('runs with the month-end job when the app starts (MONTH_END_INTERVAL_S > 0), and not with MONTH_END_CHARGE=false', async () => {
    for (const [charge, charged] of [
      ['true', true],
      ['false', false],
    ] as const) {
      const t = await chargeApp('2026-06-15T12:00:00.000Z', {
        MONTH_END_INTERVAL_S: '300',
        MONTH_END_CHARGE: charge,
      });
      try {
        t.clock.set('2026-06-30T23:05:00.000Z');
        await t.app.ready();
        const placed = async () =>
          (await t.monthOrders(GUDRUN, '2026-07')).length > 0 ? true : undefined;
        if (charged) {
          await waitFor(placed);
        } else {
          // The job's round itself runs (June's balances move to July), the charge does not.
          await waitFor(async () => {
            const [row] = await t.app.db
              .select()
              .from(lineBalances)
              .where(eq(lineBalances.lineId, LINES.gudrun));
            return row?.periodStart.toISOString() === '2026-06-30T23:00:00.000Z' ? true : undefined;
          });
          await new Promise((resolve) => setTimeout(resolve, 300));
          expect(await placed()).toBeUndefined();
        }
      } finally {
        await t.close();
      }
    }
  });
});
