import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataEnvelope } from '@alda/contract/envelope';
import { idParams } from '@alda/contract/schemas/common';
import {
  approvePackageRequestRequest,
  createPackageRequestRequest,
  lineControls,
  packageRequest,
  packageRequestsResponse,
  updateLineControlsRequest,
} from '@alda/contract/schemas/controls';
import { orderPlacedResponse } from '@alda/contract/schemas/orders';
import { errorResponses } from '../../http';
import { requestLocale } from '../../i18n';
import { requireUser } from '../../plugins/auth';
import { purchaseOf } from '../orders/placing';
import type { PackageRequestService } from './requests-service';
import type { ControlsService } from './service';

const ADR = 'docs/decisions/0068-owner-controls.md';

export const controlsRoutes: FastifyPluginAsyncZod<{
  controls: ControlsService;
  requests: PackageRequestService;
}> = async (app, { controls, requests }) => {
  app.patch(
    '/api/subscriptions/:id/controls',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['subscriptions'],
        summary:
          "The owner pauses a member's mobile data or requires approval of purchases (issue 16.3)",
        description: `\`id\` is a member's \`id\`. Only the account owner (another member of the account 403 OWNER_ONLY; anyone else and unknown ids 404 NOT_FOUND); the owner's own number 422 CONTROLS_OWN_LINE; a number being set up 409 ORDER_PROCESSING; an empty body 400 VALIDATION_FAILED. \`dataPaused\` bars the number's mobile data in the network (calls and SMS still work) and tells the member; the network is told inside the transaction, so a refusal changes nothing (503 NETWORK_UNAVAILABLE). \`purchaseApproval\` makes the member's own extra-package purchases requests to the owner (POST /api/package-requests). Setting what is already set changes nothing and tells no one. ${ADR}`,
        security: [{ bearerAuth: [] }],
        params: idParams,
        body: updateLineControlsRequest,
        response: {
          200: dataEnvelope(lineControls),
          ...errorResponses(400, 401, 403, 404, 409, 422, 503),
        },
      },
    },
    async (request) => ({
      data: await controls.set(requireUser(request).id, request.params.id, request.body),
    }),
  );

  app.get(
    '/api/package-requests',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['packages'],
        summary: 'Pending package requests the caller made or decides, oldest first (issue 16.3)',
        description: `The member sees their own pending requests (\`isApprover: false\`), the owner those to decide (\`isApprover: true\`). \`orderId\` is the owner's order once the owner has started paying. ${ADR}`,
        security: [{ bearerAuth: [] }],
        response: { 200: dataEnvelope(packageRequestsResponse), ...errorResponses(401) },
      },
    },
    async (request) => ({
      data: await requests.pending(requireUser(request).id, requestLocale(request)),
    }),
  );

  app.get(
    '/api/package-requests/:id',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['packages'],
        summary: 'One package request of the caller (either side); NOT_FOUND otherwise',
        security: [{ bearerAuth: [] }],
        params: idParams,
        response: { 200: dataEnvelope(packageRequest), ...errorResponses(401, 404) },
      },
    },
    async (request) => ({
      data: await requests.get(requireUser(request).id, request.params.id, requestLocale(request)),
    }),
  );

  app.post(
    '/api/package-requests',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['packages'],
        summary: 'A member asks the account owner to buy an extra package (issue 16.3)',
        description: `For the caller's own number when its owner requires approval (POST /api/packages answers 409 APPROVAL_REQUIRED there). The owner is told. Send an \`Idempotency-Key\` header: a retry answers the first request; asking again for a package already pending on the number answers the pending request. 404 NOT_FOUND for an unknown package, NUMBER_NOT_FOUND for a number that is not the caller's own; 422 PACKAGE_NOT_AVAILABLE as for a purchase; 409 CONFLICT when the number needs no approval (buy it instead). ${ADR}`,
        security: [{ bearerAuth: [] }],
        body: createPackageRequestRequest,
        response: {
          201: dataEnvelope(packageRequest),
          ...errorResponses(400, 401, 404, 409, 422),
        },
      },
    },
    async (request, reply) => {
      const header = request.headers['idempotency-key'];
      const key =
        typeof header === 'string' && header.trim().length > 0
          ? header.trim().slice(0, 200)
          : undefined;
      const created = await requests.create(
        requireUser(request).id,
        request.body,
        requestLocale(request),
        key,
      );
      return reply.code(201).send({ data: created });
    },
  );

  app.post(
    '/api/package-requests/:id/approve',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['packages'],
        summary: "The owner approves: buys the package for the member's number (issue 16.3)",
        description: `Places the owner's \`extra_package\` order for the member's number through the payments core, exactly as POST /api/packages does (Idempotency-Key required; \`paymentUrl\` is the card page, null when the card on file is charged). The request turns \`approved\` when that payment is paid; until then a second approval answers the same order. 403 FORBIDDEN for the member who asked; 409 CONFLICT when it is no longer pending or the number left the account; 409 AGREEMENT_REQUIRED, 422 PACKAGE_NOT_AVAILABLE, 503 PAYMENT_PROVIDER_UNAVAILABLE as for a purchase. ${ADR}`,
        security: [{ bearerAuth: [] }],
        params: idParams,
        body: approvePackageRequestRequest,
        response: {
          201: dataEnvelope(orderPlacedResponse),
          ...errorResponses(400, 401, 403, 404, 409, 422, 503),
        },
      },
    },
    async (request, reply) => {
      const placed = await requests.approve(
        purchaseOf(request, `POST /api/package-requests/${request.params.id}/approve`),
        request.params.id,
        request.body,
      );
      return reply.code(201).send({ data: placed });
    },
  );

  app.delete(
    '/api/package-requests/:id',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['packages'],
        summary: 'The owner declines (the member is told) or the member withdraws (issue 16.3)',
        description: `Only while pending, else 409 CONFLICT; the member cannot withdraw while the owner's payment for it is open (409 CONFLICT). ${ADR}`,
        security: [{ bearerAuth: [] }],
        params: idParams,
        response: { 200: dataEnvelope(packageRequest), ...errorResponses(401, 404, 409) },
      },
    },
    async (request) => ({
      data: await requests.remove(
        requireUser(request).id,
        request.params.id,
        requestLocale(request),
      ),
    }),
  );
};
