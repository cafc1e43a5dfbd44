import type { Database, Db } from '../../db/client';
import { numberPriceClasses } from '../../db/schema/number-picker';
import { extraPackages, planTypes, plans } from '../../db/schema/catalog';
import { hashPassword } from '../../modules/auth/passwords';
import { DEMO_PACKAGES, DEMO_PLANS, DEMO_PLAN_TYPES } from '../demo-accounts';
import { insertMissing } from '../insert';
import { DEMO_NUMBER_PRICES } from '../number-prices';
import { seedReferenceData } from '../seed';
import { BatchBuffer, type SqlSession } from './copy';
import { Generator } from './generate';
import { dropForeignKeys, dropIndexes, shareIndexes, type RestoreStep } from './keys';
import { numberCapacity } from './numbers';
import {
  CREATE_MARKER,
  decide,
  inspectDatabase,
  MARKER_TABLE,
  ScaleSeedRefused,
  type Marker,
} from './safety';
import { LOADED_TABLES, SPECS } from './tables';
import { openTarget, type Loader, type Target } from './target';

/*
 * `seedScale`: an operator-sized synthetic database for measuring the app (docs in cli.ts and
 * `npm run seed:scale -- --help`). It checks the database is empty or its own (safety.ts),
 * migrates it, adds the catalogue and reference data, then:
 * 1. prepare (one transaction): the marker row says `loading`; the customer tables are emptied,
 *    their foreign keys and secondary indexes set aside (keys.ts) and recorded in the marker;
 * 2. load: rows generated in batches, each written while the next is made, with binary COPY
 *    over two connections (PostgreSQL) or INSERTs (PGlite); the connections' transactions
 *    commit together once all is written;
 * 3. restore: the indexes built (shared over the connections), the foreign keys added back and
 *    checked, the marker `done`. Then ANALYZE.
 * A failure puts the schema back on the emptied tables and removes the marker; a run killed
 * half-way leaves the marker `loading` with what to put back, which `--reset` does.
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

type Report = (p: Omit<ScaleProgress, 'elapsedMs' | 'linesTotal'>) => void;

export async function seedScale(options: SeedScaleOptions): Promise<SeedScaleResult> {
  const started = performance.now();
  const seed = options.seed ?? 1;
  const now = options.now ?? new Date();
  const report: Report = (p) => {
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
    const run: Run = { target, generator, report, seed, now, reset: options.reset === true };
    const setAside = await target.transaction(0, (session) => prepare(session, run));
    const rows = await loadOrUndo(run, setAside, options.batchLines);
    const totalRows = Object.values(rows).reduce((a, b) => a + b, 0);
    report({ phase: 'indexing', linesDone: options.lines, rows: totalRows });
    await putBack(run, setAside, rows);
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

/** The catalogue the seeded lines are on and the reference data every installation has. */
async function seedCatalogue(db: Db): Promise<void> {
  await seedReferenceData(db);
  await insertMissing(db, planTypes, DEMO_PLAN_TYPES);
  await insertMissing(db, plans, DEMO_PLANS);
  await insertMissing(db, extraPackages, DEMO_PACKAGES);
  await insertMissing(db, numberPriceClasses, DEMO_NUMBER_PRICES);
}

interface Run {
  target: Target;
  generator: Generator;
  report: Report;
  seed: number;
  now: Date;
  reset: boolean;
}

/** An advisory lock for the preparation: two seeders on one database take turns. */
const SEED_LOCK_KEY = 7_310_077;

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;
const sqlText = (text: string) => `'${text.replace(/'/g, "''")}'`;
const jsonb = (value: unknown) => `${sqlText(JSON.stringify(value))}::jsonb`;

/**
 * Phase 1, in one transaction: checked again under the lock, the marker row `loading`, the
 * customer tables emptied, their keys and indexes set aside — with what was left set aside by a
 * run that died, so nothing is lost — and recorded in the marker. Answers what to put back.
 */
async function prepare(session: SqlSession, run: Run): Promise<RestoreStep[]> {
  await session.query(`SELECT pg_advisory_xact_lock(${SEED_LOCK_KEY})`);
  const state = await inspectDatabase(session);
  decide(state, run.reset, run.target.where);
  for (const statement of CREATE_MARKER) await session.query(statement);
  await session.query(`TRUNCATE ${LOADED_TABLES.map(quoted).join(', ')} CASCADE`);
  // A run that died left some set aside (listed in its marker) and may have made some of them
  // again (dropped once more now): each once.
  const left: RestoreStep[] = state.marker?.restore ?? [];
  const dropped = [...(await dropForeignKeys(session)), ...(await dropIndexes(session))];
  const setAside = [...new Map([...left, ...dropped].map((step) => [step.sql, step])).values()];
  await writeMarker(session, run, 'loading', setAside, {});
  return setAside;
}

