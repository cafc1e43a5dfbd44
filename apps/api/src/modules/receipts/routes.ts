import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dataEnvelope } from '@alda/contract/envelope';
import { idParams } from '@alda/contract/schemas/common';
import {
  emailReceiptResponse,
  receiptPdfLinkResponse,
  receiptResponse,
  receiptsResponse,
} from '@alda/contract/schemas/receipts';
import { errorResponses } from '../../http';
import { requestLocale } from '../../i18n';
import { requireUser } from '../../plugins/auth';
import type { ReceiptService } from './service';

/** GET /api/receipts?page=0&perPage=20 (query values arrive as strings). */
const receiptsQuery = z.object({
  page: z.coerce.number().int().nonnegative().default(0),
  perPage: z.coerce.number().int().positive().max(100).default(20),
});

/** The pre-signed query of a receipt link; a link missing a part is as dead as a forged one. */
const receiptLinkQuery = z.object({
  lang: z.string().max(10).default(''),
  expires: z.coerce.number().int().nonnegative().default(0),
  signature: z.string().max(100).default(''),
});

export const receiptRoutes: FastifyPluginAsyncZod<{ service: ReceiptService }> = async (
  app,
  { service },
) => {
  app.get(
    '/api/receipts',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['receipts'],
        summary: "The caller's receipts, newest first (SPEC §1 download or email receipts)",
        description:
          'One receipt per paid payment with an amount: number `K-YYYY-NNNNNN`, lines, VAT 25 % and totals with and without VAT. Pages from 0.',
        security: [{ bearerAuth: [] }],
        querystring: receiptsQuery,
        response: { 200: dataEnvelope(receiptsResponse), ...errorResponses(400, 401) },
      },
    },
    async (request) => ({
      data: await service.list(
        requireUser(request).id,
        request.query.page,
        request.query.perPage,
        requestLocale(request),
      ),
    }),
  );

  app.get(
    '/api/receipts/:id',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['receipts'],
        summary: 'One receipt (SPEC §8 receipt fetch)',
        description: "404 NOT_FOUND for an unknown id or another customer's receipt.",
        security: [{ bearerAuth: [] }],
        params: idParams,
        response: { 200: dataEnvelope(receiptResponse), ...errorResponses(401, 404) },
      },
    },
    async (request) => ({
      data: await service.get(requireUser(request).id, request.params.id, requestLocale(request)),
    }),
  );

  app.get(
    '/api/receipts/:id/pdf',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['receipts'],
        summary: 'The receipt as a PDF (SPEC §8 receipt download)',
        description:
          "An A4 PDF in the language of Accept-Language (Faroese or English), sent as an attachment `kvittan-<number>.pdf`. 404 NOT_FOUND for an unknown id or another customer's receipt.",
        security: [{ bearerAuth: [] }],
        params: idParams,
        produces: ['application/pdf'],
        response: {
          200: z.instanceof(Buffer).describe('The receipt, application/pdf'),
          ...errorResponses(401, 404),
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
    '/api/receipts/:id/pdf-link',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['receipts'],
        summary: 'A short-lived link to the receipt PDF (native shell, ADR 0054)',
        description:
          "For a viewer without the access token (the native app's in-app browser): `path` (relative to `/api`) serves the PDF, in the language of Accept-Language, for 5 minutes. 404 NOT_FOUND for an unknown id or another customer's receipt.",
        security: [{ bearerAuth: [] }],
        params: idParams,
        response: { 200: dataEnvelope(receiptPdfLinkResponse), ...errorResponses(401, 404) },
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
    '/api/receipt-files/:id',
    {
      schema: {
        tags: ['receipts'],
        summary: 'The receipt PDF a link from POST /api/receipts/{id}/pdf-link names',
        description:
          'No access token: the pre-signed query (`lang`, `expires`, `signature`) is the permission, for one receipt in one language until it expires. Shown inline (the in-app browser displays it). 404 NOT_FOUND for a forged, altered or expired link.',
        params: idParams,
        querystring: receiptLinkQuery,
        produces: ['application/pdf'],
        response: {
          200: z.instanceof(Buffer).describe('The receipt, application/pdf'),
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
    '/api/receipts/:id/email',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['receipts'],
        summary: 'E-mail the receipt as a PDF attachment (SPEC §8 receipt email)',
        description:
          "Sends the receipt PDF to the caller's e-mail address; answers the address. 404 NOT_FOUND for another customer's receipt; 503 RECEIPT_EMAIL_FAILED when the mail could not be sent.",
        security: [{ bearerAuth: [] }],
        params: idParams,
        response: { 200: dataEnvelope(emailReceiptResponse), ...errorResponses(401, 404, 503) },
      },
    },
    async (request) => ({
      data: await service.email(requireUser(request).id, request.params.id, requestLocale(request)),
    }),
  );
};
