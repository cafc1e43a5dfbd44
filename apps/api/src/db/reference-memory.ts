import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from './client';
import { createNoticeTrust } from './notice-trust';
import { recentWrites } from './recent-writes';

/**
 * NOTIFY channel of reference data changes: sent by a statement trigger on the catalogue, content
 * pages and status messages (migration 0011), whoever writes them.
 */
export const REFERENCE_CHANGED_CHANNEL = 'reference_changed';

/** The recent-writes key of reference data written by this process (status messages). */
export const REFERENCE_WRITE_KEY = 'reference-data';

/** A serialized answer and its entity tag (a hash of the body, the same on every instance). */
export interface KeptAnswer {
  body: string;
  etag: string;
}

export interface ReferenceMemory {
  /** The answer kept under `key`, or the one `build` makes (kept when memory can be trusted). */
  answer(key: string, build: () => Promise<string>): Promise<KeptAnswer>;
  /** A value kept under `key` (not serialized), or the one `load` reads. */
  value<T>(key: string, load: () => Promise<T>): Promise<T>;
  /** The value kept under `key` now, without a promise; undefined when `value` must load it. */
  kept<T>(key: string): T | undefined;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Reference data in memory per instance (docs/decisions/0057-instance-memory.md): content pages,
 * status messages, the plan and package catalogue change a few times a year and are read at every
 * app start. Everything is dropped when any of it changes (the trigger's NOTIFY), when the LISTEN
 * connection is lost (nothing is kept until it is back) and, for what this process writes itself,
 * for a moment after the write (recent-writes.ts).
 */
export function createReferenceMemory(deps: {
  database: Database;
  log: FastifyBaseLogger;
}): ReferenceMemory {
  const kept = new Map<string, unknown>();
  const trust = createNoticeTrust(deps.database, () => kept.clear());
  let stop: (() => Promise<void>) | undefined;

  const usable = () => trust.trusted && !recentWrites.has(REFERENCE_WRITE_KEY);

  function keptValue<T>(key: string): T | undefined {
    return usable() ? (kept.get(key) as T | undefined) : undefined;
  }

  async function value<T>(key: string, load: () => Promise<T>): Promise<T> {
    const known = keptValue<T>(key);
    if (known !== undefined) return known;
    const startedIn = trust.epoch;
    const loaded = await load();
    if (usable() && trust.mayKeep(startedIn)) kept.set(key, loaded);
    return loaded;
  }

  return {
    value,
    kept: keptValue,
    answer: (key, build) =>
      value(`answer:${key}`, async () => {
        const body = await build();
        const hash = createHash('sha256').update(body).digest('base64url').slice(0, 22);
        return { body, etag: `"${hash}"` };
      }),
    async start() {
      stop = await trust.listen([
        [
          REFERENCE_CHANGED_CHANNEL,
          (table) => {
            deps.log.debug({ table }, 'reference data changed');
            trust.forget();
          },
        ],
      ]);
    },
    async stop() {
      await stop?.();
      stop = undefined;
    },
  };
}
