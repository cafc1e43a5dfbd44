import pg from 'pg';
import { openDatabase, type Database, type Db } from '../../db/client';
import { numberPriceClasses } from '../../db/schema/number-picker';
import { extraPackages, planTypes, plans } from '../../db/schema/catalog';
import { hashPassword } from '../../modules/auth/passwords';
import { DEMO_PACKAGES, DEMO_PLANS, DEMO_PLAN_TYPES } from '../demo-accounts';
import { insertMissing } from '../insert';
import { DEMO_NUMBER_PRICES } from '../number-prices';
import { seedReferenceData } from '../seed';
import {
  BatchBuffer,
  copyWriter,
  dbSession,
  insertWriter,
  pgSession,
  type BatchWriter,
  type SqlSession,
  type WriteFormat,
} from './copy';
import { Generator } from './generate';
import { numberCapacity } from './numbers';
import { CREATE_MARKER, decide, inspectDatabase, MARKER_TABLE, ScaleSeedRefused } from './safety';
import { dropForeignKeys, dropIndexes, restore } from './keys';
import { LOADED_TABLES, SPECS } from './tables';

/*
 * `seedScale`: an operator-sized synthetic database for measuring the app (docs in cli.ts and
 * `npm run seed:scale -- --help`). It checks the database is empty or its own (safety.ts),
 * migrates it, adds the catalogue and reference data, then loads every customer table in ONE
 * transaction: truncated, foreign keys dropped and added back (checked once per table at the
 * end instead of per row), rows streamed in batches with COPY (PostgreSQL) or multi-row
 * INSERTs (PGlite), the marker row last. A failure leaves the database as it was. Then ANALYZE.
 */

/** The password of every seeded customer (hashed once with the app's own argon2id). */
export const SCALE_PASSWORD = 'Scale1234!';

/** PGlite runs in this process and has no COPY FROM STDIN: larger sets belong on PostgreSQL. */
export const PGLITE_MAX_LINES = 50_000;

export type ScalePhase = 'checking' | 'migrating' | 'loading' | 'indexing' | 'analyzing' | 'done';

export interface ScaleProgress {
  phase: ScalePhase;
  linesDone: number;
  linesTotal: number;
  /** Rows written so far. */
  rows: number;
  elapsedMs: number;
}

export interface SeedScaleOptions {
  /** PostgreSQL: loaded with COPY over connections of the seeder's own. */
  databaseUrl?: string;
  /** Or an open database (`openDatabase`): migrated with its own migrate; loaded with INSERTs. */
  database?: Pick<Database, 'db' | 'kind' | 'migrate'>;
  /** Or a bare drizzle handle of an already migrated database: loaded with INSERTs. */
  db?: Db;
  /** Phone lines to create (cancelled ones of the past included). */
  lines: number;
  /** The random seed (default 1): the same seed and clock give the same data. */
  seed?: number;
  /** Replace the data of an earlier run (only a database with the seeder's marker). */
  reset?: boolean;
  /** The clock the history ends at (default: now). */
  now?: Date;
  /** Lines generated per batch (default 2,000 on PostgreSQL, 500 on INSERTs). */
  batchLines?: number;
  onProgress?: (progress: ScaleProgress) => void;
  /** No progress reports (onProgress is not called). */
  quiet?: boolean;
}

export interface SeedScaleResult {
  lines: number;
  seed: number;
  now: Date;
  /** Rows written per table. */
  rows: Record<string, number>;
  totalRows: number;
  wallMs: number;
  /** The database's size after loading (pg_database_size). */
  databaseBytes: number;
  bytesPerLine: number;
  kind: 'postgres' | 'pglite';
}

let passwordHash: Promise<string> | undefined;

/** One argon2id hash for everyone: hashing is slow on purpose. */
function scalePasswordHash(): Promise<string> {
  passwordHash ??= hashPassword(SCALE_PASSWORD);
  return passwordHash;
}

/** The most lines the 6-digit numbering plan has numbers for (~12 % of lines reuse a number). */
export function maxLines(): number {
  return Math.floor(numberCapacity() / 0.92);
}

/** An advisory lock for the load: two seeders on one database take turns. */
const SEED_LOCK_KEY = 7_310_077;

