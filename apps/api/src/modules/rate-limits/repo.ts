import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { rateLimitCounters } from '../../db/schema/rate-limits';

export interface ConsumeArgs {
  key: string;
  windowStart: Date;
  previousWindowStart: Date;
  /** Share of the previous window that still counts (1 at the start of a window, 0 at its end). */
  previousWeight: number;
  limit: number;
}

/**
 * Counts one attempt under `key` if the sliding-window estimate (this window's count plus the
 * weighted count of the previous one) stays within `limit`; returns false, counting nothing,
 * when it would not. One statement — insert or increment, guarded by the estimate — so attempts
 * racing on several API instances can never together pass the limit.
 */
export async function consumeAttempt(db: Db, args: ConsumeArgs): Promise<boolean> {
  const windowStart = args.windowStart.toISOString();
  const previous = sql`coalesce((select p.count from ${rateLimitCounters} p where p.key = ${args.key} and p.window_start = ${args.previousWindowStart.toISOString()}::timestamptz), 0)`;
  const weighted = sql`${args.previousWeight}::double precision * ${previous}`;
  const result = await db.execute(sql`
    insert into ${rateLimitCounters} (key, window_start, count)
    select ${args.key}, ${windowStart}::timestamptz, 1
    where ${weighted} + 1 <= ${args.limit}::integer
    on conflict (key, window_start) do update set count = ${rateLimitCounters}.count + 1
    where ${rateLimitCounters}.count + 1 + ${weighted} <= ${args.limit}::integer
    returning count`);
  return rowsOf(result).length > 0;
}

/** The counts of a key in the current and the previous window (0 when absent). */
export async function readCounts(
  db: Db,
  key: string,
  windowStart: Date,
  previousWindowStart: Date,
): Promise<{ current: number; previous: number }> {
  const rows = await db
    .select({ windowStart: rateLimitCounters.windowStart, count: rateLimitCounters.count })
    .from(rateLimitCounters)
    .where(
      and(
        eq(rateLimitCounters.key, key),
        inArray(rateLimitCounters.windowStart, [windowStart, previousWindowStart]),
      ),
    );
  const countAt = (start: Date) =>
    rows.find((row) => row.windowStart.getTime() === start.getTime())?.count ?? 0;
  return { current: countAt(windowStart), previous: countAt(previousWindowStart) };
}

/** Takes back one attempt counted in `windowStart` (an attempt that turned out legitimate). */
export async function refundAttempt(db: Db, key: string, windowStart: Date): Promise<void> {
  await db
    .update(rateLimitCounters)
    .set({ count: sql`${rateLimitCounters.count} - 1` })
    .where(
      and(
        eq(rateLimitCounters.key, key),
        eq(rateLimitCounters.windowStart, windowStart),
        sql`${rateLimitCounters.count} > 0`,
      ),
    );
}

/** Forgets every window of the keys. */
export async function deleteCounters(db: Db, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await db.delete(rateLimitCounters).where(inArray(rateLimitCounters.key, keys));
}

/** Removes windows that can no longer count; returns how many rows went. */
export async function pruneCounters(db: Db, before: Date): Promise<number> {
  const deleted = await db
    .delete(rateLimitCounters)
    .where(lt(rateLimitCounters.windowStart, before))
    .returning({ key: rateLimitCounters.key });
  return deleted.length;
}
