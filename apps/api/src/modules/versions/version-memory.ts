import type { FastifyBaseLogger } from 'fastify';
import type { Database, Db } from '../../db/client';
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
  const { database, db, log } = deps;
  const maxEntries = deps.maxEntries ?? DEFAULT_MAX_ENTRIES;
  const versions = new Map<string, number>();
  const stamps = new Map<string, number>();
  let trusted = false;
  /** Moves whenever trust is lost or regained: a read that spans it must not be kept. */
  let epoch = 0;
  let stops: (() => Promise<void>)[] = [];

  function learn(userId: string, version: number) {
    const known = versions.get(userId);
    if (known !== undefined && known >= version) return;
    if (known === undefined && versions.size >= maxEntries) versions.clear();
    versions.set(userId, version);
  }

  function touch(userId: string) {
    if (!stamps.has(userId) && stamps.size >= maxEntries) forget();
    stamps.set(userId, (stamps.get(userId) ?? 0) + 1);
  }

  function forget() {
    epoch += 1;
    versions.clear();
    stamps.clear();
  }
  const options = {
    onLost: () => {
      trusted = false;
      forget();
    },
    onReconnected: () => {
      forget();
      trusted = true;
    },
  };

  return {
    get trusted() {
      return trusted;
    },

    async start() {
      stops = [
        await database.listen(
          USER_VERSIONS_CHANNEL,
          (payload) => {
            for (const [userId, version] of parseUserVersions(payload)) {
              learn(userId, version);
              touch(userId);
            }
          },
          options,
        ),
        await database.listen(
          USAGE_CHANGED_CHANNEL,
          (payload) => {
            for (const userId of parseUserIds(payload)) touch(userId);
          },
          options,
        ),
      ];
      forget();
      trusted = true;
      log.debug('change versions kept in memory');
    },

    async stop() {
      trusted = false;
      forget();
      const pending = stops;
      stops = [];
      await Promise.all(pending.map((stop) => stop()));
    },

    async version(userId) {
      const fromMemory = trusted && !recentWrites.has(userId);
      if (fromMemory) {
        const known = versions.get(userId);
        if (known !== undefined) return known;
      }
      const startedIn = epoch;
      const version = await readUserVersion(db, userId);
      if (fromMemory && trusted && epoch === startedIn) learn(userId, version);
      return version;
    },

    stamp(userId) {
      if (!trusted || recentWrites.has(userId)) return null;
      // The epoch makes a counter that started over never equal one from before.
      return `${epoch}.${stamps.get(userId) ?? 0}`;
    },
  };
}