export async function seedScale(options: SeedScaleOptions): Promise<SeedScaleResult> {
  const started = performance.now();
  const seed = options.seed ?? 1;
  const now = options.now ?? new Date();
  const report = (p: Omit<ScaleProgress, 'elapsedMs' | 'linesTotal'>) => {
    if (!options.quiet)
      options.onProgress?.({
        ...p,
        linesTotal: options.lines,
        elapsedMs: performance.now() - started,
      });
  };
  checkLines(options.lines, options.databaseUrl ? 'postgres' : options.database?.kind);
  report({ phase: 'checking', linesDone: 0, rows: 0 });
  const target = await openTarget(options);
  try {
    decide(await inspectDatabase(target.session), options.reset === true, target.where);
    report({ phase: 'migrating', linesDone: 0, rows: 0 });
    await target.migrate();
    await seedCatalogue(target.db);
    const generator = new Generator(options.lines, seed, now, await scalePasswordHash());
    const rows = await target.transaction((session, writer) =>
      load(session, writer, {
        generator,
        reset: options.reset === true,
        where: target.where,
        batchLines: options.batchLines ?? (target.format === 'copy' ? 2_000 : 500),
        report,
        seed,
        now,
      }),
    );
    const totalRows = Object.values(rows).reduce((a, b) => a + b, 0);
    report({ phase: 'analyzing', linesDone: options.lines, rows: totalRows });
    await target.session.query('ANALYZE');
    const [size] = await target.session.query(
      'SELECT pg_database_size(current_database())::bigint AS bytes',
    );
    const databaseBytes = Number(size?.bytes ?? 0);
    report({ phase: 'done', linesDone: options.lines, rows: totalRows });
    return {
      lines: options.lines,
      seed,
      now,
      rows,
      totalRows,
      wallMs: performance.now() - started,
      databaseBytes,
      bytesPerLine: options.lines > 0 ? databaseBytes / options.lines : 0,
      kind: target.kind,
    };
  } finally {
    await target.close();
  }
}

function checkLines(lines: number, kind: 'postgres' | 'pglite' | undefined): void {
  if (!Number.isInteger(lines) || lines < 1)
    throw new ScaleSeedRefused(`--lines must be a whole number of at least 1 (got ${lines}).`);
  if (kind === 'pglite' && lines > PGLITE_MAX_LINES)
    throw new ScaleSeedRefused(
      `PGlite takes at most ${PGLITE_MAX_LINES.toLocaleString('en')} lines (it runs inside this process, without COPY); set DATABASE_URL to seed PostgreSQL.`,
    );
  if (lines > 250_000 && lines > maxLines())
    throw new ScaleSeedRefused(
      `${lines.toLocaleString('en')} lines do not fit the 6-digit numbering plan: at most ${maxLines().toLocaleString('en')}.`,
    );
}

