import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataEnvelope } from '@alda/contract/envelope';
import { idParams } from '@alda/contract/schemas/common';
import { packageOffer, packagesResponse } from '@alda/contract/schemas/packages';
import { errorResponses } from '../../http';
import { requestLocale } from '../../i18n';
import type { PackageService } from './service';

export const packageRoutes: FastifyPluginAsyncZod<{ service: PackageService }> = async (
  app,
  { service },
) => {
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
        response: { 200: dataEnvelope(packagesResponse), ...errorResponses(401) },
      },
    },
    async (request) => ({ data: await service.list(requestLocale(request)) }),
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
};
