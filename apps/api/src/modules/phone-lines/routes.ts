import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataEnvelope } from '@alda/contract/envelope';
import {
  reservedNumbersRequest,
  reservedNumbersResponse,
} from '@alda/contract/schemas/auth-register';
import { clientMeta, errorResponses } from '../../http';
import type { PhoneLineService } from './service';

export const phoneLineRoutes: FastifyPluginAsyncZod<{ service: PhoneLineService }> = async (
  app,
  { service },
) => {
  app.post(
    '/api/auth/reserved-numbers',
    {
      onRequest: app.authenticateOptional,
      schema: {
        tags: ['auth'],
        summary: 'Is this number free? Reserve it for sign-up (SPEC §7 Auth)',
        description:
          'Status `free`, `customer`, `reserved` (in another sign-up) or `processing` (a line being set up), with up to 5 free numbers nearby when it is taken. A signed-in caller asking for a free number gets it reserved for 30 minutes (`reservationId`, `reservedUntil`; asking again renews); guests only learn the status. 404 NUMBER_NOT_FOUND outside our number range; 429 TOO_MANY_ATTEMPTS. See docs/decisions/0024-number-reservations.md.',
        security: [{}, { bearerAuth: [] }],
        body: reservedNumbersRequest,
        response: {
          200: dataEnvelope(reservedNumbersResponse),
          ...errorResponses(400, 401, 404),
        },
      },
    },
    async (request) => ({
      data: await service.search(
        request.body.phoneNumber,
        request.user?.id ?? null,
        clientMeta(request).ip,
      ),
    }),
  );
};
