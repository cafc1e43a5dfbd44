import type { HubConnection } from '@microsoft/signalr';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { orderPlacedResponse } from '@alda/contract/schemas/orders';
import {
  CARDS,
  createPaymentsApp,
  packagePurchase,
  submitCard,
  type PaymentsTestApp,
} from './payments-fixture';
import { waitFor } from './helper';
import { collectPaymentUpdates, hubClient, listenLocally, settle, tokenOf } from './hub-helper';

/*
 * The payment hub on the real payment path (SPEC §4 "Payment flow"): a purchase placed by the
 * payments core, the card submitted on the test provider's card page, the provider's signed
 * webhooks handled by the API — and the official client listening to the order sees each state
 * the webhooks commit.
 */

let t: PaymentsTestApp;
let baseUrl: string;
const open: HubConnection[] = [];

beforeAll(async () => {
  t = await createPaymentsApp();
  baseUrl = await listenLocally(t.app);
});
afterAll(() => t.close());
afterEach(async () => {
  for (const connection of open.splice(0)) await connection.stop();
});

async function listenTo(orderId: string) {
  const connection = hubClient(baseUrl, tokenOf(t.auth));
  open.push(connection);
  const updates = collectPaymentUpdates(connection);
  await connection.start();
  await connection.invoke('ListenToOrder', orderId);
  return updates;
}

const place = () =>
  t.app.payments
    .placePaidOrder(packagePurchase())
    .then((placed) => orderPlacedResponse.parse(placed));

const deliverWebhooks = async () => {
  if (!t.app.testProvider) throw new Error('no test provider');
  await t.app.testProvider.tick();
};

describe('PaymentUpdated from provider webhooks (SPEC §4 Payment flow)', () => {
  it('SPEC §4 Payment flow: the success card — the client hears paid (after any pending) with the completed order', async () => {
    const placed = await place();
    const updates = await listenTo(placed.order.id);

    expect((await submitCard(t.app, placed, CARDS.succeed)).statusCode).toBe(303);
    await deliverWebhooks();

    const paid = await waitFor(async () => updates.find((u) => u.status === 'paid'));
    expect(paid).toMatchObject({
      orderId: placed.order.id,
      order: { kind: 'extra_package', paymentStatus: 'paid', isComplete: true },
    });
    // States only move forward: paid is the last word, anything before it was pending.
    await settle();
    expect(updates.at(-1)?.status).toBe('paid');
    expect(updates.slice(0, -1).every((u) => u.status === 'pending')).toBe(true);
  });

  it('SPEC §4 Payment flow: the declined card — the client hears failed', async () => {
    const placed = await place();
    const updates = await listenTo(placed.order.id);

    await submitCard(t.app, placed, CARDS.decline);
    await deliverWebhooks();

    const failed = await waitFor(async () => updates.find((u) => u.status === 'failed'));
    expect(failed).toMatchObject({ orderId: placed.order.id, order: { paymentStatus: 'failed' } });
    await settle();
    expect(updates.some((u) => u.status === 'paid')).toBe(false);
  });
});
