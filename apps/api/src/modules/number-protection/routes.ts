import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataEnvelope } from '@alda/contract/envelope';
import { idParams } from '@alda/contract/schemas/common';
import {
  cancelUnlockByLinkRequest,
  cancelUnlockByLinkResponse,
  lineProtection,
  portOutCodeResponse,
  unlockRequest,
} from '@alda/contract/schemas/number-protection';
import { clientMeta, errorResponses } from '../../http';
import { requireUser } from '../../plugins/auth';
import type { NumberProtectionService } from './service';

const WHO =
  "`id` is a member's `id`. The account owner may use it for every number of the account and a member for their own; another member of the same account gets 403 OWNER_ONLY, anyone else 404 NOT_FOUND (SPEC §6).";

/** The number lock and the port-out code (issue 32, docs/decisions/0076-number-protection.md). */
export const numberProtectionRoutes: FastifyPluginAsyncZod<{
  service: NumberProtectionService;
}> = async (app, { service }) => {
  app.get(
    '/api/subscriptions/:id/protection',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['subscriptions'],
        summary: "A number's lock, latest SIM change and port-out code (ADR 0076)",
        description: `${WHO} \`lock.state\`: \`locked\` (port-out, SIM change and new eSIM refused with 409 NUMBER_LOCKED), \`unlocking\` (still locked until \`unlockAt\`), \`unlocked\`. \`portOutCode\` tells whether a usable code is out, never the code.`,
        security: [{ bearerAuth: [] }],
        params: idParams,
        response: { 200: dataEnvelope(lineProtection), ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => ({
      data: await service.get(requireUser(request).id, request.params.id),
    }),
  );

  app.post(
    '/api/subscriptions/:id/protection/lock',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['subscriptions'],
        summary: 'Lock a number at once (ADR 0076)',
        description: `${WHO} Immediate; ends an unlock that waits. Locking a locked number changes nothing.`,
        security: [{ bearerAuth: [] }],
        params: idParams,
        response: { 200: dataEnvelope(lineProtection), ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => ({
      data: await service.lock(requireUser(request).id, request.params.id),
    }),
  );

  app.post(
    '/api/subscriptions/:id/protection/unlock',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['subscriptions'],
        summary: 'Ask to unlock a number, after the password or SMS code again (ADR 0076)',
        description: `${WHO} \`{ password }\` or \`{ code }\` (the SMS code of POST /api/auth/sessions/confirmation-code): missing → 400 VALIDATION_FAILED, wrong → 422 PASSWORD_INCORRECT / CONFIRMATION_CODE_INCORRECT, too many → 429. The lock opens NUMBER_UNLOCK_DELAY_H hours later; meanwhile a notification and an e-mail with a one-tap cancel link go to the number's user and the account owner. Asking again keeps the first time.`,
        security: [{ bearerAuth: [] }],
        params: idParams,
        body: unlockRequest,
        response: {
          200: dataEnvelope(lineProtection),
          ...errorResponses(400, 401, 403, 404, 422, 429),
        },
      },
    },
    async (request) => ({
      data: await service.requestUnlock(
        requireUser(request),
        request.params.id,
        request.body,
        clientMeta(request),
      ),
    }),
  );

  app.delete(
    '/api/subscriptions/:id/protection/unlock',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['subscriptions'],
        summary: 'Cancel a waiting unlock (ADR 0076)',
        description: `${WHO} The number stays locked. 409 NUMBER_UNLOCK_NOT_PENDING when no unlock waits.`,
        security: [{ bearerAuth: [] }],
        params: idParams,
        response: { 200: dataEnvelope(lineProtection), ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (request) => ({
      data: await service.cancelUnlock(requireUser(request).id, request.params.id),
    }),
  );

  app.post(
    '/api/number-unlocks/cancel',
    {
      schema: {
        tags: ['subscriptions'],
        summary: "The unlock e-mail's one-tap cancel, without signing in (ADR 0076)",
        description:
          '`token` from the e-mail link. It works only while the unlock it was sent for still waits: a forged, cancelled, completed or replaced unlock answers 410 UNLOCK_LINK_INVALID. Limited per address (429 TOO_MANY_ATTEMPTS).',
        body: cancelUnlockByLinkRequest,
        response: {
          200: dataEnvelope(cancelUnlockByLinkResponse),
          ...errorResponses(400, 410, 429),
        },
      },
    },
    async (request) => ({
      data: await service.cancelByLink(request.body.token, request.ip),
    }),
  );

  app.post(
    '/api/subscriptions/:id/port-out-code',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['subscriptions'],
        summary: 'Make a port-out authorisation code (ADR 0076)',
        description: `${WHO} The code for the new provider, shown this once (\`ABCD-EFG-HJK\`), single use, valid 30 days; it replaces the number's earlier code. Allowed while the number is locked: the lock refuses the port itself.`,
        security: [{ bearerAuth: [] }],
        params: idParams,
        response: { 201: dataEnvelope(portOutCodeResponse), ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const data = await service.createPortOutCode(requireUser(request).id, request.params.id);
      return reply.code(201).header('cache-control', 'no-store').send({ data });
    },
  );
};
