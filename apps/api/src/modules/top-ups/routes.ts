import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataEnvelope } from '@alda/contract/envelope';
import { orderPlacedResponse } from '@alda/contract/schemas/orders';
import { topUpOptionsResponse, topUpRequest } from '@alda/contract/schemas/top-ups';
import { errorResponses } from '../../http';
import { purchaseOf } from '../orders/placing';
import type { TopUpService } from './service';

export const topUpRoutes: FastifyPluginAsyncZod<{ service: TopUpService }> = async (
  app,
  { service },
) => {
  app.get(
    '/api/top-ups/options',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['top-ups'],
        summary: 'Top-up amounts on offer (SPEC §1 top up)',
        description:
          'Suggested amounts and the range a prepaid number can be topped up by, øre with VAT. Any whole-kroner amount within the range is accepted.',
        security: [{ bearerAuth: [] }],
        response: { 200: dataEnvelope(topUpOptionsResponse), ...errorResponses(401) },
      },
    },
    async () => ({ data: service.options() }),
  );

  app.post(
    '/api/top-ups',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['top-ups'],
        summary: 'Top up a prepaid number (SPEC §1, §8 top-up errors)',
        description:
          "Tops up one of the caller's own prepaid (talutíð) numbers. Send an `Idempotency-Key` header (400 IDEMPOTENCY_KEY_REQUIRED without; 422 IDEMPOTENCY_KEY_REUSED with another body). 404 NUMBER_NOT_FOUND for a number that is not the caller's own; 422 TOP_UP_NOT_PREPAID for a number with a monthly plan; 422 TOP_UP_AMOUNT_INVALID outside the range or not whole kroner; 409 AGREEMENT_REQUIRED; 503 PAYMENT_PROVIDER_UNAVAILABLE. The credit is added once the payment is paid.",
        security: [{ bearerAuth: [] }],
        body: topUpRequest,
        response: {
          201: dataEnvelope(orderPlacedResponse),
          ...errorResponses(400, 401, 404, 409, 422, 503),
        },
      },
    },
    async (request, reply) => {
      const placed = await service.topUp(purchaseOf(request, 'POST /api/top-ups'), request.body);
      return reply.code(201).send({ data: placed });
    },
  );
};
