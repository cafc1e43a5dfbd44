import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  portOutInboundRequest,
  portOutInboundResponse,
} from '@alda/contract/schemas/number-protection';
import { dataEnvelope } from '@alda/contract/envelope';
import { sendRouteNotFound } from '../../plugins/error-handler';
import type { NumberProtectionService } from './service';

/**
 * Demo mode only (DEMO_MODE=true): `POST /dev/port-out` plays the other provider asking for one
 * of our numbers with the customer's port-out code (issue 32, ADR 0076). 201 with the order and
 * the port date, or the refusal's error (recorded all the same). Otherwise 404 like any unknown
 * path; hidden from OpenAPI.
 */
export const portOutDevRoutes: FastifyPluginAsyncZod<{
  service: NumberProtectionService;
  enabled: boolean;
}> = async (app, { service, enabled }) => {
  app.post(
    '/dev/port-out',
    {
      schema: {
        hide: true,
        body: portOutInboundRequest,
        response: { 201: dataEnvelope(portOutInboundResponse) },
      },
    },
    async (request, reply) => {
      if (!enabled) return sendRouteNotFound(request, reply);
      const data = await service.requestPortOut(request.body);
      return reply.code(201).header('cache-control', 'no-store').send({ data });
    },
  );
};
