import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { startOfMonth } from '@alda/contract/format/date';
import type { ProviderPaymentView } from '../src/adapters/payments/provider';
import { signatureHeader } from '../src/adapters/payments/signature';
import { TEST_CARDS, type CardBehaviour } from '../src/adapters/payments/test-provider/cards';
import { testProviderEventSchema } from '../src/adapters/payments/test-provider/provider';
import { accounts } from '../src/db/schema/accounts';
import { actions } from '../src/db/schema/actions';
import { paymentAgreements } from '../src/db/schema/agreements';
import { lineBalances, prepaidBalances } from '../src/db/schema/balances';
import { notifications } from '../src/db/schema/data-transfers';
import { orders } from '../src/db/schema/orders';
import {
  paymentRefunds,
  paymentWebhookEvents,
  payments,
  receipts,
  type PaymentState,
} from '../src/db/schema/payments';
import { phoneLines } from '../src/db/schema/phone-lines';
import { sessions } from '../src/db/schema/sessions';
import { testProviderCards } from '../src/db/schema/test-provider';
import { users } from '../src/db/schema/users';
import { createAccessTokens } from '../src/modules/auth/tokens';
import { seedDemoData } from '../src/seed/seed';
import { createTestApps, TEST_JWT_SECRET, testClock, type TestApps } from './helper';
import { WEBHOOK_SECRET } from './payments-fixture';

/*
 * The world of the payment chaos property (issue 14, payments-chaos.property.test.ts): two API
 * instances on ONE database (createTestApps), the built-in test provider with its worker off,
 * and a "network" between them. The provider's webhook sender hands every webhook to the
 * network instead of the API; the test decides when, how often, to which instance and in which
 * order they arrive, and posts them through the real webhook route, signed as the provider
 * signs them. Everything runs on an injected clock: nothing waits on wall-clock time.
 */

/** The clock of the chaos runs: early in a month, so a thousand runs stay inside it. */
export const CHAOS_START = new Date('2026-06-01T08:00:00.000Z');

/** The demo catalogue's 1 GB data package (39 kr.). */
export const CHAOS_PACKAGE = { id: 'data-1', dataMb: 1024, priceOere: 3_900 } as const;
/** The plan of each run's postpaid line (149 kr. a month). */
const POSTPAID_PLAN = { id: 'individual-5', dataMb: 5 * 1024 } as const;

/** One webhook as the provider sent it (its body is what the provider signs). */
export interface SentWebhook {
  body: string;
  eventId: string;
  providerPaymentId: string;
  type: string;
}

export interface ChaosWorld {
  apps: readonly [FastifyInstance, FastifyInstance];
  clock: ReturnType<typeof testClock>;
  /** Every webhook the provider sent, by event id (the provider sends each event once here). */
  network: Map<string, SentWebhook>;
  close(): Promise<void>;
}

export async function createChaosWorld(): Promise<ChaosWorld> {
  const clock = testClock(CHAOS_START.toISOString());
  const network = new Map<string, SentWebhook>();
  const t: TestApps = await createTestApps(
    2,
    {
      PAYMENT_WEBHOOK_SECRET: WEBHOOK_SECRET,
      // The test runs reconciliation rounds itself (direct calls), never on a timer.
      PAYMENT_RECONCILE_INTERVAL_S: '0',
      APP_URL: 'https://minsida.alda.test',
      // Thousands of requests from one address in seconds; the per-address limit is not under test.
      RATE_LIMIT_MAX: '0',
    },
    {
      now: clock.now,
      payments: {
        testProviderIntervalMs: 0,
        // The provider's sender: the webhook goes into the network (the provider counts it as
        // sent); the run delivers it later — or several times, or never.
        deliverWebhook: async (request) => {
          const event = testProviderEventSchema.parse(JSON.parse(request.body));
          network.set(event.id, {
            body: request.body,
            eventId: event.id,
            providerPaymentId: event.providerPaymentId,
            type: event.type,
          });
          return { status: 200 };
        },
      },
    },
  );
  const [a, b] = t.apps;
  if (!a || !b) throw new Error('two apps expected');
  await seedDemoData(a.db, CHAOS_START);
  return { apps: [a, b], clock, network, close: () => t.close() };
}

