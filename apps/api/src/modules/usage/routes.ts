import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataEnvelope } from '@alda/contract/envelope';
import { usageRecordsRequest, usageRecordsResponse } from '@alda/contract/schemas/usage';
import { AppError } from '../../errors';
import { errorResponses } from '../../http';
import { routeRateLimit } from '../../plugins/security';
import type { UsageService } from './service';

const BEARER = /^Bearer\s+(\S+)\s*$/i;
const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * onRequest hook for the service endpoints of the usage feed: the caller must present the configured
 * service token as a bearer token. Without a configured token every call is refused, so the feed
 * is closed unless an operator opens it. Compared in constant time.
 */
export function serviceTokenGuard(token: string | undefined) {
  const expected = token ? digest(token) : null;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const presented = BEARER.exec(request.headers.authorization ?? '')?.[1];
    if (!expected || !presented || !timingSafeEqual(digest(presented), expected)) {
      reply.header('www-authenticate', 'Bearer realm="alda-usage-feed"');
      throw new AppError('UNAUTHORIZED', {
        detail: expected ? 'bad or missing usage feed token' : 'USAGE_FEED_TOKEN is not set',
      });
    }
  };
}

/**
 * The feed's own rate limit (issue 61 §3, ADR 0083), as the route's `config`. A charging system is
 * one machine sending thousands of records a second, not a person: the per-address limit for
 * people (`RATE_LIMIT_MAX`) does not apply to the feed's routes. They count per service token —
 * all the charging system's addresses together — up to `USAGE_FEED_RATE_PER_MIN` requests a
 * minute on each route (a batch is one request), in the instance's memory like the API's limit;
 * over it: 429 `RATE_LIMITED` with `Retry-After`. The token guard runs first, so only an
 * authenticated caller is counted, and there is one token (`USAGE_FEED_TOKEN`): one key. Counted
 * also when the people's limit is off (`RATE_LIMIT_MAX=0`; `app` must be encapsulated).
 * `USAGE_FEED_RATE_PER_MIN=0` leaves the feed without a limit.
 */
export function feedRateLimit(app: FastifyInstance) {
  return routeRateLimit(app, {
    perMinute: app.config.usageFeedRatePerMin,
    policy: 'usage-feed',
    keyGenerator: () => 'usage-feed',
  });
}

export const usageRoutes: FastifyPluginAsyncZod<{
  service: UsageService;
  token: string | undefined;
}> = async (app, { service, token }) => {
  const limit = await feedRateLimit(app);
  app.post(
    '/api/usage/records',
    {
      onRequest: serviceTokenGuard(token),
      config: limit,
      schema: {
        tags: ['usage feed'],
        summary: 'Book rated data use on lines (charging system → self-care; not for the app)',
        description:
          'Service endpoint of the usage feed, authenticated with `Authorization: Bearer <USAGE_FEED_TOKEN>` (401 without the configured token; up to `USAGE_FEED_RATE_PER_MIN` requests a minute per token, not the per-address limit). Body `{records: [{recordId, phoneNumber, usedMb, kind: domestic|eu, occurredAt}]}`, up to 1000 records; numbers as 6 digits or with 298. Idempotent by `recordId`: a record already received is counted in `duplicates` and changes nothing, so a batch may be retried safely. Records for numbers without a live line are `rejected` (UNKNOWN_NUMBER) and not stored, so they can be sent again later. EU use comes out of the EU package first, then domestic data; domestic data stops at 0; unlimited plans keep their remainder. See docs/decisions/0031-usage-feed.md.',
        security: [{ bearerAuth: [] }],
        body: usageRecordsRequest,
        response: { 200: dataEnvelope(usageRecordsResponse), ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => ({ data: await service.ingest(request.body.records) }),
  );
};
