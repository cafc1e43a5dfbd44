import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  portOutInboundRequest,
  portOutInboundResponse,
} from '@alda/contract/schemas/number-protection';
import { dataEnvelope } from '@alda/contract/envelope';
import { phoneNumber } from '@alda/contract/rules/phone';
import { z } from 'zod';
import { AppError } from '../../errors';
import { sendRouteNotFound } from '../../plugins/error-handler';
import type { NumberProtectionService } from './service';

/** `POST /dev/number-unlocks`: the number, and in how many seconds its cooling-off ends. */
const endCoolingOffRequest = z
  .object({ phoneNumber, inSeconds: z.number().int().min(0).max(3600) })
  .strict();

/**
 * Demo mode only (DEMO_MODE=true): `POST /dev/number-unlocks` ends the cooling-off of a number's
 * waiting unlock `inSeconds` from now (409 NUMBER_UNLOCK_NOT_PENDING when none waits). A browser
 * journey asserts the waiting state while the real delay stands, then lets it pass — the screen
 * turns to unlocked by itself — instead of racing a short delay on a busy machine (issue 41).
 *
 * `POST /dev/port-out` plays the other provider asking for one
 * of our numbers with the customer's port-out code (issue 32, ADR 0076). 201 with the order and
 * the port date, or the refusal's error (recorded all the same). Otherwise 404 like any unknown
 * path; hidden from OpenAPI.
 */
export const portOutDevRoutes: FastifyPluginAsyncZod<{
  service: NumberProtectionService;
  enabled: boolean;
}> = async (app, { service, enabled }) => {
  app.post(
    '/dev/number-unlocks',
    { schema: { hide: true, body: endCoolingOffRequest } },
    async (request, reply) => {
      if (!enabled) return sendRouteNotFound(request, reply);
      const { phoneNumber: number, inSeconds } = request.body;
      if (!(await service.endCoolingOffIn(number, inSeconds))) {
        throw new AppError('NUMBER_UNLOCK_NOT_PENDING', { detail: `no unlock of ${number} waits` });
      }
      return reply.header('cache-control', 'no-store').send({ data: { inSeconds } });
    },
  );

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
