import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { startOfNextMonth } from '@alda/contract/rules/lifecycle';
import { sendRouteNotFound } from '../../plugins/error-handler';
import type { MonthEndService } from './service';

/** A minute into the month, as the real job's first round after midnight would run. */
const ROUND_DELAY_MS = 60_000;

const simulateMonthEndQuery = z
  .object({
    /** The instant the round runs as of; by default a minute into next month. */
    at: z.iso.datetime({ offset: true }).optional(),
  })
  .strict();

/**
 * Demo mode only (DEMO_MODE=true, like the outbox pages): `POST /dev/month-end` runs one
 * month-end round as of a later instant — the 1st of next month, or `?at=` — so a demo or a browser
 * journey can see what a month end does (lifecycle orders due carried out, balances started over
 * with the rollover, ADR 0053, 0056) without waiting for it. Otherwise 404 like any unknown path;
 * hidden from OpenAPI: not part of the customer API. The clock of everything else is untouched.
 */
export const monthEndDevRoutes: FastifyPluginAsyncZod<{
  service: MonthEndService;
  now: () => Date;
  enabled: boolean;
}> = async (app, { service, now, enabled }) => {
  app.post(
    '/dev/month-end',
    { schema: { hide: true, querystring: simulateMonthEndQuery } },
    async (request, reply) => {
      if (!enabled) return sendRouteNotFound(request, reply);
      const at = request.query.at
        ? new Date(request.query.at)
        : new Date(startOfNextMonth(now()).getTime() + ROUND_DELAY_MS);
      const result = await service.run(at);
      return reply
        .header('cache-control', 'no-store')
        .send({ data: { at: at.toISOString(), ...result } });
    },
  );
};
