import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope } from '@alda/contract/envelope';
import { agreementResponse } from '@alda/contract/schemas/agreements';
import { monthlyPriceResponse } from '@alda/contract/schemas/billing';
import { orderPlacedResponse, orderResponse } from '@alda/contract/schemas/orders';
import { receiptsResponse } from '@alda/contract/schemas/receipts';
import { subscriptionsResponse } from '@alda/contract/schemas/subscriptions';
import { prepaidBalances } from '../src/db/schema/balances';
import { orders } from '../src/db/schema/orders';
import { createBillingService } from '../src/modules/billing/service';
import type { PaymentPlacer } from '../src/modules/orders/placing';
import { LINES, NOW, signIn } from './demo-accounts';
import { demoUser, parse } from './helper';
import {
  CARDS,
  createPaymentsApp,
  paymentOfOrder,
  receiptsOf,
  submitCard,
  type PaymentsTestApp,
} from './payments-fixture';
import { expectError } from './purchases-fixtures';

const placedAnswer = dataEnvelope(orderPlacedResponse);

/** A POST of a purchase endpoint with a fresh (or given) Idempotency-Key. */
function post(
  app: FastifyInstance,
  auth: { authorization: string },
  url: string,
  payload: unknown,
  key: string = randomUUID(),
  lang = 'fo',
) {
  return app.inject({
    method: 'POST',
    url,
    headers: { ...auth, 'idempotency-key': key, 'accept-language': lang },
    payload: payload as Record<string, unknown>,
  });
}

