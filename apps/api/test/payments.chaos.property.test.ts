import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope } from '@alda/contract/envelope';
import { faroeMonth, startOfMonth } from '@alda/contract/format/date';
import { monthlyPriceResponse } from '@alda/contract/schemas/billing';
import {
  order as orderDto,
  orderPlacedResponse,
  type OrderPlacedResponse,
  type PaymentStatus,
} from '@alda/contract/schemas/orders';
import type { CardBehaviour } from '../src/adapters/payments/test-provider/cards';
import type { PaymentState } from '../src/db/schema/payments';
import { parse, usingPostgres } from './helper';
import {
  CHAOS_PACKAGE,
  createChaosWorld,
  customerLedger,
  newChaosCustomer,
  openPayments,
  ourStateOfView,
  postSignedWebhook,
  submitCardPage,
  type ChaosCustomer,
  type ChaosWorld,
  type SentWebhook,
} from './payments-chaos-fixture';

/*
 * Issue 14, "Payment chaos, exactly once" (SPEC §4 Payment flow; ADR 0050 §4 one state machine,
 * §5 webhook idempotency, §7 reconciliation; ADR 0052 fulfilment exactly once).
 *
 * Each run is one fresh customer who places a few orders of every kind the payments core
 * fulfils — an extra package, a top-up, a card registration (0 kr. card check) and the month's
 * price — by card page or charged to the card on file, through the real routes and on either of
 * TWO API instances sharing one database (sometimes the same request to both at once). The run
 * decides what the provider makes of each payment (paid, declined, cancelled, paid late by a
 * slow card, abandoned until the card page expires). The provider's webhooks go into a network
 * the run controls: it delivers them through the real webhook route, signed as the provider
 * signs, to either instance, in any order, duplicated (also at the same moment), late, after
 * the payment has ended, with a stale signature, or never — interleaved with reconciliation
 * rounds on both instances, the provider's own rounds, client retries of the purchase and
 * polling of the order. At the end the webhooks not yet delivered may arrive, reconciliation
 * runs, and every webhook is replayed once more after success. Then:
 *
 * - no payment is left created or pending;
 * - each payment's state is the provider's final state and the one the run decided;
 * - each paid order is fulfilled exactly once (the data, the credit, the agreement or the paid
 *   month added once, one receipt when it cost anything, one log entry, one notification), and a
 *   failed or cancelled one not at all (and no refund is owed);
 * - the order as the API shows it (both instances) agrees, and it never went backwards.
 *
 * One app pair and database for all runs; each run has its own customer. The clock is the
 * app's injected clock, moved by the run; no step waits on wall-clock time. CHAOS_RUNS sets the
 * number of runs (1,000 for the figure), CHAOS_SEED replays a run sequence.
 */

const RUNS = Number(process.env.CHAOS_RUNS ?? (usingPostgres ? 100 : 150));
const SEED =
  process.env.CHAOS_SEED !== undefined && process.env.CHAOS_SEED !== ''
    ? Number(process.env.CHAOS_SEED)
    : Math.floor(Math.random() * 2 ** 31);

type Kind = 'package' | 'top_up' | 'registration' | 'month';
type Method = 'card' | 'agreement';
/** What the customer does on the card page (card payments), decided by the run. */
type Outcome = CardBehaviour | 'cancel' | 'abandon';
type AppIndex = 0 | 1;

interface OrderSpec {
  kind: Kind;
  method: Method;
  outcome: Outcome;
  topUpKr: number;
  app: AppIndex;
  /** The same request sent to both instances at the same moment (double tap, client retry). */
  duplicate: boolean;
}

type Command =
  | { t: 'submit'; order: number; app: AppIndex }
  | { t: 'tick'; app: AppIndex }
  | { t: 'deliver'; event: number; app: AppIndex; copies: number }
  | { t: 'stale'; event: number; app: AppIndex }
  | { t: 'reconcile'; app: AppIndex }
  | { t: 'retry'; order: number; app: AppIndex }
  | { t: 'poll'; order: number; app: AppIndex }
  | { t: 'wait'; seconds: number };

interface Scenario {
  agreementCard: CardBehaviour;
  orders: OrderSpec[];
  /** Steps; the commands of one step run at the same time. */
  steps: Command[][];
  /** How the webhooks still in the network arrive at the end (or never: reconciliation). */
  finalDelivery: 'none' | 'in_order' | 'reversed';
  finalApp: AppIndex;
}

