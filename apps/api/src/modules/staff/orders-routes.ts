import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dataEnvelope } from '@alda/contract/envelope';
import {
  staffOrderDetail,
  staffOrderOptionalReasonRequest,
  staffOrderReasonRequest,
  staffOrdersPage,
  staffOrdersQuery,
  staffPortCorrectionRequest,
} from '@alda/contract/schemas/staff-orders';
import { errorResponses } from '../../http';
import { requestLocale } from '../../i18n';
import { requireStaff } from '../../plugins/staff-auth';
import { notModified, unchangedAnswer } from './poll-etag';
import { reasonRequired } from './reason-required';
import type { StaffOrdersService } from './orders-service';

/*
 * The staff console's orders area — `/api/staff/orders*`, tag `staff`
 * (docs/decisions/0075-staff-console.md). Reading the queue and an order, and the port
 * correction: `support` and `provisioning`; the provisioning commands advance / complete / fail /
 * retry: `provisioning` only. `admin` passes every guard; `content` is refused (403). The rules
 * are the operator service's (`npm run operator`), through orders-service.ts.
 */

const security = [{ staffBearer: [] }];
const byId = z.object({ id: z.uuid() });
const READERS = ['support', 'provisioning'] as const;

const COMMANDS = {
  advance: {
    summary: "Perform the order's next step now (provisioning)",
    description:
      'What the worker would do at the due time, now (e.g. the shop handed the SIM over). A reason is optional; when given it is written on the step the customer sees. Refused for a failed order (retry it first), a complete or cancelled one: 409 STAFF_ACTION_NOT_ALLOWED.',
    reasonRequired: false,
  },
  complete: {
    summary: 'Complete the order now: the line becomes active (provisioning)',
    description:
      'SPEC §4 "Subscription processing can take days": the steps still to come are skipped, the line is active. The reason is required (400 STAFF_REASON_REQUIRED): the customer sees it on the order. 409 STAFF_ACTION_NOT_ALLOWED for a complete or cancelled order.',
    reasonRequired: true,
  },
  fail: {
    summary: 'Stop the order with a reason the customer sees (provisioning)',
    description:
      'The order stops with the step `failed` until retried. The reason is required (400 STAFF_REASON_REQUIRED): the customer sees it on the order. 409 STAFF_ACTION_NOT_ALLOWED when it has already failed, is complete or cancelled.',
    reasonRequired: true,
  },
  retry: {
    summary: 'Retry a failed order or a rejected port (provisioning)',
    description:
      "The step that was due is due again now; the worker performs it (a rejected port is asked again with the SIM card number the order holds — the customer's correction, if entered). A reason is optional. 409 STAFF_ACTION_NOT_ALLOWED unless the last step is `failed` or `port_rejected`.",
    reasonRequired: false,
  },
} as const;