const tokens = createAccessTokens(TEST_JWT_SECRET, 30 * 24 * 3600);

/** A customer of one run, with a postpaid and a prepaid number and a card on file. */
export interface ChaosCustomer {
  userId: string;
  headers: { authorization: string };
  postpaidLineId: string;
  postpaidMsisdn: string;
  prepaidLineId: string;
  prepaidMsisdn: string;
  /** Domestic data of the postpaid line before the run. */
  domesticBefore: number;
}

/**
 * A fresh customer for one run, written straight to the database (setting up customers is not
 * under test): an individual plan with one number in service, a prepaid number with no credit,
 * an active payment agreement whose card the provider knows with the given behaviour, and a
 * session with a signed access token.
 */
export async function newChaosCustomer(
  world: ChaosWorld,
  n: number,
  agreementCard: CardBehaviour,
): Promise<ChaosCustomer> {
  const db = world.apps[0].db;
  const now = world.clock.now();
  const [user] = await db
    .insert(users)
    .values({
      firstname: 'Kaos',
      lastname: `Roynd${n}`,
      email: `kaos-${n}-${randomUUID()}@example.fo`,
      address: 'Niels Finsens gøta 7',
      postCode: '100',
      city: 'Tórshavn',
      createdAt: now,
    })
    .returning();
  if (!user) throw new Error('no user');
  const [postpaidAccount, prepaidAccount] = await db
    .insert(accounts)
    .values([
      {
        ownerUserId: user.id,
        type: 'individual_plan',
        planId: POSTPAID_PLAN.id,
        status: 'active',
        createdAt: now,
      },
      {
        ownerUserId: user.id,
        type: 'prepaid',
        planId: 'prepaid-talutid',
        status: 'active',
        createdAt: now,
      },
    ])
    .returning();
  if (!postpaidAccount || !prepaidAccount) throw new Error('no accounts');
  // In service since before this month: the month is charged for it (first-charge rule).
  const since = new Date(now.getTime() - 60 * 24 * 3600 * 1000);
  const suffix = String(n % 100_000).padStart(5, '0');
  const postpaidMsisdn = `3${suffix}`;
  const prepaidMsisdn = `4${suffix}`;
  const [postpaid, prepaid] = await db
    .insert(phoneLines)
    .values([
      {
        msisdn: postpaidMsisdn,
        userId: user.id,
        status: 'active',
        accountId: postpaidAccount.id,
        planId: POSTPAID_PLAN.id,
        simType: 'esim',
        createdAt: since,
        activatedAt: since,
      },
      {
        msisdn: prepaidMsisdn,
        userId: user.id,
        status: 'active',
        accountId: prepaidAccount.id,
        planId: 'prepaid-talutid',
        simType: 'esim',
        isPrepaid: true,
        createdAt: since,
        activatedAt: since,
      },
    ])
    .returning();
  if (!postpaid || !prepaid) throw new Error('no lines');
  await db.insert(lineBalances).values({
    lineId: postpaid.id,
    periodStart: startOfMonth(now),
    domesticTotalMb: POSTPAID_PLAN.dataMb,
    domesticRemainingMb: POSTPAID_PLAN.dataMb,
    updatedAt: now,
  });
  await db.insert(prepaidBalances).values({ lineId: prepaid.id, balanceOere: 0, updatedAt: now });
  // The provider's stored card behind the agreement (its own store, as the demo seed does it).
  const cardId = `card_chaos_${randomUUID().replaceAll('-', '')}`;
  await db.insert(testProviderCards).values({
    id: cardId,
    brand: 'Visa',
    last4: TEST_CARDS[agreementCard].slice(-4),
    expiry: '12/30',
    behaviour: agreementCard,
  });
  await db.insert(paymentAgreements).values({
    userId: user.id,
    status: 'active',
    cardBrand: 'Visa',
    cardLast4: TEST_CARDS[agreementCard].slice(-4),
    cardExpiry: '12/30',
    providerReference: cardId,
    createdAt: now,
    updatedAt: now,
  });
  const [session] = await db
    .insert(sessions)
    .values({ userId: user.id, createdAt: now, lastUsedAt: now })
    .returning();
  if (!session) throw new Error('no session');
  const token = await tokens.sign({ sub: user.id, sid: session.id }, now);
  return {
    userId: user.id,
    headers: { authorization: `Bearer ${token}` },
    postpaidLineId: postpaid.id,
    postpaidMsisdn,
    prepaidLineId: prepaid.id,
    prepaidMsisdn,
    domesticBefore: POSTPAID_PLAN.dataMb,
  };
}

