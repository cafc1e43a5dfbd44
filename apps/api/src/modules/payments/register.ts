import type { FastifyInstance } from 'fastify';
import type { PaymentProvider } from '../../adapters/payments/provider';
import {
  createTestProvider,
  type TestProvider,
  type WebhookDelivery,
} from '../../adapters/payments/test-provider/provider';
import { testProviderRoutes } from '../../adapters/payments/test-provider/routes';
import { paymentDevRoutes } from './dev-routes';
import { createVippsMobilePayProvider } from '../../adapters/payments/vipps-mobilepay/provider';
import type { VippsCredentials } from '../../adapters/payments/vipps-mobilepay/client';
import { paymentMethodsRoutes } from './methods-routes';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { fulfilPaidOrder } from './fulfilment';
import { paymentWebhookRoutes } from './routes';
import { createPaymentService, type PaymentService } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    /** The payments core (placePaidOrder, webhooks, reconciliation; ADR 0050). */
    payments: PaymentService;
    /** The built-in test provider when PAYMENT_PROVIDER=test (tests drive its worker). */
    testProvider: TestProvider | null;
  }
}

/** Test seams of the payments core (AppDeps.payments). */
export interface PaymentDeps {
  /** How the test provider sends webhooks (tests deliver through `app.inject`). */
  deliverWebhook?: WebhookDelivery;
  /** Wraps the configured provider (tests make it fail or slow). */
  wrapProvider?: (provider: PaymentProvider) => PaymentProvider;
  /** How a real provider's adapter reaches it (tests: a fetch that counts or fails calls). */
  fetch?: typeof fetch;
  /** A real provider's call timeout in ms (default 10 s; tests shorten it). */
  providerTimeoutMs?: number;
  /**
   * Milliseconds between the test provider's worker rounds (default 1000); 0: no worker, the
   * test drives it with `app.testProvider.tick()`.
   */
  testProviderIntervalMs?: number;
}

/**
 * Card payments: the configured provider (the built-in test provider, its card page and its
 * webhook worker), the payments service as `app.payments` and the webhook route. The
 * reconciliation job (jobs/) is wired beside it in app.ts.
 */
export async function registerPayments(
  app: FastifyInstance,
  options: { config: Config; db: Db; now: () => Date; deps?: PaymentDeps | undefined },
): Promise<PaymentService> {
  const { config, db, now, deps = {} } = options;
  let testProvider: TestProvider | null = null;
  let provider: PaymentProvider;
  switch (config.paymentProvider) {
    case 'test': {
      testProvider = createTestProvider({
        db,
        now,
        log: app.log,
        baseUrl: config.appUrl,
        webhookUrl: config.paymentWebhookUrl,
        webhookSecret: config.paymentWebhookSecret,
        slowDelayMs: config.testProviderSlowDelayMs,
        duplicates: config.testProviderWebhookDuplicates,
        webhookDelayMs: config.testProviderWebhookDelayMs,
        deliver: deps.deliverWebhook,
      });
      provider = testProvider.provider;
      const worker = testProvider;
      await app.register(testProviderRoutes, { provider: worker, db, now });
      await app.register(paymentDevRoutes, { db, testProvider: worker, enabled: config.demoMode });
      if (deps.testProviderIntervalMs !== 0) {
        app.addHook('onReady', async () => {
          worker.start(deps.testProviderIntervalMs);
        });
      }
      app.addHook('preClose', async () => {
        await worker.stop();
      });
      break;
    }
    case 'vipps-mobilepay': {
      const vipps = createVippsMobilePayProvider({
        credentials: vippsCredentials(config),
        db,
        now,
        log: app.log,
        appUrl: config.appUrl,
        fetch: deps.fetch,
        timeoutMs: deps.providerTimeoutMs,
      });
      provider = vipps.provider;
      // Its webhook secrets stay in memory, following every registration (ADR 0081).
      let unlisten: (() => Promise<void>) | undefined;
      app.addHook('onReady', async () => {
        unlisten = await vipps.listenForSecrets(app.database);
      });
      app.addHook('preClose', async () => {
        await unlisten?.();
        unlisten = undefined;
      });
      break;
    }
  }
  if (config.paymentWebhookSecretGenerated && config.paymentProvider === 'test') {
    app.log.warn(
      'PAYMENT_WEBHOOK_SECRET is not set: using a random secret for this process. Webhooks signed by another process will be refused; set PAYMENT_WEBHOOK_SECRET in production.',
    );
  }
  if (config.nodeEnv === 'production' && config.paymentProvider === 'test' && !config.demoMode) {
    app.log.warn('PAYMENT_PROVIDER=test: card payments go to the built-in test provider.');
  }
  if (deps.wrapProvider) provider = deps.wrapProvider(provider);

  const service = createPaymentService({
    db,
    now,
    log: app.log,
    provider,
    appUrl: config.appUrl,
    fulfil: fulfilPaidOrder,
  });
  app.decorate('payments', service);
  app.decorate('testProvider', testProvider);
  await app.register(paymentWebhookRoutes, { service });
  await app.register(paymentMethodsRoutes, { provider });
  return service;
}

/** The Vipps MobilePay settings; config.ts refuses to start without any of them. */
export function vippsCredentials(config: Config): VippsCredentials {
  const {
    vippsMobilepayApiUrl: apiUrl,
    vippsMobilepayClientId: clientId,
    vippsMobilepayClientSecret: clientSecret,
    vippsMobilepaySubscriptionKey: subscriptionKey,
    vippsMobilepayMsn: msn,
  } = config;
  if (!apiUrl || !clientId || !clientSecret || !subscriptionKey || !msn) {
    throw new Error('PAYMENT_PROVIDER=vipps-mobilepay without its VIPPS_MOBILEPAY_* settings');
  }
  return { apiUrl, clientId, clientSecret, subscriptionKey, msn };
}
