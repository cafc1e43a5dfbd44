import type { FastifyError, FastifyPluginAsync, FastifyReply } from 'fastify';
import { z } from 'zod';
import { TMF641_DEMO_STATES } from '../../../db/schema/tmf641-demo';
import { DATABASE_RETRY_AFTER_S, databaseUnavailableReason } from '../../../db/errors';
import { AppError } from '../../../errors';
import type { Tmf641DemoServer } from './server';
import { Tmf641DemoError, type TmfError } from './wire';

/*
 * The demo TMF641 server's routes (demo mode only; registered under /tmf-api/serviceOrdering/v4):
 *
 *   POST   /serviceOrder        201 ServiceOrder (acknowledged; the same externalId answers the
 *                               order there is) · 400 · 401 · 409
 *   GET    /serviceOrder        200 ServiceOrder[] (?externalId=, ?state=, ?offset=, ?limit=;
 *                               X-Total-Count, X-Result-Count)
 *   GET    /serviceOrder/{id}   200 ServiceOrder · 404
 *   POST   /hub                 201 EventSubscription · 400
 *   DELETE /hub/{id}            204 · 404
 *
 * An encapsulated plugin with its own error and not-found handlers: every failure here is a
 * TMF630 `Error` (`code`, `reason`, `message`, `status`), never the self-care API's envelope.
 * Hidden from the API's OpenAPI document; the TMF641 document is the reference.
 */

const JSON_TYPE = 'application/json;charset=utf-8';
const hide = { schema: { hide: true } };

/** What Fastify and its plugins refuse before a route runs, by status. */
const STATUS_CODES: Record<number, [code: string, reason: string]> = {
  400: ['BAD_REQUEST', 'The request body is not valid JSON'],
  404: ['NOT_FOUND', 'No such resource'],
  405: ['METHOD_NOT_ALLOWED', 'Method not allowed'],
  413: ['PAYLOAD_TOO_LARGE', 'The request body is too large'],
  415: ['UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json'],
  429: ['TOO_MANY_REQUESTS', 'Too many requests; try again later'],
};

function tmfError(status: number, code: string, reason: string, message?: string): TmfError {
  return {
    code,
    reason,
    ...(message ? { message } : {}),
    status: String(status),
    '@type': 'Error',
  };
}

const listQuery = z.looseObject({
  externalId: z.string().min(1).max(200).optional(),
  state: z.enum(TMF641_DEMO_STATES).optional(),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

export const tmf641DemoRoutes: FastifyPluginAsync<{ server: Tmf641DemoServer }> = async (
  app,
  { server },
) => {
  app.setErrorHandler(async (error: FastifyError | Error, request, reply: FastifyReply) => {
    let status: number;
    let body: TmfError;
    const outage = databaseUnavailableReason(error);
    if (error instanceof Tmf641DemoError) {
      status = error.status;
      body = error.toBody();
    } else if (outage !== undefined) {
      status = 503;
      body = tmfError(503, 'SERVICE_UNAVAILABLE', 'The database is unavailable; try again later');
      reply.header('retry-after', String(DATABASE_RETRY_AFTER_S));
    } else if (error instanceof AppError && error.code === 'VALIDATION_FAILED') {
      status = 400;
      body = tmfError(
        400,
        'BAD_REQUEST',
        `${error.field ?? 'body'} holds characters no field takes`,
      );
    } else {
      const code = (error as FastifyError).statusCode;
      const known = typeof code === 'number' ? STATUS_CODES[code] : undefined;
      if (typeof code === 'number' && code >= 400 && code < 500) {
        status = code;
        body = tmfError(code, known?.[0] ?? 'BAD_REQUEST', known?.[1] ?? 'The request was refused');
      } else if (code === 503) {
        status = 503;
        body = tmfError(503, 'SERVICE_UNAVAILABLE', 'Service unavailable; try again later');
      } else {
        status = 500;
        body = tmfError(500, 'INTERNAL', 'Internal error');
      }
    }
    if (status >= 500 && outage === undefined && status !== 503) {
      request.log.error({ err: error, code: body.code }, 'request failed');
    } else {
      request.log.info({ code: body.code, reason: body.reason }, 'request rejected');
    }
    if (status === 401) reply.header('www-authenticate', 'Bearer realm="tmf641-demo"');
    return reply.status(status).type(JSON_TYPE).send(body);
  });

  app.setNotFoundHandler((request, reply) =>
    reply
      .status(404)
      .type(JSON_TYPE)
      .send(
        tmfError(
          404,
          'NOT_FOUND',
          `${request.method} ${request.url.split('?')[0]} is not a TMF641 resource`,
        ),
      ),
  );

  app.addHook('onRequest', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    server.authorize(request.headers.authorization);
  });

  app.post('/serviceOrder', hide, async (request, reply) => {
    const order = await server.createOrder(request.body);
    return reply.status(201).type(JSON_TYPE).send(order);
  });

  app.get('/serviceOrder', hide, async (request, reply) => {
    const query = listQuery.safeParse(request.query);
    if (!query.success) {
      const issue = query.error.issues[0];
      throw new Tmf641DemoError(
        400,
        'BAD_REQUEST',
        `${issue?.path.join('.') ?? 'query'}: ${issue?.message ?? 'invalid'}`,
      );
    }
    const { externalId, state, offset, limit } = query.data;
    const { orders, total } = await server.findOrders({ externalId, state }, { offset, limit });
    return reply
      .status(200)
      .header('x-total-count', String(total))
      .header('x-result-count', String(orders.length))
      .type(JSON_TYPE)
      .send(orders);
  });

  app.get<{ Params: { id: string } }>('/serviceOrder/:id', hide, async (request, reply) => {
    const order = await server.getOrder(request.params.id);
    return reply.status(200).type(JSON_TYPE).send(order);
  });

  app.post('/hub', hide, async (request, reply) => {
    const subscription = await server.registerListener(request.body);
    return reply.status(201).type(JSON_TYPE).send(subscription);
  });

  app.delete<{ Params: { id: string } }>('/hub/:id', hide, async (request, reply) => {
    await server.unregisterListener(request.params.id);
    return reply.status(204).send();
  });
};
