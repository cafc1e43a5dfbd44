import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifications } from '../src/db/schema/data-transfers';
import {
  networkServiceOrders,
  type ServiceOrderState,
} from '../src/db/schema/network-service-orders';
import { orders } from '../src/db/schema/orders';
import { phoneLines } from '../src/db/schema/phone-lines';
import { provisioningSteps } from '../src/db/schema/provisioning';
import { seedDemoData } from '../src/seed/seed';
import { createTestApp, testClock, usingPostgres, type TestApp } from './helper';
import { placeSignup } from './provisioning-fixtures';
import { startTmf641Prism, type Tmf641Prism } from './support/tmf641-prism';

/*
 * Issue 43, property: whatever stream of TMF641 events the OSS sends for a few service orders —
 * repeated, out of order, on either listener path, with the provisioning worker running in
 * between — every order ends in the one state its newest event says, and nothing is half-written:
 * the provisioning order agrees with its service order (completed → the step performed once with
 * the OSS's results; failed → one `failed` step with the OSS's reason; not finished → no step,
 * still waiting on the network), with no step twice. The OSS is Prism on TMF641's own document.
 */

const SECRET = 'tmf641-listener-secret-for-property-0123';
const STEP_S = 30;
const TERMINAL: readonly ServiceOrderState[] = [
  'completed',
  'failed',
  'partial',
  'rejected',
  'cancelled',
];
const ON_THE_WAY: readonly ServiceOrderState[] = ['acknowledged', 'inProgress', 'held', 'pending'];

/** One order's true history at the OSS: states on the way, then perhaps its end. */
const history = fc
  .tuple(
    fc.array(fc.constantFrom(...ON_THE_WAY), { maxLength: 3 }),
    fc.option(fc.constantFrom(...TERMINAL), { nil: null }),
  )
  .map(([way, end]) => (end ? [...way, end] : way))
  .filter((states) => states.length > 0);

const scenario = fc.array(history, { minLength: 1, maxLength: 3 }).chain((histories) => {
  const events = histories.flatMap((states, order) =>
    states.map((state, index) => ({ order, index, state })),
  );
  const n = events.length;
  return fc
    .tuple(
      // Each event delivered 1–3 times, on either listener path.
      fc.array(fc.integer({ min: 1, max: 3 }), { minLength: n, maxLength: n }),
      fc.array(fc.boolean(), { minLength: n, maxLength: n }),
    )
    .chain(([times, paths]) => {
      const copies = events.flatMap((event, i) =>
        Array.from({ length: times[i] ?? 1 }, () => ({ event, attributePath: paths[i] ?? false })),
      );
      return fc.record({
        histories: fc.constant(histories),
        // In any order; the worker runs after some of them.
        deliveries: fc.shuffledSubarray(copies, { minLength: copies.length }),
        workerAfter: fc.array(fc.boolean(), { minLength: copies.length, maxLength: copies.length }),
      });
    });
});

