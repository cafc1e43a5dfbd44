import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dataEnvelope } from '@alda/contract/envelope';
import { idParams } from '@alda/contract/schemas/common';
import {
  emailReceiptResponse,
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
