import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { createVippsMobilePayProvider } from '../../adapters/payments/vipps-mobilepay/provider';
import { OperatorError } from '../operator/service';
import { recordAudit } from '../operator/audit';
import { vippsCredentials } from './register';

/*
 * `npm run operator -- payments webhooks register|list` (issue 42 §2): the provider's webhooks
 * registered through its Webhooks API. Vipps MobilePay answers a secret when a webhook is
 * registered; it is kept in payment_webhook_registrations, where every instance reads it, and
 * never printed.
 */
export function createPaymentCommands(deps: {
  config: Config;
  db: Db;
  now: () => Date;
  log: FastifyBaseLogger;
  fetch?: typeof fetch;
}) {
  const { config, db, now } = deps;
  const vipps = () => {
    if (config.paymentProvider !== 'vipps-mobilepay') {
      throw new OperatorError(
        `PAYMENT_PROVIDER=${config.paymentProvider} has no webhooks to register: the test provider is told its address by PAYMENT_WEBHOOK_URL. Set PAYMENT_PROVIDER=vipps-mobilepay and its VIPPS_MOBILEPAY_* settings.`,
      );
    }
    return createVippsMobilePayProvider({
      credentials: vippsCredentials(config),
      db,
      now,
      log: deps.log,
      appUrl: config.appUrl,
      fetch: deps.fetch,
    });
  };

  return {
    async register(operator: string): Promise<string> {
      const registered = await vipps().registerWebhook(config.paymentWebhookUrl);
      await recordAudit(db, {
        actor: operator,
        staffUserId: null,
        kind: 'change',
        action: 'payments.webhook.register',
        targetType: 'payment_webhook',
        targetId: registered.id,
        reason: 'npm run operator -- payments webhooks register',
        details: { url: registered.url, events: registered.events },
        at: now(),
      });
      return [
        `Webhook registered with Vipps MobilePay: ${registered.id}`,
        `URL:    ${registered.url}`,
        `Events: ${registered.events.join(', ')}`,
        'Its secret is kept in the database (payment_webhook_registrations); every instance checks signatures with it.',
        '',
      ].join('\n');
    },

    async list(): Promise<string> {
      const hooks = await vipps().listWebhooks();
      if (hooks.length === 0) {
        return 'No webhooks are registered with Vipps MobilePay. Register ours: payments webhooks register\n';
      }
      return `${hooks
        .map(
          (hook) =>
            `${hook.id}  ${hook.url}  ${hook.secretKept ? 'secret kept' : 'no secret here (registered elsewhere)'}\n  ${hook.events.join(', ')}`,
        )
        .join('\n')}\n`;
    },
  };
}

export type PaymentCommands = ReturnType<typeof createPaymentCommands>;
