import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../../errors';
import { errorResponses } from '../../../http';
import { TMF641_LISTENER_BASE } from '../../../log-privacy';
import type { Tmf641Adapter } from './adapter';
import { constantTimeMatch, segmentGuard } from './callback';
import { eventTimeOf, serviceOrderEventIn } from './wire';

/*
 * Our TMF641 listener (docs/decisions/0082-network-tmf641.md "Asynchronous completion", "Events
 * an OSS can send"): the OSS POSTs its ServiceOrderStateChangeEvent and
 * ServiceOrderAttributeValueChangeEvent to the callback registered at its hub, under TMF's
 * listener paths. Two ways in, both checked in constant time before the body is read:
 *
 * - `<callback>/listener/…`, the callback carrying the secret segment of TMF641_LISTENER_SECRET
 *   (callback.ts): what an OSS sends with no header of ours. A wrong segment is 404, as for a
 *   path that does not exist. The request's log line shows the segment masked, as every URL
 *   that holds it (log-privacy.ts, `serializeRequest`).
 * - `/tmf-api/listener/serviceOrdering/v4/listener/…` with `Authorization: Bearer
 *   <TMF641_LISTENER_SECRET>`, for an OSS that can send a header (401 otherwise).
 *
 * A well-formed event is answered 201 with an `EventSubscription` (the document's listener
 * answer) whatever it changed: a repeated or late one changes nothing, one for an order we do
 * not know is logged (another system's order, or one of ours whose caller rolled back).
 */

const EVENTS = {
  serviceOrderStateChangeEvent: 'ServiceOrderStateChangeEvent',
  serviceOrderAttributeValueChangeEvent: 'ServiceOrderAttributeValueChangeEvent',
} as const;

const BEARER = /^Bearer\s+(\S+)\s*$/i;

function secretGuard(secret: string) {
  const matches = constantTimeMatch(secret);
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const presented = BEARER.exec(request.headers.authorization ?? '')?.[1];
    if (!presented || !matches(presented)) {
      reply.header('www-authenticate', 'Bearer realm="alda-tmf641-listener"');
      throw new AppError('UNAUTHORIZED', { detail: 'bad or missing TMF641 listener secret' });
    }
  };
}

/** The callback's secret segment, checked before the body is read: 404 when it is not ours. */
function segmentCheck(secret: string) {
  const matches = segmentGuard(secret);
  return async (request: FastifyRequest<{ Params: { callbackSecret: string } }>) => {
    if (!matches(request.params.callbackSecret))
      throw new AppError('ROUTE_NOT_FOUND', { detail: 'not the TMF641 callback' });
  };
}

/** The listener's answer: the document's `EventSubscription` (`id`, `callback`). */
const received = z
  .object({
    id: z.string().describe("The event's `eventId`, or one given here when it had none"),
    callback: z.string().describe('The listener (its path, without the secret segment)'),
  })
  .describe('Notified (TMF641 EventSubscription)');

const DESCRIPTION = `Body \`{eventId, eventTime, eventType, event: {serviceOrder}}\` (TMF641 Service Ordering v4.1.0); \`event.serviceOrder.id\` is required, \`eventTime\` is optional (RFC 3339; an offset without a colon such as \`+0000\` is taken; missing, \`timeOcurred\` or the time received counts), 400 VALIDATION_FAILED otherwise. The order is found by its \`externalId\` (our key), else by its \`id\`. Forward only: an event older than the newest one applied, a repeat, or one for an order already completed or failed changes nothing; a state outside ServiceOrderStateType is kept and logged, the order still open; an order we do not know is logged. 201 with an EventSubscription for every well-formed event. See docs/decisions/0082-network-tmf641.md.`;

export const tmf641ListenerRoutes: FastifyPluginAsyncZod<{
  adapter: Tmf641Adapter;
  /** TMF641_LISTENER_SECRET. */
  secret: string;
}> = async (app, { adapter, secret }) => {
  const ways = [
    {
      route: (path: string) => `${TMF641_LISTENER_BASE}/:callbackSecret/listener/${path}`,
      onRequest: segmentCheck(secret),
      how: 'to the callback registered with the hub, whose secret path segment (derived from TMF641_LISTENER_SECRET) is the authentication: no header needed; a wrong segment is 404 ROUTE_NOT_FOUND.',
      errors: errorResponses(400, 404),
      security: [],
    },
    {
      route: (path: string) => `${TMF641_LISTENER_BASE}/listener/${path}`,
      onRequest: secretGuard(secret),
      how: 'with `Authorization: Bearer <TMF641_LISTENER_SECRET>` (401 otherwise), for an OSS that can send a header.',
      errors: errorResponses(400, 401),
      security: [{ bearerAuth: [] }],
    },
  ];
  for (const way of ways)
    for (const [path, eventType] of Object.entries(EVENTS)) {
      app.post(
        way.route(path),
        {
          onRequest: way.onRequest as (
            request: FastifyRequest,
            reply: FastifyReply,
          ) => Promise<void>,
          // The OSS sends bursts from few addresses; the secret is what keeps others out.
          config: { rateLimit: false },
          schema: {
            tags: ['network (TMF641)'],
            summary: `TMF641 ${eventType} from the OSS (not for the app)`,
            description: `The OSS's ${eventType} for a service order the network adapter placed, ${way.how} ${DESCRIPTION}`,
            security: way.security,
            body: serviceOrderEventIn,
            response: { 201: received, ...way.errors },
          },
        },
        async (request, reply) => {
          const order = request.body.event.serviceOrder;
          const eventTime = eventTimeOf(request.body, adapter.now());
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
          return reply
            .status(201)
            .send({ id: request.body.eventId ?? randomUUID(), callback: TMF641_LISTENER_BASE });
        },
      );
    }
};