export const staffOrdersRoutes: FastifyPluginAsyncZod<{ service: StaffOrdersService }> = async (
  app,
  { service },
) => {
  app.get(
    '/api/staff/orders',
    {
      onRequest: app.staffOnly(...READERS),
      schema: {
        tags: ['staff'],
        summary: 'The provisioning queue, by state (support, provisioning)',
        description:
          "Orders in provisioning in `state` (default `processing`), newest first, with the customer's name, the number, the kind, where it stands, its last step and when the next is due; `q` narrows to an order id or its start (8 characters or more), a number (6 digits, +298 and spaces allowed) or its start, or part of a customer's name (case and Faroese letters folded: “gudrun” finds Guðrun) or e-mail. `counts` says how many open orders each filter has. `late`: the next step is more than one step period (`stepS`, PROVISIONING_STEP_S) past its due time — the worker is behind or the step keeps failing. The filters are those of `npm run operator -- orders --state`. Paging as the audit log's: at most `limit` orders; `nextBefore` is the last one's id while there are older ones (null on the last page), passed as `before` for the next page with the same `state` and `q` (keyset on the time and id, so orders placed meanwhile do not shift the pages; `q` searches every order of the filter). A `before` that is no order is left out (the newest page), as in GET /api/staff/audit. Polled: the answer has an ETag (each page its own); with a matching If-None-Match it is 304.",
        security,
        querystring: staffOrdersQuery,
        response: {
          200: dataEnvelope(staffOrdersPage),
          304: notModified,
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (request, reply) => {
      const data = await service.list(request.query, requestLocale(request));
      if (unchangedAnswer(request, reply, data)) return reply.code(304).send(null);
      return { data };
    },
  );

  app.get(
    '/api/staff/orders/:id',
    {
      onRequest: app.staffOnly(...READERS),
      schema: {
        tags: ['staff'],
        summary: 'One order: its step timeline, the port rejection and correction, the commands',
        description:
          "The steps with who performed each (network, worker, customer, `operator:<name>`, `staff:<email>`), the network's reason code in words and an operator's reason; for a port, the other provider's rejection and the correction the customer (or support) entered; the customer and the line; which commands the order's state allows (`actions`, the operator service's rule) and the commands given on it (`history`, from the audit log). Texts in the staff member's language. 404 NOT_FOUND for an id that is not an order in provisioning. Polled: the answer has an ETag; with a matching If-None-Match it is 304.",
        security,
        params: byId,
        response: {
          200: dataEnvelope(staffOrderDetail),
          304: notModified,
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const data = await service.detail(request.params.id, requestLocale(request));
      if (unchangedAnswer(request, reply, data)) return reply.code(304).send(null);
      return { data };
    },
  );

  for (const [verb, doc] of Object.entries(COMMANDS) as [
    keyof typeof COMMANDS,
    (typeof COMMANDS)[keyof typeof COMMANDS],
  ][]) {
    app.post(
      `/api/staff/orders/:id/${verb}`,
      {
        onRequest: app.staffOnly('provisioning'),
        ...(doc.reasonRequired ? { preValidation: reasonRequired } : {}),
        schema: {
          tags: ['staff'],
          summary: doc.summary,
          description: `${doc.description} The same rules as \`npm run operator -- ${verb}\`; one audit entry \`order.${verb}\` (\`staff:<email>\`, the reason) in the transaction of the change. Answers the order as GET /api/staff/orders/{id}.`,
          security,
          params: byId,
          body: doc.reasonRequired ? staffOrderReasonRequest : staffOrderOptionalReasonRequest,
          response: {
            200: dataEnvelope(staffOrderDetail),
            ...errorResponses(400, 401, 403, 404, 409),
          },
        },
      },
      async (request) => {
        const reason = (request.body as { reason?: string }).reason || undefined;
        return {
          data: await service.command(
            verb,
            request.params.id,
            reason,
            requireStaff(request),
            requestLocale(request),
          ),
        };
      },
    );
  }

  app.post(
    '/api/staff/orders/:id/port-correction',
    {
      onRequest: app.staffOnly(...READERS),
      preValidation: reasonRequired,
      schema: {
        tags: ['staff'],
        summary: "Enter a rejected port's corrected SIM card number for the customer",
        description:
          "What the customer does with PATCH /api/orders/{id}/porting, on their behalf (support on the phone with them): the same rule — only while the order waits for the customer's correction (409 STAFF_ACTION_NOT_ALLOWED otherwise), an ICCID of ITU-T E.118 (400 VALIDATION_FAILED INVALID_SIMCARD_NUMBER) — and the port is asked again one step time later. With a reason (400 STAFF_REASON_REQUIRED); one audit entry `order.port-correction` (the new and the previous number in details) in the same transaction.",
        security,
        params: byId,
        body: staffPortCorrectionRequest,
        response: {
          200: dataEnvelope(staffOrderDetail),
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
    },
    async (request) => ({
      data: await service.correctPort(
        request.params.id,
        request.body,
        requireStaff(request),
        requestLocale(request),
      ),
    }),
  );
};
