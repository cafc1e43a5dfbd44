import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dataEnvelope } from '@alda/contract/envelope';
import { contentResponse, contentSlug } from '@alda/contract/schemas/content';
import { errorResponses } from '../../http';
import { requestLocale } from '../../i18n';
import type { ContentService } from './service';

export const contentRoutes: FastifyPluginAsyncZod<{ service: ContentService }> = async (
  app,
  { service },
) => {
  app.get(
    '/api/content/:slug',
    {
      schema: {
        tags: ['content'],
        summary: 'Terms or privacy text as markdown',
        description: 'In the language of Accept-Language (Faroese by default).',
        params: z.object({ slug: contentSlug }),
        response: { 200: dataEnvelope(contentResponse), ...errorResponses(400, 404) },
      },
    },
    async (request) => ({ data: await service.get(request.params.slug, requestLocale(request)) }),
  );
};
