import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { registerRounds } from './rounds';

export interface NumberUnlocksJobOptions {
  /** Seconds between rounds (NUMBER_UNLOCK_INTERVAL_S); 0 turns the job off. */
  intervalS: number;
  run: () => Promise<number>;
  log: FastifyBaseLogger;
}

/**
 * The unlock job (issue 32, docs/decisions/0076-number-protection.md): writes the unlocks whose
 * time has come as done — state, log entry, notification. Safe on several instances (SKIP
 * LOCKED). The rules never wait for it: a due unlock already counts as open.
 */
export function registerNumberUnlocks(
  app: FastifyInstance,
  options: NumberUnlocksJobOptions,
): void {
  registerRounds(app, {
    name: 'number_unlocks',
    everyMs: options.intervalS * 1000,
    atStart: true,
    run: options.run,
    failure: 'number-unlock round failed',
    log: options.log,
  });
}
