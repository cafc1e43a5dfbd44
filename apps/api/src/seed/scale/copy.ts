import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { BinaryChunks } from './binary';
import { iso } from './calendar';
import type { ColumnType, RowOf, TableSpec, Value } from './tables';

/*
 * The writers. The generator puts rows into a {@link BatchBuffer}, already encoded the way the
 * writer sends them; a writer then loads a whole batch:
 * - PostgreSQL: one `COPY … FROM STDIN` per table in binary format (binary.ts), streamed in
 *   ~1 MB buffers;
 * - PGlite (and a drizzle handle): multi-row INSERTs (PGlite has no COPY FROM STDIN).
 */

export type WriteFormat = 'copy' | 'insert';

/** A raw SQL connection, inside the seeder's transaction. */
export interface SqlSession {
  query(text: string): Promise<Record<string, unknown>[]>;
}

export function pgSession(client: pg.Client): SqlSession {
  return { query: async (text) => (await client.query(text)).rows as Record<string, unknown>[] };
}

export function dbSession(db: Db): SqlSession {
  return { query: async (text) => rowsOf(await db.execute(sql.raw(text))) };
}

/** Where the generator puts rows. */
export interface RowSink {
  row<T extends PgTable>(spec: TableSpec<T>, row: RowOf<T>): void;
  /** The hot path (usage): values in the spec's column order, no object in between. */
  values(spec: TableSpec, values: readonly Value[]): void;
}

/** A value as an SQL literal (standard_conforming_strings: only quotes are doubled). */
function literal(value: Value): string {
  if (value === null || value === undefined) return 'NULL';
  switch (typeof value) {
    case 'number':
      return String(value);
    case 'boolean':
      return value ? 'TRUE' : 'FALSE';
    case 'string':
      return `'${value.replace(/'/g, "''")}'`;
    default:
      return literal(value instanceof Date ? value.toISOString() : JSON.stringify(value));
  }
}

function insertTuple(values: readonly Value[]): string {
  return `(${values.map(literal).join(',')})`;
}

/** Values as SQL text wants them: timestamps (epoch ms) as ISO 8601. */
function asText(types: readonly ColumnType[], values: readonly Value[]): readonly Value[] {
  return values.map((value, i) =>
    types[i] === 'timestamptz' && typeof value === 'number' ? iso(value) : value,
  );
}

/** One table's rows of a batch, encoded for the writer. */
export interface TableRows {
  count: number;
  /** Binary COPY data (format `copy`). */
  copy: BinaryChunks | null;
  /** Tuples `(…)` (format `insert`). */
  tuples: string[];
}

/** One batch of rows per table, encoded for the writer, and the rows counted per table. */
export class BatchBuffer implements RowSink {
  readonly tables = new Map<TableSpec, TableRows>();
  rows = 0;

  constructor(private readonly format: WriteFormat) {}

  row<T extends PgTable>(spec: TableSpec<T>, row: RowOf<T>): void {
    const record = row as Record<string, Value>;
    this.values(
      spec,
      spec.keys.map((key) => record[key]),
    );
  }

  values(spec: TableSpec, values: readonly Value[]): void {
    let table = this.tables.get(spec);
    if (!table) {
      const copy = this.format === 'copy' ? new BinaryChunks(spec.types) : null;
      table = { count: 0, copy, tuples: [] };
      this.tables.set(spec, table);
    }
    if (table.copy) table.copy.row(values);
    else table.tuples.push(insertTuple(asText(spec.types, values)));
    table.count += 1;
    this.rows += 1;
  }
}

export interface BatchWriter {
  /** How the writer's batches are encoded. */
  format: WriteFormat;
  /** Writes the batch's tables that `owns` names (each connection loads its own tables). */
  write(batch: BatchBuffer, owns: (table: string) => boolean): Promise<void>;
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;
const columnList = (spec: TableSpec) => spec.columns.map(quoted).join(', ');

/**
 * COPY per table of a batch, over the seeder's own connection (inside its transaction). With
 * `freeze` the rows are written frozen (COPY … FREEZE: the tables were truncated in this
 * transaction), so nothing rewrites every page afterwards to mark them visible.
 */
export function copyWriter(client: pg.Client, options: { freeze: boolean }): BatchWriter {
  return {
    format: 'copy',
    async write(batch, owns) {
      for (const [spec, rows] of batch.tables) {
        if (!rows.copy || rows.count === 0 || !owns(spec.name)) continue;
        const stream = client.query(
          copyFrom(
            `COPY ${quoted(spec.name)} (${columnList(spec)}) FROM STDIN WITH (FORMAT binary${options.freeze ? ', FREEZE' : ''})`,
          ),
        );
        await pipeline(Readable.from(rows.copy.done()), stream);
      }
    },
  };
}

/** Rows per INSERT: a few hundred keeps each statement well under PGlite's message sizes. */
const INSERT_ROWS = 400;

/** Multi-row INSERTs per table of a batch (PGlite, or any drizzle handle). */
export function insertWriter(session: SqlSession): BatchWriter {
  return {
    format: 'insert',
    async write(batch, owns) {
      for (const [spec, { tuples }] of batch.tables) {
        if (!owns(spec.name)) continue;
        const head = `INSERT INTO ${quoted(spec.name)} (${columnList(spec)}) VALUES `;
        for (let i = 0; i < tuples.length; i += INSERT_ROWS) {
          await session.query(head + tuples.slice(i, i + INSERT_ROWS).join(','));
        }
      }
    },
  };
}
