import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataEnvelope } from '@alda/contract/envelope';
import {
  staffStatusEndRequest,
  staffStatusMessage,
  staffStatusMessageList,
  staffStatusMessageParams,
  staffStatusPublishRequest,
} from '@alda/contract/schemas/staff-status';
import { errorResponses } from '../../http';
import { requireStaff } from '../../plugins/staff-auth';
import { notModified, unchangedAnswer } from './poll-etag';
import { reasonRequired } from './reason-required';
import type { StaffStatusService } from './status-service';

/*
 * The staff console's status messages — `/api/staff/status-messages*`, tag `staff`
 * (docs/decisions/0075-staff-console.md). Role `content` (and `admin`); `support` and
 * `provisioning` are refused (403). The rules are the operator service's (status-service.ts).
 */

const security = [{ staffBearer: [] }];
const ROLE = 'content';

export const staffStatusRoutes: FastifyPluginAsyncZod<{ service: StaffStatusService }> = async (
  app,
  { service },
) => {
  app.get(
    '/api/staff/status-messages',
    {
      onRequest: app.staffOnly(ROLE),
      schema: {
        tags: ['staff'],
        summary: 'Status messages, newest first, each scheduled, active or ended (content)',
        description:
          "The latest 200 messages in both languages with their window and their state at the server's time: `scheduled` (starts later), `active` (POST /api/status answers it now) or `ended`. Polled: the answer has an ETag; with a matching If-None-Match it is 304.",
        security,
        response: {
          200: dataEnvelope(staffStatusMessageList),
          304: notModified,
          ...errorResponses(401, 403),
        },
      },
    },
    async (request, reply) => {
      const data = { items: await service.list() };
      if (unchangedAnswer(request, reply, data)) return reply.code(304).send(null);
      return { data };
    },
  );

  app.post(
    '/api/staff/status-messages',
    {
      onRequest: app.staffOnly(ROLE),
      schema: {
        tags: ['staff'],
        summary: 'Publish or schedule a status message (content)',
        description:
          'Title and body in Faroese and English. Shown from `activeFrom` (absent or past: now) until `activeTo` (absent: until ended); an `activeTo` not after the start is 400 STATUS_WINDOW_INVALID. The same rule as `npm run operator -- status publish`: the message and its audit entry `status publish` (with the staff member and the optional reason) are written in one transaction, and POST /api/status answers the message inside its window from then on. `urgent: true` also writes a notification to every customer with a push device in that transaction, pushed when the message starts, even in quiet hours (not to those who switched status pushes off).',
        security,
        body: staffStatusPublishRequest,
        response: {
          201: dataEnvelope(staffStatusMessage),
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (request, reply) => {
      const data = await service.publish(request.body, requireStaff(request));
      return reply.status(201).send({ data });
    },
  );

  app.post(
    '/api/staff/status-messages/:id/end',
    {
      onRequest: app.staffOnly(ROLE),
      preValidation: reasonRequired,
      schema: {
        tags: ['staff'],
        summary: 'End a status message now (content)',
        description:
          'With a reason (400 STAFF_REASON_REQUIRED without one). The window closes now (a scheduled message never shows); POST /api/status stops answering it at once. 404 NOT_FOUND for an unknown id, 409 STAFF_ACTION_NOT_ALLOWED for a message that has ended already. Audited as `status end`, as `npm run operator -- status end`.',
        security,
        params: staffStatusMessageParams,
        body: staffStatusEndRequest,
        response: {
          200: dataEnvelope(staffStatusMessage),
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
    },
    async (request) => ({
      data: await service.end(request.params.id, request.body.reason, requireStaff(request)),
    }),
  );
};
