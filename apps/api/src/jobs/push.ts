import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { registerRounds } from './rounds';

declare module 'fastify' {
  interface FastifyInstance {
    /** The push dispatcher (ADR 0096): tests run its rounds with `runRound()` on their clock. */
    pushJob: { runRound: () => Promise<{ sent: number; unknown: number }> };
  }
}

/**
 * The push dispatcher's rounds (ADR 0096): every `pollMs` (PUSH_POLL_MS) the due pushes are
 * claimed with SKIP LOCKED and sent, so every instance may run it.
 */
export function registerPushJob(
  app: FastifyInstance,
  options: {
    pollMs: number;
    run: (signal?: AbortSignal) => Promise<{ sent: number; unknown: number }>;
    log: FastifyBaseLogger;
  },
): void {
  app.decorate('pushJob', { runRound: () => options.run() });
  registerRounds(app, {
    name: 'push',
    everyMs: options.pollMs,
    atStart: true,
    run: async (signal) => {
      const result = await options.run(signal);
      if (result.unknown > 0) options.log.warn(result, 'push round: answers lost');
    },
    failure: 'push round failed',
    log: options.log,
  });
}
