import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { MIGRATIONS_DIR } from '../paths';

/**
 * The query builder every repo receives. Both drivers (PGlite, node-postgres) produce a
 * `PgDatabase`; repos only use the dialect-level builder, so they run unchanged on either.
 */
export type Db = PgDatabase<PgQueryResultHKT>;
/** A transaction handle; accepted wherever a repo takes `Db`. */
export type Tx = PgTransaction<PgQueryResultHKT>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Where the data lives, for the start-up log (no credentials). */
  location: string;
  /** Applies the committed SQL migrations that have not run yet. */
  migrate(): Promise<void>;
  /** Cheap round trip for /readyz. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL connection string; when absent PGlite is used. */
  databaseUrl?: string | undefined;
  /** PGlite folder or `memory`. */
  dataDir: string;
  /**
   * For an in-memory PGlite: a data directory dump (`PGlite.dumpDataDir`) to start from instead
   * of running initdb. Tests use an already migrated one, which cuts each app's start by ~1 s.
   */
  pgliteSnapshot?: Blob | undefined;
  /** Where connection-level problems are reported (idle PostgreSQL connections that drop). */
  log?: { warn(obj: object, msg: string): void } | undefined;
}

/*
 * An arbitrary, fixed advisory-lock key. Several API instances may start together against one
 * PostgreSQL; the lock makes exactly one of them apply pending migrations while the others wait
 * and then find nothing left to do.
 */
const MIGRATION_LOCK_KEY = 7_310_001;

/** Opens the configured database: PostgreSQL when `databaseUrl` is set, otherwise PGlite. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options.log)
    : openPglite(options.dataDir, options.pgliteSnapshot);
}

async function openPglite(dataDir: string, snapshot: Blob | undefined): Promise<Database> {
  const inMemory = dataDir === 'memory';
  if (!inMemory) await mkdir(dataDir, { recursive: true });
  const client = inMemory
    ? new PGlite(snapshot ? { loadDataDir: snapshot } : {})
    : new PGlite(dataDir);
  await client.waitReady;
  const db = drizzlePglite({ client });
  let closed = false;
  return {
    db,
    kind: 'pglite',
    location: inMemory ? 'PGlite (in memory)' : `PGlite (${dataDir})`,
    // PGlite is a single connection inside this process, so no lock is needed.
    migrate: () => migratePglite(db, { migrationsFolder: MIGRATIONS_DIR }),
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await client.close();
    },
  };
}

async function openPostgres(databaseUrl: string, log: DatabaseOptions['log']): Promise<Database> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10, idleTimeoutMillis: 30_000 });
  // An idle client that loses its connection (failover, restart) emits 'error' on the pool;
  // without a listener that would crash the process. The next query gets a fresh connection.
  pool.on('error', (error) => log?.warn({ err: error }, 'idle PostgreSQL connection lost'));
  const db = drizzleNodePg({ client: pool });
  let closed = false;
  return {
    db,
    kind: 'postgres',
    location: `PostgreSQL (${describeUrl(databaseUrl)})`,
    migrate: async () => {
      // Advisory locks belong to a connection, so migrate over one dedicated client.
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        await migrateNodePg(drizzleNodePg({ client }), { migrationsFolder: MIGRATIONS_DIR });
      } finally {
        await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
        await client.end();
      }
    },
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}

/** host:port/db of a connection string, without user or password. */
export function describeUrl(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    return `${url.hostname}${url.port ? `:${url.port}` : ''}${url.pathname}`;
  } catch {
    return 'unparsable URL';
  }
}
