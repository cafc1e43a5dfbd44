import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { registerRounds } from './rounds';

export interface ProvisioningJobOptions {
  /** Milliseconds between rounds; 0 turns the worker off. */
  pollMs: number;
  /** One round: performs the next step of every due order (the provisioning service's runDue). */
  run: () => Promise<{ performed: number; failed: number }>;
  log: FastifyBaseLogger;
}

/**
 * The provisioning worker (docs/decisions/0055-provisioning.md): once when the app is ready and
 * then every `pollMs`, the due orders take their next step. Each order is claimed with
 * `FOR UPDATE SKIP LOCKED`, so several instances may run it; the state is the rows, so a restart
 * loses nothing. Rounds never overlap; stopped, and the running round awaited, before the
 * database closes. Tests run rounds by hand (`app.provisioning.runDue()`) with their own clock.
 */
export function registerProvisioningWorker(
  app: FastifyInstance,
  options: ProvisioningJobOptions,
): void {
  registerRounds(app, {
    name: 'provisioning',
    everyMs: options.pollMs,
    atStart: true,
    run: async () => {
      const result = await options.run();
      if (result.performed > 0 || result.failed > 0) options.log.info(result, 'provisioning round');
    },
    failure: 'provisioning round failed',
    log: options.log,
  });
}
