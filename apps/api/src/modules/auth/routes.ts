import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dataEnvelope } from '@alda/contract/envelope';
import {
  emailLoginRequest,
  logoutRequest,
  refreshTokenRequest,
  tokens,
  user,
} from '@alda/contract/schemas/auth';
import { errorResponses } from '../../http';
import { requireUser } from '../../plugins/auth';
import type { AuthService } from './service';

export const authRoutes: FastifyPluginAsyncZod<{ service: AuthService }> = async (
  app,
  { service },
) => {
  app.post(
    '/api/auth/email-login',
    {
      schema: {
        tags: ['auth'],
        summary: 'Log in with e-mail and password (SPEC §7 Auth)',
        description:
          'Starts a session. A wrong address or password answers 401 INVALID_CREDENTIALS.',
        body: emailLoginRequest,
        response: { 200: dataEnvelope(tokens), ...errorResponses(400, 401) },
      },
    },
    async (request) => ({
      data: await service.loginWithEmail(request.body.email, request.body.password, {
        userAgent: request.headers['user-agent']?.slice(0, 300) ?? null,
      }),
    }),
  );

  app.post(
    '/api/auth/refresh-token',
    {
      schema: {
        tags: ['auth'],
        summary: 'Exchange a refresh token for a new token pair (SPEC §7 Auth, §8)',
        description:
          'The presented refresh token is spent. Presenting a spent token again revokes its whole session (reuse detection); answer 401 UNAUTHORIZED.',
        body: refreshTokenRequest,
        response: { 200: dataEnvelope(tokens), ...errorResponses(400, 401) },
      },
    },
    async (request) => ({ data: await service.refresh(request.body.refreshToken) }),
  );

  app.post(
    '/api/auth/logout',
    {
      schema: {
        tags: ['auth'],
        summary: 'End the session of a refresh token',
        description:
          'Revokes the session, which also ends its access tokens. Always 204, even for unknown tokens.',
        body: logoutRequest,
        response: { 204: z.undefined().describe('Logged out'), ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      await service.logout(request.body.refreshToken);
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/auth/me',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: 'The signed-in user (SPEC §7 Auth, §3 User)',
        security: [{ bearerAuth: [] }],
        response: { 200: dataEnvelope(user), ...errorResponses(401) },
      },
    },
    async (request) => ({ data: await service.me(requireUser(request).id) }),
  );
};
