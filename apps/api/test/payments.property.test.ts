import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderPlacedResponse } from '@alda/contract/schemas/orders';
import { signatureHeader } from '../src/adapters/payments/signature';
import type { PaymentState } from '../src/db/schema/payments';
import { testProviderWebhooks } from '../src/db/schema/test-provider';
import { usingPostgres } from './helper';
import {
  CARDS,
  PACKAGE,
  WEBHOOK_SECRET,
  checkoutIdOf,
  createPaymentsApp,
  domesticTotal,
  eventsOf,
  orderRow,
  packagePurchase,
  paymentOfOrder,
  queuedEvents,
  receiptsOf,
  submitCard,
  type PaymentsTestApp,
} from './payments-fixture';

/*
 * SPEC §4 Payment flow, property: for 1,000 random payments, whatever the customer does on the
 * card page and however the provider's webhooks arrive — duplicated (also at the same moment),
 * late, out of order, some never — mixed with client retries of the purchase and reconciliation
 * rounds, every payment ends in the state its card decides, is fulfilled exactly once when paid
 * (package data added once, one receipt) and never otherwise, and its state only moves forward.
 * One app and database for all runs; each run is one payment.
 */

const RANK: Record<PaymentState, number> = {
  created: 0,
  pending: 1,
  paid: 2,
  failed: 2,
  cancelled: 2,
};

type Outcome = 'succeed' | 'decline' | 'cancel' | 'slow';
const EXPECTED: Record<Outcome, PaymentState> = {
  succeed: 'paid',
  slow: 'paid',
  decline: 'failed',
  cancel: 'cancelled',
};

const step = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('event' as const),
      index: fc.nat({ max: 5 }),
      copies: fc.integer({ min: 1, max: 2 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reconcile' as const) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('retry' as const) }) },
);

const scenario = fc.record({
  outcome: fc.constantFrom<Outcome>('succeed', 'decline', 'cancel', 'slow'),
  /** Simultaneous duplicates of the purchase request (double tap, client retry). */
  parallelRequests: fc.integer({ min: 1, max: 3 }),
  steps: fc.array(step, { maxLength: 5 }),
  /** Whether the remaining events arrive at the end at all (else reconciliation finishes it). */
  finalDelivery: fc.boolean(),
  reversed: fc.boolean(),
});

describe(`payments under duplicate, late and out-of-order webhooks (${usingPostgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  let t: PaymentsTestApp;
  beforeAll(async () => {
    // A thousand card-page submissions from one address within seconds would trip the API-wide
    // per-address limit (RATE_LIMIT_MAX, 600 a minute) on a fast machine; it is not under test.
    t = await createPaymentsApp({ RATE_LIMIT_MAX: '0' });
  });
  afterAll(() => t.close());

  const deliver = (body: string) =>
    t.app.payments.handleWebhook('test', Buffer.from(body), {
      'alda-signature': signatureHeader(WEBHOOK_SECRET, t.clock.now(), body),
    });

  it('SPEC §4 Payment flow: 1,000 random sequences — every payment fulfilled exactly once when paid, never otherwise, states only forward', async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        runs += 1;
        const before = await domesticTotal(t.app);
        const input = packagePurchase({ idempotencyKey: randomUUID() });
        const answers = await Promise.all(
          Array.from({ length: s.parallelRequests }, () =>
            t.app.payments.placePaidOrder(input).then(orderPlacedResponse.parse),
          ),
        );
        const placed = answers[0];
        if (!placed) throw new Error('no answer');
        expect(new Set(answers.map((a) => a.order.id)).size).toBe(1);
        const orderId = placed.order.id;

        const res = await submitCard(
          t.app,
          placed,
          s.outcome === 'cancel' ? 'cancel' : CARDS[s.outcome],
        );
        expect(res.statusCode).toBe(303);
        if (s.outcome === 'slow') {
          // the provider settles the slow card; its own delivery is off in this test
          t.clock.advance(9);
          t.delivery.down = true;
          try {
            await t.app.testProvider?.tick();
          } finally {
            t.delivery.down = false;
          }
        }
        const providerId = checkoutIdOf(placed);
        const bodies = await queuedEvents(t.app, providerId);
        // The test delivers these itself, in the order the scenario says.
        await t.app.db
          .update(testProviderWebhooks)
          .set({ deliveredAt: t.clock.now() })
          .where(eq(testProviderWebhooks.paymentId, providerId));
        expect(bodies.length).toBeGreaterThan(0);

        const states: PaymentState[] = [(await paymentOfOrder(t.app, orderId)).state];
        const record = async () => states.push((await paymentOfOrder(t.app, orderId)).state);
        for (const st of s.steps) {
          if (st.kind === 'event') {
            const body = bodies[st.index % bodies.length] ?? '';
            await Promise.all(Array.from({ length: st.copies }, () => deliver(body)));
          } else if (st.kind === 'reconcile') {
            t.clock.advance(61);
            await t.app.payments.reconcile({ afterS: 60 });
          } else {
            const again = orderPlacedResponse.parse(await t.app.payments.placePaidOrder(input));
            expect(again.order.id).toBe(orderId);
            expect(again.paymentUrl).toBe(placed.paymentUrl);
          }
          await record();
        }
        if (s.finalDelivery) {
          for (const body of s.reversed ? [...bodies].reverse() : bodies) await deliver(body);
        } else {
          t.clock.advance(61);
          await t.app.payments.reconcile({ afterS: 60 });
        }
        await record();

        // states only moved forward
        for (let i = 1; i < states.length; i += 1) {
          const previous = states[i - 1] ?? 'created';
          const current = states[i] ?? 'created';
          expect(RANK[current]).toBeGreaterThanOrEqual(RANK[previous]);
          if (RANK[previous] === 2) expect(current).toBe(previous);
        }
        const expected = EXPECTED[s.outcome];
        const payment = await paymentOfOrder(t.app, orderId);
        expect(payment.state).toBe(expected);
        const order = await orderRow(t.app, orderId);
        expect(order.paymentStatus).toBe(expected);
        const paid = expected === 'paid';
        expect(payment.fulfilledAt !== null).toBe(paid);
        expect(order.isComplete).toBe(paid);
        expect(await receiptsOf(t.app, payment.id)).toHaveLength(paid ? 1 : 0);
        expect(await domesticTotal(t.app)).toBe(before + (paid ? PACKAGE.dataMb : 0));
        // each distinct event recorded at most once
        const recorded = await eventsOf(t.app, payment.id);
        expect(new Set(recorded.map((e) => e.eventId)).size).toBe(recorded.length);
      }),
      { numRuns: 1000 },
    );
    expect(runs).toBeGreaterThanOrEqual(1000);
  }, 600_000);
});
