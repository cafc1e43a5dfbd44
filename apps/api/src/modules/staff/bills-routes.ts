import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dataEnvelope } from '@alda/contract/envelope';
import { billResponse } from '@alda/contract/schemas/bills';
import {
  resendBillRequest,
  resendBillResponse,
  staffBillsResponse,
} from '@alda/contract/schemas/staff-bills';
import { errorResponses } from '../../http';
import { requestLocale } from '../../i18n';
import { envelope } from '../../plugins/error-handler';
import { requireStaff } from '../../plugins/staff-auth';
import type { BillService } from '../bills/service';
import type { StaffCustomersService } from './customers-service';

/*
 * A customer's monthly bills in the staff console — `/api/staff/customers/:id/bills`,
 * `/api/staff/bills/:id*`, tag `staff` (docs/decisions/0098-monthly-bill.md). Role `support`
 * (and `admin`), on a customer this staff session has opened with a reason, like the rest of
 * the customer's personal data (ADR 0075).
 */

const security = [{ staffBearer: [] }];
const byId = z.object({ id: z.uuid() });

export const staffBillsRoutes: FastifyPluginAsyncZod<{
  bills: BillService;
  customers: StaffCustomersService;
}> = async (app, { bills, customers }) => {
  app.get(
    '/api/staff/customers/:id/bills',
    {
      onRequest: app.staffOnly('support'),
      schema: {
        tags: ['staff'],
        summary: "A customer's monthly bills, newest first (support)",
        description:
          '403 STAFF_REASON_REQUIRED until this staff session has opened the customer with a reason (POST /api/staff/customers/{id}/access).',
        security,
        params: byId,
        response: { 200: dataEnvelope(staffBillsResponse), ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const staff = requireStaff(request);
      if (!(await customers.granted(request.params.id, staff)))
        return reply.status(403).send(envelope('STAFF_REASON_REQUIRED', requestLocale(request)));
      return { data: await bills.listForStaff(request.params.id) };
    },
  );

  app.get(
    '/api/staff/bills/:id',
    {
      onRequest: app.staffOnly('support'),
      schema: {
        tags: ['staff'],
        summary: 'One bill with its sections, items and payment (support)',
        description:
          "403 STAFF_REASON_REQUIRED until the bill's customer is opened in this staff session; 404 NOT_FOUND for an unknown bill. A bill whose customer was deleted (anonymised) is shown without a grant: it names nobody.",
        security,
        params: byId,
        response: { 200: dataEnvelope(billResponse), ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const staff = requireStaff(request);
      const locale = requestLocale(request);
      const found = await bills.getForStaff(request.params.id, locale);
      if (!found) return reply.status(404).send(envelope('NOT_FOUND', locale));
      if (found.payerUserId && !(await customers.granted(found.payerUserId, staff)))
        return reply.status(403).send(envelope('STAFF_REASON_REQUIRED', locale));
      return { data: found.bill };
    },
  );

  app.post(
    '/api/staff/bills/:id/resend',
    {
      onRequest: app.staffOnly('support'),
      schema: {
        tags: ['staff'],
        summary: 'E-mail a bill to its customer again (support, audited)',
        description:
          "With a reason (a ticket or call reference): sends the bill's PDF to the customer's e-mail address as it is now, in their language, and records `bill.resend` in the audit log. 403 STAFF_REASON_REQUIRED until the customer is opened in this session; 404 NOT_FOUND for an unknown bill or one whose customer is gone; 503 BILL_EMAIL_FAILED when the mail is refused (nothing is recorded).",
        security,
        params: byId,
        body: resendBillRequest,
        response: {
          200: dataEnvelope(resendBillResponse),
          ...errorResponses(400, 401, 403, 404, 503),
        },
      },
    },
    async (request, reply) => {
      const staff = requireStaff(request);
      const locale = requestLocale(request);
      const found = await bills.getForStaff(request.params.id, locale);
      if (!found?.payerUserId) return reply.status(404).send(envelope('NOT_FOUND', locale));
      if (!(await customers.granted(found.payerUserId, staff)))
        return reply.status(403).send(envelope('STAFF_REASON_REQUIRED', locale));
      return { data: await bills.resend(request.params.id, request.body.reason, staff) };
    },
  );
};
