import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { MonthEndResult } from '../modules/month-end/service';

export interface MonthEndJobOptions {
  /** Seconds between rounds; 0 turns the job off. */
  intervalS: number;
  run: () => Promise<MonthEndResult>;
  log: FastifyBaseLogger;
}

/**
 * The month-end job (docs/decisions/0053-month-end.md): once when the app is ready and then every
 * `intervalS` seconds, balances of a past Faroese month are moved to the current one. A round is
 * cheap when there is nothing to move, so the job need not fire exactly at midnight; several
 * instances may run it at once (SKIP LOCKED). Rounds never overlap; stopped, and the running
 * round awaited, before the database closes.
 */
export function registerMonthEnd(app: FastifyInstance, options: MonthEndJobOptions): void {
  if (options.intervalS <= 0) return;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;
  let stopped = false;
  const round = () => {
    if (running || stopped) return;
    running = options
      .run()
      .catch((error: unknown) => options.log.warn({ err: error }, 'month-end round failed'))
      .finally(() => {
        running = null;
      });
  };
  app.addHook('onReady', async () => {
    round();
    timer = setInterval(round, options.intervalS * 1000);
    timer.unref();
  });
  app.addHook('preClose', async () => {
    stopped = true;
    if (timer) clearInterval(timer);
    timer = null;
    await running;
  });
}