const appIndex = fc.constantFrom<AppIndex>(0, 1);

const orderSpec: fc.Arbitrary<OrderSpec> = fc
  .record({
    kind: fc.constantFrom<Kind>('package', 'top_up', 'registration', 'month'),
    method: fc.constantFrom<Method>('card', 'card', 'agreement'),
    outcome: fc.constantFrom<Outcome>('succeed', 'succeed', 'decline', 'cancel', 'slow', 'abandon'),
    topUpKr: fc.constantFrom(50, 100, 200, 300, 500),
    app: appIndex,
    duplicate: fc.constantFrom(false, false, true),
  })
  // A card registration is always made on the card page.
  .map((spec) => (spec.kind === 'registration' ? { ...spec, method: 'card' as const } : spec));

const command: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({ t: fc.constant('submit' as const), order: fc.nat(3), app: appIndex }),
  },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('tick' as const), app: appIndex }) },
  {
    weight: 8,
    arbitrary: fc.record({
      t: fc.constant('deliver' as const),
      event: fc.nat(15),
      app: appIndex,
      copies: fc.integer({ min: 1, max: 3 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ t: fc.constant('stale' as const), event: fc.nat(15), app: appIndex }),
  },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('reconcile' as const), app: appIndex }) },
  {
    weight: 2,
    arbitrary: fc.record({ t: fc.constant('retry' as const), order: fc.nat(3), app: appIndex }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ t: fc.constant('poll' as const), order: fc.nat(3), app: appIndex }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      t: fc.constant('wait' as const),
      seconds: fc.integer({ min: 1, max: 20 }),
    }),
  },
);

const scenario: fc.Arbitrary<Scenario> = fc.record({
  agreementCard: fc.constantFrom<CardBehaviour>('succeed', 'succeed', 'decline', 'slow'),
  orders: fc
    .array(orderSpec, { minLength: 1, maxLength: 4 })
    // One month payment per run: a second one would (rightly) answer the first while it is open.
    .map((specs) =>
      specs.map((spec, i) =>
        spec.kind === 'month' && specs.findIndex((s) => s.kind === 'month') !== i
          ? { ...spec, kind: 'package' as const }
          : spec,
      ),
    ),
  steps: fc.array(fc.array(command, { minLength: 1, maxLength: 3 }), { maxLength: 10 }),
  finalDelivery: fc.constantFrom<Scenario['finalDelivery']>('none', 'in_order', 'reversed'),
  finalApp: appIndex,
});

/** The state the run decided for an order's payment. */
function decided(spec: OrderSpec, agreementCard: CardBehaviour): PaymentState {
  const behaviour = spec.method === 'agreement' ? agreementCard : spec.outcome;
  switch (behaviour) {
    case 'succeed':
    case 'slow':
      return 'paid';
    case 'decline':
      return 'failed';
    case 'cancel':
    case 'abandon':
      return 'cancelled';
  }
}

interface Placed {
  spec: OrderSpec;
  url: string;
  body: Record<string, unknown>;
  key: string;
  answer: OrderPlacedResponse;
  orderId: string;
  providerPaymentId: string;
  expected: PaymentState;
  submitted: boolean;
}

function requestOf(spec: OrderSpec, customer: ChaosCustomer) {
  switch (spec.kind) {
    case 'package':
      return {
        url: '/api/packages',
        body: {
          packageId: CHAOS_PACKAGE.id,
          phoneNumber: customer.postpaidMsisdn,
          payWith: spec.method,
        },
      };
    case 'top_up':
      return {
        url: '/api/top-ups',
        body: {
          phoneNumber: customer.prepaidMsisdn,
          amount: spec.topUpKr * 100,
          payWith: spec.method,
        },
      };
    case 'registration':
      return { url: '/api/agreements', body: {} };
    case 'month':
      return { url: '/api/billing/pay', body: { payWith: spec.method } };
  }
}

const TERMINAL = new Set<PaymentStatus>(['paid', 'failed', 'cancelled']);

