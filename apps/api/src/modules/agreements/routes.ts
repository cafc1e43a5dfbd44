import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataEnvelope } from '@alda/contract/envelope';
import { agreementResponse } from '@alda/contract/schemas/agreements';
import { errorResponses } from '../../http';
import { requireUser } from '../../plugins/auth';
import type { AgreementService } from './service';

export const agreementRoutes: FastifyPluginAsyncZod<{ service: AgreementService }> = async (
  app,
  { service },
) => {
  app.get(
    '/api/agreements',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['agreements'],
        summary: "The caller's payment agreement (SPEC §2 profile.agreement, §7)",
        description:
          'The newest agreement that is not cancelled (pending, active or expired), or `null`. Only the card brand, last four digits and expiry are kept; the card stays with the payment provider.',
        security: [{ bearerAuth: [] }],
        response: { 200: dataEnvelope(agreementResponse), ...errorResponses(401) },
      },
    },
    async (request) => ({ data: await service.current(requireUser(request).id) }),
  );
};
