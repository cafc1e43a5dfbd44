import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataEnvelope } from '@alda/contract/envelope';
import { actionsResponse } from '@alda/contract/schemas/actions';
import { errorResponses } from '../../http';
import { requestLocale } from '../../i18n';
import { requireUser } from '../../plugins/auth';
import type { ActionService } from './service';

export const actionRoutes: FastifyPluginAsyncZod<{ service: ActionService }> = async (
  app,
  { service },
) => {
  app.get(
    '/api/actions',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['actions'],
        summary: 'The activity log (SPEC §1, §7)',
        description:
          "The caller's newest 100 entries, newest first: a sentence in the language of Accept-Language plus the number, the actor (when someone else, e.g. the family owner, did it), data amount (MB) and amount (øre with VAT).",
        security: [{ bearerAuth: [] }],
        response: { 200: dataEnvelope(actionsResponse), ...errorResponses(401) },
      },
    },
    async (request) => ({
      data: await service.list(requireUser(request).id, requestLocale(request)),
    }),
  );
};
