import { serializerCompiler, type FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dataEnvelope } from '@alda/contract/envelope';
import { contentResponse, contentSlug } from '@alda/contract/schemas/content';
import type { ReferenceMemory } from '../../db/reference-memory';
import { SHARED_REVALIDATE, sendKept } from '../../etag';
import { errorResponses } from '../../http';
import { requestLocale } from '../../i18n';
import type { ContentService } from './service';

export const contentRoutes: FastifyPluginAsyncZod<{
  service: ContentService;
  reference: ReferenceMemory;
}> = async (app, { service, reference }) => {
  const serialize = serializerCompiler({
    schema: dataEnvelope(contentResponse),
    method: 'GET',
    url: '/api/content/:slug',
  });
  app.get(
    '/api/content/:slug',
    {
      schema: {
        tags: ['content'],
        summary: 'Terms or privacy text as markdown',
        description:
          'In the language of Accept-Language (Faroese by default). With an ETag: send it back in If-None-Match and the answer is 304 while the text is unchanged.',
        params: z.object({ slug: contentSlug }),
        response: {
          200: dataEnvelope(contentResponse),
          304: z.null().describe('Not modified: the text is as in If-None-Match'),
          ...errorResponses(400, 404),
        },
      },
    },
    async (request, reply) => {
      const { slug } = request.params;
      const locale = requestLocale(request);
      // Kept in memory until the page changes (ADR 0057); a device revalidates with its ETag.
      const kept = await reference.answer(`content:${slug}:${locale}`, async () =>
        serialize({ data: await service.get(slug, locale) }),
      );
      return sendKept(request, reply, kept, SHARED_REVALIDATE);
    },
  );
};
