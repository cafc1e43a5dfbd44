import { and, eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope } from '@alda/contract/envelope';
import { agreementResponse, endAgreementResponse } from '@alda/contract/schemas/agreements';
import { monthlyPriceResponse } from '@alda/contract/schemas/billing';
import { orderPlacedResponse } from '@alda/contract/schemas/orders';
import { PaymentProviderError } from '../src/adapters/payments/provider';
import { paymentAgreements } from '../src/db/schema/agreements';
import { actions } from '../src/db/schema/actions';
import { notifications } from '../src/db/schema/data-transfers';
import { testProviderCards } from '../src/db/schema/test-provider';
import { AppError } from '../src/errors';
import { createAgreementService } from '../src/modules/agreements/service';
import { readUserVersion } from '../src/modules/versions/change-versions';
import { signIn, type DemoName } from './demo-accounts';
import { demoUser, parse } from './helper';
import {
  createPaymentsApp,
  orderRow,
  paymentOfOrder,
  type PaymentsTestApp,
} from './payments-fixture';
import { expectError } from './purchases-fixtures';

const JOANNES = demoUser('Jóannes').id;
const GUDRUN = demoUser('Guðrun').id;
const SUNNEVA = demoUser('Sunneva').id;

/** How the provider answers `stopAgreement` (the test switches it), and what it was asked. */
const stop = { failing: false, asked: [] as string[] };

describe('DELETE /api/agreements: ending the payment agreement from the app (SPEC §2 profile.agreement, §7 agreements, §8)', () => {
  let t: PaymentsTestApp;
  let as: Record<DemoName, { authorization: string }>;
  beforeAll(async () => {
    t = await createPaymentsApp(
      {},
      {
        wrapProvider: (provider) => ({
          ...provider,
          stopAgreement: async (ref) => {
            stop.asked.push(ref);
            if (stop.failing) throw new PaymentProviderError('connect ETIMEDOUT');
            return provider.stopAgreement(ref);
          },
        }),
      },
    );
    as = {
      Jóannes: t.auth,
      Guðrun: await signIn(t.app, 'Guðrun'),
      Sunneva: await signIn(t.app, 'Sunneva'),
      Rói: await signIn(t.app, 'Rói'),
      Ása: await signIn(t.app, 'Ása'),
    };
  });
  afterAll(() => t.close());

  const end = (who: DemoName | null) =>
    t.app.inject({
      method: 'DELETE',
      url: '/api/agreements',
      headers: { ...(who ? as[who] : {}), 'accept-language': 'en' },
    });
  const current = async (who: DemoName) =>
    parse(
      dataEnvelope(agreementResponse),
      await t.app.inject({ method: 'GET', url: '/api/agreements', headers: as[who] }),
    ).data;
  const agreementsOf = (userId: string) =>
    t.app.db.select().from(paymentAgreements).where(eq(paymentAgreements.userId, userId));
  const card = async (id: string) => {
    const [row] = await t.app.db
      .select()
      .from(testProviderCards)
      .where(eq(testProviderCards.id, id));
    return row;
  };
  const paymentNotices = (userId: string) =>
    t.app.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, userId), eq(notifications.type, 'payment')));
  const payMonthWithAgreement = (who: DemoName, key: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/billing/pay',
      headers: { ...as[who], 'idempotency-key': key, 'accept-language': 'en' },
      payload: { payWith: 'agreement' },
    });

  it('SPEC §8: 401 without a token; 404 NOT_FOUND for a customer with no agreement', async () => {
    expect((await end(null)).statusCode).toBe(401);
    expectError(await end('Sunneva'), 404, 'NOT_FOUND');
    expect(stop.asked).toEqual([]);
  });

  it('SPEC §2 profile.agreement: ends the agreement at the provider first, then cancels it with a log entry and a notification; paying the month with it is then 409 AGREEMENT_REQUIRED — and another customer’s agreement is untouched', async () => {
    const before = await readUserVersion(t.app.db, GUDRUN);
    const res = await end('Guðrun');
    expect(res.statusCode, res.body).toBe(200);
    expect(parse(dataEnvelope(endAgreementResponse), res)).toEqual({ data: null });

    expect(stop.asked).toEqual(['demo-card-gudrun']);
    expect((await card('demo-card-gudrun'))?.stoppedAt).toEqual(t.clock.now());
    expect(await current('Guðrun')).toBeNull();
    expect((await agreementsOf(GUDRUN)).map((a) => a.status)).toEqual(['cancelled']);
    const notices = await paymentNotices(GUDRUN);
    expect(notices.map((n) => [n.params.title, n.params.body, n.link])).toContainEqual([
      { fo: 'Gjaldsavtalan er uppsøgd', en: 'Payment agreement ended' },
      {
        fo: 'Kortið Mastercard •••• 5454 verður ikki longur brúkt til mánaðargjaldið.',
        en: 'The card Mastercard •••• 5454 will no longer be used for the monthly payment.',
      },
      '/min-brukari/gjaldsavtala',
    ]);
    const logged = await t.app.db.select().from(actions).where(eq(actions.userId, GUDRUN));
    expect(
      logged.filter((a) => a.type === 'profile_updated' && a.createdAt >= t.clock.now()),
    ).toHaveLength(1);
    expect(await readUserVersion(t.app.db, GUDRUN)).toBeGreaterThan(before);

    expectError(
      await payMonthWithAgreement('Guðrun', 'after-end'),
      409,
      'AGREEMENT_REQUIRED',
      'You have no card on file. Register a card or pay by card.',
    );

    // Jóannes's agreement and card are as they were.
    expect(await current('Jóannes')).toMatchObject({ status: 'active', cardLast4: '4242' });
    expect((await card('demo-card-joannes'))?.stoppedAt).toBeNull();
    // Nothing left to end.
    expectError(await end('Guðrun'), 404, 'NOT_FOUND');
    expect(stop.asked).toEqual(['demo-card-gudrun']);
  });

  it('a provider that cannot end it: 503 PAYMENT_PROVIDER_UNAVAILABLE and nothing changed; the retry ends it', async () => {
    const version = await readUserVersion(t.app.db, JOANNES);
    const notices = (await paymentNotices(JOANNES)).length;
    stop.failing = true;
    try {
      expectError(
        await end('Jóannes'),
        503,
        'PAYMENT_PROVIDER_UNAVAILABLE',
        'The payment service is not answering right now. Try again in a moment.',
      );
    } finally {
      stop.failing = false;
    }
    expect(await current('Jóannes')).toMatchObject({ status: 'active' });
    expect((await card('demo-card-joannes'))?.stoppedAt).toBeNull();
    expect(await paymentNotices(JOANNES)).toHaveLength(notices);
    expect(await readUserVersion(t.app.db, JOANNES)).toBe(version);

    // A provider that does not answer at all is given up after the timeout (10 s in the app).
    const hanging = createAgreementService({
      db: t.app.db,
      now: t.clock.now,
      log: pino({ level: 'silent' }),
      payments: () => t.app.payments,
      stopAgreement: () => new Promise<never>(() => {}),
      providerName: 'test',
      stopTimeoutMs: 30,
    });
    const error: unknown = await hanging.end(JOANNES).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('PAYMENT_PROVIDER_UNAVAILABLE');
    expect(await current('Jóannes')).toMatchObject({ status: 'active' });

    const res = await end('Jóannes');
    expect(res.statusCode, res.body).toBe(200);
    expect(await current('Jóannes')).toBeNull();
    expect((await card('demo-card-joannes'))?.stoppedAt).not.toBeNull();
  });

  it('an agreement the provider never confirmed (no reference) is just cancelled: the provider is not asked', async () => {
    await t.app.db.insert(paymentAgreements).values({ userId: SUNNEVA, status: 'pending' });
    const asked = stop.asked.length;
    const res = await end('Sunneva');
    expect(res.statusCode, res.body).toBe(200);
    expect(stop.asked).toHaveLength(asked);
    expect((await agreementsOf(SUNNEVA)).map((a) => a.status)).toEqual(['cancelled']);
  });
});

