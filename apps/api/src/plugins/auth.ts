import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Hook for routes that need a signed-in customer: `{ onRequest: app.authenticate }` (onRequest
     * answers 401 before the body is validated; `preHandler` works too).
     * On success `request.user` is set; otherwise the answer is 401 UNAUTHORIZED.
     */
    authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /**
     * preHandler for routes open to guests that do more for a signed-in caller: without an
     * Authorization header `request.user` stays null; with one it must be valid (else 401).
     */
    authenticateOptional: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
  interface FastifyRequest {
    /** The caller, once `app.authenticate` has run; null on public routes. */
    user: AuthUser | null;
  }
}

/** What authentication needs from the sessions of modules/auth: a verdict on an access token. */
export interface AccessTokenVerifier {
  /** The caller of a valid, unrevoked access token; null otherwise. */
  authenticate(accessToken: string): Promise<AuthUser | null>;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Installs `app.authenticate` and `request.user` on the root instance so every module can guard
 * its routes the same way (ARCHITECTURE: app plugins load after external ones, before routes).
 */
export function installAuthentication(app: FastifyInstance, auth: AccessTokenVerifier): void {
  app.decorateRequest('user', null);
  const authenticate = async (request: FastifyRequest, reply: FastifyReply) => {
    const match = BEARER.exec(request.headers.authorization ?? '');
    const user = match?.[1] ? await auth.authenticate(match[1]) : null;
    if (!user) {
      reply.header('www-authenticate', 'Bearer realm="alda"');
      throw new AppError('UNAUTHORIZED', {
        detail: match ? 'invalid or revoked access token' : 'no bearer token',
      });
    }
    request.user = user;
  };
  app.decorate('authenticate', authenticate);
  app.decorate('authenticateOptional', async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.headers.authorization === undefined) return;
    await authenticate(request, reply);
  });
}

/** The caller of a route guarded by `app.authenticate`. */
export function requireUser(request: FastifyRequest): AuthUser {
  if (!request.user)
    throw new AppError('UNAUTHORIZED', { detail: 'route is missing the authenticate preHandler' });
  return request.user;
}

/** Who is calling, as established by the access token (modules/auth's sessions). */
export interface AuthUser {
  id: string;
  sessionId: string;
  /** When the access token that authenticated this user expires (a hub connection ends then). */
  tokenExpiresAt: Date;
}
