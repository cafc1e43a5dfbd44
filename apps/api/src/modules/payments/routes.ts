import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dataEnvelope } from '@alda/contract/envelope';
import { errorResponses } from '../../http';
import { routeRateLimit } from '../../plugins/security';
import type { PaymentService } from './service';

const webhookParams = z.object({ provider: z.string().min(1).max(40) });
const webhookAnswer = z.object({ received: z.literal(true) });

/**
 * `POST /api/payments/webhooks/:provider`: the provider's signed events. The body is kept as the
 * raw bytes (the signature is over them, so it must not be parsed and re-serialised first). It has
 * its own per-address limit, `PAYMENT_WEBHOOK_RATE_LIMIT_PER_MIN`, not the people's 600 a minute:
 * a provider sends bursts from few addresses, far fewer than this, and what goes over it is
 * answered 429 and delivered again later. A forged request costs an HMAC and no database read
 * (the secrets are in memory, ADR 0081); the limit bounds even that per sender.
 */
export const paymentWebhookRoutes: FastifyPluginAsyncZod<{ service: PaymentService }> = async (
  app,
  { service },
) => {
  // Counted also when the people's limit is off (RATE_LIMIT_MAX=0): then the plugin is only here.
  const limit = await routeRateLimit(app, {
    perMinute: app.config.paymentWebhookRateLimitPerMin,
    policy: 'payment_webhook',
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    done(null, body);
  });

  app.post(
    '/api/payments/webhooks/:provider',
    {
      config: limit,
      schema: {
        tags: ['payments'],
        summary: 'Payment provider webhook (signed)',
        description:
          "Events of the payment provider, checked over the raw body. `test`: `Alda-Signature: t=<unix>,v1=<hex HMAC-SHA256(secret, t.rawBody)>`, at most 300 s old. `vipps-mobilepay`: Vipps MobilePay's Webhooks API scheme (`x-ms-date`, `x-ms-content-sha256`, `Authorization: HMAC-SHA256 SignedHeaders=x-ms-date;host;x-ms-content-sha256&Signature=…`, with the secret given when the webhook was registered), at most 7 days and an hour old (their retries keep a request's first date for up to 7 days). From one address at most `PAYMENT_WEBHOOK_RATE_LIMIT_PER_MIN` a minute, else 429. A redelivered event answers 200 and changes nothing; an event for an unknown payment, or whose amount differs from ours, answers 200 and is logged.",
        params: webhookParams,
        response: { 200: dataEnvelope(webhookAnswer), ...errorResponses(400, 404, 415, 429) },
      },
    },
    async (request) => {
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const outcome = await service.handleWebhook(
        request.params.provider,
        raw,
        request.headers,
        request.url,
      );
      request.log.info({ outcome }, 'payment webhook handled');
      return { data: { received: true as const } };
    },
  );
};
