import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dataEnvelope } from '@alda/contract/envelope';
import {
  staffPaymentDetail,
  staffPaymentsPage,
  staffPaymentsQuery,
  staffRefund,
  staffRefundRequest,
} from '@alda/contract/schemas/staff-payments';
import { errorResponses } from '../../http';
import { requireStaff } from '../../plugins/staff-auth';
import type { StaffPaymentsService } from './payments-service';
import { notModified, unchangedAnswer } from './poll-etag';

/*
 * The staff console's payments area — `/api/staff/payments*`, tag `staff`
 * (docs/decisions/0075-staff-console.md). Role `support` (and `admin`): reading payments and
 * refunding them (the reasoning is in payments-service.ts).
 */

const security = [{ staffBearer: [] }];
const byId = z.object({ id: z.uuid() });

export const staffPaymentsRoutes: FastifyPluginAsyncZod<{ service: StaffPaymentsService }> = async (
  app,
  { service },
) => {
  app.get(
    '/api/staff/payments',
    {
      onRequest: app.staffOnly('support'),
      schema: {
        tags: ['staff'],
        summary: 'Recent payments; search by payment, order or provider id, phone, e-mail or name',
        description:
          "Newest first. `q` finds a payment or order by id, the provider's payment id, a customer by phone number (6 digits, +298 and spaces allowed; also the number the order was for), e-mail (from its start) or name. A search is recorded in the audit log (`payment.search`, kind read) once per session. Paging as the audit log's: at most `limit` rows; `nextBefore` is the last row's id while there are older ones (null on the last page), passed as `before` for the next page with the same `q` and `state` (keyset on the time and id, so rows that arrive meanwhile do not shift the pages). A `before` that is no payment is left out (the newest page), as in GET /api/staff/audit. Polled: the answer has an ETag (each page its own); with a matching If-None-Match it is 304.",
        security,
        querystring: staffPaymentsQuery,
        response: {
          200: dataEnvelope(staffPaymentsPage),
          304: notModified,
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (request, reply) => {
      const data = await service.list(request.query, requireStaff(request));
      if (unchangedAnswer(request, reply, data)) return reply.code(304).send(null);
      return { data };
    },
  );

  app.get(
    '/api/staff/payments/:id',
    {
      onRequest: app.staffOnly('support'),
      schema: {
        tags: ['staff'],
        summary: "One payment: events, the provider's view, reconciliation, refunds, receipt",
        description:
          "The provider's webhooks about it, what the provider says now (`getPayment`; `unreachable` when it does not answer — the rest is answered anyway), the reconciliation verdict by the job's rule, the refunds and the receipt. Opening it is recorded in the audit log (`payment.view`, kind read) once per session. Polled: ETag / If-None-Match as the list.",
        security,
        params: byId,
        response: {
          200: dataEnvelope(staffPaymentDetail),
          304: notModified,
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const data = await service.detail(request.params.id, requireStaff(request));
      if (unchangedAnswer(request, reply, data)) return reply.code(304).send(null);
      return { data };
    },
  );

  app.post(
    '/api/staff/payments/:id/refunds',
    {
      onRequest: app.staffOnly('support'),
      schema: {
        tags: ['staff'],
        summary: 'Refund a paid payment, in full or in part (support)',
        description:
          'With a reason (a ticket or call reference). In one transaction the payment is locked, the amount checked against what is left (paid, less refunds done or pending; 409 REFUND_TOO_LARGE), the refund written as pending and the audit entry `payment.refund` recorded. A payment that is not paid is 409 STAFF_ACTION_NOT_ALLOWED. The refund job then sends it to the provider (the refund id is the idempotency key) and marks it refunded; the customer is told and sees it in the activity log.',
        security,
        params: byId,
        body: staffRefundRequest,
        response: { 201: dataEnvelope(staffRefund), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const data = await service.refund(request.params.id, request.body, requireStaff(request));
      return reply.status(201).send({ data });
    },
  );
};
