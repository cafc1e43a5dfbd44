import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

export interface RoundsOptions {
  /** Milliseconds between rounds; 0 or less turns the job off. */
  everyMs: number;
  /** Also run a round as soon as the app is ready (not only after the first interval). */
  atStart: boolean;
  run: () => Promise<unknown>;
  /** Logged (warn) when a round fails; the next round runs as usual. */
  failure: string;
  log: FastifyBaseLogger;
}

/**
 * A background job in rounds: started when the app is ready, then every `everyMs`; rounds never
 * overlap; stopped, and the running round awaited, before the database closes. The jobs' own
 * work is safe with several instances (SKIP LOCKED), so every instance runs them.
 */
export function registerRounds(app: FastifyInstance, options: RoundsOptions): void {
  if (options.everyMs <= 0) return;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;
  let stopped = false;
  const round = () => {
    if (running || stopped) return;
    running = options
      .run()
      .catch((error: unknown) => options.log.warn({ err: error }, options.failure))
      .finally(() => {
        running = null;
      });
  };
  app.addHook('onReady', async () => {
    if (options.atStart) round();
    timer = setInterval(round, options.everyMs);
    timer.unref();
  });
  app.addHook('preClose', async () => {
    stopped = true;
    if (timer) clearInterval(timer);
    timer = null;
    await running;
  });
}
