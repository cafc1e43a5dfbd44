import { serializerCompiler, type FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dataEnvelope } from '@alda/contract/envelope';
import { idParams } from '@alda/contract/schemas/common';
import { orderPlacedResponse } from '@alda/contract/schemas/orders';
import {
  packageOffer,
  packagesResponse,
  purchasePackageRequest,
} from '@alda/contract/schemas/packages';
import type { ReferenceMemory } from '../../db/reference-memory';
import { PRIVATE_REVALIDATE, sendKept } from '../../etag';
import { errorResponses } from '../../http';
import { requestLocale } from '../../i18n';
import { purchaseOf } from '../orders/placing';
import type { PackagePurchaseService } from './purchase';
import type { PackageService } from './service';

export const packageRoutes: FastifyPluginAsyncZod<{
  service: PackageService;
  purchases: PackagePurchaseService;
  reference: ReferenceMemory;
}> = async (app, { service, purchases, reference }) => {
  const serialize = serializerCompiler({
    schema: dataEnvelope(packagesResponse),
    method: 'GET',
    url: '/api/packages',
  });
  app.get(
    '/api/packages',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['packages'],
        summary: 'Extra packages for sale (SPEC §1, §7)',
        description:
          'Data and EU data packages on offer. A package is valid until the end of the current month in Atlantic/Faroe (`validUntil`); prices with and without VAT.',
        security: [{ bearerAuth: [] }],
        response: {
          200: dataEnvelope(packagesResponse),
          304: z.null().describe('Not modified: the offer is as in If-None-Match'),
          ...errorResponses(401),
        },
      },
    },
    async (request, reply) => {
      const locale = requestLocale(request);
      // Kept in memory per language and month (`validUntil` is the month's end) until the
      // catalogue changes (ADR 0057).
      const kept = await reference.answer(`packages:${locale}:${service.offerMonth()}`, async () =>
        serialize({ data: await service.list(locale) }),
      );
      return sendKept(request, reply, kept, PRIVATE_REVALIDATE);
    },
  );

  app.get(
    '/api/packages/:id',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['packages'],
        summary: 'One extra package (SPEC §7)',
        description: '404 NOT_FOUND for an unknown or withdrawn package.',
        security: [{ bearerAuth: [] }],
        params: idParams,
        response: { 200: dataEnvelope(packageOffer), ...errorResponses(401, 404) },
      },
    },
    async (request) => ({ data: await service.get(request.params.id, requestLocale(request)) }),
  );

  app.post(
    '/api/packages',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['packages'],
        summary: 'Buy an extra package (SPEC §1, §7 POST packages)',
        description:
          "Buys a package for one of the caller's numbers, or as a family owner for a member's. Send an `Idempotency-Key` header (400 IDEMPOTENCY_KEY_REQUIRED without): a retry answers the first order; the same key with another body 422 IDEMPOTENCY_KEY_REUSED. 404 NOT_FOUND for an unknown package, NUMBER_NOT_FOUND for a number that is not the caller's; 422 PACKAGE_NOT_AVAILABLE for a withdrawn package, a data package on a prepaid number or an EU package without the EU package; 409 AGREEMENT_REQUIRED for `payWith: 'agreement'` without a card on file; 503 PAYMENT_PROVIDER_UNAVAILABLE. `paymentUrl` is the provider's card page (null when charged to the card on file); the data is added, valid until the end of the month (Atlantic/Faroe), once the payment is paid.",
        security: [{ bearerAuth: [] }],
        body: purchasePackageRequest,
        response: {
          201: dataEnvelope(orderPlacedResponse),
          ...errorResponses(400, 401, 404, 409, 422, 503),
        },
      },
    },
    async (request, reply) => {
      const placed = await purchases.purchase(
        purchaseOf(request, 'POST /api/packages'),
        request.body,
      );
      return reply.code(201).send({ data: placed });
    },
  );
};