describe(`issue 43: TMF641 events in any order (${usingPostgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  let prism: Tmf641Prism;
  let t: TestApp;
  const clock = testClock('2026-06-15T12:00:00.000Z');
  let numberSeq = 0;

  beforeAll(async () => {
    prism = await startTmf641Prism();
    t = await createTestApp(
      {
        NETWORK_ADAPTER: 'tmf641',
        TMF641_URL: prism.url,
        TMF641_LISTENER_SECRET: SECRET,
        // No polling here: the events alone move the orders.
        TMF641_POLL_S: '86400',
        PROVISIONING_STEP_S: String(STEP_S),
        ACCESS_TOKEN_TTL_S: '86400',
        RATE_LIMIT_MAX: '0',
      },
      { now: clock.now },
    );
    await seedDemoData(t.app.db, clock.now());
    // The demo's own orders in provisioning are left out: the rounds here are about ours.
    await t.app.db.update(orders).set({ provisioningNextAt: null });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await prism?.close();
  });

  /** An eSIM sign-up whose first network step (the eSIM profile) is ordered and waiting. */
  const waitingOrder = async () => {
    const number = `219${String((numberSeq += 1)).padStart(3, '0')}`;
    const { orderId } = await placeSignup(t.app, number);
    return { orderId, number };
  };

  it('every order ends in the state of its newest event; the provisioning order agrees; no step twice', async () => {
    let ossClock = Date.parse('2026-06-15T12:00:00.000Z');
    await fc.assert(
      fc.asyncProperty(scenario, async ({ histories, deliveries, workerAfter }) => {
        const placed = [];
        for (let i = 0; i < histories.length; i += 1) placed.push(await waitingOrder());
        clock.advance(STEP_S);
        await t.app.provisioning.runDue();
        const keys = placed.map((p) => `alda:order:${p.orderId}:esim_ready:0`);
        const rows = await t.app.db
          .select()
          .from(networkServiceOrders)
          .where(inArray(networkServiceOrders.externalId, keys));
        expect(rows).toHaveLength(keys.length);

        // Each state of a history at a later OSS time than the one before.
        const times = histories.map((states) => states.map(() => new Date((ossClock += 1000))));
        const matchingIds = placed.map(
          (_, i) => `PROP-${String(i).padStart(4, '0')}-${randomUUID().slice(0, 4).toUpperCase()}`,
        );
        for (const [n, d] of deliveries.entries()) {
          const { order, index, state } = d.event;
          const key = keys[order] ?? '';
          const body = {
            eventId: randomUUID(),
            eventTime: times[order]?.[index]?.toISOString(),
            eventType: d.attributePath
              ? 'ServiceOrderAttributeValueChangeEvent'
              : 'ServiceOrderStateChangeEvent',
            event: {
              serviceOrder: {
                id: 'string',
                externalId: key,
                state,
                ...(state === 'completed' || !TERMINAL.includes(state)
                  ? {}
                  : { errorMessage: [{ code: 'OSS_REFUSED', reason: `refused ${key}` }] }),
                serviceOrderItem: [
                  {
                    id: '1',
                    action: 'add',
                    state,
                    service: {
                      serviceCharacteristic:
                        state === 'completed'
                          ? [
                              { name: 'smdpAddress', value: 'smdp.oss.test' },
                              { name: 'matchingId', value: matchingIds[order] },
                            ]
                          : [],
                    },
                  },
                ],
              },
            },
          };
          const res = await t.app.inject({
            method: 'POST',
            // As an OSS posts: to the callback it was given, no header of ours (issue 61 §4).
            url: `${new URL(t.config.tmf641CallbackUrl).pathname}/listener/${
              d.attributePath
                ? 'serviceOrderAttributeValueChangeEvent'
                : 'serviceOrderStateChangeEvent'
            }`,
            payload: body,
          });
          expect(res.statusCode, res.body).toBe(201);
          if (workerAfter[n]) await t.app.provisioning.runDue();
        }
        await t.app.provisioning.runDue();

        for (const [i, { orderId, number }] of placed.entries()) {
          const states = histories[i] ?? [];
          const newest = states.at(-1);
          const [row] = await t.app.db
            .select()
            .from(networkServiceOrders)
            .where(eq(networkServiceOrders.externalId, keys[i] ?? ''));
          expect(row?.state).toBe(newest);
          const steps = await t.app.db
            .select()
            .from(provisioningSteps)
            .where(eq(provisioningSteps.orderId, orderId))
            .orderBy(provisioningSteps.at);
          const [order] = await t.app.db.select().from(orders).where(eq(orders.id, orderId));
          const [line] = await t.app.db
            .select()
            .from(phoneLines)
            .where(eq(phoneLines.msisdn, number));
          const ready = await t.app.db.$count(
            notifications,
            and(
              eq(notifications.userId, order?.userId ?? ''),
              eq(notifications.type, 'subscription'),
            ),
          );
          if (newest === 'completed') {
            expect(steps.map((s) => s.step)).toEqual(['received', 'esim_ready']);
            expect(row?.characteristics).toMatchObject({ matchingId: matchingIds[i] });
            expect(line?.esimMatchingId).toBe(matchingIds[i]);
            expect(order?.provisioningWaitingFor).toBe('customer_sim');
            // `received` and `esim_ready`: one notification each.
            expect(ready).toBe(2);
          } else if (newest && TERMINAL.includes(newest)) {
            expect(steps.map((s) => [s.step, s.actor, s.reasonCode])).toEqual([
              ['received', 'customer', null],
              ['failed', 'network', 'NETWORK_ORDER_FAILED'],
            ]);
            expect(steps[1]?.reasonText).toBe(`OSS_REFUSED: refused ${keys[i]}`);
            expect(row?.errorCode).toBe('OSS_REFUSED');
            expect(order?.provisioningWaitingFor).toBe('none');
            expect(line?.esimMatchingId).toBeNull();
            // `received` and `failed`: one notification each.
            expect(ready).toBe(2);
          } else {
            expect(steps.map((s) => s.step)).toEqual(['received']);
            expect(order?.provisioningWaitingFor).toBe('network');
            expect(line?.esimMatchingId).toBeNull();
            expect(ready).toBe(1);
          }
        }
      }),
      { numRuns: usingPostgres ? 15 : 10 },
    );
    // Every request the adapter sent on the way was valid TMF641.
    expect(prism.violations).toEqual([]);
  }, 300_000);
});
