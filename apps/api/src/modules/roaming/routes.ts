import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataEnvelope } from '@alda/contract/envelope';
import { idParams } from '@alda/contract/schemas/common';
import { roamingCap, updateRoamingCapRequest } from '@alda/contract/schemas/roaming';
import { errorResponses } from '../../http';
import { requireUser } from '../../plugins/auth';
import type { RoamingCapService } from './service';

const ADR = 'docs/decisions/0078-roaming-spend-cap.md';

export const roamingCapRoutes: FastifyPluginAsyncZod<{ service: RoamingCapService }> = async (
  app,
  { service },
) => {
  app.patch(
    '/api/subscriptions/:id/roaming-cap',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['subscriptions'],
        summary: "The owner sets a number's monthly roaming spend cap (issue 33 §2)",
        description: `\`id\` is a member's \`id\` (the owner's own number too). Only the account owner (another member of the account 403 OWNER_ONLY; anyone else and unknown ids 404 NOT_FOUND). \`capOere\`: whole kroner, 1–10,000 kr, or \`null\` to turn the cap off; anything else 400 VALIDATION_FAILED. Raising the cap or turning it off needs \`confirmed: true\` (the app's confirmation that names the risk), else 422 ROAMING_CAP_CONFIRMATION_REQUIRED. A stopped number whose new cap is above this month's charges roams again at once; one whose cap is lowered to what is already charged stops. The network is told inside the transaction (503 NETWORK_UNAVAILABLE changes nothing). Answers the number's \`roaming\` as in GET /api/subscriptions. ${ADR}`,
        security: [{ bearerAuth: [] }],
        params: idParams,
        body: updateRoamingCapRequest,
        response: {
          200: dataEnvelope(roamingCap),
          ...errorResponses(400, 401, 403, 404, 422, 503),
        },
      },
    },
    async (request) => ({
      data: await service.set(requireUser(request).id, request.params.id, request.body),
    }),
  );
};
