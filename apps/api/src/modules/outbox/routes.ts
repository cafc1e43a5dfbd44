import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataEnvelope } from '@alda/contract/envelope';
import { outboxList, outboxQuery } from '@alda/contract/schemas/dev-outbox';
import { sendRouteNotFound } from '../../plugins/error-handler';
import { renderOutboxPage } from './page';
import type { OutboxService } from './service';

/**
 * Development pages over the outbox adapters' messages. They exist only in demo mode
 * (DEMO_MODE=true); otherwise they answer 404 like any unknown path. Hidden from OpenAPI: not
 * part of the customer API.
 */
export const outboxRoutes: FastifyPluginAsyncZod<{
  service: OutboxService;
  enabled: boolean;
}> = async (app, { service, enabled }) => {
  app.get(
    '/dev/outbox.json',
    {
      schema: { hide: true, querystring: outboxQuery, response: { 200: dataEnvelope(outboxList) } },
    },
    async (request, reply) => {
      if (!enabled) return sendRouteNotFound(request, reply);
      reply.header('cache-control', 'no-store');
      return { data: await service.list(request.query.to) };
    },
  );

  app.get(
    '/dev/outbox',
    { schema: { hide: true, querystring: outboxQuery } },
    async (request, reply) => {
      if (!enabled) return sendRouteNotFound(request, reply);
      const messages = await service.list(request.query.to);
      return reply
        .header('cache-control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(renderOutboxPage(messages, request.query.to));
    },
  );
};
