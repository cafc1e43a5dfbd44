import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataEnvelope } from '@alda/contract/envelope';
import {
  staffNumberParams,
  staffNumberRelease,
  staffNumberReleaseRequest,
  staffNumbersPage,
  staffNumbersQuery,
} from '@alda/contract/schemas/staff-numbers';
import { errorResponses } from '../../http';
import { requireStaff } from '../../plugins/staff-auth';
import type { StaffNumbersService } from './numbers-service';
import { notModified, unchangedAnswer } from './poll-etag';
import { reasonRequired } from './reason-required';

/*
 * The staff console's number inventory — `/api/staff/numbers*`, tag `staff`
 * (docs/decisions/0075-staff-console.md). Roles `support` and `provisioning` (and `admin`);
 * `content` is refused (403). The rules are in numbers-service.ts and the phone-lines module.
 */

const security = [{ staffBearer: [] }];
const ROLES = ['support', 'provisioning'] as const;

export const staffNumbersRoutes: FastifyPluginAsyncZod<{ service: StaffNumbersService }> = async (
  app,
  { service },
) => {
  app.get(
    '/api/staff/numbers',
    {
      onRequest: app.staffOnly(...ROLES),
      schema: {
        tags: ['staff'],
        summary: 'The number inventory: free, reserved, quarantined or in-use numbers',
        description:
          "A page of the numbers in `state` (default `quarantined`) that contain the digits of `q`, in number order (page on with `after` = the answer's `nextAfter`), and how many numbers match `q` in each state. `in-use`: a live line (its status), or a customer's own registered number without a line of ours (status null); `quarantined`: its line was cancelled less than NUMBER_QUARANTINE_DAYS ago and it was not released since (when, when the quarantine ends, and whether it is also a customer's own number); `reserved`: a sign-up reservation (until when, and the customer's id — no name); `free`: the numbers of the number plan that are none of those — exactly what the customer's number search offers. Polled: the answer has an ETag; with a matching If-None-Match it is 304.",
        security,
        querystring: staffNumbersQuery,
        response: {
          200: dataEnvelope(staffNumbersPage),
          304: notModified,
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (request, reply) => {
      const data = await service.list(request.query);
      if (unchangedAnswer(request, reply, data)) return reply.code(304).send(null);
      return { data };
    },
  );

  app.post(
    '/api/staff/numbers/:msisdn/release',
    {
      onRequest: app.staffOnly(...ROLES),
      preValidation: reasonRequired,
      schema: {
        tags: ['staff'],
        summary: 'Release a number from quarantine early (support, provisioning)',
        description:
          "With a reason (a ticket or call reference; 400 STAFF_REASON_REQUIRED without one). Only a number resting in quarantine now, and not a customer's own registered number (the search would not offer it anyway): otherwise 409 STAFF_ACTION_NOT_ALLOWED (404 NOT_FOUND for a number outside the number plan). In one transaction the resting line is locked, the release written (`number_releases`) and the audit entry `number.release` recorded; from then on the customer's number search offers the number and a customer can reserve it.",
        security,
        params: staffNumberParams,
        body: staffNumberReleaseRequest,
        response: {
          201: dataEnvelope(staffNumberRelease),
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
    },
    async (request, reply) => {
      const data = await service.release(
        request.params.msisdn,
        request.body.reason,
        requireStaff(request),
      );
      return reply.status(201).send({ data });
    },
  );
};
