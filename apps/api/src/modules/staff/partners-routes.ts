import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataEnvelope } from '@alda/contract/envelope';
import {
  staffPartner,
  staffPartnerCreated,
  staffPartnerCreateRequest,
  staffPartnerDisableRequest,
  staffPartnerList,
  staffPartnerParams,
} from '@alda/contract/schemas/staff-partners';
import { errorResponses } from '../../http';
import { requireStaff } from '../../plugins/staff-auth';
import type { PartnerService } from '../partners/service';
import { reasonRequired } from './reason-required';

/*
 * The staff console's partner clients — `/api/staff/partners*`, tag `staff` (issue 32: banks
 * using the CAMARA SIM Swap API). Admin only. Each change is audited (`partner.create`,
 * `partner.disable`) in its transaction by the partners service, as `npm run operator -- partner`.
 */

const security = [{ staffBearer: [] }];

export const staffPartnersRoutes: FastifyPluginAsyncZod<{ service: PartnerService }> = async (
  app,
  { service },
) => {
  app.get(
    '/api/staff/partners',
    {
      onRequest: app.staffOnly('admin'),
      schema: {
        tags: ['staff'],
        summary: 'Partner clients of the CAMARA APIs (admin)',
        description:
          'Every partner client, newest first: name, client_id, scopes, who made it and when, when it was disabled, its latest CAMARA call and how many it made. Never the secret.',
        security,
        response: { 200: dataEnvelope(staffPartnerList), ...errorResponses(401, 403) },
      },
    },
    async () => ({ data: { items: await service.list() } }),
  );

  app.post(
    '/api/staff/partners',
    {
      onRequest: app.staffOnly('admin'),
      schema: {
        tags: ['staff'],
        summary: 'Add a partner client (admin)',
        description:
          'A new OAuth 2.0 client (client credentials) with the scopes given. The answer holds the client secret: shown this once, kept only as a SHA-256 digest. Audited `partner.create`.',
        security,
        body: staffPartnerCreateRequest,
        response: { 201: dataEnvelope(staffPartnerCreated), ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const who = requireStaff(request);
      const data = await service.create(request.body, { actor: who.actor, staffUserId: who.id });
      return reply.status(201).send({ data });
    },
  );

  app.post(
    '/api/staff/partners/:clientId/disable',
    {
      onRequest: app.staffOnly('admin'),
      preValidation: reasonRequired,
      schema: {
        tags: ['staff'],
        summary: 'Disable a partner client (admin)',
        description:
          'With a reason (400 STAFF_REASON_REQUIRED without one). The client gets no new tokens and its tokens stop working at once. 404 NOT_FOUND for an unknown client_id, 409 STAFF_ACTION_NOT_ALLOWED when already disabled. Audited `partner.disable`.',
        security,
        params: staffPartnerParams,
        body: staffPartnerDisableRequest,
        response: { 200: dataEnvelope(staffPartner), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const who = requireStaff(request);
      const data = await service.disable(request.params.clientId, request.body.reason, {
        actor: who.actor,
        staffUserId: who.id,
      });
      return { data };
    },
  );
};
