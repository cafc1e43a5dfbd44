import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { JobName } from '../metrics/metrics';
import { traceRound } from '../tracing/tracing';

export interface RoundsOptions {
  /** The job's name in metrics and traces (`alda_job_*{job_name}`). */
  name: JobName;
  /** Milliseconds between rounds; 0 or less turns the job off. */
  everyMs: number;
  /** Also run a round as soon as the app is ready (not only after the first interval). */
  atStart: boolean;
  /**
   * One round. `signal` is aborted when the app closes: a long round stops at its next safe
   * point (between transactions) instead of holding up the close.
   */
  run: (signal: AbortSignal) => Promise<unknown>;
  /** Logged (warn) when a round fails; the next round runs as usual. */
  failure: string;
  log: FastifyBaseLogger;
}

/**
 * A background job in rounds: started when the app is ready, then every `everyMs`; rounds never
 * overlap; stopped, and the running round awaited, before the database closes. The jobs' own
 * work is safe with several instances (SKIP LOCKED), so every instance runs them. On close the
 * running round is told to stop (its signal) and awaited: a month end over many customers stops
 * between two of its transactions, within the close's time limit.
 */
export function registerRounds(app: FastifyInstance, options: RoundsOptions): void {
  if (options.everyMs <= 0) return;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;
  let stopped = false;
  const closing = new AbortController();
  const { metrics } = app;
  metrics.job.interval(options.name, options.everyMs / 1000);
  const round = () => {
    if (running || stopped) return;
    const started = performance.now();
    const measure = (ok: boolean) =>
      metrics.job.round(options.name, (performance.now() - started) / 1000, ok, new Date());
    // Each round is a trace of its own, "job <name>" (issue 44 §2; a no-op when tracing is off).
    running = traceRound(options.name, () => options.run(closing.signal))
      .then(
        () => measure(true),
        (error: unknown) => {
          measure(false);
          options.log.warn({ err: error }, options.failure);
        },
      )
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
    closing.abort();
    if (timer) clearInterval(timer);
    timer = null;
    await running;
  });
}
