import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dataEnvelope } from '@alda/contract/envelope';
import {
  billPdfLinkResponse,
  billResponse,
  billsResponse,
  billUsageQuery,
  billUsageResponse,
  emailBillResponse,
} from '@alda/contract/schemas/bills';
import { idParams } from '@alda/contract/schemas/common';
import { errorResponses } from '../../http';
import { requestLocale } from '../../i18n';
import { requireUser } from '../../plugins/auth';
import type { BillService } from './service';

/** The pre-signed query of a bill link; a link missing a part is as dead as a forged one. */
const billLinkQuery = z.object({
  lang: z.string().max(10).default(''),
  expires: z.coerce.number().int().nonnegative().default(0),
  signature: z.string().max(100).default(''),
});

const security = [{ bearerAuth: [] }];

/** The monthly bills (docs/decisions/0098-monthly-bill.md). */
export const billRoutes: FastifyPluginAsyncZod<{ service: BillService }> = async (
  app,
  { service },
) => {
  app.get(
    '/api/bills',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['bills'],
        summary: "The caller's monthly bills, newest first",
        description:
          "One bill per paying customer per Faroese month, made at the month end: the bills the caller pays (`scope: payer`) and those listing a number of theirs on the family owner's bill (`scope: member`: the totals and state are of their own numbers only). State `open`, `paid`, `partly_paid` or `overdue` (after the due date, 14 days from issue).",
        security,
        response: { 200: dataEnvelope(billsResponse), ...errorResponses(401) },
      },
    },
    async (request) => ({
      data: await service.list(requireUser(request).id, requestLocale(request)),
    }),
  );

  app.get(
    '/api/bills/:id',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['bills'],
        summary: 'One bill: a section per number, VAT, payment or bank transfer details',
        description:
          "Sections per number (the payer's own first, then family members'), each with its items and subtotal; totals with VAT 25 % split out; how it was paid, or `bankTransfer` (account, IBAN, payment reference, amount, due date) while something is owed. A family member sees only their own numbers' sections. 404 NOT_FOUND for a bill that is not the caller's.",
        security,
        params: idParams,
        response: { 200: dataEnvelope(billResponse), ...errorResponses(401, 404) },
      },
    },
    async (request) => ({
      data: await service.get(requireUser(request).id, request.params.id, requestLocale(request)),
    }),
  );

  app.get(
    '/api/bills/:id/usage',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['bills'],
        summary: "A number's itemised use in the bill's month",
        description:
          "Calls, SMS and data sessions of the month from the usage feed, oldest first, paged (`page` from 1, `perPage` up to 200), filtered by `type`. The other party's number has its last three digits hidden unless `fullNumbers=true` on the caller's own number (never on a family member's number on the owner's bill). Use older than six months is not kept: `expired: true` and no items. 404 NOT_FOUND for a bill or number the caller may not see.",
        security,
        params: idParams,
        querystring: billUsageQuery,
        response: { 200: dataEnvelope(billUsageResponse), ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => ({
      data: await service.usage(requireUser(request).id, request.params.id, request.query),
    }),
  );

  app.get(
    '/api/bills/:id/pdf',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['bills'],
        summary: 'The bill as a PDF',
        description:
          "A tagged A4 PDF with an embedded font, in the language of Accept-Language, as an attachment `rokning-<number>.pdf`. The payer only: 403 FORBIDDEN for a family member, 404 NOT_FOUND for a bill that is not the caller's.",
        security,
        params: idParams,
        produces: ['application/pdf'],
        response: {
          200: z.instanceof(Buffer).describe('The bill, application/pdf'),
          ...errorResponses(401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const { filename, content } = await service.pdf(
        requireUser(request).id,
        request.params.id,
        requestLocale(request),
      );
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'private, no-store')
        .send(content);
    },
  );

  app.post(
    '/api/bills/:id/pdf-link',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['bills'],
        summary: 'A short-lived link to the bill PDF (native shell)',
        description:
          'As for receipts (ADR 0054): `path` (relative to `/api`) serves the PDF without the access token, in the language of Accept-Language, for 5 minutes. The payer only (403 FORBIDDEN for a member).',
        security,
        params: idParams,
        response: { 200: dataEnvelope(billPdfLinkResponse), ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => ({
      data: await service.pdfLink(
        requireUser(request).id,
        request.params.id,
        requestLocale(request),
      ),
    }),
  );

  app.get(
    '/api/bill-files/:id',
    {
      schema: {
        tags: ['bills'],
        summary: 'The bill PDF a link from POST /api/bills/{id}/pdf-link names',
        description:
          'No access token: the pre-signed query (`lang`, `expires`, `signature`) is the permission, for one bill in one language until it expires. 404 NOT_FOUND for a forged, altered or expired link.',
        params: idParams,
        querystring: billLinkQuery,
        produces: ['application/pdf'],
        response: {
          200: z.instanceof(Buffer).describe('The bill, application/pdf'),
          ...errorResponses(404),
        },
      },
    },
    async (request, reply) => {
      const { filename, content } = await service.pdfByLink(request.params.id, request.query);
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="${filename}"`)
        .header('cache-control', 'private, no-store')
        .header('referrer-policy', 'no-referrer')
        .send(content);
    },
  );

  app.post(
    '/api/bills/:id/email',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['bills'],
        summary: 'E-mail the bill as a PDF attachment',
        description:
          "Sends the bill PDF to the caller's e-mail address; answers the address. The payer only (403 FORBIDDEN for a member); 503 BILL_EMAIL_FAILED when the mail could not be sent.",
        security,
        params: idParams,
        response: { 200: dataEnvelope(emailBillResponse), ...errorResponses(401, 403, 404, 503) },
      },
    },
    async (request) => ({
      data: await service.email(requireUser(request).id, request.params.id, requestLocale(request)),
    }),
  );
};
