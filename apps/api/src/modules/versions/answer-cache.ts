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
  body: string;
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

  return {
    /** `parts` name the resource and what else the answer depends on (line, language, page). */
    async get(userId: string, parts: readonly string[], build: () => Promise<string>) {
      const key = [userId, ...parts].join('|');
      // With room for none (ANSWER_CACHE_ENTRIES=0) every answer is built.
      const stamp = deps.maxEntries > 0 ? deps.facts.stamp(userId) : null;
      if (stamp !== null) {
        const hit = entries.get(key);
        if (hit?.stamp === stamp) {
          // Least recently used goes first: a hit moves to the end.
          entries.delete(key);
          entries.set(key, hit);
          if (deps.check) {
            const fresh = await build();
            if (fresh !== hit.body) {
              deps.log.error(
                { userId, kept: hit.body, fresh },
                'answer in memory differs from the database: a write did not bump the change version',
              );
              throw new Error(`READ_CACHE_CHECK: stale answer ${parts.join(' ')}`);
            }
          }
          return hit.body;
        }
      }
      const body = await build();
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
    /** How many answers are kept (tests, metrics). */
    get size() {
      return entries.size;
    },
  };
}

export type AnswerCache = ReturnType<typeof createAnswerCache>;
