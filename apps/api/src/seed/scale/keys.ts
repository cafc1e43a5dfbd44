import type { SqlSession } from './copy';
import { LOADED_TABLES } from './tables';

/*
 * While the seeder loads, the foreign keys of (and onto) the loaded tables and their secondary
 * indexes are set aside and made again from the catalog's own definitions afterwards, so
 * nothing of the schema changes:
 * - a foreign key checked row by row costs a lookup per row per key, more than the rest of the
 *   load; added back, it is checked once over the whole table (one join);
 * - an index built once from sorted rows costs a fraction of keeping it up row by row, most of
 *   all the trigram (GIN) indexes of the console's search and the unique indexes on e-mail
 *   addresses and numbers, which rows reach in no order.
 * Primary keys stay: the generator writes rows in id order (ids.ts), and foreign keys need them.
 * What was set aside is recorded in the marker row (safety.ts) until it is back.
 */

export interface RestoreStep {
  kind: 'index' | 'foreign key';
  /** The table it is on. */
  table: string;
  sql: string;
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;
const loadedList = () => LOADED_TABLES.map((t) => `'${t}'`).join(', ');

/**
 * Drops the foreign keys of the loaded tables and those of other tables onto them (so each
 * loaded table can be emptied on its own); answers how to add each back.
 */
export async function dropForeignKeys(session: SqlSession): Promise<RestoreStep[]> {
  const rows = await session.query(
    `SELECT t.relname AS "table", c.conname AS name, pg_get_constraintdef(c.oid) AS definition
       FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_class r ON r.oid = c.confrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE c.contype = 'f' AND n.nspname = 'public'
        AND (t.relname IN (${loadedList()}) OR r.relname IN (${loadedList()}))
      ORDER BY 1, 2`,
  );
  const steps: RestoreStep[] = [];
  for (const r of rows) {
    const table = String(r.table);
    const name = quoted(String(r.name));
    await session.query(`ALTER TABLE ${quoted(table)} DROP CONSTRAINT ${name}`);
    steps.push({
      kind: 'foreign key',
      table,
      sql: `ALTER TABLE ${quoted(table)} ADD CONSTRAINT ${name} ${String(r.definition)}`,
    });
  }
  return steps;
}

/**
 * Drops the secondary indexes of the loaded tables (a unique constraint through its
 * constraint); answers how to make each again.
 */
export async function dropIndexes(session: SqlSession): Promise<RestoreStep[]> {
  const rows = await session.query(
    `SELECT t.relname AS "table", ic.relname AS name, pg_get_indexdef(i.indexrelid) AS definition,
            c.conname AS "constraint", pg_get_constraintdef(c.oid) AS "constraintDefinition"
       FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid
       JOIN pg_class ic ON ic.oid = i.indexrelid JOIN pg_namespace n ON n.oid = t.relnamespace
       LEFT JOIN pg_constraint c ON c.conindid = i.indexrelid AND c.contype IN ('u', 'x')
      WHERE n.nspname = 'public' AND t.relname IN (${loadedList()}) AND NOT i.indisprimary
      ORDER BY 1, 2`,
  );
  const steps: RestoreStep[] = [];
  for (const r of rows) {
    const table = String(r.table);
    if (typeof r.constraint === 'string') {
      await session.query(`ALTER TABLE ${quoted(table)} DROP CONSTRAINT ${quoted(r.constraint)}`);
      steps.push({
        kind: 'index',
        table,
        sql: `ALTER TABLE ${quoted(table)} ADD CONSTRAINT ${quoted(r.constraint)} ${String(r.constraintDefinition)}`,
      });
    } else {
      await session.query(`DROP INDEX ${quoted(String(r.name))}`);
      steps.push({ kind: 'index', table, sql: String(r.definition) });
    }
  }
  return steps;
}

/**
 * The index builds shared out over `connections` by the rows of their tables (largest first,
 * each to the least loaded), so the builds run side by side: a table's builds stay together.
 */
export function shareIndexes(
  steps: readonly RestoreStep[],
  rows: Readonly<Record<string, number>>,
  connections: number,
): RestoreStep[][] {
  const lists: RestoreStep[][] = Array.from({ length: connections }, () => []);
  const load = new Array<number>(connections).fill(0);
  const tables = [...new Set(steps.filter((s) => s.kind === 'index').map((s) => s.table))].sort(
    (a, b) => (rows[b] ?? 0) - (rows[a] ?? 0),
  );
  for (const table of tables) {
    const i = load.indexOf(Math.min(...load));
    const own = steps.filter((s) => s.kind === 'index' && s.table === table);
    lists[i]?.push(...own);
    load[i] = (load[i] ?? 0) + (rows[table] ?? 0) * own.length;
  }
  return lists;
}
