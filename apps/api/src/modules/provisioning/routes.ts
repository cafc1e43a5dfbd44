import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataEnvelope } from '@alda/contract/envelope';
import { idParams } from '@alda/contract/schemas/common';
import { orderPlacedResponse, orderResponse } from '@alda/contract/schemas/orders';
import {
  correctPortingRequest,
  simPickupLocationsResponse,
} from '@alda/contract/schemas/provisioning';
import { signupPayload } from '@alda/contract/schemas/signup';
import { errorResponses } from '../../http';
import { requestLocale } from '../../i18n';
import { requireUser } from '../../plugins/auth';
import { purchaseOf } from '../orders/placing';
import type { ProvisioningService } from './service';
import type { SignupService } from './signup-service';

export const provisioningRoutes: FastifyPluginAsyncZod<{
  service: ProvisioningService;
  signup: SignupService;
}> = async (app, { service, signup }) => {
  app.get(
    '/api/sim-pickup-locations',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['subscriptions'],
        summary: 'Shops where a physical SIM can be picked up (sign-up, SIM replacement)',
        description:
          'Each shop with its street address, postal code and place (locality list) and its opening hours in the `Accept-Language` language, one line per group of days. Its `id` is the `simPickupLocationId` of the sign-up.',
        security: [{ bearerAuth: [] }],
        response: { 200: dataEnvelope(simPickupLocationsResponse), ...errorResponses(401) },
      },
    },
    async (request) => ({ data: await service.pickupLocations(requestLocale(request)) }),
  );

  app.post(
    '/api/subscriptions',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['subscriptions'],
        summary: 'Sign up for a new subscription (SPEC §3 Signup payload, §5, ADR 0055)',
        description:
          "Places a `new_subscription` order in one transaction: a `processing` account (its plan is set when the order completes) and line, the order with the SIM choice, and its first provisioning step `received`; the order then moves through its steps by itself (`provisioning` on the order). Send an `Idempotency-Key` header (400 IDEMPOTENCY_KEY_REQUIRED without): a retry answers the first order, the same key with another body 422 IDEMPOTENCY_KEY_REUSED. 400 VALIDATION_FAILED for the payload (SPEC §5; `sameAddressConfirmed` on family plans, `simShippingAddress.city` not matching its postal code); 422 PLAN_NOT_AVAILABLE, PICKUP_LOCATION_NOT_FOUND; 409 AGREEMENT_REQUIRED without an active card on file, FAMILY_ACCOUNT_EXISTS, RESERVATION_EXPIRED (the reservation is missing, expired or someone else's — choose another number), NUMBER_ALREADY_OURS (porting a number that is already ours). Nothing is charged now (`paymentUrl` null): the month the line becomes active is free, the first charge is the whole next month.",
        security: [{ bearerAuth: [] }],
        body: signupPayload,
        response: {
          201: dataEnvelope(orderPlacedResponse),
          ...errorResponses(400, 401, 409, 422),
        },
      },
    },
    async (request, reply) => {
      const placed = await signup.place(
        request.body,
        purchaseOf(request, 'POST /api/subscriptions'),
      );
      return reply.code(201).send({ data: placed });
    },
  );

  app.post(
    '/api/orders/:id/confirm-sim',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['orders'],
        summary: 'The SIM card works: make the line active now (ADR 0055)',
        description:
          "For an order waiting on the customer's SIM (`provisioning.waitingFor` `customer_sim`): the line becomes active now instead of by itself at `expectedAt`. 409 ORDER_NOT_WAITING otherwise; 404 NOT_FOUND for an order the caller did not place.",
        security: [{ bearerAuth: [] }],
        params: idParams,
        response: { 200: dataEnvelope(orderResponse), ...errorResponses(401, 404, 409) },
      },
    },
    async (request) => ({
      data: await service.confirmSim(
        requireUser(request).id,
        request.params.id,
        requestLocale(request),
      ),
    }),
  );

  app.patch(
    '/api/orders/:id/porting',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['orders'],
        summary: 'Correct the SIM card number of a rejected port (ADR 0055)',
        description:
          'For an order whose port was rejected (`provisioning.waitingFor` `customer_correction`): stores the corrected SIM card number (ICCID, ITU-T E.118) and asks the other provider again after the next step time. 400 VALIDATION_FAILED INVALID_SIMCARD_NUMBER; 409 ORDER_NOT_WAITING otherwise; 404 NOT_FOUND for an order the caller did not place.',
        security: [{ bearerAuth: [] }],
        params: idParams,
        body: correctPortingRequest,
        response: { 200: dataEnvelope(orderResponse), ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request) => ({
      data: await service.correctPorting(
        requireUser(request).id,
        request.params.id,
        request.body.simcardNumber,
        requestLocale(request),
      ),
    }),
  );
};
