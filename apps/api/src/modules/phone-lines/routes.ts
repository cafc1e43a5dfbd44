import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataEnvelope } from '@alda/contract/envelope';
import {
  reservedNumbersRequest,
  reservedNumbersResponse,
} from '@alda/contract/schemas/auth-register';
import { freeNumbersQuery, freeNumbersResponse } from '@alda/contract/schemas/number-picker';
import { clientMeta, errorResponses } from '../../http';
import type { PhoneLineService } from './service';

export const phoneLineRoutes: FastifyPluginAsyncZod<{ service: PhoneLineService }> = async (
  app,
  { service },
) => {
  app.get(
    '/api/auth/free-numbers',
    {
      onRequest: app.authenticateOptional,
      schema: {
        tags: ['auth'],
        summary: 'Free numbers to choose from in sign-up, and the pattern search (issue 33 §1)',
        description:
          'Without `digits`: a fresh set of up to 6 free numbers on every call. With `digits` (1–6) and `match` (`contains` by default, `endsWith`, `startsWith`): free numbers that match. `golden`: free easy numbers (contract `numberClassOf`) with their one-off price, which operations sets per class and the first payment charges. When nothing that matches is free, `nearest` holds the nearest looser pattern with free numbers. Nothing is reserved here: POST /api/auth/reserved-numbers reserves the number tapped. Quarantined, reserved and used numbers never appear. Open to guests; 400 VALIDATION_FAILED for other input, 404 NUMBER_NOT_FOUND for six digits outside our range, 429 TOO_MANY_ATTEMPTS. See docs/decisions/0077-number-picker.md.',
        security: [{}, { bearerAuth: [] }],
        querystring: freeNumbersQuery,
        response: {
          200: dataEnvelope(freeNumbersResponse),
          ...errorResponses(400, 401, 404),
        },
      },
    },
    async (request, reply) => {
      // A fresh set every time: never from a cache.
      void reply.header('cache-control', 'no-store');
      return {
        data: await service.freeNumbers(
          request.query,
          request.user?.id ?? null,
          clientMeta(request).ip,
        ),
      };
    },
  );

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
