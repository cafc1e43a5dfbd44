import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { UsageRecord } from '@alda/contract/schemas/usage';
import type { UsageSink, UsageSource } from '../adapters/usage/usage-source';

export interface UsageSimulatorOptions {
  /** Seconds between rounds. */
  intervalS: number;
  /** The numbers to use data on, and whether they have EU data. */
  numbers: () => Promise<{ phoneNumber: string; hasEuPackage: boolean }[]>;
  log: FastifyBaseLogger;
  now?: () => Date;
  /** Random source in [0, 1); tests make it predictable. */
  random?: () => number;
}

/** Most MB one number uses per round: a few minutes of browsing, not a film. */
export const SIMULATED_MAX_MB = 12;

/**
 * The demo's charging system (DEMO_MODE only): every `intervalS` seconds each number in service
 * uses a few MB at home, and now and then a little in the EU if it has the EU package. The records
 * go through the same sink as the real feed (POST /api/usage/records), so what the demo shows is
 * exactly what the real feed would do. Rounds never overlap.
 */
export function createUsageSimulator(options: UsageSimulatorOptions): UsageSource & {
  /** One round now (tests; the timer calls it too). Resolves with the records sent. */
  tick(): Promise<UsageRecord[]>;
} {
  const random = options.random ?? Math.random;
  const now = options.now ?? (() => new Date());
  let sink: UsageSink | null = null;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;

  async function tick(): Promise<UsageRecord[]> {
    if (!sink) return [];
    const at = now().toISOString();
    const records: UsageRecord[] = [];
    for (const { phoneNumber, hasEuPackage } of await options.numbers()) {
      records.push({
        recordId: `sim-${randomUUID()}`,
        phoneNumber,
        usedMb: 1 + Math.floor(random() * SIMULATED_MAX_MB),
        kind: 'domestic',
        occurredAt: at,
      });
      if (hasEuPackage && random() < 0.2) {
        records.push({
          recordId: `sim-${randomUUID()}`,
          phoneNumber,
          usedMb: 1 + Math.floor(random() * SIMULATED_MAX_MB),
          kind: 'eu',
          occurredAt: at,
        });
      }
    }
    if (records.length > 0) await sink.ingest(records, 'simulator');
    return records;
  }

  return {
    name: 'usage-simulator',
    tick,
    start(target) {
      if (timer) return;
      sink = target;
      timer = setInterval(() => {
        if (running) return;
        running = tick()
          .catch((error: unknown) =>
            options.log.warn({ err: error }, 'usage simulator round failed'),
          )
          .finally(() => {
            running = null;
          });
      }, options.intervalS * 1000);
      // The demo must not keep a process alive that is otherwise done.
      timer.unref();
      options.log.info({ intervalS: options.intervalS }, 'usage simulator started (DEMO_MODE)');
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
      sink = null;
    },
  };
}

/**
 * Runs the simulator with the app: started once the app is ready (after migrations in main.ts),
 * stopped before the database closes. Does nothing unless `enabled`.
 */
export function registerUsageSimulator(
  app: FastifyInstance,
  options: UsageSimulatorOptions & { enabled: boolean; sink: UsageSink },
): void {
  if (!options.enabled || options.intervalS <= 0) return;
  const simulator = createUsageSimulator(options);
  app.addHook('onReady', async () => {
    simulator.start(options.sink);
  });
  app.addHook('preClose', async () => {
    await simulator.stop();
  });
}
