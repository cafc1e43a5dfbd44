import { createHash, randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { OrderPlacedResponse } from '@alda/contract/schemas/orders';
import type { PaymentProvider } from '../src/adapters/payments/provider';
import { signatureHeader } from '../src/adapters/payments/signature';
import type {
  WebhookDelivery,
  WebhookRequest,
} from '../src/adapters/payments/test-provider/provider';
import { lineBalances } from '../src/db/schema/balances';
import { orders } from '../src/db/schema/orders';
import { paymentWebhookEvents, payments, receipts } from '../src/db/schema/payments';
import { testProviderWebhooks } from '../src/db/schema/test-provider';
import { seedDemoData } from '../src/seed/seed';
import type { PlacePaidOrderInput } from '../src/modules/payments/service';
import { LINES, NOW, signIn } from './demo-accounts';
import { createTestApp, demoUser, testClock, type LogCapture, type TestApp } from './helper';

/** The webhook secret of the payment tests (the provider signs with it, the API verifies). */
export const WEBHOOK_SECRET = 'payments-test-webhook-secret-0123456789abcdef';

export const JOANNES = demoUser('Jóannes').id;
/** The demo catalogue's 1 GB data package (39 kr.). */
export const PACKAGE = { id: 'data-1', dataMb: 1024, priceOere: 3_900 } as const;

export const CARDS = {
  succeed: '4242 4242 4242 4242',
  decline: '4000 0000 0000 0002',
  slow: '4000 0000 0000 3063',
} as const;

/**
 * Controls the test provider's webhook delivery: through `app.inject` (no listening server), or
 * "down" (the API unreachable: every attempt fails like a refused connection).
 */
export interface DeliveryControl {
  down: boolean;
  sent: WebhookRequest[];
}

export interface PaymentsTestApp extends TestApp {
  clock: ReturnType<typeof testClock>;
  delivery: DeliveryControl;
  auth: { authorization: string };
}

export function injectDelivery(
  app: () => FastifyInstance,
  control: DeliveryControl,
): WebhookDelivery {
  return async (request) => {
    control.sent.push(request);
    if (control.down) throw new Error('connect ECONNREFUSED (API down)');
    const res = await app().inject({
      method: 'POST',
      url: new URL(request.url).pathname,
      headers: request.headers,
      payload: request.body,
    });
    return { status: res.statusCode };
  };
}

/**
 * The demo on a pinned clock, with the test provider's worker off (tests run its rounds with
 * `app.testProvider.tick()`) and its webhooks delivered through `inject`.
 */
export async function createPaymentsApp(
  env: Record<string, string> = {},
  options: {
    wrapProvider?: (provider: PaymentProvider) => PaymentProvider;
    logStream?: LogCapture;
  } = {},
): Promise<PaymentsTestApp> {
  const clock = testClock(NOW.toISOString());
  const delivery: DeliveryControl = { down: false, sent: [] };
  const built: { app?: FastifyInstance } = {};
  const t = await createTestApp(
    {
      PAYMENT_WEBHOOK_SECRET: WEBHOOK_SECRET,
      PAYMENT_RECONCILE_INTERVAL_S: '0',
      APP_URL: 'https://minsida.alda.test',
      ...env,
    },
    {
      now: clock.now,
      ...(options.logStream ? { logStream: options.logStream } : {}),
      payments: {
        deliverWebhook: injectDelivery(() => {
          if (!built.app) throw new Error('app not built');
          return built.app;
        }, delivery),
        testProviderIntervalMs: 0,
        ...(options.wrapProvider ? { wrapProvider: options.wrapProvider } : {}),
      },
    },
  );
  built.app = t.app;
  await seedDemoData(t.app.db, NOW);
  const auth = await signIn(t.app, 'Jóannes');
  return { ...t, clock, delivery, auth };
}

export const hashOf = (value: unknown) =>
  createHash('sha256').update(JSON.stringify(value)).digest('hex');

/** A purchase of the 1 GB package on Jóannes's line, as the packages route places it. */
export function packagePurchase(overrides: Partial<PlacePaidOrderInput> = {}): PlacePaidOrderInput {
  const key = overrides.idempotencyKey ?? randomUUID();
  return {
    userId: JOANNES,
    idempotencyKey: key,
    requestHash: hashOf({ packageId: PACKAGE.id, phoneNumber: '214455', payWith: 'card' }),
    method: 'card',
    order: {
      kind: 'extra_package',
      priceOere: PACKAGE.priceOere,
      lineId: LINES.joannes,
      msisdn: '214455',
      packageId: PACKAGE.id,
    },
    description: 'Alda: 1 GB eykapakki',
    ...overrides,
  };
}

/** The provider payment id in a card page URL. */
export function checkoutIdOf(placed: OrderPlacedResponse): string {
  const url = placed.paymentUrl;
  if (!url) throw new Error('no paymentUrl');
  const id = new URL(url).pathname.split('/').pop();
  if (!id) throw new Error(`no id in ${url}`);
  return id;
}

/** Submits the hosted card page as a browser would (urlencoded form). */
export function submitCard(
  app: FastifyInstance,
  placed: OrderPlacedResponse,
  card: string | 'cancel',
  extra: Record<string, string> = {},
) {
  const fields: Record<string, string> =
    card === 'cancel'
      ? { action: 'cancel' }
      : { number: card, expiry: '12/30', cvc: '123', action: 'pay' };
  return app.inject({
    method: 'POST',
    url: `/test-provider/checkout/${checkoutIdOf(placed)}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ ...fields, ...extra }).toString(),
  });
}

/** The line's domestic data total (grows by a package's MB on each fulfilment). */
export async function domesticTotal(app: FastifyInstance, lineId: string = LINES.joannes) {
  const [row] = await app.db.select().from(lineBalances).where(eq(lineBalances.lineId, lineId));
  return row?.domesticTotalMb ?? 0;
}

export async function paymentOfOrder(app: FastifyInstance, orderId: string) {
  const [row] = await app.db.select().from(payments).where(eq(payments.orderId, orderId));
  if (!row) throw new Error(`no payment for order ${orderId}`);
  return row;
}

export async function orderRow(app: FastifyInstance, orderId: string) {
  const [row] = await app.db.select().from(orders).where(eq(orders.id, orderId));
  if (!row) throw new Error(`no order ${orderId}`);
  return row;
}

export async function receiptsOf(app: FastifyInstance, paymentId: string) {
  return app.db.select().from(receipts).where(eq(receipts.paymentId, paymentId));
}

export async function eventsOf(app: FastifyInstance, paymentId: string) {
  return app.db
    .select()
    .from(paymentWebhookEvents)
    .where(and(eq(paymentWebhookEvents.paymentId, paymentId)));
}

/** Webhook bodies the provider queued for one of its payments, in queue order. */
export async function queuedEvents(app: FastifyInstance, providerPaymentId: string) {
  const rows = await app.db
    .select()
    .from(testProviderWebhooks)
    .where(eq(testProviderWebhooks.paymentId, providerPaymentId));
  return rows.sort((a, b) => (a.id < b.id ? -1 : 1)).map((row) => row.body);
}

/** Posts a webhook body signed at `at` (default: the app's clock). */
export function postWebhook(
  t: PaymentsTestApp,
  body: string,
  options: { at?: Date; secret?: string; signedBody?: string; provider?: string } = {},
) {
  const at = options.at ?? t.clock.now();
  return t.app.inject({
    method: 'POST',
    url: `/api/payments/webhooks/${options.provider ?? 'test'}`,
    headers: {
      'content-type': 'application/json',
      'alda-signature': signatureHeader(
        options.secret ?? WEBHOOK_SECRET,
        at,
        options.signedBody ?? body,
      ),
    },
    payload: body,
  });
}
