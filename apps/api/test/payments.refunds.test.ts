import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentProviderError } from '../src/adapters/payments/provider';
import { notifications } from '../src/db/schema/data-transfers';
import { paymentRefunds, payments } from '../src/db/schema/payments';
import { testProviderPayments } from '../src/db/schema/test-provider';
import { REFUND_MAX_ATTEMPTS } from '../src/modules/payments/service';
import {
  createPaymentsApp,
  domesticTotal,
  JOANNES,
  orderRow,
  packagePurchase,
  paymentOfOrder,
  receiptsOf,
  type PaymentsTestApp,
} from './payments-fixture';

/*
 * ADR 0050 "Refunds": the provider charged a payment that was already closed here — the card on
 * file was charged but the answer never came back (timeout), so the purchase was refused with
 * 503 and the payment failed; then the provider's webhook says it succeeded. Nothing is
 * fulfilled, and the money goes back to the customer exactly once.
 */
describe('refunds of charges that arrive after a payment was closed', () => {
  let t: PaymentsTestApp;
  /** The provider charges the card on file, then its answer is lost (a timeout on our side). */
  let loseChargeAnswer = false;
  /** Refunds at the provider fail (provider down). */
  let refundsDown = false;
  const providerRefundCalls: string[] = [];
  const seen = new Set<string>();

  beforeAll(async () => {
    t = await createPaymentsApp(
      {},
      {
        wrapProvider: (provider) => ({
          ...provider,
          name: provider.name,
          verifyWebhook: (raw, headers, url) => provider.verifyWebhook(raw, headers, url),
          getPayment: (id) => provider.getPayment(id),
          createCheckout: (input) => provider.createCheckout(input),
          chargeAgreement: async (input) => {
            const charged = await provider.chargeAgreement(input);
            if (loseChargeAnswer) throw new PaymentProviderError('read ETIMEDOUT');
            return charged;
          },
          refund: async (input) => {
            providerRefundCalls.push(input.idempotencyKey);
            if (refundsDown) throw new PaymentProviderError('connect ECONNREFUSED');
            return provider.refund(input);
          },
        }),
      },
    );
  });
  afterAll(() => t.close());

  /** A card-on-file purchase whose charge answer is lost: 503 to the customer, payment failed. */
  async function lostCharge() {
    loseChargeAnswer = true;
    try {
      await expect(
        t.app.payments.placePaidOrder(packagePurchase({ method: 'agreement' })),
      ).rejects.toMatchObject({ code: 'PAYMENT_PROVIDER_UNAVAILABLE' });
    } finally {
      loseChargeAnswer = false;
    }
    const lost = await t.app.db
      .select()
      .from(payments)
      .where(and(eq(payments.userId, JOANNES), eq(payments.failureReason, 'provider_unavailable')));
    const payment = lost.find((p) => !seen.has(p.id));
    if (!payment) throw new Error('no failed payment');
    seen.add(payment.id);
    const order = await orderRow(t.app, payment.orderId);
    expect(order.isCancelled).toBe(true);
    expect(payment.state).toBe('failed');
    return { order, payment };
  }

  const refundOf = async (paymentId: string) => {
    const [row] = await t.app.db
      .select()
      .from(paymentRefunds)
      .where(eq(paymentRefunds.paymentId, paymentId));
    return row;
  };

  it('the late success is not fulfilled; one refund is paid back at the provider and the customer is told — however often the webhook comes and the job runs', async () => {
    const before = await domesticTotal(t.app);
    const { payment } = await lostCharge();

    // The provider's webhooks (pending, succeeded) arrive — twice over.
    await t.app.testProvider?.tick();
    const [charge] = await t.app.db
      .select()
      .from(testProviderPayments)
      .where(eq(testProviderPayments.merchantReference, payment.id));
    expect(charge?.state).toBe('succeeded');
    const refund = await refundOf(payment.id);
    expect(refund).toMatchObject({
      state: 'pending',
      amountOere: payment.amountOere,
      providerPaymentId: charge?.id,
    });
    expect((await paymentOfOrder(t.app, payment.orderId)).state).toBe('failed');
    expect(await domesticTotal(t.app)).toBe(before);
    expect(await receiptsOf(t.app, payment.id)).toHaveLength(0);

    // Two instances' job rounds at once, then more rounds: one refund at the provider.
    const rounds = await Promise.all([t.app.payments.refundDue(), t.app.payments.refundDue()]);
    expect(rounds.reduce((sum, r) => sum + r.refunded, 0)).toBe(1);
    await t.app.payments.refundDue();
    t.clock.advance(3_600);
    await t.app.payments.refundDue();
    expect(providerRefundCalls.filter((key) => key === refund?.id)).toHaveLength(1);
    const [refunded] = await t.app.db
      .select()
      .from(testProviderPayments)
      .where(eq(testProviderPayments.merchantReference, payment.id));
    expect(refunded?.refundedAt).not.toBeNull();
    expect(refunded?.refundKey).toBe(refund?.id);
    expect(await refundOf(payment.id)).toMatchObject({ state: 'refunded', attempts: 1 });

    const told = await t.app.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, JOANNES), eq(notifications.type, 'payment')));
    const refundNotices = told.filter((n) => n.params.title?.fo === 'Endurgoldið');
    expect(refundNotices).toHaveLength(1);
    expect(refundNotices[0]?.params.body?.fo).toBe(
      'Vit hava goldið 39,00 kr. aftur á kortið hjá tær. Keypið varð ikki gjørt.',
    );
    expect(refundNotices[0]?.params.body?.en).toBe(
      'We have paid 39.00 kr. back to your card. The purchase was not made.',
    );

    // A redelivery of the success after the refund changes nothing either.
    const again = await t.app.payments.reconcile({ afterS: 0 });
    expect(again.advanced).toBe(0);
    expect(await t.app.db.select().from(paymentRefunds)).toHaveLength(1);
  });

  it('a provider that cannot refund now is retried with backoff; a refund failing every time is left to a person, not retried for ever', async () => {
    const { payment } = await lostCharge();
    await t.app.testProvider?.tick();
    const refund = await refundOf(payment.id);
    if (!refund) throw new Error('no refund');

    refundsDown = true;
    try {
      expect(await t.app.payments.refundDue()).toEqual({ claimed: 1, refunded: 0 });
      // Not due again at once: the next attempt waits (1 min, then longer).
      expect(await t.app.payments.refundDue()).toEqual({ claimed: 0, refunded: 0 });
      expect((await refundOf(payment.id))?.lastError).toBe('connect ECONNREFUSED');
      for (let attempt = 2; attempt <= REFUND_MAX_ATTEMPTS; attempt += 1) {
        t.clock.advance(6 * 3_600);
        expect((await t.app.payments.refundDue()).claimed).toBe(1);
      }
      expect(await refundOf(payment.id)).toMatchObject({
        state: 'failed',
        attempts: REFUND_MAX_ATTEMPTS,
      });
      t.clock.advance(6 * 3_600);
      expect((await t.app.payments.refundDue()).claimed).toBe(0);
    } finally {
      refundsDown = false;
    }
  });
});
