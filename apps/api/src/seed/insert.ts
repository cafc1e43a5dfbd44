import { sql } from 'drizzle-orm';
import type { PgTable, TableConfig } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';

/**
 * Inserts the rows that are not there yet (by primary key or unique constraint) and answers how
 * many were new. Seeds use it so that running them again — at every start, or on a database a
 * previous version seeded — never overwrites what customers changed.
 */
export async function insertMissing<T extends PgTable<TableConfig>>(
  db: Db,
  table: T,
  rows: T['$inferInsert'][],
): Promise<number> {
  if (rows.length === 0) return 0;
  // Only a count comes back, not the rows (the terms and privacy pages are long).
  const inserted = await db
    .insert(table)
    .values(rows)
    .onConflictDoNothing()
    .returning({ one: sql<number>`1` });
  return inserted.length;
}
