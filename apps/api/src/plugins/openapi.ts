import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { APP_VERSION } from '@alda/contract/constants';
import { API_DOCS_PREFIX } from '../http';

/**
 * OpenAPI 3.1 built from the routes' zod schemas (which come from the contract), served as
 * /api/openapi.json and browsable at /api/docs. Must be registered before the routes so it sees
 * them.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Alda self-care API',
        version: APP_VERSION,
        description:
          'Self-care API of Alda, a mobile provider in the Faroe Islands. Every answer is `{ data }` or `{ error: { code, message, field? } }`; messages follow `Accept-Language` (fo default, en).',
      },
      tags: [
        { name: 'auth', description: 'Sessions and the signed-in user' },
        { name: 'status', description: 'App status check of the native shell' },
        { name: 'content', description: 'Terms and privacy texts' },
        { name: 'operations', description: 'Probes for the orchestrator' },
        {
          name: 'staff',
          description:
            'The staff console (`/console/`): sign-in with password and TOTP, customers, orders, payments, status messages, content, numbers, staff accounts and the audit log. Staff tokens only; customer tokens are refused (docs/decisions/0075-staff-console.md).',
        },
        {
          name: 'oauth',
          description:
            'OAuth 2.0 client credentials (RFC 6749 §4.4) for partner clients of the CAMARA APIs. Form-encoded; errors per RFC 6749 §5.2.',
        },
        {
          name: 'camara-sim-swap',
          description:
            'CAMARA SIM Swap v2 (camaraproject/SimSwap) for partners (banks): a partner bearer token of scope `sim-swap`. Errors are CAMARA ErrorInfo `{ status, code, message }`; `x-correlator` is echoed.',
        },
      ],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          staffBearer: {
            type: 'http',
            scheme: 'bearer',
            description: 'A staff session token (alda_staff_…)',
          },
          partnerBearer: {
            type: 'http',
            scheme: 'bearer',
            description: 'A partner access token (alda_pt_…) from POST /oauth/token',
          },
          partnerClientBasic: {
            type: 'http',
            scheme: 'basic',
            description: 'A partner client: client_id and client_secret (client_secret_basic)',
          },
        },
      },
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });

  await app.register(swaggerUi, {
    routePrefix: API_DOCS_PREFIX,
    uiConfig: { docExpansion: 'list', deepLinking: true },
  });

  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
