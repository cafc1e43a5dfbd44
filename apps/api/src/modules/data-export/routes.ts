import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dataEnvelope } from '@alda/contract/envelope';
import { isLocale } from '@alda/contract/locale';
import { dataExport, dataExportList } from '@alda/contract/schemas/number-protection';
import { errorResponses } from '../../http';
import { requestLocale } from '../../i18n';
import { requireUser } from '../../plugins/auth';
import type { DataExportService } from './service';

/** The signed query of a download link; a link missing a part is as dead as a forged one (410). */
const downloadQuery = z.object({
  expires: z.coerce.number().int().nonnegative().max(1e12).catch(0),
  sig: z.string().max(200).catch(''),
});

/** Any id: a malformed one is a dead link (410), not a validation error. */
const downloadParams = z.object({ id: z.string().max(100) });

/** "Your data" (issue 32 part 5; GDPR Art. 15 and 20). */
export const dataExportRoutes: FastifyPluginAsyncZod<{ service: DataExportService }> = async (
  app,
  { service },
) => {
  app.post(
    '/api/profile/data-exports',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['profile'],
        summary: 'Ask for a copy of your data (GDPR Art. 15 access, Art. 20 portability)',
        description:
          "Queues a ZIP of everything Alda keeps about the caller (one JSON file per area and a README in the language of Accept-Language, else the user's). A worker prepares it; the list shows its progress, and when it is ready a notification and an e-mail bring a signed link that works for 7 days. 202 with the queued export; 409 DATA_EXPORT_PENDING while one is queued or being prepared; 429 TOO_MANY_ATTEMPTS beyond 3 a day.",
        security: [{ bearerAuth: [] }],
        response: { 202: dataEnvelope(dataExport), ...errorResponses(401, 409) },
      },
    },
    async (request, reply) => {
      const header = request.headers['accept-language'];
      const locale = header ? requestLocale(request) : undefined;
      const data = await service.request(
        requireUser(request).id,
        locale && isLocale(locale) ? locale : undefined,
      );
      return reply.status(202).send({ data });
    },
  );

  app.get(
    '/api/profile/data-exports',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['profile'],
        summary: "The caller's data exports, newest first (the last 5)",
        description:
          '`progress` 0–100 while one is prepared; `downloadUrl` (signed, no sign-in needed) only while it is `ready`. A ready export past its expiry, whose file is removed, is `expired`.',
        security: [{ bearerAuth: [] }],
        response: { 200: dataEnvelope(dataExportList), ...errorResponses(401) },
      },
    },
    async (request) => ({ data: await service.list(requireUser(request).id) }),
  );

  app.get(
    '/api/data-exports/:id/download',
    {
      schema: {
        tags: ['profile'],
        summary: 'Download a data export through its signed link (from the e-mail or the list)',
        description:
          'No access token: `expires` (unix seconds) and `sig` (HMAC-SHA256 of `<id>.<expires>` with LINK_SECRET) are the permission, until the export expires. application/zip as an attachment `alda-data-<date>.zip`. 410 DATA_EXPORT_LINK_INVALID for an expired, forged or altered link, an unknown export or a removed file.',
        params: downloadParams,
        querystring: downloadQuery,
        produces: ['application/zip'],
        response: {
          200: z.instanceof(Buffer).describe('The export, application/zip'),
          ...errorResponses(410),
        },
      },
    },
    async (request, reply) => {
      const { filename, content } = await service.download(
        request.params.id,
        request.query.expires,
        request.query.sig,
      );
      return reply
        .type('application/zip')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
        .send(content);
    },
  );
};
