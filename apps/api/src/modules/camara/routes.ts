import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CAMARA_CORRELATOR,
  camaraError,
  simSwapCheckRequest,
  simSwapCheckResponse,
  simSwapDateRequest,
  simSwapDateResponse,
  type CamaraError,
} from '@alda/contract/schemas/camara';
import { databaseUnavailableReason, DATABASE_RETRY_AFTER_S } from '../../db/errors';
import { bearerToken } from '../../plugins/staff-auth';
import type { PartnerCaller } from '../partners/service';
import { CamaraFailure, type SimSwapOperation, type SimSwapService } from './service';

/*
 * CAMARA SIM Swap v2 routes (issue 32), `/camara/sim-swap/v2/*`, OpenAPI tag `camara-sim-swap`.
 * An encapsulated plugin with its own error handler: every answer here, validation failures
 * included, is a CAMARA ErrorInfo `{ status, code, message }` — never the self-care API's
 * `{ error: { code, message } }` envelope. The `x-correlator` header is echoed.
 */

export const SIM_SWAP_PREFIX = '/camara/sim-swap/v2';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated partner and the operation, once past authentication (for the audit). */
    partnerCall: { caller: PartnerCaller; operation: SimSwapOperation } | null;
  }
}

const security = [{ partnerBearer: [] }];
const correlatorHeaders = z.looseObject({
  'x-correlator': z
    .string()
    .regex(CAMARA_CORRELATOR)
    .optional()
    .describe('Correlation id, echoed in the answer'),
});
const errors = {
  400: camaraError.check(z.describe('INVALID_ARGUMENT, or OUT_OF_RANGE (maxAge outside 1–2400)')),
  401: camaraError.check(z.describe('UNAUTHENTICATED: no, an unknown or an expired partner token')),
  403: camaraError.check(z.describe('PERMISSION_DENIED: the token lacks the scope `sim-swap`')),
  404: camaraError.check(z.describe('IDENTIFIER_NOT_FOUND: not a number in service with us')),
  422: camaraError.check(z.describe('MISSING_IDENTIFIER: no phoneNumber (two-legged tokens)')),
  429: camaraError.check(
    z.describe('TOO_MANY_REQUESTS: over PARTNER_RATE_LIMIT_PER_MIN, with Retry-After'),
  ),
  500: camaraError.check(z.describe('INTERNAL')),
  503: camaraError.check(z.describe('UNAVAILABLE, with Retry-After')),
};

function body(status: number, code: CamaraError['code'], message: string): CamaraError {
  return { status, code, message };
}

