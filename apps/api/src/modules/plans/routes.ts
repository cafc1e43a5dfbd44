import { serializerCompiler, type FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dataEnvelope } from '@alda/contract/envelope';
import { idParams } from '@alda/contract/schemas/common';
import { planResponse, plansResponse } from '@alda/contract/schemas/plans';
import type { ReferenceMemory } from '../../db/reference-memory';
import { PRIVATE_REVALIDATE, sendKept } from '../../etag';
import { errorResponses } from '../../http';
import { requestLocale } from '../../i18n';
import type { PlanService } from './service';

export const planRoutes: FastifyPluginAsyncZod<{
  service: PlanService;
  reference: ReferenceMemory;
}> = async (app, { service, reference }) => {
  const serialize = serializerCompiler({
    schema: dataEnvelope(plansResponse),
    method: 'GET',
    url: '/api/plans',
  });
  app.get(
    '/api/plans',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['plans'],
        summary: 'Plan types with their plans (SPEC §3 "Plan type", §7)',
        description:
          'Plan types on offer, each with `dataPlanResponses` (its plans on offer), names in the language of Accept-Language. `allPlans` in `@alda/contract/rules/plans` flattens them. Prices are øre with VAT; `memberPrices[0]` is the plan price, later entries the price of each further family member.',
        security: [{ bearerAuth: [] }],
        response: {
          200: dataEnvelope(plansResponse),
          304: z.null().describe('Not modified: the catalogue is as in If-None-Match'),
          ...errorResponses(401),
        },
      },
    },
    async (request, reply) => {
      const locale = requestLocale(request);
      // The catalogue, kept in memory per language until it changes (ADR 0057).
      const kept = await reference.answer(`plans:${locale}`, async () =>
        serialize({ data: await service.list(locale) }),
      );
      return sendKept(request, reply, kept, PRIVATE_REVALIDATE);
    },
  );

  app.get(
    '/api/plans/:id',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['plans'],
        summary: 'One plan by its planId (SPEC §7)',
        description:
          'Also answers for a withdrawn plan a line still has. 404 NOT_FOUND for an unknown id.',
        security: [{ bearerAuth: [] }],
        params: idParams,
        response: { 200: dataEnvelope(planResponse), ...errorResponses(401, 404) },
      },
    },
    async (request) => ({ data: await service.get(request.params.id, requestLocale(request)) }),
  );
};
