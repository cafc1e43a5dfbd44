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
          'Only the fields sent change: names, e-mail (409 EMAIL_ALREADY_REGISTERED when another user has it), address with postal code and city from the locality list (sent together), language, phone-book visibility. Answers the user.',
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
          'Only once no line of the user is active or being set up: otherwise 409 HAS_ACTIVE_SUBSCRIPTION. Deletes the user with every session; 204.',
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
