import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataEnvelope } from '@alda/contract/envelope';
import {
  staffContentDraftRequest,
  staffContentPublishRequest,
  staffContentSlugParams,
  staffContentVersion,
  staffContentVersionList,
  staffContentVersionParams,
} from '@alda/contract/schemas/staff-content';
import { errorResponses } from '../../http';
import { requireStaff } from '../../plugins/staff-auth';
import type { StaffContentService } from './content-service';
import { notModified, unchangedAnswer } from './poll-etag';

/*
 * Terms and privacy as versions — `/api/staff/content/:slug/versions*`, tag `staff`
 * (docs/decisions/0075-staff-console.md). Role `content` (and `admin`); `support` and
 * `provisioning` are refused (403). The rules are in content-service.ts.
 */

const security = [{ staffBearer: [] }];
const ROLE = 'content';

export const staffContentRoutes: FastifyPluginAsyncZod<{ service: StaffContentService }> = async (
  app,
  { service },
) => {
  app.get(
    '/api/staff/content/:slug/versions',
    {
      onRequest: app.staffOnly(ROLE),
      schema: {
        tags: ['staff'],
        summary: 'The versions of the terms or the privacy policy, newest first (content)',
        description:
          'Without their texts. `state`: `live` (the app shows it: published last), `previous` (published, since replaced) or `draft`. The first time a page has no versions its text as it stands becomes version 1 (published by `system`). Polled: the answer has an ETag; with a matching If-None-Match it is 304.',
        security,
        params: staffContentSlugParams,
        response: {
          200: dataEnvelope(staffContentVersionList),
          304: notModified,
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (request, reply) => {
      const { slug } = request.params;
      const data = { slug, items: await service.list(slug) };
      if (unchangedAnswer(request, reply, data)) return reply.code(304).send(null);
      return { data };
    },
  );

  app.post(
    '/api/staff/content/:slug/versions',
    {
      onRequest: app.staffOnly(ROLE),
      schema: {
        tags: ['staff'],
        summary: 'Write a new draft of the terms or the privacy policy (content)',
        description:
          'Title and markdown in Faroese and English. Numbered after the last version (two drafts at the same moment get two numbers). The app does not show it until it is published. Audited as `content.draft`.',
        security,
        params: staffContentSlugParams,
        body: staffContentDraftRequest,
        response: {
          201: dataEnvelope(staffContentVersion),
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (request, reply) => {
      const data = await service.createDraft(
        request.params.slug,
        request.body,
        requireStaff(request),
      );
      return reply.status(201).send({ data });
    },
  );

  app.get(
    '/api/staff/content/:slug/versions/:id',
    {
      onRequest: app.staffOnly(ROLE),
      schema: {
        tags: ['staff'],
        summary: 'One version with its texts in both languages (content)',
        security,
        params: staffContentVersionParams,
        response: {
          200: dataEnvelope(staffContentVersion),
          304: notModified,
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const data = await service.get(request.params.slug, request.params.id);
      if (unchangedAnswer(request, reply, data)) return reply.code(304).send(null);
      return { data };
    },
  );

  app.put(
    '/api/staff/content/:slug/versions/:id',
    {
      onRequest: app.staffOnly(ROLE),
      schema: {
        tags: ['staff'],
        summary: 'Edit a draft (content)',
        description:
          'Replaces the texts of a draft. A published version is never edited: 409 STAFF_ACTION_NOT_ALLOWED (write a new draft instead). Audited as `content.edit`.',
        security,
        params: staffContentVersionParams,
        body: staffContentDraftRequest,
        response: {
          200: dataEnvelope(staffContentVersion),
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
    },
    async (request) => ({
      data: await service.updateDraft(
        request.params.slug,
        request.params.id,
        request.body,
        requireStaff(request),
      ),
    }),
  );

  app.post(
    '/api/staff/content/:slug/versions/:id/publish',
    {
      onRequest: app.staffOnly(ROLE),
      schema: {
        tags: ['staff'],
        summary: 'Publish a draft: the app shows it at once (content)',
        description:
          "Copies the version's title and markdown (both languages) into the page GET /api/content/:slug answers, and marks it the live version, in one transaction with the audit entry `content.publish` (with the optional reason). The page's ETag changes with it. A version published before is 409 STAFF_ACTION_NOT_ALLOWED (to go back to it, write a draft of it and publish that).",
        security,
        params: staffContentVersionParams,
        body: staffContentPublishRequest,
        response: {
          200: dataEnvelope(staffContentVersion),
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
    },
    async (request) => ({
      data: await service.publish(
        request.params.slug,
        request.params.id,
        request.body.reason,
        requireStaff(request),
      ),
    }),
  );
};
