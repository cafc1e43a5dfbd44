import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dataEnvelope } from '@alda/contract/envelope';
import {
  staffCustomerAccess,
  staffCustomerAccessRequest,
  staffCustomerActionRequest,
  staffCustomerSearchQuery,
  staffCustomerSearchResult,
  staffCustomerView,
  staffResendResult,
  staffSignOutEverywhereResult,
} from '@alda/contract/schemas/staff-customers';
import { errorResponses } from '../../http';
import { requestLocale } from '../../i18n';
import { envelope } from '../../plugins/error-handler';
import { requireStaff } from '../../plugins/staff-auth';
import type { StaffCustomersService } from './customers-service';
import { notModified, unchangedAnswer } from './poll-etag';

/*
 * The staff console's customers area — `/api/staff/customers*`, tag `staff`
 * (docs/decisions/0075-staff-console.md). Reading: `support` and `provisioning`; the support
 * actions (sign out everywhere, resend a message): `support`. `admin` passes every guard. The
 * rules are in customers-service.ts.
 */

const security = [{ staffBearer: [] }];
const byId = z.object({ id: z.uuid() });
const byMessage = z.object({ id: z.uuid(), messageId: z.uuid() });

export const staffCustomersRoutes: FastifyPluginAsyncZod<{
  service: StaffCustomersService;
}> = async (app, { service }) => {
  app.get(
    '/api/staff/customers',
    {
      onRequest: app.staffOnly('support', 'provisioning'),
      schema: {
        tags: ['staff'],
        summary: 'Find customers by number, e-mail, name, ICCID, order id or customer id',
        description:
          'At most 20 customers, each with name, e-mail, numbers and what matched — no address or other personal data (opening a customer asks for a reason: POST …/access). A phone number is 6 digits (with or without +298 and spaces; 2–5 digits find numbers starting so); an ICCID 10 digits or more (its start is enough); a name is matched word by word on first and last name, case and Faroese letters folded (“gudrun” finds Guðrun). Every search is recorded in the audit log (`customer.search`, kind read, the query in details). 400 for a query shorter than 2 characters.',
        security,
        querystring: staffCustomerSearchQuery,
        response: {
          200: dataEnvelope(staffCustomerSearchResult),
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (request) => ({ data: await service.search(request.query.q, requireStaff(request)) }),
  );

  app.post(
    '/api/staff/customers/:id/access',
    {
      onRequest: app.staffOnly('support', 'provisioning'),
      schema: {
        tags: ['staff'],
        summary: "Open a customer's personal data, with a reason (ticket or call reference)",
        description:
          'Records `customer.open` (kind read) with the reason and this staff session in the audit log. That entry is the access grant: GET /api/staff/customers/{id} answers for this staff session only. A new session must give a reason again. 404 for an unknown customer.',
        security,
        params: byId,
        body: staffCustomerAccessRequest,
        response: {
          201: dataEnvelope(staffCustomerAccess),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const data = await service.open(
        request.params.id,
        request.body.reason,
        requireStaff(request),
      );
      return reply.status(201).send({ data });
    },
  );

  app.get(
    '/api/staff/customers/:id',
    {
      onRequest: app.staffOnly('support', 'provisioning'),
      schema: {
        tags: ['staff'],
        summary: 'The customer view: profile, lines, family, orders, payments, messages, sessions',
        description:
          "Profile, lines (plan, status, SIM, prepaid, family role; the number lock with when a waiting unlock opens, the latest SIM change and the latest five port-out requests with why each was refused), the family account, orders with their provisioning steps (who did each, a rejected port's reason and the customer's correction), payments with refunds (card brand and last four digits only), receipts, in-app notifications, SMS and e-mails kept by the outbox adapters, sessions and devices, and the customer's activity log — texts in the staff member's language. Only after POST …/access in this staff session: otherwise 403 STAFF_REASON_REQUIRED. Polled: the answer has an ETag; with a matching If-None-Match it is 304.",
        security,
        params: byId,
        response: {
          200: dataEnvelope(staffCustomerView),
          304: notModified,
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const staff = requireStaff(request);
      const locale = requestLocale(request);
      if (!(await service.granted(request.params.id, staff))) {
        // The grant is missing, not the caller's right to the area: 403 with the code that
        // says what to do (give a reason), as the console asks for one.
        return reply.status(403).send(envelope('STAFF_REASON_REQUIRED', locale));
      }
      const data = await service.view(request.params.id, locale);
      if (unchangedAnswer(request, reply, data)) return reply.status(304).send(null);
      return { data };
    },
  );

  app.post(
    '/api/staff/customers/:id/sign-out-everywhere',
    {
      onRequest: app.staffOnly('support'),
      schema: {
        tags: ['staff'],
        summary: 'End every session of the customer (support), with a reason',
        description:
          "The same revocation as the customer's own sign-out: sessions and refresh tokens end at once on every instance. Recorded as `customer.sign-out-everywhere` (kind change) in the same transaction. Answers how many sessions ended.",
        security,
        params: byId,
        body: staffCustomerActionRequest,
        response: {
          200: dataEnvelope(staffSignOutEverywhereResult),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) => ({
      data: await service.signOutEverywhere(
        request.params.id,
        request.body.reason,
        requireStaff(request),
      ),
    }),
  );

  app.post(
    '/api/staff/customers/:id/messages/:messageId/resend',
    {
      onRequest: app.staffOnly('support'),
      schema: {
        tags: ['staff'],
        summary: 'Send a message to the customer again (support), with a reason',
        description:
          "For a message of the customer view (`messages.items`): a receipt e-mail is sent anew by the receipts service (with its PDF, to the address as it is now); another e-mail as it was. One-time SMS codes, password-reset links and e-mails with a file the outbox did not keep are never resent: 409 STAFF_ACTION_NOT_ALLOWED (the view marks them `resendable: false`). 404 for a message that is not this customer's. Recorded as `customer.message-resend` (kind change).",
        security,
        params: byMessage,
        body: staffCustomerActionRequest,
        response: {
          200: dataEnvelope(staffResendResult),
          ...errorResponses(400, 401, 403, 404, 409, 503),
        },
      },
    },
    async (request) => ({
      data: await service.resend(
        request.params.id,
        request.params.messageId,
        request.body.reason,
        requireStaff(request),
      ),
    }),
  );
};
