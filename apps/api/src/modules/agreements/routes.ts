import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataEnvelope } from '@alda/contract/envelope';
import {
  agreementResponse,
  createAgreementRequest,
  endAgreementResponse,
} from '@alda/contract/schemas/agreements';
import { orderPlacedResponse } from '@alda/contract/schemas/orders';
import { errorResponses } from '../../http';
import { requireUser } from '../../plugins/auth';
import { purchaseOf } from '../orders/placing';
import type { AgreementService } from './service';

export const agreementRoutes: FastifyPluginAsyncZod<{ service: AgreementService }> = async (
  app,
  { service },
) => {
  app.get(
    '/api/agreements',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['agreements'],
        summary: "The caller's payment agreement (SPEC §2 profile.agreement, §7)",
        description:
          'The newest agreement that is not cancelled (pending, active or expired), or `null`. Only the card brand, last four digits and expiry are kept; the card stays with the payment provider.',
        security: [{ bearerAuth: [] }],
        response: { 200: dataEnvelope(agreementResponse), ...errorResponses(401) },
      },
    },
    async (request) => ({ data: await service.current(requireUser(request).id) }),
  );

  app.post(
    '/api/agreements',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['agreements'],
        summary: 'Register or change the card on file (SPEC §7 POST agreements, §8)',
        description:
          "Places a `payment_agreement` order: a zero-amount card check on the provider's card page (`paymentUrl`), which saves the card with the provider. When the check is paid the card becomes the active agreement (brand, last four digits, expiry) and the previous agreement is cancelled, in one transaction. Send an `Idempotency-Key` header (400 IDEMPOTENCY_KEY_REQUIRED without). 503 PAYMENT_PROVIDER_UNAVAILABLE.",
        security: [{ bearerAuth: [] }],
        body: createAgreementRequest,
        response: {
          201: dataEnvelope(orderPlacedResponse),
          ...errorResponses(400, 401, 422, 503),
        },
      },
    },
    async (request, reply) => {
      const placed = await service.create(purchaseOf(request, 'POST /api/agreements'));
      return reply.code(201).send({ data: placed });
    },
  );

  app.delete(
    '/api/agreements',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['agreements'],
        summary: 'End the payment agreement (SPEC §2 profile.agreement)',
        description:
          'Ends the caller\'s current agreement (the one GET shows: pending, active or expired). The payment provider is told first (within 10 s), so the card or agreement can never be charged again; only when it confirmed is the agreement cancelled here, with an entry in the activity log and a notification. Paying the month with `payWith: "agreement"` then answers 409 AGREEMENT_REQUIRED, and the month-end charge (ADR 0053) leaves the customer to pay in the app. 404 NOT_FOUND without a current agreement; 503 PAYMENT_PROVIDER_UNAVAILABLE when the provider could not end it — nothing changed, and trying again is safe (ending twice is harmless).',
        security: [{ bearerAuth: [] }],
        response: { 200: dataEnvelope(endAgreementResponse), ...errorResponses(401, 404, 503) },
      },
    },
    async (request) => {
      await service.end(requireUser(request).id);
      return { data: null };
    },
  );
};
