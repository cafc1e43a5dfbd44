import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataEnvelope } from '@alda/contract/envelope';
import { idParams } from '@alda/contract/schemas/common';
import { orderPlacedResponse } from '@alda/contract/schemas/orders';
import {
  phoneBookRequest,
  simDetails,
  simReplacementRequest,
  simSecretsRequest,
  simSecretsResponse,
} from '@alda/contract/schemas/provisioning';
import { clientMeta, errorResponses } from '../../http';
import { requireUser } from '../../plugins/auth';
import { purchaseOf, requestHashOf } from '../orders/placing';
import type { SimService } from './service';

const WHO =
  "`id` is a member's `id`. The account owner may use it for every number of the account and a member for their own; another member of the same account gets 403 OWNER_ONLY, anyone else 404 NOT_FOUND (SPEC §6).";

/** The SIM of a number and its phone-book listing (SPEC §1, docs/decisions/0055-provisioning.md). */
export const simRoutes: FastifyPluginAsyncZod<{ service: SimService }> = async (
  app,
  { service },
) => {
  app.get(
    '/api/subscriptions/:id/sim',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['subscriptions'],
        summary: 'The SIM of a number: eSIM activation code or masked ICCID (SPEC §1)',
        description: `${WHO} A physical SIM shows its ICCID masked to the last four digits. An eSIM shows its activation code \`LPA:1$<SM-DP+ address>$<matching id>\` (GSMA SGP.22) for the QR code, the two parts for typing in, and Apple's one-tap install link; while an order is preparing a new eSIM for the number (\`pendingOrderId\`), \`esim\` is that profile, so it can be installed before it becomes active. \`phoneBookVisible\` is the number's own setting, else its user's.`,
        security: [{ bearerAuth: [] }],
        params: idParams,
        response: { 200: dataEnvelope(simDetails), ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => ({
      data: await service.details(requireUser(request).id, request.params.id),
    }),
  );

  app.post(
    '/api/subscriptions/:id/sim/secrets',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['subscriptions'],
        summary: 'PIN and PUK of a physical SIM, after the password again (SPEC §1)',
        description: `${WHO} \`{ password }\` is the caller's own password: wrong → 422 CURRENT_PASSWORD_INCORRECT, counted with change password's per-user limit (429 TOO_MANY_ATTEMPTS with \`retryAfter\`). An eSIM has no PIN and PUK to show: 409 SIM_NOT_PHYSICAL.`,
        security: [{ bearerAuth: [] }],
        params: idParams,
        body: simSecretsRequest,
        response: {
          200: dataEnvelope(simSecretsResponse),
          ...errorResponses(400, 401, 403, 404, 409, 422),
        },
      },
    },
    async (request) => ({
      data: await service.secrets(requireUser(request), request.params.id, request.body.password),
    }),
  );

  app.post(
    '/api/subscriptions/:id/sim/replacement',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['subscriptions'],
        summary: 'Order a replacement SIM or a switch to eSIM (SPEC §1, §4)',
        description: `${WHO} Exactly one of \`eSim\`, \`simPickupLocationId\` (GET /api/sim-pickup-locations; 422 PICKUP_LOCATION_NOT_FOUND) and \`sendHome\` (the address on the caller's profile); otherwise 400 VALIDATION_FAILED. Places a \`sim_change\` order that provisioning carries out like a new line (GET /api/orders/{id} shows its steps); the old SIM stops when the new one is active. 409 ORDER_PROCESSING while the number is being set up or already getting a new SIM; 409 NUMBER_LOCKED while the number is locked (GET …/protection, ADR 0076). Step-up: \`password\` (the caller's own) or \`code\` (the SMS code of POST /api/auth/sessions/confirmation-code) — missing → 400 VALIDATION_FAILED, wrong → 422 PASSWORD_INCORRECT / CONFIRMATION_CODE_INCORRECT. Once placed, an SMS goes to the number itself and an e-mail to its user. Send an \`Idempotency-Key\` header (400 IDEMPOTENCY_KEY_REQUIRED without; 422 IDEMPOTENCY_KEY_REUSED with another body). Nothing is charged.`,
        security: [{ bearerAuth: [] }],
        params: idParams,
        body: simReplacementRequest,
        response: {
          201: dataEnvelope(orderPlacedResponse),
          ...errorResponses(400, 401, 403, 404, 409, 422),
        },
      },
    },
    async (request, reply) => {
      const endpoint = `POST /api/subscriptions/${request.params.id}/sim/replacement`;
      // The step-up's password or code is no part of the order: not in its request hash.
      const { password: _password, code: _code, ...order } = request.body;
      const placed = await service.replace(
        requireUser(request),
        { ...purchaseOf(request, endpoint), requestHash: requestHashOf(endpoint, order) },
        request.params.id,
        request.body,
        clientMeta(request),
      );
      return reply.code(201).send({ data: placed });
    },
  );

  app.patch(
    '/api/subscriptions/:id/phone-book',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['subscriptions'],
        summary: 'Show or hide a number in the phone book (SPEC §1)',
        description: `${WHO} \`{ phoneBookVisible }\` sets this number's own listing; until set, a number follows its user's profile setting. Answers the SIM of the number as GET …/sim does.`,
        security: [{ bearerAuth: [] }],
        params: idParams,
        body: phoneBookRequest,
        response: { 200: dataEnvelope(simDetails), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ({
      data: await service.setPhoneBook(
        requireUser(request).id,
        request.params.id,
        request.body.phoneBookVisible,
      ),
    }),
  );
};