/** Posts a webhook body to the real route of `app`, signed at `at` as the provider signs. */
export function postSignedWebhook(
  app: FastifyInstance,
  body: string,
  at: Date,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: '/api/payments/webhooks/test',
    headers: {
      'content-type': 'application/json',
      'alda-signature': signatureHeader(WEBHOOK_SECRET, at, body),
    },
    payload: body,
  });
}

/** Submits the provider's hosted card page (a browser posting the form). */
export function submitCardPage(
  app: FastifyInstance,
  paymentUrl: string,
  card: CardBehaviour | 'cancel',
): Promise<LightMyRequestResponse> {
  const fields: Record<string, string> =
    card === 'cancel'
      ? { action: 'cancel' }
      : { number: TEST_CARDS[card], expiry: '12/30', cvc: '123', action: 'pay' };
  return app.inject({
    method: 'POST',
    url: new URL(paymentUrl).pathname,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
  });
}

/** Where the provider says a payment ended, in our states (ADR 0050 §1, transition.ts). */
export function ourStateOfView(view: ProviderPaymentView | null): PaymentState | 'unknown' {
  if (!view) return 'unknown';
  switch (view.state) {
    case 'created':
      return 'created';
    case 'pending':
    case 'authorized':
      return 'pending';
    case 'succeeded':
      return 'paid';
    case 'failed':
      return view.failureReason === 'cancelled' || view.failureReason === 'expired'
        ? 'cancelled'
        : 'failed';
  }
}

/** What the database holds for one customer's run, read after the run. */
export async function customerLedger(app: FastifyInstance, customer: ChaosCustomer) {
  const db = app.db;
  const [balance] = await db
    .select()
    .from(lineBalances)
    .where(eq(lineBalances.lineId, customer.postpaidLineId));
  const [credit] = await db
    .select()
    .from(prepaidBalances)
    .where(eq(prepaidBalances.lineId, customer.prepaidLineId));
  const orderRows = await db.select().from(orders).where(eq(orders.userId, customer.userId));
  const paymentRows = await db.select().from(payments).where(eq(payments.userId, customer.userId));
  const paymentIds = paymentRows.map((p) => p.id);
  const receiptRows =
    paymentIds.length === 0
      ? []
      : await db.select().from(receipts).where(inArray(receipts.paymentId, paymentIds));
  const eventRows =
    paymentIds.length === 0
      ? []
      : await db
          .select()
          .from(paymentWebhookEvents)
          .where(inArray(paymentWebhookEvents.paymentId, paymentIds));
  return {
    domesticTotalMb: balance?.domesticTotalMb ?? 0,
    creditOere: credit?.balanceOere ?? 0,
    orders: orderRows,
    payments: paymentRows,
    receipts: receiptRows,
    webhookEvents: eventRows,
    notifications: await db.$count(notifications, eq(notifications.userId, customer.userId)),
    actions: await db.$count(actions, eq(actions.userId, customer.userId)),
    agreements: await db
      .select()
      .from(paymentAgreements)
      .where(eq(paymentAgreements.userId, customer.userId)),
    refunds: await db.$count(paymentRefunds, eq(paymentRefunds.userId, customer.userId)),
  };
}

/** Payments anywhere in the database still open (created or pending). */
export async function openPayments(app: FastifyInstance, userId: string) {
  return app.db
    .select()
    .from(payments)
    .where(and(eq(payments.userId, userId), inArray(payments.state, ['created', 'pending'])));
}
