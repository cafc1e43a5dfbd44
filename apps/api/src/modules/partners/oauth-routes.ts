import formbody from '@fastify/formbody';
import type { FastifyError, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod/mini';
import {
  oauthError,
  oauthTokenRequest,
  oauthTokenResponse,
  type OauthError,
} from '@alda/contract/schemas/camara';
import { databaseUnavailableReason, DATABASE_RETRY_AFTER_S } from '../../db/errors';
import { OauthFailure, type PartnerService } from './service';

/*
 * POST /oauth/token — OAuth 2.0 client credentials grant (RFC 6749 §4.4) for partner clients,
 * OpenAPI tag `oauth`. Form-encoded (@fastify/formbody, registered in this scope only); client
 * authentication by `client_secret_basic` (HTTP Basic, §2.3.1) or `client_secret_post` (in the
 * body), never both. Errors are RFC 6749 §5.2 bodies, not the self-care API's envelope.
 */

const FORM = 'application/x-www-form-urlencoded';

/** `Authorization: Basic …` → the client's id and secret (each form-urlencoded, §2.3.1). */
function basicCredentials(
  request: FastifyRequest,
): { clientId: string; clientSecret: string } | null | 'malformed' {
  const header = request.headers.authorization;
  if (header === undefined) return null;
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match?.[1]) return 'malformed';
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return 'malformed';
  try {
    const decode = (part: string) => decodeURIComponent(part.replace(/\+/g, ' '));
    return {
      clientId: decode(decoded.slice(0, colon)),
      clientSecret: decode(decoded.slice(colon + 1)),
    };
  } catch {
    return 'malformed';
  }
}

function failure(error: OauthError['error'], description: string): OauthFailure {
  return new OauthFailure(error, description);
}

export const oauthRoutes: FastifyPluginAsyncZod<{ service: PartnerService }> = async (
  app,
  { service },
) => {
  await app.register(formbody);

  app.setErrorHandler(async (error: FastifyError | Error, request, reply) => {
    // The token endpoint's answers must never be cached (RFC 6749 §5.1, §5.2).
    reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
    if (error instanceof OauthFailure) {
      request.log.info({ code: error.error }, 'token request refused');
      if (error.error === 'invalid_client')
        reply.header('www-authenticate', 'Basic realm="alda-partners"');
      return reply
        .status(error.error === 'invalid_client' ? 401 : 400)
        .send({ error: error.error, error_description: error.description });
    }
    if (databaseUnavailableReason(error) !== undefined) {
      request.log.warn('token request failed: database unavailable');
      reply.header('retry-after', String(DATABASE_RETRY_AFTER_S));
      return reply
        .status(503)
        .type('application/json; charset=utf-8')
        .send(JSON.stringify({ error: 'temporarily_unavailable' }));
    }
    const status = (error as FastifyError).statusCode;
    if ((error as FastifyError).validation || (typeof status === 'number' && status < 500)) {
      request.log.info({ reason: error.message }, 'token request refused');
      return reply.status(400).send({
        error: 'invalid_request',
        error_description: 'The request is missing a parameter, repeats one, or is malformed.',
      });
    }
    request.log.error({ err: error }, 'token request failed');
    return reply
      .status(500)
      .type('application/json; charset=utf-8')
      .send(JSON.stringify({ error: 'server_error' }));
  });

  app.post(
    '/oauth/token',
    {
      schema: {
        tags: ['oauth'],
        summary: 'Access token for a partner client (OAuth 2.0 client credentials)',
        description:
          "RFC 6749 §4.4, `application/x-www-form-urlencoded`: `grant_type=client_credentials`, the client authenticated with HTTP Basic (`client_secret_basic`) or `client_id` and `client_secret` in the body (`client_secret_post`), and optionally `scope` (space-delimited; default all of the client's). Answers an opaque bearer token for the CAMARA APIs, valid PARTNER_TOKEN_TTL_S seconds, with `Cache-Control: no-store`. Errors per RFC 6749 §5.2: 401 `invalid_client` (unknown or disabled client, wrong secret), 400 `invalid_request`, `unsupported_grant_type`, `invalid_scope`.",
        security: [{ partnerClientBasic: [] }, {}],
        consumes: [FORM],
        body: oauthTokenRequest,
        response: {
          200: oauthTokenResponse,
          400: oauthError.check(
            z.describe('invalid_request, unsupported_grant_type or invalid_scope'),
          ),
          401: oauthError.check(z.describe('invalid_client')),
        },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
      const contentType = (request.headers['content-type'] ?? '').split(';')[0]?.trim();
      if (contentType?.toLowerCase() !== FORM)
        throw failure('invalid_request', `The body must be ${FORM}.`);
      const form = request.body;
      const basic = basicCredentials(request);
      if (basic === 'malformed') throw failure('invalid_client', 'Client authentication failed.');
      if (basic && (form.client_id !== undefined || form.client_secret !== undefined))
        throw failure('invalid_request', 'Use one client authentication method, not two.');
      const clientId = basic?.clientId ?? form.client_id;
      const clientSecret = basic?.clientSecret ?? form.client_secret;
      if (!form.grant_type) throw failure('invalid_request', 'grant_type is missing.');
      if (form.grant_type !== 'client_credentials')
        throw failure('unsupported_grant_type', 'Only client_credentials is supported.');
      if (!clientId || !clientSecret)
        throw failure('invalid_client', 'Client authentication failed.');
      return service.issueToken(clientId, clientSecret, form.scope);
    },
  );
};
