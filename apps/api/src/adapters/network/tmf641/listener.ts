import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../../errors';
import { errorResponses } from '../../../http';
import type { Tmf641Adapter } from './adapter';
import { serviceOrderEventIn } from './wire';

/*
 * Our TMF641 listener (docs/decisions/0082-network-tmf641.md "Asynchronous completion"): the OSS
 * POSTs its ServiceOrderStateChangeEvent and ServiceOrderAttributeValueChangeEvent to the
 * callback registered at its hub, under TMF's listener paths. Authenticated with the shared
 * secret as a bearer token (compared in constant time; 401 otherwise). A well-formed event is
 * answered 204 whatever it changed: a repeated or late one changes nothing, one for an order we
 * do not know is logged (another system's order, or one of ours whose caller rolled back).
 */

/** Where the OSS is told to send events (the hub's `callback`), below the public address. */
export const LISTENER_BASE = '/tmf-api/listener/serviceOrdering/v4';

const EVENTS = {
  serviceOrderStateChangeEvent: 'ServiceOrderStateChangeEvent',
  serviceOrderAttributeValueChangeEvent: 'ServiceOrderAttributeValueChangeEvent',
} as const;

const BEARER = /^Bearer\s+(\S+)\s*$/i;
const digest = (value: string) => createHash('sha256').update(value).digest();

function secretGuard(secret: string) {
  const expected = digest(secret);
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const presented = BEARER.exec(request.headers.authorization ?? '')?.[1];
    if (!presented || !timingSafeEqual(digest(presented), expected)) {
      reply.header('www-authenticate', 'Bearer realm="alda-tmf641-listener"');
      throw new AppError('UNAUTHORIZED', { detail: 'bad or missing TMF641 listener secret' });
    }
  };
}

export const tmf641ListenerRoutes: FastifyPluginAsyncZod<{
  adapter: Tmf641Adapter;
  /** TMF641_LISTENER_SECRET. */
  secret: string;
}> = async (app, { adapter, secret }) => {
  for (const [path, eventType] of Object.entries(EVENTS)) {
    app.post(
      `${LISTENER_BASE}/listener/${path}`,
      {
        onRequest: secretGuard(secret),
        // The OSS sends bursts from few addresses; the secret is what keeps others out.
        config: { rateLimit: false },
        schema: {
          tags: ['network (TMF641)'],
          summary: `TMF641 ${eventType} from the OSS (not for the app)`,
          description: `The OSS's ${eventType} for a service order the network adapter placed (TMF641 Service Ordering v4.1.0), with \`Authorization: Bearer <TMF641_LISTENER_SECRET>\` (401 otherwise). Body \`{eventId, eventTime, eventType, event: {serviceOrder}}\`; \`eventTime\` (date-time) and \`event.serviceOrder.id\` are required (400 VALIDATION_FAILED otherwise). The order is found by its \`externalId\` (our key), else by its \`id\`. Forward only: an event older than the newest one applied, a repeat, or one for an order already completed or failed changes nothing; an order we do not know is logged. Always 204 for a well-formed event. See docs/decisions/0082-network-tmf641.md.`,
          security: [{ bearerAuth: [] }],
          body: serviceOrderEventIn,
          response: { 204: z.undefined().describe('Received'), ...errorResponses(400, 401) },
        },
      },
      async (request, reply) => {
        const order = request.body.event.serviceOrder;
        const eventTime = new Date(request.body.eventTime);
        // Calls of this process waiting on the order first: on PGlite they hold the only
        // connection, and record the event in their own transaction.
        const delivered = adapter.deliver(order, eventTime);
        const { outcome, row } = await adapter.receive(order, eventTime);
        const fields = {
          eventType: request.body.eventType ?? eventType,
          eventId: request.body.eventId,
          tmfId: order.id,
          key: row?.externalId ?? order.externalId,
          state: order.state,
          outcome,
          delivered,
        };
        if (outcome === 'unknown' || outcome === 'ambiguous')
          request.log.warn(fields, 'tmf641: event for a service order we do not know');
        else request.log.info(fields, 'tmf641: event received');
        return reply.status(204).send();
      },
    );
  }
};
