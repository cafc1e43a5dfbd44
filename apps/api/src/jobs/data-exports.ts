import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { RoundResult } from '../modules/data-export/service';
import { registerRounds } from './rounds';

declare module 'fastify' {
  interface FastifyInstance {
    /** The data-export worker (issue 32): tests run its rounds with `runRound()` on their clock. */
    dataExports: { runRound: () => Promise<RoundResult> };
  }
}

export interface DataExportJobOptions {
  /** Milliseconds between rounds (DATA_EXPORT_POLL_MS); 0 turns the worker off. */
  pollMs: number;
  /** One round: expired files removed, then the oldest queued export prepared. */
  run: () => Promise<RoundResult>;
  log: FastifyBaseLogger;
}

/**
 * The data-export worker (issue 32 part 5, GDPR Art. 15/20): once when the app is ready and then
 * every `pollMs`. Each export is claimed with `FOR UPDATE SKIP LOCKED` and held by a lease, so
 * several instances may run it and a crashed one's export is taken over. `app.dataExports.runRound`
 * runs one round by hand (tests).
 */
export function registerDataExportWorker(
  app: FastifyInstance,
  options: DataExportJobOptions,
): void {
  app.decorate('dataExports', { runRound: options.run });
  registerRounds(app, {
    name: 'data_exports',
    everyMs: options.pollMs,
    atStart: true,
    run: async () => {
      const result = await options.run();
      if (result.prepared > 0 || result.failed > 0 || result.expired > 0) {
        options.log.info(result, 'data export round');
      }
    },
    failure: 'data export round failed',
    log: options.log,
  });
}
