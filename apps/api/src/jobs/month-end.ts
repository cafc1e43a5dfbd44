import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { MonthEndResult } from '../modules/month-end/service';
import { registerRounds } from './rounds';

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
  registerRounds(app, {
    everyMs: options.intervalS * 1000,
    atStart: true,
    run: options.run,
    failure: 'month-end round failed',
    log: options.log,
  });
}
