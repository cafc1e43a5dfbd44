import type { SqlSession } from './copy';
import { LOADED_TABLES } from './tables';

/*
 * While the seeder loads (inside its one transaction), the loaded tables' foreign keys and
 * secondary indexes are set aside and made again from the catalog's own definitions
 * afterwards, so nothing of the schema changes:
 * - a foreign key checked row by row costs a lookup per row per key, more than the rest of the
 *   load; added back, it is checked once over the whole table (one join);
 * - an index built once from sorted rows costs a fraction of keeping it up row by row, most of
 *   all the trigram (GIN) indexes of the console's search and the unique indexes on e-mail
 *   addresses and numbers, which rows reach in no order.
 * Primary keys stay: the generator writes rows in id order (ids.ts), and foreign keys need them.
 * A failed load rolls back, and the keys and indexes with it.
 */

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;
const loadedList = () => LOADED_TABLES.map((t) => `'${t}'`).join(', ');

/** What to run to put a key or index back. */
export type Restore = string;

/** Drops the foreign keys of the loaded tables; answers how to add each back. */
export async function dropForeignKeys(session: SqlSession): Promise<Restore[]> {
  const rows = await session.query(
    `SELECT t.relname AS "table", c.conname AS name, pg_get_constraintdef(c.oid) AS definition
       FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE c.contype = 'f' AND n.nspname = 'public' AND t.relname IN (${loadedList()})
      ORDER BY 1, 2`,
  );
  const restore: Restore[] = [];
  for (const r of rows) {
    const table = quoted(String(r.table));
    const name = quoted(String(r.name));
    await session.query(`ALTER TABLE ${table} DROP CONSTRAINT ${name}`);
    restore.push(`ALTER TABLE ${table} ADD CONSTRAINT ${name} ${String(r.definition)}`);
  }
  return restore;
}

/**
 * Drops the secondary indexes of the loaded tables (a unique constraint through its
 * constraint); answers how to make each again.
 */
export async function dropIndexes(session: SqlSession): Promise<Restore[]> {
  const rows = await session.query(
    `SELECT t.relname AS "table", ic.relname AS name, pg_get_indexdef(i.indexrelid) AS definition,
            c.conname AS "constraint", pg_get_constraintdef(c.oid) AS "constraintDefinition"
       FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid
       JOIN pg_class ic ON ic.oid = i.indexrelid JOIN pg_namespace n ON n.oid = t.relnamespace
       LEFT JOIN pg_constraint c ON c.conindid = i.indexrelid AND c.contype IN ('u', 'x')
      WHERE n.nspname = 'public' AND t.relname IN (${loadedList()}) AND NOT i.indisprimary
      ORDER BY 1, 2`,
  );
  const restore: Restore[] = [];
  for (const r of rows) {
    const table = quoted(String(r.table));
    if (typeof r.constraint === 'string') {
      await session.query(`ALTER TABLE ${table} DROP CONSTRAINT ${quoted(r.constraint)}`);
      restore.push(
        `ALTER TABLE ${table} ADD CONSTRAINT ${quoted(r.constraint)} ${String(r.constraintDefinition)}`,
      );
    } else {
      await session.query(`DROP INDEX ${quoted(String(r.name))}`);
      restore.push(String(r.definition));
    }
  }
  return restore;
}

/** Puts back what was set aside: indexes first (a foreign key's check is a join). */
export async function restore(session: SqlSession, steps: readonly Restore[]): Promise<void> {
  for (const step of steps) await session.query(step);
}
