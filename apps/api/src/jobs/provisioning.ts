import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

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
  if (options.pollMs <= 0) return;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;
  let stopped = false;
  const round = () => {
    if (running || stopped) return;
    running = options
      .run()
      .then((result) => {
        if (result.performed > 0 || result.failed > 0)
          options.log.info(result, 'provisioning round');
      })
      .catch((error: unknown) => options.log.warn({ err: error }, 'provisioning round failed'))
      .finally(() => {
        running = null;
      });
  };
  app.addHook('onReady', async () => {
    round();
    timer = setInterval(round, options.pollMs);
    timer.unref();
  });
  app.addHook('preClose', async () => {
    stopped = true;
    if (timer) clearInterval(timer);
    timer = null;
    await running;
  });
}
