import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderPlacedResponse } from '@alda/contract/schemas/orders';
import { seedDemoData } from '../src/seed/seed';
import { NOW } from './demo-accounts';
import { createTestApp, waitFor } from './helper';
import {
  CARDS,
  PACKAGE,
  WEBHOOK_SECRET,
  checkoutIdOf,
  createPaymentsApp,
  domesticTotal,
  orderRow,
  packagePurchase,
  paymentOfOrder,
  submitCard,
  type PaymentsTestApp,
} from './payments-fixture';
import { freePort } from './support/api-process';

describe('the test provider’s hosted card page', () => {
  let t: PaymentsTestApp;
  beforeAll(async () => {
    t = await createPaymentsApp();
  });
  afterAll(() => t.close());

  const place = () =>
    t.app.payments.placePaidOrder(packagePurchase()).then(orderPlacedResponse.parse);
  const page = (
    placed: { paymentUrl: string | null },
    headers: Record<string, string> = {},
    query = '',
  ) =>
    t.app.inject({
      method: 'GET',
      url: `${new URL(placed.paymentUrl ?? '').pathname}${query}`,
      headers,
    });

  it('shows amount, description and the card form in Faroese by default, English by Accept-Language or ?lang=', async () => {
    const placed = await place();
    const fo = await page(placed);
    expect(fo.statusCode).toBe(200);
    expect(fo.headers['content-type']).toMatch(/^text\/html/);
    expect(fo.body).toContain('<html lang="fo">');
    expect(fo.body).toContain('Gjald við korti');
    expect(fo.body).toContain('39,00 kr.');
    expect(fo.body).toContain('Alda: 1 GB eykapakki');
    expect(fo.body).toContain('Kortnummar');
    expect(fo.body).toContain('Angra');

    const en = await page(placed, { 'accept-language': 'en-GB,en;q=0.9' });
    expect(en.body).toContain('<html lang="en">');
    expect(en.body).toContain('Card payment');
    expect(en.body).toContain('Pay 39.00 kr.');

    const forced = await page(placed, { 'accept-language': 'en' }, '?lang=fo');
    expect(forced.body).toContain('Gjalda 39,00 kr.');
  });

  it('works under a strict CSP: no script or inline style at all, one served stylesheet, the form may post only to the provider and the app', async () => {
    const placed = await place();
    const res = await page(placed);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("form-action 'self' https://minsida.alda.test");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.body).not.toMatch(/<script|<style|\sstyle=|\son[a-z]+=/i);
    expect(res.body).toContain('href="/test-provider/assets/checkout.css"');
    const css = await t.app.inject({ method: 'GET', url: '/test-provider/assets/checkout.css' });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    expect(css.body).toContain('.card-form');
  });

  it('a card registration (saveCard) shows the card check text instead of an amount', async () => {
    const placed = await t.app.payments
      .placePaidOrder({
        userId: packagePurchase().userId,
        idempotencyKey: 'card-check-page',
        requestHash: 'card-check-page',
        method: 'card',
        order: { kind: 'payment_agreement', priceOere: 0 },
        description: 'Alda: gjaldsavtala',
      })
      .then(orderPlacedResponse.parse);
    const res = await page(placed);
    expect(res.body).toContain('Goym kortið');
    expect(res.body).toContain('Einki verður tikið av kortinum nú.');
    expect(res.body).not.toContain('Upphædd');
  });

  it('refuses a card that fails the Luhn check, a past expiry and a short CVC, with messages in the page’s language, and never echoes the CVC', async () => {
    const placed = await place();
    const res = await submitCard(t.app, placed, '4242 4242 4242 4241', {
      expiry: '01/20',
      cvc: '98',
    });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('Kortnummarið er ikki rætt.');
    expect(res.body).toContain('Gildistíðin er ikki røtt, ella er hon farin.');
    expect(res.body).toContain('Trygdarkotan skal vera 3 tøl.');
    expect(res.body).toContain('value="4242 4242 4242 4241"');
    expect(res.body).not.toContain('value="98"');
    const en = await submitCard(t.app, placed, '4242', { lang: 'en' });
    expect(en.statusCode).toBe(422);
    expect(en.body).toContain('The card number is not valid.');
    // nothing happened to the payment
    expect((await paymentOfOrder(t.app, placed.order.id)).state).toBe('created');
  });

  it('a handled payment shows "already handled" with a link back to the app; an unknown id is 404', async () => {
    const placed = await place();
    await submitCard(t.app, placed, CARDS.succeed);
    const res = await page(placed);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Hetta gjaldið er longu viðgjørt.');
    expect(res.body).toContain(`href="https://minsida.alda.test/betaling/${placed.order.id}"`);
    expect(res.body).not.toContain('<form');
    // paying again does not charge again
    const again = await submitCard(t.app, placed, CARDS.succeed);
    expect(again.statusCode).toBe(303);
    const missing = await t.app.inject({
      method: 'GET',
      url: '/test-provider/checkout/tp_000000000000000000000000',
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('Gjaldið finst ikki.');
    const bogus = await t.app.inject({ method: 'GET', url: '/test-provider/checkout/..%2Fx' });
    expect(bogus.statusCode).toBe(404);
  });

  it('a checkout left open for an hour expires: the payment is cancelled and the page says so', async () => {
    const placed = await place();
    t.clock.advance(3601);
    await t.app.testProvider?.tick();
    expect(await paymentOfOrder(t.app, placed.order.id)).toMatchObject({
      state: 'cancelled',
      failureReason: 'expired',
    });
    const res = await page(placed);
    expect(res.body).toContain('Hetta gjaldið er runnið út.');
  });

  it('getPayment reports the provider’s view (reconciliation reads it)', async () => {
    const provider = t.app.testProvider?.provider;
    if (!provider) throw new Error('no test provider');
    const placed = await place();
    const id = checkoutIdOf(placed);
    expect(await provider.getPayment(id)).toMatchObject({ state: 'created' });
    await submitCard(t.app, placed, CARDS.slow);
    expect(await provider.getPayment(id)).toMatchObject({
      state: 'pending',
      card: { brand: 'Visa', last4: '3063', expiry: '12/30' },
    });
    expect(await provider.getPayment('tp_ffffffffffffffffffffffff')).toBeNull();
  });

  it('refunds a charged payment in full once, or in part: the same idempotency key answers the same refund; anything else is refused', async () => {
    const provider = t.app.testProvider?.provider;
    if (!provider) throw new Error('no test provider');
    const open = await place();
    const refund = (
      providerPaymentId: string,
      idempotencyKey = 'rf-1',
      amountOere: number = PACKAGE.priceOere,
    ) => provider.refund({ providerPaymentId, amountOere, idempotencyKey });
    // Not charged (the card page is still open), unknown.
    await expect(refund(checkoutIdOf(open))).rejects.toThrow('refund: not charged');
    await expect(refund('tp_ffffffffffffffffffffffff')).rejects.toThrow('refund: unknown payment');

    await submitCard(t.app, open, CARDS.succeed);
    const id = checkoutIdOf(open);
    await expect(refund(id, 'rf-0', 0)).rejects.toThrow('more than 0 and at most the charge');
    await expect(refund(id, 'rf-0', PACKAGE.priceOere + 1)).rejects.toThrow('at most the charge');
    // A part of the charge (the staff console): a retry with its key answers the same refund.
    const part = await refund(id, 'rf-part', 100);
    expect(part.providerRefundId).toMatch(/^re_/);
    expect(await refund(id, 'rf-part', 100)).toEqual(part);
    expect((await refund(id, 'rf-part-2', 100)).providerRefundId).not.toBe(part.providerRefundId);
    const first = await refund(id);
    expect(first.providerRefundId).toMatch(/^re_/);
    expect(await refund(id)).toEqual(first);
    await expect(refund(id, 'rf-2')).rejects.toThrow('already refunded');
  });
});

describe('the slow test card answered on demand (demo mode, issue 41)', () => {
  it('POST /dev/payments/:orderId/answer settles the order’s waiting slow card now (paid on the next round); a payment not waiting is 409, an order without one 404, and outside demo mode the route is not there', async () => {
    const t = await createPaymentsApp({ DEMO_MODE: 'true', TEST_PROVIDER_SLOW_DELAY_MS: '600000' });
    const off = await createPaymentsApp({ DEMO_MODE: 'false' });
    try {
      const placed = orderPlacedResponse.parse(
        await t.app.payments.placePaidOrder(packagePurchase()),
      );
      const orderId = placed.order.id;
      const answer = (app: PaymentsTestApp['app'], id: string) =>
        app.inject({ method: 'POST', url: `/dev/payments/${id}/answer` });
      // The card page is still open: nothing waits for an answer.
      expect((await answer(t.app, orderId)).statusCode).toBe(409);

      await submitCard(t.app, placed, CARDS.slow);
      await t.app.testProvider?.tick();
      expect(await paymentOfOrder(t.app, orderId)).toMatchObject({ state: 'pending' });
      // Ten minutes' delay: a round a minute later settles nothing.
      t.clock.advance(60);
      await t.app.testProvider?.tick();
      expect((await orderRow(t.app, orderId)).paymentStatus).not.toBe('paid');

      const answered = await answer(t.app, orderId);
      expect(answered.statusCode, answered.body).toBe(200);
      await t.app.testProvider?.tick();
      expect((await orderRow(t.app, orderId)).paymentStatus).toBe('paid');
      const again = await answer(t.app, orderId);
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ error: { code: 'CONFLICT' } });
      expect((await answer(t.app, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
      expect((await answer(t.app, 'not-an-order')).statusCode).toBe(400);

      const hidden = await answer(off.app, orderId);
      expect(hidden.statusCode).toBe(404);
      expect(hidden.json()).toMatchObject({ error: { code: 'ROUTE_NOT_FOUND' } });
    } finally {
      await t.close();
      await off.close();
    }
  });
});

describe('the test provider over real HTTP (listening server, webhooks by HTTP POST)', () => {
  it('SPEC §4 Payment flow: browser-like card page round trip, then signed webhooks POSTed to PAYMENT_WEBHOOK_URL make the order paid', async () => {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const t = await createTestApp(
      {
        APP_URL: origin,
        PAYMENT_WEBHOOK_SECRET: WEBHOOK_SECRET,
        PAYMENT_RECONCILE_INTERVAL_S: '0',
        TEST_PROVIDER_SLOW_DELAY_MS: '300',
        RATE_LIMIT_MAX: '0',
      },
      { payments: { testProviderIntervalMs: 100 } },
    );
    try {
      await seedDemoData(t.app.db, NOW);
      await t.app.listen({ port, host: '127.0.0.1' });
      const before = await domesticTotal(t.app);
      const placed = orderPlacedResponse.parse(
        await t.app.payments.placePaidOrder(packagePurchase()),
      );
      expect(placed.paymentUrl?.startsWith(`${origin}/test-provider/checkout/`)).toBe(true);
      const form = await fetch(placed.paymentUrl ?? '', { headers: { 'accept-language': 'fo' } });
      expect(form.status).toBe(200);
      expect(await form.text()).toContain('Gjalda 39,00 kr.');

      const posted = await fetch(placed.paymentUrl ?? '', {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          number: CARDS.slow,
          expiry: '12/30',
          cvc: '123',
          action: 'pay',
          lang: 'fo',
        }).toString(),
      });
      expect(posted.status).toBe(303);
      expect(posted.headers.get('location')).toBe(`${origin}/betaling/${placed.order.id}`);

      // pending arrives first (over HTTP), then the slow card settles and succeeded follows
      await waitFor(async () => {
        const payment = await paymentOfOrder(t.app, placed.order.id);
        return payment.state === 'pending' || payment.state === 'paid' ? payment : undefined;
      });
      const paid = await waitFor(async () => {
        const order = await orderRow(t.app, placed.order.id);
        return order.paymentStatus === 'paid' ? order : undefined;
      }, 10_000);
      expect(paid.isComplete).toBe(true);
      expect(await domesticTotal(t.app)).toBe(before + PACKAGE.dataMb);
    } finally {
      await t.close();
    }
  });
});
