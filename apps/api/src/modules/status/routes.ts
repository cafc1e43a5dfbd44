import { serializerCompiler, type FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataEnvelope } from '@alda/contract/envelope';
import { statusRequest, statusResponse } from '@alda/contract/schemas/status';
import { errorResponses, sendSerialized } from '../../http';
import { requestLocale } from '../../i18n';
import type { StatusService } from './service';

export const statusRoutes: FastifyPluginAsyncZod<{ service: StatusService }> = async (
  app,
  { service },
) => {
  const serialize = serializerCompiler({
    schema: dataEnvelope(statusResponse),
    method: 'POST',
    url: '/api/status',
  });
  app.post(
    '/api/status',
    {
      schema: {
        tags: ['status'],
        summary: 'App status check at resume (SPEC §7 Status)',
        description:
          'Upgrade flags from the configured minimum and latest app versions, and the status messages active now, in the language of Accept-Language. `isRead` is always false: the device remembers which ids it has shown.',
        body: statusRequest,
        response: { 200: dataEnvelope(statusResponse), ...errorResponses(400) },
      },
    },
    // Not async: a kept answer is sent at once, without a promise (issue 13).
    (request, reply) => {
      request.log.debug(
        { deviceMeta: request.body.deviceMeta, version: request.body.currentVersion },
        'status check',
      );
      const body = service.checkBody(request.body, requestLocale(request), (data) =>
        serialize({ data }),
      );
      if (typeof body === 'string') {
        sendSerialized(reply, body);
        return;
      }
      return body.then((text) => {
        sendSerialized(reply, text);
      });
    },
  );
};
