import type { FastifyBaseLogger } from 'fastify';
import type { ChangeFacts } from './change-versions';

export interface AnswerCacheDeps {
  facts: ChangeFacts;
  log: FastifyBaseLogger;
  /** Answers kept at most (least recently used go first). */
  maxEntries: number;
  /**
   * Check every answer from memory against a fresh one (READ_CACHE_CHECK, on in the test
   * suite): a write that changes what a customer reads without telling the instances (no
   * version bump, no usage notice) fails the request instead of going unnoticed.
   */
  check: boolean;
}

interface Entry {
  stamp: string;
  /**
   * The answer's UTF-8 bytes: sent as they are, where a string would be measured for its
   * Content-Length and encoded again on every send (a few KB for GET /api/subscriptions).
   */
  body: Buffer;
}

/**
 * A customer's answers kept in memory, serialized (docs/decisions/0057-instance-memory.md):
 * GET /api/subscriptions per current line and Faroese month, the polled notifications and data
 * requests per language and page. An answer is reused while the customer's change counter
 * (version notices and usage notices, ChangeFacts.stamp) has not moved since it was built; a
 * counter read before building that has moved by the time the answer is ready means the answer
 * may be older than what the instance has heard, so it is not kept.
 */
export function createAnswerCache(deps: AnswerCacheDeps) {
  const entries = new Map<string, Entry>();

  const keyOf = (userId: string, parts: readonly string[]) => [userId, ...parts].join('|');
  // With room for none (ANSWER_CACHE_ENTRIES=0) every answer is built.
  const stampOf = (userId: string) => (deps.maxEntries > 0 ? deps.facts.stamp(userId) : null);

  /** The kept entry for `key` if it is still the customer's (moved to the end: LRU). */
  function hit(key: string, stamp: string): Entry | undefined {
    const entry = entries.get(key);
    if (entry?.stamp !== stamp) return undefined;
    entries.delete(key);
    entries.set(key, entry);
    return entry;
  }

  return {
    /** `parts` name the resource and what else the answer depends on (line, language, page). */
    async get(
      userId: string,
      parts: readonly string[],
      build: () => Promise<string>,
    ): Promise<Buffer> {
      const key = keyOf(userId, parts);
      const stamp = stampOf(userId);
      if (stamp !== null) {
        const kept = hit(key, stamp);
        if (kept) {
          if (deps.check) {
            const fresh = await build();
            if (!kept.body.equals(Buffer.from(fresh))) {
              deps.log.error(
                { userId, kept: kept.body.toString(), fresh },
                'answer in memory differs from the database: a write did not bump the change version',
              );
              throw new Error(`READ_CACHE_CHECK: stale answer ${parts.join(' ')}`);
            }
          }
          return kept.body;
        }
      }
      const body = Buffer.from(await build());
      if (stamp !== null && deps.facts.stamp(userId) === stamp) {
        entries.delete(key);
        if (entries.size >= deps.maxEntries) {
          const oldest = entries.keys().next().value;
          if (oldest !== undefined) entries.delete(oldest);
        }
        entries.set(key, { stamp, body });
      }
      return body;
    },
    /**
     * The kept answer, when `get` would answer it from memory without building: no promise, so
     * a route can send it at once. Undefined otherwise, and always with the check on (READ_CACHE_CHECK),
     * where `get` compares it with a fresh one.
     */
    peek(userId: string, parts: readonly string[]): Buffer | undefined {
      if (deps.check) return undefined;
      const stamp = stampOf(userId);
      return stamp === null ? undefined : hit(keyOf(userId, parts), stamp)?.body;
    },
    /** How many answers are kept (tests, metrics). */
    get size() {
      return entries.size;
    },
  };
}

export type AnswerCache = ReturnType<typeof createAnswerCache>;