/** Which CAMARA answer a failure is. */
function classify(error: FastifyError | Error): { answer: CamaraError; retryAfter?: number } {
  if (error instanceof CamaraFailure) {
    return {
      answer: body(error.status, error.code, error.message),
      ...(error.retryAfter !== undefined ? { retryAfter: error.retryAfter } : {}),
    };
  }
  const validation = (error as FastifyError).validation;
  if (Array.isArray(validation) && validation.length > 0) {
    const first = validation[0] as { instancePath?: string; keyword?: string };
    if (first.instancePath === '/maxAge' && /^too_(small|big)$/.test(first.keyword ?? ''))
      return {
        answer: body(400, 'OUT_OF_RANGE', 'maxAge must be a whole number of hours from 1 to 2400.'),
      };
    const field = (first.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
    const where = (error as FastifyError).validationContext;
    return {
      answer: body(
        400,
        'INVALID_ARGUMENT',
        `Client specified an invalid argument, request body or query param${field ? ` (${field})` : where ? ` (${where})` : ''}.`,
      ),
    };
  }
  if (databaseUnavailableReason(error) !== undefined)
    return {
      answer: body(503, 'UNAVAILABLE', 'Service temporarily unavailable.'),
      retryAfter: DATABASE_RETRY_AFTER_S,
    };
  const status = (error as FastifyError).statusCode;
  if (status === 429)
    return {
      answer: body(429, 'TOO_MANY_REQUESTS', 'Rejected due to request rate limit overpassed.'),
    };
  if (status === 503)
    return { answer: body(503, 'UNAVAILABLE', 'Service temporarily unavailable.') };
  if (typeof status === 'number' && status >= 400 && status < 500)
    return {
      answer: body(
        400,
        'INVALID_ARGUMENT',
        'Client specified an invalid argument, request body or query param.',
      ),
    };
  return { answer: body(500, 'INTERNAL', 'Unknown server error. Typically a server bug.') };
}

export const simSwapRoutes: FastifyPluginAsyncZod<{ service: SimSwapService }> = async (
  app,
  { service },
) => {
  app.decorateRequest('partnerCall', null);

  /** Correlator, authentication, the partner's rate limit and the operation's scope. */
  const guard =
    (operation: SimSwapOperation) => async (request: FastifyRequest, reply: FastifyReply) => {
      const correlator = request.headers['x-correlator'];
      if (typeof correlator === 'string' && CAMARA_CORRELATOR.test(correlator))
        reply.header('x-correlator', correlator);
      // CAMARA answers hold facts about a person's line: never cached.
      reply.header('cache-control', 'no-store');
      const caller = await service.authenticate(bearerToken(request));
      request.partnerCall = { caller, operation };
      await service.admit(caller, operation);
    };

  app.setErrorHandler(async (error: FastifyError | Error, request, reply) => {
    const { answer, retryAfter } = classify(error);
    if (answer.status >= 500)
      request.log.error({ err: error, code: answer.code }, 'request failed');
    else request.log.info({ code: answer.code, reason: error.message }, 'request rejected');
    if (request.partnerCall) {
      const { caller, operation } = request.partnerCall;
      await service
        .record({
          partnerId: caller.partnerId,
          operation,
          phoneNumber: (request.body as { phoneNumber?: unknown } | undefined)?.phoneNumber,
          status: answer.status,
          result: answer.code,
        })
        .catch((failure: unknown) =>
          request.log.error({ err: failure }, 'partner call audit not written'),
        );
    }
    if (answer.status === 401) reply.header('www-authenticate', 'Bearer realm="alda-partners"');
    if (retryAfter !== undefined) reply.header('retry-after', String(retryAfter));
    return reply.status(answer.status).type('application/json; charset=utf-8').send(answer);
  });

  app.post(
    `${SIM_SWAP_PREFIX}/check`,
    {
      onRequest: guard('check'),
      schema: {
        tags: ['camara-sim-swap'],
        summary: 'Check SIM swap (CAMARA SimSwap v2 checkSimSwap)',
        description:
          'Whether the SIM of `phoneNumber` (E.164, `+298` and 6 digits) was changed within `maxAge` hours before now (1–2400, default 240; outside: 400 OUT_OF_RANGE). A new subscription counts as a SIM change (CAMARA). Partner token with scope `sim-swap` (or `sim-swap:check`). Every call past authentication is recorded (partner_calls).',
        security,
        headers: correlatorHeaders,
        body: simSwapCheckRequest,
        response: { 200: simSwapCheckResponse, ...errors },
      },
    },
    async (request) => {
      const { caller } = request.partnerCall!;
      const answer = await service.check(request.body.phoneNumber, request.body.maxAge);
      await service.record({
        partnerId: caller.partnerId,
        operation: 'check',
        phoneNumber: request.body.phoneNumber,
        status: 200,
        result: `swapped: ${answer.swapped}`,
      });
      return answer;
    },
  );

  app.post(
    `${SIM_SWAP_PREFIX}/retrieve-date`,
    {
      onRequest: guard('retrieve-date'),
      schema: {
        tags: ['camara-sim-swap'],
        summary: 'Retrieve SIM swap date (CAMARA SimSwap v2 retrieveSimSwapDate)',
        description:
          "The latest SIM change of `phoneNumber` (RFC 3339, UTC), or — for a SIM never changed — when the line was activated. Dates are kept for the line's life, so `monitoredPeriod` is not given. Partner token with scope `sim-swap` (or `sim-swap:retrieve-date`). Every call past authentication is recorded (partner_calls).",
        security,
        headers: correlatorHeaders,
        body: simSwapDateRequest,
        response: { 200: simSwapDateResponse, ...errors },
      },
    },
    async (request) => {
      const { caller } = request.partnerCall!;
      const answer = await service.retrieveDate(request.body.phoneNumber);
      await service.record({
        partnerId: caller.partnerId,
        operation: 'retrieve-date',
        phoneNumber: request.body.phoneNumber,
        status: 200,
        result: answer.latestSimChange ?? 'null',
      });
      return answer;
    },
  );
};
