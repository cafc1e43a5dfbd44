import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope } from '@alda/contract/envelope';
import { orderResponse } from '@alda/contract/schemas/orders';
import { createDemoApp, LINES, NOW, type DemoName } from './demo-accounts';
import { demoUser, parse } from './helper';
import { expectError, paidOrder } from './purchases-fixtures';
import { demoOrderId } from '../src/seed/demo-accounts';

/** Demo order ids (seed/demo-accounts.ts). */
const ORDER = {
  sunnevaCancelledPackage: demoOrderId(4),
  gudrunPackage: demoOrderId(7),
  /** An id shaped like the demo's that no order has. */
  missing: demoOrderId(99),
} as const;

describe('GET /api/orders/:id — the HTTP fallback of the payment flow (SPEC §4 Payment flow)', () => {
  let t: Awaited<ReturnType<typeof createDemoApp>>;
  beforeAll(async () => {
    t = await createDemoApp();
  });
  afterAll(() => t.close());

  const get = (who: DemoName, id: string, lang = 'fo') =>
    t.app.inject({
      method: 'GET',
      url: `/api/orders/${id}`,
      headers: { ...t.as[who], 'accept-language': lang },
    });

  it("answers the caller's order with its payment status", async () => {
    const { data } = parse(dataEnvelope(orderResponse), await get('Guðrun', ORDER.gudrunPackage));
    expect(data).toMatchObject({
      id: ORDER.gudrunPackage,
      kind: 'extra_package',
      paymentStatus: 'paid',
      isComplete: true,
      phoneNumber: '557812',
      price: { net: 7_920, vat: 1_980, gross: 9_900 },
    });
    const cancelled = parse(
      dataEnvelope(orderResponse),
      await get('Jóannes', ORDER.sunnevaCancelledPackage),
    );
    expect(cancelled.data.paymentStatus).toBe('cancelled');
  });

  it('follows a payment: pending while the payment is open, paid and complete once fulfilled', async () => {
    const { order } = await paidOrder(
      t.app,
      {
        userId: demoUser('Guðrun').id,
        kind: 'extra_package',
        lineId: LINES.gudrun,
        msisdn: '557812',
        packageId: 'data-1',
        priceOere: 3_900,
      },
      NOW,
    );
    const { data } = parse(dataEnvelope(orderResponse), await get('Guðrun', order.id));
    expect(data.paymentStatus).toBe('paid');
    expect(data.isComplete).toBe(true);
    expect(data.completedAt).toBe(NOW.toISOString());
    // It names the package bought, so the status screen can say which (GET /api/packages).
    expect(data.packageId).toBe('data-1');
  });

  it("404 NOT_FOUND for another customer's order, a member reading the owner's order, an unknown or malformed id — in fo and en", async () => {
    expectError(
      await get('Jóannes', ORDER.gudrunPackage),
      404,
      'NOT_FOUND',
      'Vit funnu ikki tað, tú leitaði eftir.',
    );
    // Sunneva uses the family number the order was for, but Jóannes placed and pays it.
    expectError(await get('Sunneva', ORDER.sunnevaCancelledPackage, 'en'), 404, 'NOT_FOUND');
    expectError(await get('Guðrun', ORDER.missing), 404, 'NOT_FOUND');
    expectError(await get('Guðrun', 'not-an-id', 'en'), 404, 'NOT_FOUND');
    const anonymous = await t.app.inject({
      method: 'GET',
      url: `/api/orders/${ORDER.gudrunPackage}`,
    });
    expect(anonymous.statusCode).toBe(401);
  });
});
