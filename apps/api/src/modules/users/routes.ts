import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dataEnvelope } from '@alda/contract/envelope';
import { user } from '@alda/contract/schemas/auth';
import { updateUserRequest } from '@alda/contract/schemas/profile';
import { errorResponses } from '../../http';
import { requireUser } from '../../plugins/auth';
import type { UserService } from './service';

/** The signed-in user's own record, beside GET /api/auth/me (auth module). */
export const userRoutes: FastifyPluginAsyncZod<{ service: UserService }> = async (
  app,
  { service },
) => {
  app.patch(
    '/api/auth/me',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: 'Edit the signed-in user (profile)',
        description:
          'Only the fields sent change: names, e-mail (409 EMAIL_ALREADY_REGISTERED when another user has it), address with postal code and city from the locality list (sent together), language, phone-book visibility, usage alert switches (`usageAlerts: {at80, at100, email}`, each optional; ADR 0066). Answers the user.',
        security: [{ bearerAuth: [] }],
        body: updateUserRequest,
        response: { 200: dataEnvelope(user), ...errorResponses(400, 401, 409) },
      },
    },
    async (request) => ({ data: await service.update(requireUser(request).id, request.body) }),
  );

  app.delete(
    '/api/auth/me',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: 'Delete the signed-in user (SPEC §6)',
        description:
          'Only once the user owns no account that is not cancelled and has no subscription line in service or being set up (a pending cancellation is not enough: it works to month end): otherwise 409 HAS_ACTIVE_SUBSCRIPTION. Talutíð (prepaid) numbers do not block it: they keep working as anonymous prepaid numbers without a user. Deletes the user with every session, token, reservation, card agreement, account, order, notification and activity-log entry; receipts (bookkeeping) and lines (number history, quarantine) are kept without the user (ADR 0056). 204.',
        security: [{ bearerAuth: [] }],
        response: { 204: z.undefined().describe('Deleted'), ...errorResponses(401, 409) },
      },
    },
    async (request, reply) => {
      await service.delete(requireUser(request).id);
      return reply.status(204).send();
    },
  );
};
