import type { FastifyBaseLogger } from 'fastify';
import type { Database, Db } from '../../db/client';
import { createNoticeTrust } from '../../db/notice-trust';
import { recentWrites } from '../../db/recent-writes';
import { findActiveSession } from './repo';
import { parseSessionsRevoked, SESSION_REVOKED_CHANNEL } from './session-events';

export interface SessionMemoryDeps {
  database: Database;
  db: Db;
  log: FastifyBaseLogger;
  /** How long a session stays remembered after its last use (the access token's lifetime). */
  rememberMs: number;
  /** Sessions remembered at most; beyond it memory starts over. */
  maxEntries?: number;
  /** Monotonic clock in ms (tests move it). */
  clock?: () => number;
}

export interface SessionMemory {
  /** True when the session exists, is not revoked and belongs to `userId`. */
  isActive(sessionId: string, userId: string): Promise<boolean>;
  /**
   * `isActive` from memory alone, without a promise (issue 13: a poll's bearer check): undefined
   * when memory cannot tell (the session not known yet, or memory not trusted now).
   */
  knownActive(sessionId: string, userId: string): boolean | undefined;
  start(): Promise<void>;
  stop(): Promise<void>;
}

interface Known {
  userId: string | null;
  active: boolean;
  seenAt: number;
}

const DEFAULT_MAX_ENTRIES = 500_000;

/**
 * Which sessions are still signed in, held in memory per instance (docs/decisions/0057-instance-memory.md),
 * so checking an access token costs no database query. A session ends (logout, new password,
 * refresh-token reuse, a deleted user) in a transaction that NOTIFYs `session_revoked`; every
 * instance hears it after the commit and from then on refuses the session. An ended session never
 * comes back, so "revoked" wins over any database read that was on its way. While the LISTEN
 * connection is down nothing is trusted (every check reads the database); when it is back memory
 * starts empty. Sessions this process has just ended are read from the database until their
 * notice has surely arrived (recent-writes.ts).
 */
export function createSessionMemory(deps: SessionMemoryDeps): SessionMemory {
  const { db } = deps;
  const clock = deps.clock ?? (() => performance.now());
  const maxEntries = deps.maxEntries ?? DEFAULT_MAX_ENTRIES;
  const known = new Map<string, Known>();
  const trust = createNoticeTrust(deps.database, () => known.clear());
  let stop: (() => Promise<void>) | undefined;
  let nextSweep = 0;

  /** Drops sessions unused for longer than an access token lives (a new token re-reads it). */
  function sweep(at: number) {
    if (at < nextSweep) return;
    nextSweep = at + deps.rememberMs;
    for (const [id, entry] of known) if (at - entry.seenAt > deps.rememberMs) known.delete(id);
  }

  function remember(sessionId: string, entry: Known) {
    if (!known.has(sessionId) && known.size >= maxEntries) trust.forget();
    known.set(sessionId, entry);
  }

  function knownActive(sessionId: string, userId: string): boolean | undefined {
    const at = clock();
    sweep(at);
    if (!trust.trusted || recentWrites.has(sessionId)) return undefined;
    const entry = known.get(sessionId);
    if (!entry) return undefined;
    entry.seenAt = at;
    return entry.active && entry.userId === userId;
  }

  return {
    knownActive,

    async isActive(sessionId, userId) {
      const remembered = knownActive(sessionId, userId);
      if (remembered !== undefined) return remembered;
      const fromMemory = trust.trusted && !recentWrites.has(sessionId);
      const startedIn = trust.epoch;
      const row = await findActiveSession(db, sessionId);
      if (fromMemory && trust.mayKeep(startedIn)) {
        const current = known.get(sessionId);
        // A revocation heard while the read was on its way is the newer fact.
        if (!current)
          remember(sessionId, { userId: row?.userId ?? null, active: !!row, seenAt: clock() });
      }
      return !!row && row.userId === userId;
    },

    async start() {
      stop = await trust.listen([
        [
          SESSION_REVOKED_CHANNEL,
          (payload) => {
            const at = clock();
            for (const id of parseSessionsRevoked(payload)) {
              remember(id, { userId: known.get(id)?.userId ?? null, active: false, seenAt: at });
            }
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
