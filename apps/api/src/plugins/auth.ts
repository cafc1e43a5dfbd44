import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
} from 'fastify';
import { AppError } from '../errors';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Hook for routes that need a signed-in customer: `{ onRequest: app.authenticate }` (onRequest
     * answers 401 before the body is validated; `preHandler` works too).
     * On success `request.user` is set; otherwise the answer is 401 UNAUTHORIZED.
     */
    authenticate: AuthHook;
    /**
     * preHandler for routes open to guests that do more for a signed-in caller: without an
     * Authorization header `request.user` stays null; with one it must be valid (else 401).
     */
    authenticateOptional: AuthHook;
  }
  interface FastifyRequest {
    /** The caller, once `app.authenticate` has run; null on public routes. */
    user: AuthUser | null;
  }
}

/** An onRequest or preHandler hook in callback style (no promise per request). */
type AuthHook = (
  request: FastifyRequest,
  reply: FastifyReply,
  done: HookHandlerDoneFunction,
) => void;

/** What authentication needs from the sessions of modules/auth: a verdict on an access token. */
export interface AccessTokenVerifier {
  /** The caller of a valid, unrevoked access token; null otherwise. */
  authenticate(accessToken: string): Promise<AuthUser | null>;
  /** The same verdict from memory alone; undefined when `authenticate` must be asked. */
  authenticateKnown(accessToken: string): AuthUser | null | undefined;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Installs `app.authenticate` and `request.user` on the root instance so every module can guard
 * its routes the same way (ARCHITECTURE: app plugins load after external ones, before routes).
 */
export function installAuthentication(app: FastifyInstance, auth: AccessTokenVerifier): void {
  app.decorateRequest('user', null);
  const settle = (
    request: FastifyRequest,
    reply: FastifyReply,
    user: AuthUser | null,
    hadToken: boolean,
    done: HookHandlerDoneFunction,
  ) => {
    if (user) {
      request.user = user;
      done();
      return;
    }
    reply.header('www-authenticate', 'Bearer realm="alda"');
    done(
      new AppError('UNAUTHORIZED', {
        detail: hadToken ? 'invalid or revoked access token' : 'no bearer token',
      }),
    );
  };
  // Callback style, not async: every poll passes here. A token and session the instance already
  // knows are decided without a promise; anything else is verified and read as before.
  const authenticate: AuthHook = (request, reply, done) => {
    const token = BEARER.exec(request.headers.authorization ?? '')?.[1];
    if (!token) {
      settle(request, reply, null, false, done);
      return;
    }
    const known = auth.authenticateKnown(token);
    if (known !== undefined) {
      settle(request, reply, known, true, done);
      return;
    }
    auth.authenticate(token).then((user) => settle(request, reply, user, true, done), done);
  };
  app.decorate('authenticate', authenticate);
  app.decorate('authenticateOptional', ((request, reply, done) => {
    if (request.headers.authorization === undefined) done();
    else authenticate(request, reply, done);
  }) satisfies AuthHook);
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
