import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { registerRounds } from './rounds';

declare module 'fastify' {
  interface FastifyInstance {
    /** The support job (issue 46): tests run its rounds with `runRound()` on their clock. */
    supportJob: { runRound: () => Promise<{ noticed: number; removed: number }> };
  }
}

/**
 * The support job (issue 46): every `pollMs` (SUPPORT_POLL_MS), the answer-waiting e-mails and
 * SMS of answers nobody read in the app, and images uploaded but never sent. Claims are made in
 * one statement each (`FOR UPDATE SKIP LOCKED`), so every instance may run it.
 */
export function registerSupportJob(
  app: FastifyInstance,
  options: {
    pollMs: number;
    run: () => Promise<{ noticed: number; removed: number }>;
    log: FastifyBaseLogger;
  },
): void {
  app.decorate('supportJob', { runRound: options.run });
  registerRounds(app, {
    name: 'support',
    everyMs: options.pollMs,
    atStart: false,
    run: async () => {
      const result = await options.run();
      if (result.noticed > 0 || result.removed > 0) options.log.info(result, 'support round');
    },
    failure: 'support round failed',
    log: options.log,
  });
}