interface Target {
  kind: 'postgres' | 'pglite';
  format: WriteFormat;
  /** Where, for messages (no credentials). */
  where: string;
  session: SqlSession;
  db: Db;
  migrate(): Promise<void>;
  /** Runs `work` in one transaction with the writer of this target. */
  transaction<T>(work: (session: SqlSession, writer: BatchWriter) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

async function openTarget(options: SeedScaleOptions): Promise<Target> {
  if (options.databaseUrl) return openPostgresTarget(options.databaseUrl);
  const database = options.database;
  const db = database?.db ?? options.db;
  if (!db) throw new Error('seedScale needs databaseUrl, database or db');
  const kind = database?.kind ?? 'pglite';
  const session = dbSession(db);
  return {
    kind,
    format: 'insert',
    where: `The ${kind === 'pglite' ? 'PGlite' : 'PostgreSQL'} database`,
    session,
    db,
    migrate: async () => {
      if (database) await database.migrate();
      else if (!(await inspectDatabase(session)).migrated)
        throw new ScaleSeedRefused(
          'The database is not migrated (pass `database` so the seeder can migrate it).',
        );
    },
    transaction: (work) => db.transaction((tx) => work(dbSession(tx), insertWriter(dbSession(tx)))),
    close: async () => {},
  };
}

async function openPostgresTarget(databaseUrl: string): Promise<Target> {
  const database = await openDatabase({ databaseUrl, dataDir: 'memory' });
  const url = new URL(databaseUrl);
  const where = `The database ${url.pathname.slice(1)} on ${url.hostname}:${url.port || 5432}`;
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    await client.connect();
  } catch (error) {
    await database.close();
    throw error;
  }
  const session = pgSession(client);
  return {
    kind: 'postgres',
    format: 'copy',
    where,
    session,
    db: database.db,
    migrate: () => database.migrate(),
    async transaction(work) {
      await client.query('BEGIN');
      try {
        // A seeded database is disposable: no need to wait for each commit's flush.
        await client.query('SET LOCAL synchronous_commit = off');
        const result = await work(session, copyWriter(client, { freeze: true }));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      }
    },
    async close() {
      await client.end().catch(() => {});
      await database.close();
    },
  };
}

/** The catalogue the seeded lines are on and the reference data every installation has. */
async function seedCatalogue(db: Db): Promise<void> {
  await seedReferenceData(db);
  await insertMissing(db, planTypes, DEMO_PLAN_TYPES);
  await insertMissing(db, plans, DEMO_PLANS);
  await insertMissing(db, extraPackages, DEMO_PACKAGES);
  await insertMissing(db, numberPriceClasses, DEMO_NUMBER_PRICES);
}

interface LoadOptions {
  generator: Generator;
  reset: boolean;
  where: string;
  batchLines: number;
  report: (p: Omit<ScaleProgress, 'elapsedMs' | 'linesTotal'>) => void;
  seed: number;
  now: Date;
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Inside the transaction: check again under the lock, empty the tables, load, restore the keys. */
async function load(
  session: SqlSession,
  writer: BatchWriter,
  o: LoadOptions,
): Promise<Record<string, number>> {
  await session.query(`SELECT pg_advisory_xact_lock(${SEED_LOCK_KEY})`);
  decide(await inspectDatabase(session), o.reset, o.where);
  await session.query(CREATE_MARKER);
  // Emptied in this transaction: needed for COPY FREEZE, and what --reset means.
  await session.query(
    `TRUNCATE ${[...LOADED_TABLES, MARKER_TABLE].map(quoted).join(', ')} CASCADE`,
  );
  const foreignKeys = await dropForeignKeys(session);
  const indexes = await dropIndexes(session);
  const rows = await loadBatches(writer, o);
  const total = Object.values(rows).reduce((a, b) => a + b, 0);
  o.report({ phase: 'indexing', linesDone: o.generator.lines, rows: total });
  // Sorts for the indexes and hash joins for the key checks in memory (a seeding machine's).
  await session.query(`SET LOCAL maintenance_work_mem = '1GB'`);
  await session.query(`SET LOCAL work_mem = '256MB'`);
  await restore(session, [...indexes, ...foreignKeys]);
  if (o.generator.maxReceiptSerial > 0)
    await session.query(
      `SELECT setval('receipt_number_seq', GREATEST(${o.generator.maxReceiptSerial}, (SELECT last_value FROM receipt_number_seq)))`,
    );
  await session.query(
    `INSERT INTO ${MARKER_TABLE} (seeded_at, lines, seed, clock, rows) VALUES (now(), ${o.generator.lines}, ${o.seed}, '${o.now.toISOString()}', '${JSON.stringify(rows)}')`,
  );
  return rows;
}

/** Households into batches; each batch written while the next is generated. */
async function loadBatches(writer: BatchWriter, o: LoadOptions): Promise<Record<string, number>> {
  const rows: Record<string, number> = Object.fromEntries(
    Object.values(SPECS).map((s) => [s.name, 0]),
  );
  let written = 0;
  let inFlight: Promise<void> = Promise.resolve();
  const { generator } = o;
  o.report({ phase: 'loading', linesDone: 0, rows: 0 });
  while (!generator.done) {
    const batch = new BatchBuffer(writer.format);
    let lines = 0;
    let yielded = performance.now();
    while (lines < o.batchLines && !generator.done) {
      lines += generator.next(batch);
      // Let the previous batch's COPYs go on while this one is made: each COPY waits for this
      // thread to hear the server's answers, so it must never wait long.
      if (performance.now() - yielded > 2) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        yielded = performance.now();
      }
    }
    for (const [spec, table] of batch.tables)
      rows[spec.name] = (rows[spec.name] ?? 0) + table.count;
    await inFlight;
    const linesDone = generator.linesDone;
    inFlight = writer.write(batch).then(() => {
      written += batch.rows;
      o.report({ phase: 'loading', linesDone, rows: written });
    });
    // Awaited before the next batch; a failure meanwhile is not an unhandled rejection.
    inFlight.catch(() => {});
  }
  await inFlight;
  return rows;
}
