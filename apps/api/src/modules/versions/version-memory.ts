import type { FastifyBaseLogger } from 'fastify';
import type { Database, Db } from '../../db/client';
import { createNoticeTrust } from '../../db/notice-trust';
import { recentWrites } from '../../db/recent-writes';
import {
  parseUserIds,
  parseUserVersions,
  readUserVersion,
  USAGE_CHANGED_CHANNEL,
  USER_VERSIONS_CHANNEL,
  type ChangeFacts,
} from './change-versions';

export interface VersionMemoryDeps {
  database: Database;
  db: Db;
  log: FastifyBaseLogger;
  /** Customers remembered at most; beyond it memory starts over (a read each brings them back). */
  maxEntries?: number;
}

export interface VersionMemory extends ChangeFacts {
  known(userId: string): number | undefined;
  /** LISTENs on the change channels; until then (and while the connection is down) reads go to the database. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Whether memory is being kept true now (the LISTEN connection is up). */
  readonly trusted: boolean;
}

const DEFAULT_MAX_ENTRIES = 500_000;

/**
 * Change versions held in memory per instance (docs/decisions/0057-instance-memory.md), so a 60-s
 * poll that finds nothing changed costs no database query. Kept true by the NOTIFYs that every
 * change sends in its transaction (bumpUserVersions): versions only grow, so whichever of a
 * database read and a notice arrives last cannot set a customer back. While the LISTEN connection
 * is down nothing is trusted; when it is back, memory starts empty, because what was sent in
 * between is lost. Reads for a customer this process has just written go to the database
 * (recent-writes.ts), so a customer always sees their own change on their next request.
 */
export function createVersionMemory(deps: VersionMemoryDeps): VersionMemory {
  const { db, log } = deps;
  const maxEntries = deps.maxEntries ?? DEFAULT_MAX_ENTRIES;
  const versions = new Map<string, number>();
  const stamps = new Map<string, number>();
  const trust = createNoticeTrust(deps.database, () => {
    versions.clear();
    stamps.clear();
  });
  let stop: (() => Promise<void>) | undefined;

  function learn(userId: string, version: number) {
    const known = versions.get(userId);
    if (known !== undefined && known >= version) return;
    if (known === undefined && versions.size >= maxEntries) versions.clear();
    versions.set(userId, version);
  }

  /** Memory answers for this customer: the LISTENs are trusted and no write of theirs is in flight. */
  function answersFromMemory(userId: string) {
    return trust.trusted && !recentWrites.has(userId);
  }

  function touch(userId: string) {
    if (!stamps.has(userId) && stamps.size >= maxEntries) trust.forget();
    stamps.set(userId, (stamps.get(userId) ?? 0) + 1);
  }

  return {
    get trusted() {
      return trust.trusted;
    },

    async start() {
      stop = await trust.listen([
        [
          USER_VERSIONS_CHANNEL,
          (payload) => {
            for (const [userId, version] of parseUserVersions(payload)) {
              learn(userId, version);
              touch(userId);
            }
          },
        ],
        [
          USAGE_CHANGED_CHANNEL,
          (payload) => {
            for (const userId of parseUserIds(payload)) touch(userId);
          },
        ],
      ]);
      log.debug('change versions kept in memory');
    },

    async stop() {
      await stop?.();
      stop = undefined;
    },

    known(userId) {
      return answersFromMemory(userId) ? versions.get(userId) : undefined;
    },

    async version(userId) {
      const fromMemory = answersFromMemory(userId);
      if (fromMemory) {
        const known = versions.get(userId);
        if (known !== undefined) return known;
      }
      const startedIn = trust.epoch;
      const version = await readUserVersion(db, userId);
      if (fromMemory && trust.mayKeep(startedIn)) learn(userId, version);
      return version;
    },

    stamp(userId) {
      if (!answersFromMemory(userId)) return null;
      // The epoch makes a counter that started over never equal one from before.
      return `${trust.epoch}.${stamps.get(userId) ?? 0}`;
    },
  };
}
