import pg from 'pg';
import { openDatabase, type Database, type Db } from '../../db/client';
import {
  copyWriter,
  dbSession,
  insertWriter,
  pgSession,
  type BatchWriter,
  type SqlSession,
  type WriteFormat,
} from './copy';
import { inspectDatabase, ScaleSeedRefused } from './safety';

/*
 * The database the seeder fills and the connections it fills it over:
 * - PostgreSQL (a URL): two connections of its own, so the server loads on two cores (the
 *   biggest table on one, the rest on the other), binary COPY;
 * - an open database or a drizzle handle (PGlite, tests): its one connection, INSERTs.
 */

/** One connection's share of the load, inside its transaction. */
export interface Loader {
  session: SqlSession;
  writer: BatchWriter;
  /** The tables it loads. */
  owns(table: string): boolean;
}

export interface Target {
  kind: 'postgres' | 'pglite';
  format: WriteFormat;
  /** Where, for messages (no credentials). */
  where: string;
  /** Outside any transaction. */
  session: SqlSession;
  /** The query builder (catalogue and reference data). */
  db: Db;
  /** Connections that work side by side. */
  connections: number;
  migrate(): Promise<void>;
  /** `work` in one transaction on connection `i`. */
  transaction<T>(i: number, work: (session: SqlSession) => Promise<T>): Promise<T>;
  /** The load: a transaction per connection, all committed only when `work` succeeded. */
  loading<T>(work: (loaders: Loader[]) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** A session advisory lock: one seeder per database. */
const RUN_LOCK_KEY = 7_310_078;

/** The table the first PostgreSQL connection loads alone: about half the server's work. */
const FIRST_CONNECTION_TABLES: ReadonlySet<string> = new Set(['usage_daily']);

export interface TargetOptions {
  databaseUrl?: string;
  database?: Pick<Database, 'db' | 'kind' | 'migrate'>;
  db?: Db;
}

export async function openTarget(options: TargetOptions): Promise<Target> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl);
  const db = options.database?.db ?? options.db;
  if (!db) throw new Error('seedScale needs databaseUrl, database or db');
  return drizzleTarget(db, options.database);
}

function drizzleTarget(db: Db, database: TargetOptions['database']): Target {
  const kind = database?.kind ?? 'pglite';
  const session = dbSession(db);
  return {
    kind,
    format: 'insert',
    where: `The ${kind === 'pglite' ? 'PGlite' : 'PostgreSQL'} database`,
    session,
    db,
    connections: 1,
    migrate: async () => {
      if (database) await database.migrate();
      else if (!(await inspectDatabase(session)).migrated)
        throw new ScaleSeedRefused(
          'The database is not migrated (pass `database` so the seeder can migrate it).',
        );
    },
    transaction: (_i, work) => db.transaction((tx) => work(dbSession(tx))),
    loading: (work) =>
      db.transaction((tx) => {
        const txSession = dbSession(tx);
        return work([{ session: txSession, writer: insertWriter(txSession), owns: () => true }]);
      }),
    close: async () => {},
  };
}

async function openPostgres(databaseUrl: string): Promise<Target> {
  const database = await openDatabase({ databaseUrl, dataDir: 'memory' });
  const url = new URL(databaseUrl);
  const clients = [0, 1].map(() => new pg.Client({ connectionString: databaseUrl }));
  try {
    for (const client of clients) await client.connect();
  } catch (error) {
    await Promise.all(clients.map((c) => c.end().catch(() => {})));
    await database.close();
    throw error;
  }
  const sessions = clients.map(pgSession);
  const [first, second] = sessions as [SqlSession, SqlSession];
  // One seeder per database at a time, for the whole run (released with the connection).
  const [lock] = await first.query(`SELECT pg_try_advisory_lock(${RUN_LOCK_KEY}) AS taken`);
  if (lock?.taken !== true) {
    await Promise.all(clients.map((c) => c.end().catch(() => {})));
    await database.close();
    throw new ScaleSeedRefused(
      `Another seed:scale run is filling the database ${url.pathname.slice(1)} right now.`,
    );
  }
  const begin = async (session: SqlSession) => {
    await session.query('BEGIN');
    // A seeded database is disposable: no need to wait for each commit's flush.
    await session.query('SET LOCAL synchronous_commit = off');
  };
  return {
    kind: 'postgres',
    format: 'copy',
    where: `The database ${url.pathname.slice(1)} on ${url.hostname}:${url.port || 5432}`,
    session: first,
    db: database.db,
    connections: 2,
    migrate: () => database.migrate(),
    async transaction(i, work) {
      const session = sessions[i] ?? first;
      await begin(session);
      try {
        const result = await work(session);
        await session.query('COMMIT');
        return result;
      } catch (error) {
        await session.query('ROLLBACK').catch(() => {});
        throw error;
      }
    },
    async loading(work) {
      await begin(first);
      await begin(second);
      const loaders: Loader[] = [
        {
          session: first,
          writer: copyWriter(clients[0] as pg.Client, { freeze: true }),
          owns: (t) => FIRST_CONNECTION_TABLES.has(t),
        },
        {
          session: second,
          writer: copyWriter(clients[1] as pg.Client, { freeze: true }),
          owns: (t) => !FIRST_CONNECTION_TABLES.has(t),
        },
      ];
      try {
        const result = await work(loaders);
        await first.query('COMMIT');
        await second.query('COMMIT');
        return result;
      } catch (error) {
        await Promise.all(sessions.map((s) => s.query('ROLLBACK').catch(() => {})));
        throw error;
      }
    },
    async close() {
      await Promise.all(clients.map((c) => c.end().catch(() => {})));
      await database.close();
    },
  };
}
