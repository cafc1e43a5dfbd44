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
      ],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          staffBearer: {
            type: 'http',
            scheme: 'bearer',
            description: 'A staff session token (alda_staff_…)',
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
