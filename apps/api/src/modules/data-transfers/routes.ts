import { serializerCompiler, type FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dataEnvelope } from '@alda/contract/envelope';
import { idParams } from '@alda/contract/schemas/common';
import {
  createDataTransferRequest,
  dataTransfer,
  dataTransfersResponse,
} from '@alda/contract/schemas/data-transfers';
import { errorResponses, sendSerialized } from '../../http';
import type { AnswerCache } from '../versions/answer-cache';
import { requestLocale } from '../../i18n';
import { requireUser } from '../../plugins/auth';
import { answerNotModified, versionTag } from '../../etag';
import type { DataTransferService } from './service';

const RULES =
  'Errors: SELF_REQUEST (own number), NUMBER_NOT_FOUND (no such number), REQUEST_NOT_ALLOWED (a number without a customer, in processing, or a prepaid number asked for data — docs/decisions/0040-data-transfers.md), INSUFFICIENT_DATA and GIVE_LIMIT_REACHED (SPEC §5, checked on locked rows), FORBIDDEN (fromPhoneNumber is not an active line of the caller).';

export const dataTransferRoutes: FastifyPluginAsyncZod<{
  service: DataTransferService;
  /** The customer's answers kept in memory (ADR 0057). */
  answers: AnswerCache;
}> = async (app, { service, answers }) => {
  const serializePending = serializerCompiler({
    schema: dataEnvelope(dataTransfersResponse),
    method: 'GET',
    url: '/api/data-transfers',
  });
  app.get(
    '/api/data-transfers',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['data-transfers'],
        summary: 'Pending data requests addressed to the caller, oldest first (SPEC §7)',
        description:
          "Polled every 60 s: the answer carries an ETag from the caller's change version; with a matching If-None-Match the answer is 304 without reading the transfers (docs/decisions/0041-polling-etag.md).",
        security: [{ bearerAuth: [] }],
        response: {
          200: dataEnvelope(dataTransfersResponse),
          304: z.null().describe('Not modified'),
          ...errorResponses(401),
        },
      },
    },
    (request, reply) => {
      const user = requireUser(request);
      const answer = (version: number) => {
        const etag = versionTag('dt', version, [user.id, requestLocale(request)]);
        if (answerNotModified(request, reply, etag)) return;
        const build = async () => serializePending({ data: await service.pendingFor(user.id) });
        return answers.get(user.id, ['data-transfers'], build).then((body) => {
          sendSerialized(reply, body);
        });
      };
      // The poll's usual case, nothing changed and the version in memory, is answered without
      // a promise (issue 45); otherwise the version is read first.
      const known = service.knownVersion(user.id);
      return known === undefined ? service.version(user.id).then(answer) : answer(known);
    },
  );

  app.post(
    '/api/data-transfers',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['data-transfers'],
        summary: 'Give data to a number (moves at once) or ask a number for data',
        description: `Send an Idempotency-Key header: a retry with the same key answers the first transfer and moves nothing again. ${RULES}`,
        security: [{ bearerAuth: [] }],
        body: createDataTransferRequest,
        response: {
          201: dataEnvelope(dataTransfer),
          ...errorResponses(400, 401, 403, 404, 422),
        },
      },
    },
    async (request, reply) => {
      const header = request.headers['idempotency-key'];
      const key =
        typeof header === 'string' && header.length > 0 ? header.slice(0, 200) : undefined;
      const created = await service.create(requireUser(request).id, request.body, key);
      return reply.code(201).send({ data: created });
    },
  );

  app.get(
    '/api/data-transfers/:id',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['data-transfers'],
        summary: 'One data transfer of the caller (either side); NOT_FOUND otherwise',
        security: [{ bearerAuth: [] }],
        params: idParams,
        response: { 200: dataEnvelope(dataTransfer), ...errorResponses(401, 404) },
      },
    },
    async (request) => ({
      data: await service.get(requireUser(request).id, request.params.id),
    }),
  );

  app.post(
    '/api/data-transfers/:id/approve',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['data-transfers'],
        summary: 'The asked customer approves a pending request; the data moves',
        description: `CONFLICT when the request was already approved, declined or withdrawn; FORBIDDEN for the requester. ${RULES}`,
        security: [{ bearerAuth: [] }],
        params: idParams,
        response: {
          200: dataEnvelope(dataTransfer),
          ...errorResponses(401, 403, 404, 409, 422),
        },
      },
    },
    async (request) => ({
      data: await service.approve(requireUser(request).id, request.params.id),
    }),
  );

  app.delete(
    '/api/data-transfers/:id',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['data-transfers'],
        summary: 'Decline (asked customer) or withdraw (requester) a pending request',
        description: 'CONFLICT when it is no longer pending.',
        security: [{ bearerAuth: [] }],
        params: idParams,
        response: { 200: dataEnvelope(dataTransfer), ...errorResponses(401, 404, 409) },
      },
    },
    async (request) => ({
      data: await service.remove(requireUser(request).id, request.params.id),
    }),
  );
};
