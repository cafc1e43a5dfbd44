import { eq, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db } from './client';

/*
 * Keyset paging, newest first on (time, id), never OFFSET (the console's payments list and orders
 * queue, the audit log): a page is read with one row more than it shows, and the next page is
 * the rows older than the last one shown (`before` = the answer's `nextBefore`). Rows that
 * arrive meanwhile do not shift the pages.
 */

/**
 * The rows older than the row `before` of the same table, by (time, id). The anchor's time is
 * read in the database, to the microsecond (a JS Date keeps milliseconds), and the row comparison
 * is an index condition on an index on (time, id). A `before` that is no row matches nothing.
 */
export function olderThan(time: PgColumn, id: PgColumn, before: string): SQL {
  return sql`(${time}, ${id}) < (select ${time}, ${id} from ${id.table} where ${id} = ${before})`;
}

/**
 * `before` when it is the id of a row of `id`'s table, else undefined: an anchor that is no row
 * is left out (the newest page), as the audit log does.
 */
export async function knownAnchor(
  db: Db,
  id: PgColumn,
  before: string | undefined,
): Promise<string | undefined> {
  if (!before) return undefined;
  const [row] = await db.select({ id }).from(id.table).where(eq(id, before));
  return row ? before : undefined;
}

/** The page of `limit` rows out of `rows`, read with one more; `nextBefore` while older ones are left. */
export function keysetPage<T>(
  rows: readonly T[],
  limit: number,
  idOf: (row: T) => string,
): { page: T[]; nextBefore: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { page, nextBefore: rows.length > limit && last !== undefined ? idOf(last) : null };
}
