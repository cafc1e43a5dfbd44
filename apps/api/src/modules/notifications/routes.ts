import { serializerCompiler, type FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dataEnvelope } from '@alda/contract/envelope';
import { idParams } from '@alda/contract/schemas/common';
import {
  markAllAsReadResponse,
  markAsReadResponse,
  notificationsQuery,
  notificationsResponse,
} from '@alda/contract/schemas/notifications';
import { AppError } from '../../errors';
import { errorResponses, sendSerialized } from '../../http';
import type { AnswerCache } from '../versions/answer-cache';
import { requestLocale } from '../../i18n';
import { requireUser } from '../../plugins/auth';
import { answerNotModified, versionTag } from '../../etag';
import { isUuid } from '../../uuid';
import type { NotificationService } from './service';

export const notificationRoutes: FastifyPluginAsyncZod<{
  service: NotificationService;
  /** The customer's answers kept in memory (ADR 0057). */
  answers: AnswerCache;
}> = async (app, { service, answers }) => {
  const serializeList = serializerCompiler({
    schema: dataEnvelope(notificationsResponse),
    method: 'GET',
    url: '/api/notifications',
  });
  app.get(
    '/api/notifications',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['notifications'],
        summary: 'Notifications, newest first, with the unread count (SPEC §7)',
        description:
          "Paged by `page` (from 0) and `perPage` (default 15). Texts are in the language of Accept-Language. Polled every 60 s: the answer carries an ETag from the caller's change version; send it back in If-None-Match and the answer is 304 without a body while nothing changed (docs/decisions/0041-polling-etag.md).",
        security: [{ bearerAuth: [] }],
        querystring: notificationsQuery,
        response: {
          200: dataEnvelope(notificationsResponse),
          304: z.null().describe('Not modified: nothing changed since the ETag in If-None-Match'),
          ...errorResponses(400, 401),
        },
      },
    },
    (request, reply) => {
      const user = requireUser(request);
      const locale = requestLocale(request);
      const { page, perPage } = request.query;
      const answer = (version: number) => {
        const etag = versionTag('n', version, [user.id, locale, page, perPage]);
        if (answerNotModified(request, reply, etag)) return;
        const build = async () =>
          serializeList({ data: await service.list(user.id, request.query, locale) });
        const parts = ['notifications', locale, String(page), String(perPage)];
        return answers.get(user.id, parts, build).then((body) => {
          sendSerialized(reply, body);
        });
      };
      // The poll's usual case, nothing changed and the version in memory, is answered without
      // a promise (issue 45); otherwise the version is read first.
      const known = service.knownVersion(user.id);
      return known === undefined ? service.version(user.id).then(answer) : answer(known);
    },
  );

  app.patch(
    '/api/notifications/mark-all-as-read',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['notifications'],
        summary: "Marks all the caller's notifications read",
        security: [{ bearerAuth: [] }],
        response: { 200: dataEnvelope(markAllAsReadResponse), ...errorResponses(401) },
      },
    },
    async (request) => ({ data: await service.markAllAsRead(requireUser(request).id) }),
  );

  app.patch(
    '/api/notifications/:id/mark-as-read',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['notifications'],
        summary: "Marks one notification read (NOT_FOUND when it is not the caller's)",
        security: [{ bearerAuth: [] }],
        params: idParams,
        response: { 200: dataEnvelope(markAsReadResponse), ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const { id } = request.params;
      if (!isUuid(id)) throw new AppError('NOT_FOUND', { detail: 'not a notification id' });
      return {
        data: await service.markAsRead(requireUser(request).id, id, requestLocale(request)),
      };
    },
  );
};
