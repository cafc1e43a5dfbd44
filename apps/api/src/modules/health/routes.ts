import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorEnvelope } from '@alda/contract/envelope';
import { AppError } from '../../errors';
import { sendSerialized } from '../../http';
import type { HealthService } from './service';

const healthAnswer = z.object({ status: z.literal('ok') });
/** The liveness answer never changes: written once, sent as it is (issue 13: the probe's cost). */
const LIVE = JSON.stringify(healthAnswer.parse({ status: 'ok' }));

/**
 * Probes for the orchestrator: /healthz says the process serves HTTP (liveness, never touches the
 * database, so a database outage does not get healthy instances restarted); /readyz says this
 * instance can do real work (readiness: take it out of the load balancer while it cannot).
 * Both are exempt from rate limiting and from request logging (app.ts), since they are polled.
 */
export const healthRoutes: FastifyPluginAsyncZod<{
  service: HealthService;
  /** True once SIGTERM came: not ready, so the balancer stops sending (issue 44 §5). */
  draining?: () => boolean;
}> = async (app, { service, draining }) => {
  app.get(
    '/healthz',
    {
      config: { rateLimit: false },
      schema: {
        tags: ['operations'],
        summary: 'Liveness: the process is up',
        response: { 200: healthAnswer },
      },
    },
    (_request, reply) => {
      sendSerialized(reply, LIVE);
    },
  );

  app.get(
    '/readyz',
    {
      config: { rateLimit: false },
      schema: {
        tags: ['operations'],
        summary: 'Readiness: the database answers `select 1`',
        response: {
          200: healthAnswer,
          503: errorEnvelope.check(z.describe('SERVICE_UNAVAILABLE')),
        },
      },
    },
    async () => {
      // Still serving, but on its way out: the balancer's next check takes it out of rotation
      // before it stops accepting (SHUTDOWN_DRAIN_MS).
      if (draining?.()) throw new AppError('SERVICE_UNAVAILABLE', { detail: 'shutting down' });
      if (!(await service.databaseReachable())) {
        throw new AppError('SERVICE_UNAVAILABLE', { detail: 'database unreachable' });
      }
      return { status: 'ok' as const };
    },
  );
};