describe(`issue 14: payment chaos, exactly once — two instances, one database (${usingPostgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  let world: ChaosWorld;
  let runNo = 0;
  beforeAll(async () => {
    world = await createChaosWorld();
  }, 120_000);
  afterAll(() => world.close());

  const appOf = (i: AppIndex): FastifyInstance => world.apps[i];
  const other = (i: AppIndex): AppIndex => (i === 0 ? 1 : 0);

  async function place(spec: OrderSpec, customer: ChaosCustomer, agreementCard: CardBehaviour) {
    const { url, body } = requestOf(spec, customer);
    const key = randomUUID();
    const send = (app: AppIndex) =>
      appOf(app).inject({
        method: 'POST',
        url,
        headers: { ...customer.headers, 'idempotency-key': key },
        payload: body,
      });
    const responses = await Promise.all(
      spec.duplicate ? [send(spec.app), send(other(spec.app))] : [send(spec.app)],
    );
    const answers = responses.map((res) => {
      expect(res.statusCode, `${url} ${res.body}`).toBe(201);
      return parse(dataEnvelope(orderPlacedResponse), res).data;
    });
    const answer = answers[0];
    if (!answer) throw new Error('no answer');
    // ADR 0050 §6: the same Idempotency-Key is one order, whichever instance answers.
    for (const again of answers) expect(again.order.id).toBe(answer.order.id);
    return { url, body, key, answer, expected: decided(spec, agreementCard) };
  }

  it(
    'issue 14 (SPEC §4 Payment flow; ADR 0050 §4–§7, ADR 0052): duplicated, out-of-order, late and replayed webhooks on two instances, with reconciliation — every paid order fulfilled exactly once, every state the provider’s, no payment stuck',
    async () => {
      let runs = 0;
      let paidOrders = 0;
      let deliveries = 0;
      let reconciled = 0;
      const reconcile = async (app: AppIndex) => {
        reconciled += (await appOf(app).payments.reconcile({ afterS: 60 })).advanced;
      };
      const started = Date.now();
      await fc.assert(
        fc.asyncProperty(scenario, async (s) => {
          runs += 1;
          runNo += 1;
          const { clock, network } = world;
          network.clear();
          // A run stays inside one Faroese month (the month's price is checked at its end).
          const horizon = new Date(clock.now().getTime() + 3 * 3_600_000);
          if (faroeMonth(horizon) !== faroeMonth(clock.now()))
            clock.set(new Date(startOfMonth(horizon).getTime() + 8 * 3_600_000).toISOString());
          const customer = await newChaosCustomer(world, runNo, s.agreementCard);

          // 1. The orders, placed at once on either instance (some twice at the same moment).
          const placedRaw = await Promise.all(
            s.orders.map((spec) => place(spec, customer, s.agreementCard)),
          );
          const ledger0 = await customerLedger(world.apps[0], customer);
          const placed: Placed[] = placedRaw.map((p, i) => {
            const spec = s.orders[i] as OrderSpec;
            const payment = ledger0.payments.find((row) => row.orderId === p.answer.order.id);
            if (!payment?.providerPaymentId) throw new Error('payment not sent to the provider');
            if (spec.method === 'card') expect(p.answer.paymentUrl).not.toBeNull();
            return {
              ...p,
              spec,
              orderId: p.answer.order.id,
              providerPaymentId: payment.providerPaymentId,
              submitted: false,
            };
          });
          const ours = new Set(placed.map((p) => p.providerPaymentId));
          const runEvents = (): SentWebhook[] =>
            [...network.values()].filter((w) => ours.has(w.providerPaymentId));
          const seen = new Map<string, PaymentStatus>();

          const submit = async (p: Placed, app: AppIndex) => {
            if (p.spec.method !== 'card' || p.spec.outcome === 'abandon') return;
            const url = p.answer.paymentUrl;
            if (!url) throw new Error('no card page');
            const res = await submitCardPage(
              appOf(app),
              url,
              p.spec.outcome === 'cancel' ? 'cancel' : p.spec.outcome,
            );
            expect(res.statusCode, res.body).toBe(303);
            p.submitted = true;
          };
          const deliver = async (webhook: SentWebhook, app: AppIndex) => {
            deliveries += 1;
            const res = await postSignedWebhook(appOf(app), webhook.body, clock.now());
            expect(res.statusCode, res.body).toBe(200);
          };
          const poll = async (p: Placed, app: AppIndex) => {
            const res = await appOf(app).inject({
              method: 'GET',
              url: `/api/orders/${p.orderId}`,
              headers: customer.headers,
            });
            expect(res.statusCode, res.body).toBe(200);
            const status = parse(dataEnvelope(orderDto), res).data.paymentStatus;
            const before = seen.get(p.orderId);
            // ADR 0050 §4: states only move forward; an ended payment never changes.
            if (before !== undefined && TERMINAL.has(before)) expect(status).toBe(before);
            seen.set(p.orderId, status);
          };
          const retry = async (p: Placed, app: AppIndex) => {
            const res = await appOf(app).inject({
              method: 'POST',
              url: p.url,
              headers: { ...customer.headers, 'idempotency-key': p.key },
              payload: p.body,
            });
            expect(res.statusCode, res.body).toBe(201);
            const again = parse(dataEnvelope(orderPlacedResponse), res).data;
            expect(again.order.id).toBe(p.orderId);
            expect(again.paymentUrl).toBe(p.answer.paymentUrl);
          };
          const pick = <T>(list: readonly T[], i: number): T | undefined =>
            list.length === 0 ? undefined : list[i % list.length];

          const run = async (c: Command): Promise<void> => {
            switch (c.t) {
              case 'submit': {
                const p = pick(placed, c.order);
                if (p) await submit(p, c.app);
                return;
              }
              case 'tick':
                await appOf(c.app).testProvider?.tick();
                return;
              case 'deliver': {
                const webhook = pick(runEvents(), c.event);
                if (webhook)
                  await Promise.all(
                    Array.from({ length: c.copies }, (_, k) =>
                      deliver(webhook, k % 2 === 0 ? c.app : other(c.app)),
                    ),
                  );
                return;
              }
              case 'stale': {
                // A replay outside the 300 s signature window (ADR 0050 §3) is refused.
                const webhook = pick(runEvents(), c.event);
                if (!webhook) return;
                const at = new Date(clock.now().getTime() - 301_000);
                const res = await postSignedWebhook(appOf(c.app), webhook.body, at);
                expect(res.statusCode, res.body).toBe(400);
                return;
              }
              case 'reconcile':
                await reconcile(c.app);
                return;
              case 'retry': {
                const p = pick(placed, c.order);
                if (p) await retry(p, c.app);
                return;
              }
              case 'poll': {
                const p = pick(placed, c.order);
                if (p) await poll(p, c.app);
                return;
              }
              case 'wait':
                return;
            }
          };

          // 2. Chaos: each step's commands at the same time; the clock moves between steps.
          for (const step of s.steps) {
            let seconds = 0;
            for (const c of step) if (c.t === 'wait') seconds += c.seconds;
            // A reconciliation round looks at payments open for more than a minute.
            if (step.some((c) => c.t === 'reconcile')) seconds += 61;
            clock.advance(seconds);
            await Promise.all(step.map(run));
          }

          // 3. The customers who had not finished the card page do so now (not the abandoned
          // ones); slow cards settle, abandoned pages expire at the provider.
          for (const p of placed) if (!p.submitted) await submit(p, s.finalApp);
          const abandoned = placed.some(
            (p) => p.spec.method === 'card' && p.spec.outcome === 'abandon',
          );
          clock.advance(10 + (abandoned ? 3_600 : 0));
          await appOf(s.finalApp).testProvider?.tick();
          if (s.finalDelivery !== 'none') {
            const late = runEvents();
            if (s.finalDelivery === 'reversed') late.reverse();
            for (const [i, webhook] of late.entries())
              await deliver(webhook, i % 2 === 0 ? s.finalApp : other(s.finalApp));
          }
          // 4. Reconciliation on both instances at once, after the last webhook.
          clock.advance(61);
          await Promise.all([reconcile(0), reconcile(1)]);
          // ADR 0050 §7: nothing is left open once reconciliation has run.
          expect(await openPayments(world.apps[0], customer.userId)).toEqual([]);

          // 5. Every webhook replayed after success, on the other instance, and the clients retry.
          for (const webhook of runEvents().reverse()) await deliver(webhook, other(s.finalApp));
          for (const p of placed) await retry(p, other(s.finalApp));
          clock.advance(61);
          await reconcile(s.finalApp);

          // 6. The invariants, from the database and from the API of both instances.
          const ledger = await customerLedger(world.apps[0], customer);
          const view = world.apps[0].testProvider?.provider;
          if (!view) throw new Error('no test provider');
          let paid = 0;
          let paidPackages = 0;
          let creditOere = 0;
          let paidRegistrations = 0;
          let paidMonth: string | null = null;
          let receiptsExpected = 0;
          // A month charged to the agreement that failed tells the customer once (ADR 0081).
          let failedMonthCharges = 0;
          for (const p of placed) {
            const payment = ledger.payments.find((row) => row.orderId === p.orderId);
            const orderRow = ledger.orders.find((row) => row.id === p.orderId);
            if (!payment || !orderRow) throw new Error(`order ${p.orderId} lost`);
            const context = `${p.spec.kind}/${p.spec.method}/${p.spec.outcome}`;
            // The state the run decided, and the provider's final state.
            expect(payment.state, context).toBe(p.expected);
            expect(
              ourStateOfView(await view.getPayment(p.providerPaymentId)),
              `${context}: provider`,
            ).toBe(payment.state);
            expect(orderRow.paymentStatus, context).toBe(p.expected);
            const isPaid = p.expected === 'paid';
            expect(payment.fulfilledAt !== null, context).toBe(isPaid);
            expect(orderRow.isComplete, context).toBe(isPaid);
            expect(orderRow.isCancelled, context).toBe(!isPaid);
            const receipts = ledger.receipts.filter((r) => r.paymentId === payment.id);
            expect(receipts, `${context}: receipts`).toHaveLength(
              isPaid && payment.amountOere > 0 ? 1 : 0,
            );
            for (const app of [0, 1] as const) {
              await poll(p, app);
              expect(seen.get(p.orderId), `${context}: API`).toBe(p.expected);
            }
            if (
              !isPaid &&
              payment.state === 'failed' &&
              payment.failureReason !== 'provider_unavailable' &&
              p.spec.kind === 'month' &&
              payment.method === 'agreement'
            ) {
              failedMonthCharges += 1;
            }
            if (!isPaid) continue;
            paid += 1;
            if (payment.amountOere > 0) receiptsExpected += 1;
            if (p.spec.kind === 'package') paidPackages += 1;
            if (p.spec.kind === 'top_up') creditOere += payment.amountOere;
            if (p.spec.kind === 'registration') paidRegistrations += 1;
            if (p.spec.kind === 'month') paidMonth = p.orderId;
          }
          paidOrders += paid;
          // Fulfilled exactly once: data, credit, agreements, the month, receipts, log, notices.
          expect(ledger.domesticTotalMb, 'package data').toBe(
            customer.domesticBefore + paidPackages * CHAOS_PACKAGE.dataMb,
          );
          expect(ledger.creditOere, 'prepaid credit').toBe(creditOere);
          expect(ledger.agreements, 'agreements').toHaveLength(1 + paidRegistrations);
          expect(ledger.agreements.filter((a) => a.status === 'active')).toHaveLength(1);
          expect(ledger.receipts, 'receipts').toHaveLength(receiptsExpected);
          expect(ledger.actions, 'activity log entries').toBe(paid);
          expect(ledger.notifications, 'notifications').toBe(paid + failedMonthCharges);
          expect(ledger.refunds, 'refunds owed').toBe(0);
          expect(ledger.orders, 'orders').toHaveLength(placed.length);
          expect(ledger.payments, 'payments').toHaveLength(placed.length);
          // Each event recorded at most once, and only events the provider sent.
          const sent = new Set(runEvents().map((w) => w.eventId));
          const recorded = ledger.webhookEvents.map((e) => e.eventId);
          expect(new Set(recorded).size).toBe(recorded.length);
          for (const id of recorded) expect(sent.has(id)).toBe(true);
          // The month is paid by exactly the order that was paid, on both instances.
          for (const app of world.apps) {
            const res = await app.inject({
              method: 'GET',
              url: '/api/billing/monthly-price',
              headers: customer.headers,
            });
            expect(res.statusCode, res.body).toBe(200);
            expect(parse(dataEnvelope(monthlyPriceResponse), res).data.paidOrderId).toBe(paidMonth);
          }
          expect(await openPayments(world.apps[1], customer.userId)).toEqual([]);
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: process.env.CHAOS_END_ON_FAILURE === '1' },
      );
      expect(runs).toBeGreaterThanOrEqual(RUNS);
      console.info(
        `payment chaos (${usingPostgres ? 'PostgreSQL' : 'PGlite'}): ${runs} runs, seed ${SEED}, ${paidOrders} paid orders, ${deliveries} webhook deliveries, ${reconciled} payments moved by reconciliation, ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );
    },
    RUNS * 3_000 + 60_000,
  );
});