describe('the test provider ends agreements (stopAgreement)', () => {
  let t: PaymentsTestApp;
  beforeAll(async () => {
    t = await createPaymentsApp();
  });
  afterAll(() => t.close());

  const stoppedAt = async (id: string) => {
    const [row] = await t.app.db
      .select()
      .from(testProviderCards)
      .where(eq(testProviderCards.id, id));
    return row?.stoppedAt;
  };

  it('offers the card page only, and an agreement is a card check', () => {
    const provider = t.app.testProvider?.provider;
    expect(provider?.checkoutMethods).toEqual(['card']);
    expect(provider?.agreementVia).toBe('card');
  });

  it('stopping is idempotent (the first time stays) and a reference it never issued is nothing to stop', async () => {
    const provider = t.app.testProvider?.provider;
    if (!provider) throw new Error('no test provider');
    const first = t.clock.now();
    await provider.stopAgreement('demo-card-gudrun');
    expect(await stopped(first)).toBe(true);
    t.clock.advance(60);
    await provider.stopAgreement('demo-card-gudrun');
    expect(await stoppedAt('demo-card-gudrun')).toEqual(first);
    await expect(provider.stopAgreement('card_never_issued')).resolves.toBeUndefined();
    expect(await stoppedAt('demo-card-joannes')).toBeNull();

    async function stopped(at: Date) {
      return (await stoppedAt('demo-card-gudrun'))?.getTime() === at.getTime();
    }
  });

  it('a charge on a stopped agreement fails like a declined card (payment.failed, agreement_stopped): the payment is failed and the month stays unpaid', async () => {
    // Stopped at the provider while still active here (as after a DELETE whose answer was lost).
    await t.app.testProvider?.provider.stopAgreement('demo-card-gudrun');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/billing/pay',
      headers: { ...(await signIn(t.app, 'Guðrun')), 'idempotency-key': 'stopped-card' },
      payload: { payWith: 'agreement' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const placed = orderPlacedResponse.parse((res.json() as { data: unknown }).data);
    await t.app.testProvider?.tick();
    expect(await paymentOfOrder(t.app, placed.order.id)).toMatchObject({
      method: 'agreement',
      state: 'failed',
      failureReason: 'agreement_stopped',
    });
    expect(await orderRow(t.app, placed.order.id)).toMatchObject({
      paymentStatus: 'failed',
      isCancelled: true,
    });
    const price = parse(
      dataEnvelope(monthlyPriceResponse),
      await t.app.inject({
        method: 'GET',
        url: '/api/billing/monthly-price',
        headers: await signIn(t.app, 'Guðrun'),
      }),
    ).data;
    expect(price.paidOrderId).toBeNull();
  });
});
