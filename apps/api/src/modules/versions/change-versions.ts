import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { recentWrites } from '../../db/recent-writes';
import { userVersions } from '../../db/schema/data-transfers';

/**
 * NOTIFY channel of moved change versions: a JSON list of `[userId, version]` pairs, sent in the
 * transaction that moves them, so every instance hears it once they are committed and its
 * in-memory versions follow (docs/decisions/0057-instance-memory.md).
 */
export const USER_VERSIONS_CHANNEL = 'user_versions';

/**
 * NOTIFY channel of customers whose data use moved (the usage feed): a JSON list of user ids.
 * Usage is not a change version (it would turn every 304 poll into a 200 for anyone using their
 * phone); it only ends the in-memory subscription answers of these customers.
 */
export const USAGE_CHANGED_CHANNEL = 'usage_changed';

/** Entries per NOTIFY: a payload must stay under PostgreSQL's 8000 bytes. */
const PER_NOTICE = 100;

async function notify(db: Db, channel: string, items: readonly unknown[]): Promise<void> {
  for (let i = 0; i < items.length; i += PER_NOTICE) {
    const payload = JSON.stringify(items.slice(i, i + PER_NOTICE));
    await db.execute(sql`select pg_notify(${channel}, ${payload})`);
  }
}

/**
 * Bumps the change version of these customers (docs/decisions/0041-polling-etag.md) and tells
 * every instance. Call it in the transaction of the write; users are taken in id order so that
 * two transactions bumping the same customers never wait for each other in a circle.
 */
export async function bumpUserVersions(db: Db, userIds: readonly string[]): Promise<void> {
  const sorted = [...new Set(userIds)].sort();
  if (sorted.length === 0) return;
  recentWrites.mark(sorted);
  const rows = await db
    .insert(userVersions)
    .values(sorted.map((userId) => ({ userId, version: 2 })))
    .onConflictDoUpdate({
      target: userVersions.userId,
      set: { version: sql`${userVersions.version} + 1` },
    })
    .returning({ userId: userVersions.userId, version: userVersions.version });
  await notifyUserVersions(
    db,
    rows.map((r) => [r.userId, r.version]),
  );
}

/** Sends the versions a transaction moved (bumpUserVersions does; exported for tests). */
export function notifyUserVersions(
  db: Db,
  pairs: readonly (readonly [string, number])[],
): Promise<void> {
  return notify(db, USER_VERSIONS_CHANNEL, pairs);
}

/** Tells every instance that these customers' data use moved; in the transaction that moved it. */
export async function notifyUsageChanged(db: Db, userIds: readonly string[]): Promise<void> {
  const unique = [...new Set(userIds)].sort();
  if (unique.length === 0) return;
  recentWrites.mark(unique);
  await notify(db, USAGE_CHANGED_CHANNEL, unique);
}

/** The `[userId, version]` pairs of a notice; nothing for anything malformed. */
export function parseUserVersions(payload: string): [string, number][] {
  try {
    const value: unknown = JSON.parse(payload);
    if (!Array.isArray(value)) return [];
    return value.filter(
      (pair): pair is [string, number] =>
        Array.isArray(pair) &&
        typeof pair[0] === 'string' &&
        typeof pair[1] === 'number' &&
        Number.isSafeInteger(pair[1]),
    );
  } catch {
    return [];
  }
}

/** The user ids of a usage notice; nothing for anything malformed. */
export function parseUserIds(payload: string): string[] {
  try {
    const value: unknown = JSON.parse(payload);
    return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

/** The customer's change version; 1 before anything was written for them. */
export async function readUserVersion(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ version: userVersions.version })
    .from(userVersions)
    .where(eq(userVersions.userId, userId));
  return row?.version ?? 1;
}

/** What a poll needs: the customer's change version, from memory when it can be trusted. */
export interface UserVersionReader {
  version(userId: string): Promise<number>;
  /**
   * The version when `version` would answer it from memory, without a promise (a poll's 304 is
   * then sent at once); undefined when it would have to read the database.
   */
  known?(userId: string): number | undefined;
}

/**
 * The per-instance memory of change facts (version-memory.ts): the versions, plus a counter per
 * customer that moves with every change or usage notice this instance hears. An answer kept in
 * memory is still the customer's as long as their counter has not moved since it was made.
 */
export interface ChangeFacts extends UserVersionReader {
  /**
   * The customer's counter, or null when memory cannot be trusted for them right now (the
   * LISTEN connection is down, or this process has just written their data): then nothing may
   * be answered from memory for them.
   */
  stamp(userId: string): string | null;
}