async function writeMarker(
  session: SqlSession,
  run: Run,
  state: Marker['state'],
  restore: readonly RestoreStep[],
  rows: Record<string, number>,
): Promise<void> {
  await session.query(`DELETE FROM ${MARKER_TABLE}`);
  await session.query(
    `INSERT INTO ${MARKER_TABLE} (seeded_at, lines, seed, clock, rows, state, restore)
     VALUES (now(), ${run.generator.lines}, ${run.seed}, ${sqlText(run.now.toISOString())}, ${jsonb(rows)}, ${sqlText(state)}, ${jsonb(restore)})`,
  );
}

/** Phase 2; when it fails, the schema is put back on the (still empty) tables and the marker goes. */
async function loadOrUndo(
  run: Run,
  setAside: readonly RestoreStep[],
  batchLines: number | undefined,
): Promise<Record<string, number>> {
  try {
    return await run.target.loading((loaders) =>
      loadBatches(loaders, run, batchLines ?? (run.target.format === 'copy' ? 2_000 : 500)),
    );
  } catch (error) {
    await run.target
      .transaction(0, async (session) => {
        for (const step of setAside) await session.query(step.sql);
        await session.query(`DELETE FROM ${MARKER_TABLE}`);
      })
      .catch(() => {
        // Left for `--reset`: the marker still lists what to put back.
      });
    throw error;
  }
}

/** Phase 3: indexes built side by side on the connections, then the foreign keys, checked. */
async function putBack(
  run: Run,
  setAside: readonly RestoreStep[],
  rows: Record<string, number>,
): Promise<void> {
  const { target } = run;
  const shares = shareIndexes(setAside, rows, target.connections);
  // Sorts for the indexes and hash joins for the key checks in memory (a seeding machine's).
  const memory = async (session: SqlSession) => {
    await session.query(`SET LOCAL maintenance_work_mem = '512MB'`);
    await session.query(`SET LOCAL work_mem = '256MB'`);
  };
  await Promise.all(
    shares.map((steps, i) =>
      target.transaction(i, async (session) => {
        await memory(session);
        for (const step of steps) await session.query(step.sql);
      }),
    ),
  );
  await target.transaction(0, async (session) => {
    await memory(session);
    for (const step of setAside) if (step.kind === 'foreign key') await session.query(step.sql);
    if (run.generator.maxReceiptSerial > 0)
      await session.query(
        `SELECT setval('receipt_number_seq', GREATEST(${run.generator.maxReceiptSerial}, (SELECT last_value FROM receipt_number_seq)))`,
      );
    await writeMarker(session, run, 'done', [], rows);
  });
}

/**
 * Households into batches; each batch is written (every connection its own tables, side by
 * side) while the next one is made.
 */
async function loadBatches(
  loaders: readonly Loader[],
  run: Run,
  batchLines: number,
): Promise<Record<string, number>> {
  const rows: Record<string, number> = Object.fromEntries(
    Object.values(SPECS).map((s) => [s.name, 0]),
  );
  // Emptied again in these transactions: COPY FREEZE wants that.
  for (const loader of loaders) {
    const own = LOADED_TABLES.filter((t) => loader.owns(t));
    if (own.length > 0) await loader.session.query(`TRUNCATE ${own.map(quoted).join(', ')}`);
  }
  const { generator, report } = run;
  const format = loaders[0]?.writer.format ?? 'insert';
  let written = 0;
  let inFlight: Promise<void> = Promise.resolve();
  report({ phase: 'loading', linesDone: 0, rows: 0 });
  while (!generator.done) {
    const batch = new BatchBuffer(format);
    let lines = 0;
    let yielded = performance.now();
    while (lines < batchLines && !generator.done) {
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
    inFlight = Promise.all(loaders.map((l) => l.writer.write(batch, l.owns))).then(() => {
      written += batch.rows;
      report({ phase: 'loading', linesDone, rows: written });
    });
    // Awaited before the next batch; a failure meanwhile is not an unhandled rejection.
    inFlight.catch(() => {});
  }
  await inFlight;
  return rows;
}
