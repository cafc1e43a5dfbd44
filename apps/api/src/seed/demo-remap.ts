import { getTableName, sql } from 'drizzle-orm';
import type { PgTable, TableConfig } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';
import { insertMissing } from './insert';

/**
 * How a private copy of the demo data set (demo-copy.ts) rewrites the seed's rows: fresh ids,
 * e-mails, numbers and other unique values in place of the demo's fixed ones, the same old value
 * always becoming the same new one. The demo seed itself runs without one.
 */
export interface DemoRemap {
  /** The copy's version of one row of the demo (a new object; the row is left as it is). */
  row<T>(row: T): T;
}

/**
 * Inserts rows of the demo data set. Without a remap (the demo seed) the rows missing are
 * inserted and existing ones kept ({@link insertMissing}); with one (a copy) every row goes
 * through the remap and every one of them must be inserted — a copy that silently left a row out
 * would not be the demo — so a conflict fails the copy. Answers how many rows were inserted.
 */
export async function insertDemoRows<T extends PgTable<TableConfig>>(
  db: Db,
  table: T,
  rows: T['$inferInsert'][],
  remap: DemoRemap | undefined,
): Promise<number> {
  if (!remap) return insertMissing(db, table, rows);
  if (rows.length === 0) return 0;
  const copies = rows.map((row) => remap.row(row));
  const inserted = await db
    .insert(table)
    .values(copies)
    .returning({ one: sql<number>`1` });
  assertAllInserted(inserted.length, copies.length, `rows of ${getTableName(table)}`);
  return inserted.length;
}

/** Throws unless a copy's statement wrote every row it was given. */
export function assertAllInserted(written: number, given: number, what: string): void {
  if (written !== given) {
    throw new Error(`demo copy: ${written} of ${given} ${what} written`);
  }
}
