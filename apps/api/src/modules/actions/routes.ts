import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actionsPageResponse, actionsQuery } from '@alda/contract/schemas/actions';
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
          'Paged by `page` (from 0) and `perPage` (default 20, at most 100); without `page` the newest 100 entries as before. `meta` beside `data` has page, perPage, total and hasMore. Each entry: a sentence in the language of Accept-Language plus the number, the actor (when someone else, e.g. the family owner, did it), data amount (MB) and amount (øre with VAT).',
        security: [{ bearerAuth: [] }],
        querystring: actionsQuery,
        response: { 200: actionsPageResponse, ...errorResponses(400, 401) },
      },
    },
    async (request) => service.page(requireUser(request).id, request.query, requestLocale(request)),
  );
};
