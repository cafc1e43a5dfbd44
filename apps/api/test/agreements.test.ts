import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope } from '@alda/contract/envelope';
import { agreementResponse } from '@alda/contract/schemas/agreements';
import { paymentAgreements } from '../src/db/schema/agreements';
import { receipts } from '../src/db/schema/payments';
import { createDemoApp, NOW } from './demo-accounts';
import { demoUser, parse } from './helper';
import { expectError, paidOrder } from './purchases-fixtures';

describe('payment agreement: POST /api/agreements and the card check it places (SPEC §2 profile.agreement, §7, §8)', () => {
  let t: Awaited<ReturnType<typeof createDemoApp>>;
  beforeAll(async () => {
    t = await createDemoApp();
  });
  afterAll(() => t.close());

  const current = async () =>
    parse(
      dataEnvelope(agreementResponse),
      await t.app.inject({ method: 'GET', url: '/api/agreements', headers: t.as.Guðrun }),
    ).data;
  const rows = () =>
    t.app.db
      .select()
      .from(paymentAgreements)
      .where(eq(paymentAgreements.userId, demoUser('Guðrun').id));

  it('SPEC §8 payment agreement creation: 400 IDEMPOTENCY_KEY_REQUIRED without the header, 400 for a body with fields, 401 without a token', async () => {
    const noKey = await t.app.inject({
      method: 'POST',
      url: '/api/agreements',
      headers: { ...t.as.Guðrun, 'accept-language': 'fo' },
      payload: {},
    });
    expectError(
      noKey,
      400,
      'IDEMPOTENCY_KEY_REQUIRED',
      'Umbønin manglar ein eintýddan lykil (Idempotency-Key).',
    );
    const extra = await t.app.inject({
      method: 'POST',
      url: '/api/agreements',
      headers: { ...t.as.Guðrun, 'idempotency-key': 'a1' },
      payload: { cardNumber: '4242424242424242' },
    });
    expectError(extra, 400, 'VALIDATION_FAILED');
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/agreements', payload: {} });
    expect(anonymous.statusCode).toBe(401);
  });

  it('a paid card check makes the card the active agreement; a second one replaces it and cancels the first, in one transaction', async () => {
    const first = await paidOrder(
      t.app,
      { userId: demoUser('Guðrun').id, kind: 'payment_agreement', priceOere: 0 },
      NOW,
      { brand: 'Visa', last4: '4242', expiry: '12/30', agreementRef: 'agr_1' },
    );
    expect(first.order.isComplete).toBe(true);
    expect(await current()).toMatchObject({
      status: 'active',
      cardBrand: 'Visa',
      cardLast4: '4242',
      cardExpiry: '12/30',
    });

    await paidOrder(
      t.app,
      { userId: demoUser('Guðrun').id, kind: 'payment_agreement', priceOere: 0 },
      new Date(NOW.getTime() + 60_000),
      { brand: 'Mastercard', last4: '5454', expiry: '03/29', agreementRef: 'agr_2' },
    );
    expect(await current()).toMatchObject({
      status: 'active',
      cardBrand: 'Mastercard',
      cardLast4: '5454',
      cardExpiry: '03/29',
    });
    const all = await rows();
    expect(all.filter((r) => r.status === 'active').map((r) => r.providerReference)).toEqual([
      'agr_2',
    ]);
    expect(all.find((r) => r.providerReference === 'agr_1')?.status).toBe('cancelled');
    // A card check costs nothing: no receipt.
    const issued = await t.app.db
      .select()
      .from(receipts)
      .where(eq(receipts.orderId, first.order.id));
    expect(issued).toHaveLength(0);
  });
});
