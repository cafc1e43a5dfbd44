import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorEnvelope } from '@alda/contract/envelope';
import { orderPlacedResponse } from '@alda/contract/schemas/orders';
import { PaymentProviderError } from '../src/adapters/payments/provider';
import { paymentAgreements } from '../src/db/schema/agreements';
import { orders } from '../src/db/schema/orders';
import { paymentRefunds, payments } from '../src/db/schema/payments';
import { testProviderPayments } from '../src/db/schema/test-provider';
import { AppError } from '../src/errors';
import { LINES } from './demo-accounts';
import { demoUser, LogCapture } from './helper';
import {
  CARDS,
  JOANNES,
  PACKAGE,
  checkoutIdOf,
  createPaymentsApp,
  domesticTotal,
  eventsOf,
  orderRow,
  packagePurchase,
  paymentOfOrder,
  postWebhook,
  queuedEvents,
  receiptsOf,
  submitCard,
  type PaymentsTestApp,
} from './payments-fixture';

const expectError = (res: LightMyRequestResponse, status: number, code: string) => {
  expect(res.statusCode, res.body).toBe(status);
  expect(errorEnvelope.parse(res.json()).error.code).toBe(code);
};

async function expectAppError(promise: Promise<unknown>, code: string) {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe(code);
}

describe('payments core with the test provider', () => {
  let t: PaymentsTestApp;
  /** Makes the next provider calls fail (provider down). */
  let providerDown = false;
  beforeAll(async () => {
    t = await createPaymentsApp(
      {},
      {
        wrapProvider: (provider) => ({
          ...provider,
          name: provider.name,
          verifyWebhook: (raw, headers, url) => provider.verifyWebhook(raw, headers, url),
          getPayment: (id) => provider.getPayment(id),
          refund: (input) => provider.refund(input),
          createCheckout: async (input) => {
            if (providerDown) throw new PaymentProviderError('connect ETIMEDOUT');
            return provider.createCheckout(input);
          },
          chargeAgreement: async (input) => {
            if (providerDown) throw new PaymentProviderError('connect ETIMEDOUT');
            return provider.chargeAgreement(input);
          },
        }),
      },
    );
  });
  afterAll(() => t.close());

  const place = (overrides = {}) =>
    t.app.payments.placePaidOrder(packagePurchase(overrides)).then(orderPlacedResponse.parse);
  const tick = async () => {
    if (!t.app.testProvider) throw new Error('no test provider');
    await t.app.testProvider.tick();
  };

  it('SPEC §4 Payment flow: a card payment opens the hosted page, returns to /betaling/<order>, and the webhooks make it paid with the package added once', async () => {
    const before = await domesticTotal(t.app);
    const placed = await place();
    expect(placed.order).toMatchObject({ kind: 'extra_package', paymentStatus: 'pending' });
    expect(placed.order.price?.gross).toBe(PACKAGE.priceOere);
    expect(placed.paymentUrl).toMatch(
      /^https:\/\/minsida\.alda\.test\/test-provider\/checkout\/tp_[0-9a-f]{24}\?lang=fo$/,
    );
    const payment = await paymentOfOrder(t.app, placed.order.id);
    expect(payment).toMatchObject({ state: 'created', method: 'card', provider: 'test' });

    const submitted = await submitCard(t.app, placed, CARDS.succeed);
    expect(submitted.statusCode, submitted.body).toBe(303);
    expect(submitted.headers.location).toBe(
      `https://minsida.alda.test/betaling/${placed.order.id}`,
    );
    await tick();

    const after = await paymentOfOrder(t.app, placed.order.id);
    expect(after).toMatchObject({
      state: 'paid',
      cardBrand: 'Visa',
      cardLast4: '4242',
      cardExpiry: '12/30',
    });
    expect(after.fulfilledAt).not.toBeNull();
    const order = await orderRow(t.app, placed.order.id);
    expect(order).toMatchObject({ paymentStatus: 'paid', isComplete: true, isCancelled: false });
    expect(await domesticTotal(t.app)).toBe(before + PACKAGE.dataMb);
    expect(await receiptsOf(t.app, after.id)).toHaveLength(1);
    // pending and succeeded, each recorded once
    expect((await eventsOf(t.app, after.id)).map((e) => e.type).sort()).toEqual([
      'payment.pending',
      'payment.succeeded',
    ]);
  });

  it('SPEC §4 Payment flow: the declined test card fails the payment, cancels the order and adds nothing', async () => {
    const before = await domesticTotal(t.app);
    const placed = await place();
    const submitted = await submitCard(t.app, placed, CARDS.decline);
    expect(submitted.statusCode).toBe(303);
    await tick();
    const payment = await paymentOfOrder(t.app, placed.order.id);
    expect(payment).toMatchObject({
      state: 'failed',
      failureReason: 'declined',
      fulfilledAt: null,
    });
    expect(await orderRow(t.app, placed.order.id)).toMatchObject({
      paymentStatus: 'failed',
      isComplete: false,
      isCancelled: true,
    });
    expect(await domesticTotal(t.app)).toBe(before);
    expect(await receiptsOf(t.app, payment.id)).toHaveLength(0);
  });

  it('the cancel button on the card page records the payment as cancelled', async () => {
    const placed = await place();
    const res = await submitCard(t.app, placed, 'cancel');
    expect(res.statusCode).toBe(303);
    await tick();
    expect(await paymentOfOrder(t.app, placed.order.id)).toMatchObject({
      state: 'cancelled',
      failureReason: 'cancelled',
    });
    expect((await orderRow(t.app, placed.order.id)).paymentStatus).toBe('cancelled');
  });

  it('the slow test card sends pending first and succeeds after TEST_PROVIDER_SLOW_DELAY_MS', async () => {
    const placed = await place();
    await submitCard(t.app, placed, CARDS.slow);
    await tick();
    expect((await paymentOfOrder(t.app, placed.order.id)).state).toBe('pending');
    t.clock.advance(7);
    await tick();
    expect((await paymentOfOrder(t.app, placed.order.id)).state).toBe('pending');
    t.clock.advance(2);
    await tick();
    expect((await paymentOfOrder(t.app, placed.order.id)).state).toBe('paid');
    expect((await orderRow(t.app, placed.order.id)).paymentStatus).toBe('paid');
  });

  describe('webhook verification (raw body, HMAC-SHA256, 300 s tolerance)', () => {
    let body: string;
    let paymentId: string;
    beforeAll(async () => {
      const placed = await place();
      await submitCard(t.app, placed, CARDS.slow);
      const payment = await paymentOfOrder(t.app, placed.order.id);
      paymentId = payment.id;
      const [pending] = await queuedEvents(t.app, checkoutIdOf(placed));
      if (!pending) throw new Error('no pending event queued');
      body = pending;
    });

    it('refuses a wrong signature, a wrong secret and a missing header with 400 WEBHOOK_SIGNATURE_INVALID', async () => {
      expectError(
        await postWebhook(t, body, { secret: 'another-secret-of-enough-length-0123456789' }),
        400,
        'WEBHOOK_SIGNATURE_INVALID',
      );
      const unsigned = await t.app.inject({
        method: 'POST',
        url: '/api/payments/webhooks/test',
        headers: { 'content-type': 'application/json' },
        payload: body,
      });
      expectError(unsigned, 400, 'WEBHOOK_SIGNATURE_INVALID');
      const garbage = await t.app.inject({
        method: 'POST',
        url: '/api/payments/webhooks/test',
        headers: { 'content-type': 'application/json', 'alda-signature': 't=abc,v1=zz' },
        payload: body,
      });
      expectError(garbage, 400, 'WEBHOOK_SIGNATURE_INVALID');
      expect(await eventsOf(t.app, paymentId)).toHaveLength(0);
    });

    it('refuses a signature older (or newer) than 300 s', async () => {
      const now = t.clock.now().getTime();
      expectError(
        await postWebhook(t, body, { at: new Date(now - 301_000) }),
        400,
        'WEBHOOK_SIGNATURE_INVALID',
      );
      expectError(
        await postWebhook(t, body, { at: new Date(now + 301_000) }),
        400,
        'WEBHOOK_SIGNATURE_INVALID',
      );
      expect(await eventsOf(t.app, paymentId)).toHaveLength(0);
      const inTime = await postWebhook(t, body, { at: new Date(now - 299_000) });
      expect(inTime.statusCode, inTime.body).toBe(200);
      expect(await eventsOf(t.app, paymentId)).toHaveLength(1);
    });

    it('the signature is over the raw bytes: a tampered body, or the same JSON re-serialised, is refused', async () => {
      const event = JSON.parse(body) as Record<string, unknown>;
      const tampered = JSON.stringify({ ...event, type: 'payment.succeeded' });
      expectError(
        await postWebhook(t, tampered, { signedBody: body }),
        400,
        'WEBHOOK_SIGNATURE_INVALID',
      );
      const reformatted = JSON.stringify(event, null, 2);
      expectError(
        await postWebhook(t, reformatted, { signedBody: body }),
        400,
        'WEBHOOK_SIGNATURE_INVALID',
      );
      expect(
        (await t.app.db.select().from(payments).where(eq(payments.id, paymentId)))[0]?.state,
      ).not.toBe('paid');
    });

    it('an unknown provider answers 404; a body that is not JSON 415', async () => {
      expectError(await postWebhook(t, body, { provider: 'stripe' }), 404, 'NOT_FOUND');
      const text = await t.app.inject({
        method: 'POST',
        url: '/api/payments/webhooks/test',
        headers: { 'content-type': 'text/plain' },
        payload: body,
      });
      expectError(text, 415, 'UNSUPPORTED_MEDIA_TYPE');
    });
  });

  it('a duplicate event is answered 200 and fulfils nothing again', async () => {
    const before = await domesticTotal(t.app);
    const placed = await place();
    await submitCard(t.app, placed, CARDS.succeed);
    const bodies = await queuedEvents(t.app, checkoutIdOf(placed));
    for (const body of [...bodies, ...bodies, ...bodies]) {
      const res = await postWebhook(t, body);
      expect(res.statusCode, res.body).toBe(200);
    }
    await tick(); // the provider's own deliveries of the same events
    const payment = await paymentOfOrder(t.app, placed.order.id);
    expect(payment.state).toBe('paid');
    expect(await domesticTotal(t.app)).toBe(before + PACKAGE.dataMb);
    expect(await receiptsOf(t.app, payment.id)).toHaveLength(1);
    expect(await eventsOf(t.app, payment.id)).toHaveLength(2);
  });

  it('TEST_PROVIDER_WEBHOOK_DUPLICATES sends every event twice; the package is still added once', async () => {
    const d = await createPaymentsApp({ TEST_PROVIDER_WEBHOOK_DUPLICATES: 'true' });
    try {
      const before = await domesticTotal(d.app);
      const placed = orderPlacedResponse.parse(
        await d.app.payments.placePaidOrder(packagePurchase()),
      );
      await submitCard(d.app, placed, CARDS.succeed);
      await d.app.testProvider?.tick();
      expect(d.delivery.sent).toHaveLength(4);
      expect(new Set(d.delivery.sent.map((r) => r.body)).size).toBe(2);
      expect(await domesticTotal(d.app)).toBe(before + PACKAGE.dataMb);
      expect((await paymentOfOrder(d.app, placed.order.id)).state).toBe('paid');
    } finally {
      await d.close();
    }
  });

  it('TEST_PROVIDER_WEBHOOK_DELAY_MS holds webhooks back (late delivery)', async () => {
    const d = await createPaymentsApp({ TEST_PROVIDER_WEBHOOK_DELAY_MS: '5000' });
    try {
      const placed = orderPlacedResponse.parse(
        await d.app.payments.placePaidOrder(packagePurchase()),
      );
      await submitCard(d.app, placed, CARDS.succeed);
      await d.app.testProvider?.tick();
      expect(d.delivery.sent).toHaveLength(0);
      expect((await paymentOfOrder(d.app, placed.order.id)).state).toBe('created');
      d.clock.advance(5);
      await d.app.testProvider?.tick();
      expect((await paymentOfOrder(d.app, placed.order.id)).state).toBe('paid');
    } finally {
      await d.close();
    }
  });

  it('out of order: succeeded before pending leaves the payment paid (states only move forward)', async () => {
    const before = await domesticTotal(t.app);
    const placed = await place();
    await submitCard(t.app, placed, CARDS.succeed);
    const [pending, succeeded] = await queuedEvents(t.app, checkoutIdOf(placed));
    if (!pending || !succeeded) throw new Error('expected pending and succeeded');
    expect(JSON.parse(pending)).toMatchObject({ type: 'payment.pending' });
    expect((await postWebhook(t, succeeded)).statusCode).toBe(200);
    expect((await paymentOfOrder(t.app, placed.order.id)).state).toBe('paid');
    expect((await postWebhook(t, pending)).statusCode).toBe(200);
    const payment = await paymentOfOrder(t.app, placed.order.id);
    expect(payment.state).toBe('paid');
    expect((await orderRow(t.app, placed.order.id)).paymentStatus).toBe('paid');
    expect(await domesticTotal(t.app)).toBe(before + PACKAGE.dataMb);
  });

  it('a success reported after the payment was closed fulfils nothing and asks for one refund (ADR 0050 Refunds)', async () => {
    const logs = new LogCapture();
    const c = await createPaymentsApp({ LOG_LEVEL: 'warn' }, { logStream: logs });
    try {
      const before = await domesticTotal(c.app);
      const placed = orderPlacedResponse.parse(
        await c.app.payments.placePaidOrder(packagePurchase()),
      );
      await submitCard(c.app, placed, 'cancel');
      await c.app.testProvider?.tick();
      const payment = await paymentOfOrder(c.app, placed.order.id);
      expect(payment.state).toBe('cancelled');
      const late = JSON.stringify({
        id: 'evt_late_success',
        type: 'payment.succeeded',
        providerPaymentId: payment.providerPaymentId,
        reference: payment.id,
        occurredAt: c.clock.now().toISOString(),
      });
      expect((await postWebhook(c, late)).statusCode).toBe(200);
      expect((await postWebhook(c, late)).statusCode).toBe(200);
      expect((await paymentOfOrder(c.app, placed.order.id)).state).toBe('cancelled');
      expect(await domesticTotal(c.app)).toBe(before);
      const refunds = await c.app.db
        .select()
        .from(paymentRefunds)
        .where(eq(paymentRefunds.paymentId, payment.id));
      expect(refunds).toMatchObject([
        {
          state: 'pending',
          amountOere: payment.amountOere,
          providerPaymentId: payment.providerPaymentId,
        },
      ]);
      expect(
        logs.lines.filter(
          (line) =>
            line.level === 40 &&
            line.msg === 'payment succeeded at the provider after it was closed here: refunding',
        ),
      ).toHaveLength(1);
    } finally {
      await c.close();
    }
  });

  describe('Idempotency-Key', () => {
    it('a retry with the same key and body answers the first order and card page; one order exists', async () => {
      const key = randomUUID();
      const first = await place({ idempotencyKey: key });
      const again = await place({ idempotencyKey: key });
      expect(again.order.id).toBe(first.order.id);
      expect(again.paymentUrl).toBe(first.paymentUrl);
      const rows = await t.app.db.select().from(orders).where(eq(orders.idempotencyKey, key));
      expect(rows).toHaveLength(1);
      expect(
        await t.app.db.select().from(payments).where(eq(payments.orderId, first.order.id)),
      ).toHaveLength(1);
    });

    it('simultaneous retries with one key place one order', async () => {
      const key = randomUUID();
      const answers = await Promise.all([1, 2, 3, 4].map(() => place({ idempotencyKey: key })));
      expect(new Set(answers.map((a) => a.order.id)).size).toBe(1);
      expect(new Set(answers.map((a) => a.paymentUrl)).size).toBe(1);
      expect(answers[0]?.paymentUrl).not.toBeNull();
    });

    it('the same key with another body is refused with IDEMPOTENCY_KEY_REUSED (422)', async () => {
      const key = randomUUID();
      await place({ idempotencyKey: key });
      await expectAppError(
        t.app.payments.placePaidOrder(
          packagePurchase({ idempotencyKey: key, requestHash: 'other' }),
        ),
        'IDEMPOTENCY_KEY_REUSED',
      );
      expect(new AppError('IDEMPOTENCY_KEY_REUSED').statusCode).toBe(422);
    });

    it('an empty key is refused with IDEMPOTENCY_KEY_REQUIRED (400)', async () => {
      await expectAppError(
        t.app.payments.placePaidOrder(packagePurchase({ idempotencyKey: '' })),
        'IDEMPOTENCY_KEY_REQUIRED',
      );
    });
  });

  it('provider down: 503 PAYMENT_PROVIDER_UNAVAILABLE, the payment failed and the order cancelled in one step, and a retry with the same key places it anew', async () => {
    const key = randomUUID();
    const providerRowsBefore = (await t.app.db.select().from(testProviderPayments)).length;
    providerDown = true;
    try {
      await expectAppError(place({ idempotencyKey: key }), 'PAYMENT_PROVIDER_UNAVAILABLE');
    } finally {
      providerDown = false;
    }
    const [failedOrder] = await t.app.db
      .select()
      .from(orders)
      .where(eq(orders.userId, JOANNES))
      .orderBy(orders.createdAt);
    expect(failedOrder).toBeDefined();
    const abandoned = (
      await t.app.db
        .select()
        .from(payments)
        .where(eq(payments.failureReason, 'provider_unavailable'))
    ).at(-1);
    expect(abandoned).toMatchObject({
      state: 'failed',
      providerPaymentId: null,
      checkoutUrl: null,
    });
    const abandonedOrder = await orderRow(t.app, abandoned?.orderId ?? '');
    expect(abandonedOrder).toMatchObject({
      paymentStatus: 'failed',
      isCancelled: true,
      isComplete: false,
      idempotencyKey: null,
    });
    expect((await t.app.db.select().from(testProviderPayments)).length).toBe(providerRowsBefore);

    const retried = await place({ idempotencyKey: key });
    expect(retried.order.id).not.toBe(abandonedOrder.id);
    expect(retried.paymentUrl).not.toBeNull();
  });

  it('provider down over HTTP: POST /api/packages answers 503 PAYMENT_PROVIDER_UNAVAILABLE, and the same request retried later places the order', async () => {
    const buy = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/packages',
        headers: { ...t.auth, 'idempotency-key': 'http-provider-down', 'accept-language': 'en' },
        payload: { packageId: PACKAGE.id, phoneNumber: '214455', payWith: 'card' },
      });
    providerDown = true;
    try {
      expectError(await buy(), 503, 'PAYMENT_PROVIDER_UNAVAILABLE');
    } finally {
      providerDown = false;
    }
    const res = await buy();
    expect(res.statusCode, res.body).toBeLessThan(300);
    const placed = orderPlacedResponse.parse((res.json() as { data: unknown }).data);
    expect(placed.order.paymentStatus).toBe('pending');
    expect(placed.paymentUrl).not.toBeNull();
    const again = await buy();
    expect(orderPlacedResponse.parse((again.json() as { data: unknown }).data).order.id).toBe(
      placed.order.id,
    );
  });

  describe('payment agreement (card on file)', () => {
    it('the demo customers’ seeded agreements can be charged (the test provider knows their cards)', async () => {
      const gudrun = demoUser('Guðrun').id;
      const before = await domesticTotal(t.app, LINES.gudrun);
      const charged = await t.app.payments
        .placePaidOrder(
          packagePurchase({
            userId: gudrun,
            method: 'agreement',
            order: {
              kind: 'extra_package',
              priceOere: PACKAGE.priceOere,
              lineId: LINES.gudrun,
              msisdn: '557812',
              packageId: PACKAGE.id,
            },
          }),
        )
        .then(orderPlacedResponse.parse);
      expect(charged.paymentUrl).toBeNull();
      await tick();
      expect(await paymentOfOrder(t.app, charged.order.id)).toMatchObject({
        state: 'paid',
        cardBrand: 'Mastercard',
        cardLast4: '5454',
      });
      expect(await domesticTotal(t.app, LINES.gudrun)).toBe(before + PACKAGE.dataMb);
    });

    it('charging the card on file without an active agreement is refused with AGREEMENT_REQUIRED', async () => {
      await t.app.db
        .update(paymentAgreements)
        .set({ status: 'cancelled' })
        .where(eq(paymentAgreements.userId, JOANNES));
      await expectAppError(
        t.app.payments.placePaidOrder(packagePurchase({ method: 'agreement' })),
        'AGREEMENT_REQUIRED',
      );
    });

    it('a card registration stores the card with the provider; later purchases charge it without a card page', async () => {
      await t.app.db
        .update(paymentAgreements)
        .set({ status: 'cancelled' })
        .where(eq(paymentAgreements.userId, JOANNES));
      const registration = await t.app.payments
        .placePaidOrder({
          userId: JOANNES,
          idempotencyKey: randomUUID(),
          requestHash: 'register-card',
          method: 'card',
          order: { kind: 'payment_agreement', priceOere: 0 },
          description: 'Alda: gjaldsavtala',
        })
        .then(orderPlacedResponse.parse);
      expect(registration.paymentUrl).not.toBeNull();
      await submitCard(t.app, registration, '5555 5555 5555 4444');
      await t.app.testProvider?.tick();
      const setup = await paymentOfOrder(t.app, registration.order.id);
      expect(setup).toMatchObject({ state: 'paid', amountOere: 0, cardLast4: '4444' });
      expect(setup.providerAgreementRef).toMatch(/^card_/);
      const [agreement] = await t.app.db
        .select()
        .from(paymentAgreements)
        .where(eq(paymentAgreements.userId, JOANNES))
        .orderBy(paymentAgreements.createdAt)
        .then((rows) => rows.filter((r) => r.status === 'active'));
      expect(agreement).toMatchObject({
        providerReference: setup.providerAgreementRef,
        cardLast4: '4444',
      });

      const before = await domesticTotal(t.app);
      const charged = await t.app.payments
        .placePaidOrder(packagePurchase({ method: 'agreement' }))
        .then(orderPlacedResponse.parse);
      expect(charged.paymentUrl).toBeNull();
      await t.app.testProvider?.tick();
      const payment = await paymentOfOrder(t.app, charged.order.id);
      expect(payment).toMatchObject({ method: 'agreement', state: 'paid', cardLast4: '4444' });
      expect(await domesticTotal(t.app)).toBe(before + PACKAGE.dataMb);
    });
  });

  describe('reconciliation', () => {
    it('a payment whose webhooks never arrive is completed from the provider, exactly once, and later redeliveries change nothing', async () => {
      // earlier tests' slow payments settle first, so only this payment moves the total
      t.clock.advance(10);
      await tick();
      const before = await domesticTotal(t.app);
      const placed = await place();
      await submitCard(t.app, placed, CARDS.succeed);
      t.delivery.down = true;
      try {
        await tick();
      } finally {
        t.delivery.down = false;
      }
      expect((await paymentOfOrder(t.app, placed.order.id)).state).toBe('created');
      // too early: nothing is stuck yet
      expect((await t.app.payments.reconcile({ afterS: 60 })).advanced).toBe(0);
      t.clock.advance(61);
      const round = await t.app.payments.reconcile({ afterS: 60 });
      expect(round.advanced).toBeGreaterThanOrEqual(1);
      const payment = await paymentOfOrder(t.app, placed.order.id);
      expect(payment).toMatchObject({ state: 'paid', cardLast4: '4242' });
      expect(await domesticTotal(t.app)).toBe(before + PACKAGE.dataMb);
      // the provider's retries arrive later: recorded, ignored
      t.clock.advance(10);
      await tick();
      expect(await domesticTotal(t.app)).toBe(before + PACKAGE.dataMb);
      expect(await receiptsOf(t.app, payment.id)).toHaveLength(1);
    });

    it('every stuck payment gets its turn: open card pages at the front of the queue do not hold back a paid one behind them', async () => {
      t.clock.advance(3700); // earlier tests' open card pages expire and are settled first
      await tick();
      await t.app.payments.reconcile({ afterS: 60 });
      const open = [await place(), await place()];
      t.clock.advance(1);
      const paidAtProvider = await place();
      await submitCard(t.app, paidAtProvider, CARDS.succeed);
      t.delivery.down = true;
      try {
        await tick();
      } finally {
        t.delivery.down = false;
      }
      t.clock.advance(61);
      const round = await t.app.payments.reconcile({ afterS: 60, pageSize: 1 });
      expect(round).toEqual({ checked: 3, advanced: 1 });
      expect((await paymentOfOrder(t.app, paidAtProvider.order.id)).state).toBe('paid');
      for (const placed of open) {
        expect((await paymentOfOrder(t.app, placed.order.id)).state).toBe('created');
      }
    });

    it('a payment that never reached the provider (crash between insert and call) is cancelled after the grace period', async () => {
      let crash = true;
      const c = await createPaymentsApp(
        {},
        {
          wrapProvider: (provider) => ({
            ...provider,
            name: provider.name,
            verifyWebhook: (raw, headers, url) => provider.verifyWebhook(raw, headers, url),
            getPayment: (id) => provider.getPayment(id),
            chargeAgreement: (input) => provider.chargeAgreement(input),
            createCheckout: (input) =>
              crash ? new Promise<never>(() => {}) : provider.createCheckout(input),
          }),
        },
      );
      try {
        void c.app.payments.placePaidOrder(packagePurchase());
        const [row] = await waitForPayment(c);
        expect(row.state).toBe('created');
        crash = false;
        c.clock.advance(20);
        expect((await c.app.payments.reconcile({ afterS: 10 })).advanced).toBe(0);
        c.clock.advance(20);
        expect((await c.app.payments.reconcile({ afterS: 10 })).advanced).toBe(1);
        const after = await paymentOfOrder(c.app, row.orderId);
        expect(after).toMatchObject({ state: 'cancelled', failureReason: 'not_sent_to_provider' });
        expect((await orderRow(c.app, row.orderId)).paymentStatus).toBe('cancelled');
      } finally {
        await c.close();
      }
    });
  });
});

async function waitForPayment(c: PaymentsTestApp) {
  for (let i = 0; i < 100; i += 1) {
    const rows = await c.app.db.select().from(payments);
    const first = rows[0];
    if (first) return [first] as const;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('no payment inserted');
}