describe('purchases through the real payments core and test provider (SPEC §1, §4 Payment flow)', () => {
  let t: PaymentsTestApp;
  let rói: { authorization: string };
  beforeAll(async () => {
    t = await createPaymentsApp();
    rói = await signIn(t.app, 'Rói');
  });
  afterAll(() => t.close());

  const tick = async () => {
    if (!t.app.testProvider) throw new Error('no test provider');
    await t.app.testProvider.tick();
  };
  const current = async (auth = t.auth) =>
    parse(
      dataEnvelope(subscriptionsResponse),
      await t.app.inject({ method: 'GET', url: '/api/subscriptions', headers: auth }),
    ).data.currentAccount?.currentMember;
  const order = async (id: string, auth = t.auth) =>
    parse(
      dataEnvelope(orderResponse),
      await t.app.inject({ method: 'GET', url: `/api/orders/${id}`, headers: auth }),
    ).data;

  it('SPEC §1: buying a package with the success card — 201 with the card page, pending, then paid; GET /api/subscriptions shows the data at once', async () => {
    const before = await current();
    const res = await post(t.app, t.auth, '/api/packages', {
      packageId: 'data-5',
      phoneNumber: '+298 214455',
    });
    expect(res.statusCode, res.body).toBe(201);
    const placed = parse(placedAnswer, res).data;
    expect(placed.order).toMatchObject({
      kind: 'extra_package',
      paymentStatus: 'pending',
      isComplete: false,
      phoneNumber: '214455',
      price: { gross: 9_900, net: 7_920, vat: 1_980 },
    });
    expect(placed.paymentUrl).toMatch(/\/test-provider\/checkout\//);
    expect((await order(placed.order.id)).paymentStatus).toBe('pending');

    expect((await submitCard(t.app, placed, CARDS.succeed)).statusCode).toBe(303);
    await tick();

    const after = await current();
    expect(after?.dataTotal.domestic).toBe((before?.dataTotal.domestic ?? 0) + 5 * 1024);
    expect(after?.dataRemaining.domestic).toBe((before?.dataRemaining.domestic ?? 0) + 5 * 1024);
    const done = await order(placed.order.id);
    expect(done).toMatchObject({ paymentStatus: 'paid', isComplete: true });
    const payment = await paymentOfOrder(t.app, placed.order.id);
    expect(await receiptsOf(t.app, payment.id)).toHaveLength(1);
  });

  it('a retry with the same Idempotency-Key answers the first order; the same key with another body is 422 IDEMPOTENCY_KEY_REUSED', async () => {
    const key = randomUUID();
    const body = { packageId: 'data-1', phoneNumber: '214455' };
    const first = parse(placedAnswer, await post(t.app, t.auth, '/api/packages', body, key)).data;
    // Same request, key order and defaults aside.
    const again = parse(
      placedAnswer,
      await post(
        t.app,
        t.auth,
        '/api/packages',
        { phoneNumber: '214455', packageId: 'data-1', payWith: 'card' },
        key,
      ),
    ).data;
    expect(again.order.id).toBe(first.order.id);
    expect(again.paymentUrl).toBe(first.paymentUrl);
    expectError(
      await post(t.app, t.auth, '/api/packages', { ...body, packageId: 'data-5' }, key, 'en'),
      422,
      'IDEMPOTENCY_KEY_REUSED',
      'This key was already used for a different request.',
    );
    // The same key on another purchase endpoint is another request too.
    expectError(
      await post(t.app, t.auth, '/api/billing/pay', {}, key),
      422,
      'IDEMPOTENCY_KEY_REUSED',
    );
  });

  it('two simultaneous requests with one Idempotency-Key place one order', async () => {
    const key = randomUUID();
    const body = { packageId: 'data-1', phoneNumber: '214456' };
    const answers = await Promise.all([
      post(t.app, t.auth, '/api/packages', body, key),
      post(t.app, t.auth, '/api/packages', body, key),
    ]);
    const ids = answers.map((res) => parse(placedAnswer, res).data.order.id);
    expect(ids[0]).toBe(ids[1]);
    const placed = await t.app.db.select().from(orders).where(eq(orders.idempotencyKey, key));
    expect(placed).toHaveLength(1);
  });

  it('ADR 0052: two month payments placed at the same moment with different keys (two devices) open one payment', async () => {
    const guðrun = demoUser('Guðrun').id;
    // Both requests pass the rules (no open payment yet) before either inserts its order.
    const arrived: (() => void)[] = [];
    const racing: PaymentPlacer = {
      async placePaidOrder(input) {
        if (arrived.length < 2)
          await new Promise<void>((resolve) => {
            arrived.push(resolve);
            if (arrived.length === 2) for (const go of arrived) go();
          });
        return t.app.payments.placePaidOrder(input);
      },
    };
    const billing = createBillingService({ db: t.app.db, now: () => NOW, payments: () => racing });
    const answers = await Promise.all(
      ['device-1', 'device-2'].map((key) =>
        billing.pay(
          { userId: guðrun, idempotencyKey: key, requestHash: key, locale: 'fo', native: false },
          { payWith: 'card' },
        ),
      ),
    );
    expect(answers[1]?.order.id).toBe(answers[0]?.order.id);
    expect(answers[1]?.paymentUrl).toBe(answers[0]?.paymentUrl);
    const months = await t.app.db
      .select()
      .from(orders)
      .where(and(eq(orders.userId, guðrun), eq(orders.kind, 'subscription_payment')));
    expect(months.map((o) => o.id)).toEqual([answers[0]?.order.id]);
  });

  it("the provider's card page speaks the language the customer uses the app in, whatever the browser says", async () => {
    const body = { packageId: 'data-1', phoneNumber: '214455' };
    const inEnglish = parse(
      placedAnswer,
      await post(t.app, t.auth, '/api/packages', body, randomUUID(), 'en'),
    ).data;
    expect(inEnglish.paymentUrl).toMatch(/\?lang=en$/);
    const page = await t.app.inject({
      method: 'GET',
      url:
        new URL(inEnglish.paymentUrl ?? '').pathname + new URL(inEnglish.paymentUrl ?? '').search,
      headers: { 'accept-language': 'fo' },
    });
    expect(page.body).toContain('<html lang="en">');
    expect(page.body).toContain('Card payment');
    // What is bought, with the number as people write it (also on the card statement).
    expect(page.body).toContain('Alda: 1 GB · 21 44 55');
    const inFaroese = parse(placedAnswer, await post(t.app, t.auth, '/api/packages', body)).data;
    expect(inFaroese.paymentUrl).toMatch(/\?lang=fo$/);
  });

  it('the declined card leaves the data as it was and the order failed', async () => {
    const before = await current();
    const placed = parse(
      placedAnswer,
      await post(t.app, t.auth, '/api/packages', { packageId: 'data-1', phoneNumber: '214455' }),
    ).data;
    await submitCard(t.app, placed, CARDS.decline);
    await tick();
    expect((await order(placed.order.id)).paymentStatus).toBe('failed');
    expect((await current())?.dataTotal.domestic).toBe(before?.dataTotal.domestic);
  });

  it('a top-up grows the prepaid balance exactly once, even when its webhooks arrive twice', async () => {
    const credit = async () => {
      const [row] = await t.app.db
        .select()
        .from(prepaidBalances)
        .where(eq(prepaidBalances.lineId, LINES.roi));
      return row?.balanceOere ?? 0;
    };
    const before = await credit();
    const placed = parse(
      placedAnswer,
      await post(t.app, rói, '/api/top-ups', { phoneNumber: '779031', amount: 20_000 }),
    ).data;
    expect(placed.order).toMatchObject({ kind: 'top_up', paymentStatus: 'pending' });
    await submitCard(t.app, placed, CARDS.succeed);
    await tick();
    expect(await credit()).toBe(before + 20_000);
    // Every webhook the provider sent is delivered once more: nothing changes.
    for (const sent of [...t.delivery.sent]) {
      await t.app.inject({
        method: 'POST',
        url: new URL(sent.url).pathname,
        headers: sent.headers,
        payload: sent.body,
      });
    }
    await tick();
    expect(await credit()).toBe(before + 20_000);
    expect((await current(rói))?.prepaidBalance).toBe(before + 20_000);
    const receipts = parse(
      dataEnvelope(receiptsResponse),
      await t.app.inject({ method: 'GET', url: '/api/receipts', headers: rói }),
    ).data;
    expect(receipts.items.filter((r) => r.orderId === placed.order.id)).toHaveLength(1);
  });

  it('SPEC §2 profile.agreement: registering a card, paying with it (no card page), and changing it', async () => {
    const agreement = async () =>
      parse(
        dataEnvelope(agreementResponse),
        await t.app.inject({ method: 'GET', url: '/api/agreements', headers: rói }),
      ).data;
    // Without a card on file, paying with the agreement is refused.
    expectError(
      await post(t.app, rói, '/api/top-ups', {
        phoneNumber: '779031',
        amount: 5_000,
        payWith: 'agreement',
      }),
      409,
      'AGREEMENT_REQUIRED',
      'Tú hevur ikki skrásett eitt kort. Skráset eitt kort ella gjalda við korti.',
    );
    const check = parse(placedAnswer, await post(t.app, rói, '/api/agreements', {})).data;
    expect(check.order).toMatchObject({ kind: 'payment_agreement', price: { gross: 0 } });
    await submitCard(t.app, check, CARDS.succeed);
    await tick();
    expect(await agreement()).toMatchObject({
      status: 'active',
      cardBrand: 'Visa',
      cardLast4: '4242',
      cardExpiry: '12/30',
    });
    expect((await order(check.order.id, rói)).isComplete).toBe(true);

    const charged = parse(
      placedAnswer,
      await post(t.app, rói, '/api/top-ups', {
        phoneNumber: '779031',
        amount: 5_000,
        payWith: 'agreement',
      }),
    ).data;
    expect(charged.paymentUrl).toBeNull();
    await tick();
    expect((await order(charged.order.id, rói)).paymentStatus).toBe('paid');

    const change = parse(placedAnswer, await post(t.app, rói, '/api/agreements', {})).data;
    await submitCard(t.app, change, '5555 5555 5555 4444');
    await tick();
    const changed = await agreement();
    expect(changed?.cardLast4).toBe('4444');
    expect(changed?.status).toBe('active');
  });

  it('paying the month: a second click while it is open answers the same payment, paidOrderId is set, a second payment is ALREADY_PAID, and a retry of the paying request still answers its order', async () => {
    const key = randomUUID();
    const placed = parse(placedAnswer, await post(t.app, t.auth, '/api/billing/pay', {}, key)).data;
    expect(placed.order).toMatchObject({ kind: 'subscription_payment', price: { gross: 55_600 } });
    // A second click (another key) while the card page is still open answers the same payment.
    const second = parse(placedAnswer, await post(t.app, t.auth, '/api/billing/pay', {})).data;
    expect(second.order.id).toBe(placed.order.id);
    expect(second.paymentUrl).toBe(placed.paymentUrl);
    await submitCard(t.app, placed, CARDS.succeed);
    await tick();
    const month = parse(
      dataEnvelope(monthlyPriceResponse),
      await t.app.inject({ method: 'GET', url: '/api/billing/monthly-price', headers: t.auth }),
    ).data;
    expect(month.paidOrderId).toBe(placed.order.id);
    expectError(await post(t.app, t.auth, '/api/billing/pay', {}), 409, 'ALREADY_PAID');
    const retried = parse(
      placedAnswer,
      await post(t.app, t.auth, '/api/billing/pay', {}, key),
    ).data;
    expect(retried.order.id).toBe(placed.order.id);
    expect(retried.order.paymentStatus).toBe('paid');
  });
});
