import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { MIGRATIONS_DIR } from '../paths';
import { traceNodePgPool, tracePglite } from '../tracing/db';
import { untraced } from '../tracing/tracing';

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
  /**
   * LISTENs on a notification channel: `handler` gets the payload of every NOTIFY on it, once
   * the notifying transaction has committed (never for a rolled-back one). On PostgreSQL this
   * reaches every process listening on the database (the payment hub's fan-out across
   * instances, docs/decisions/0051-payment-hub.md). Resolves once the LISTEN is in place; the
   * returned function stops this handler. `onReconnected` runs after a lost LISTEN connection
   * is back (PostgreSQL): notifications sent meanwhile are lost, so a listener may re-read.
   */
  listen(
    channel: string,
    handler: NotificationHandler,
    options?: ListenOptions,
  ): Promise<() => Promise<void>>;
  close(): Promise<void>;
  /** What the metrics read at scrape time (issue 44): the pool (PostgreSQL) and the LISTEN. */
  stats(): DatabaseStats;
  /** Called with the seconds each query or transaction waited for a pooled connection. */
  onPoolWait(observer: (seconds: number) => void): void;
}

export interface DatabaseStats {
  /** node-postgres pool; null on PGlite (one connection in the process, nothing to wait for). */
  pool: { inUse: number; idle: number; waiting: number; max: number } | null;
  /** False while the LISTEN connection is lost (PostgreSQL); PGlite's never is. */
  listenConnected: boolean;
}

/** Receives a NOTIFY payload. Exceptions are caught and reported, never thrown at the driver. */
export type NotificationHandler = (payload: string) => void;

export interface ListenOptions {
  /** Called when the LISTEN connection is back after it was lost. */
  onReconnected?: () => void;
  /**
   * Called when the LISTEN connection is lost (PostgreSQL): from now until `onReconnected`,
   * NOTIFYs are not heard, so a listener that keeps state in memory must stop trusting it.
   */
  onLost?: () => void;
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
  /**
   * Called with the SQL of every statement sent through the query builder (drizzle's logger),
   * also inside transactions; node-postgres sends its BEGIN/COMMIT through it too, PGlite's own
   * do not. Not called for the LISTEN connection or PostgreSQL migrations (clients of their own).
   * `npm run bench` counts queries per request with it; unset, drizzle gets no logger.
   */
  onQuery?: ((query: string, params: unknown[]) => void) | undefined;
  /**
   * PostgreSQL: longest wait for a connection (new, or free in the pool) before a query fails,
   * which the error handler answers 503 DATABASE_UNAVAILABLE; also bounds each LISTEN reconnect
   * attempt (config DATABASE_CONNECT_TIMEOUT_MS, docs/decisions/0060-database-outage.md).
   */
  connectTimeoutMs?: number | undefined;
  /** PostgreSQL: longest pause between LISTEN reconnect attempts (DATABASE_RECONNECT_MAX_MS). */
  reconnectMaxMs?: number | undefined;
}

/** Defaults of the two timings above (the config's defaults). */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
export const DEFAULT_RECONNECT_MAX_MS = 5_000;

/*
 * An arbitrary, fixed advisory-lock key. Several API instances may start together against one
 * PostgreSQL; the lock makes exactly one of them apply pending migrations while the others wait
 * and then find nothing left to do.
 */
const MIGRATION_LOCK_KEY = 7_310_001;

/** Opens the configured database: PostgreSQL when `databaseUrl` is set, otherwise PGlite. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const logger = options.onQuery ? { logger: { logQuery: options.onQuery } } : {};
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options.log, logger, {
        connectTimeoutMs: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
        reconnectMaxMs: options.reconnectMaxMs ?? DEFAULT_RECONNECT_MAX_MS,
      })
    : openPglite(options.dataDir, options.pgliteSnapshot, logger);
}

/** drizzle's `logger` option when queries are counted, otherwise nothing. */
type QueryLogger = { logger?: { logQuery(query: string, params: unknown[]): void } };

/**
 * The extensions the migrations create (pg_trgm: the console's search, ADR 0093): every PGlite
 * that opens Alda's data loads them.
 */
export const PGLITE_EXTENSIONS = { pg_trgm };
const extensions = PGLITE_EXTENSIONS;

async function openPglite(
  dataDir: string,
  snapshot: Blob | undefined,
  logger: QueryLogger,
): Promise<Database> {
  const inMemory = dataDir === 'memory';
  if (!inMemory) await mkdir(dataDir, { recursive: true });
  const client = inMemory
    ? new PGlite({ extensions, ...(snapshot ? { loadDataDir: snapshot } : {}) })
    : new PGlite(dataDir, { extensions });
  await client.waitReady;
  // A span per query when tracing is on (tracing/db.ts); nothing otherwise.
  tracePglite(client);
  const db = drizzlePglite({ client, ...logger });
  let closed = false;
  return {
    db,
    kind: 'pglite',
    location: inMemory ? 'PGlite (in memory)' : `PGlite (${dataDir})`,
    // PGlite is a single connection inside this process, so no lock is needed.
    // Without a span per statement (hundreds at the first start; tracing/tracing.ts).
    migrate: () => untraced(() => migratePglite(db, { migrationsFolder: MIGRATIONS_DIR })),
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    // PGlite delivers a NOTIFY to the listeners of its own (single) connection after commit.
    listen: async (channel, handler) => {
      const unlisten = await client.listen(channel, handler);
      return async () => {
        if (!closed) await unlisten();
      };
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await client.close();
    },
    stats: () => ({ pool: null, listenConnected: true }),
    onPoolWait: () => {},
  };
}

/** How long PostgreSQL connections wait and retry (docs/decisions/0060-database-outage.md). */
interface Timings {
  connectTimeoutMs: number;
  reconnectMaxMs: number;
}

async function openPostgres(
  databaseUrl: string,
  log: DatabaseOptions['log'],
  logger: QueryLogger,
  timings: Timings,
): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: 10,
    idleTimeoutMillis: 30_000,
    // While the database is gone a request fails within this instead of waiting for the OS's TCP
    // timeout (or forever for a free client): the error handler answers 503 DATABASE_UNAVAILABLE.
    connectionTimeoutMillis: timings.connectTimeoutMs,
    // A pooled connection dropped silently (no reset reaches us) is found out and replaced.
    keepAlive: true,
  });
  // A span per query when tracing is on: a wrapper, not instrumentation-pg, which the bundle
  // loads `pg` too early for (tracing/db.ts says why); nothing otherwise.
  traceNodePgPool(pool);
  // An idle client that loses its connection (failover, restart) emits 'error' on the pool;
  // without a listener that would crash the process. The pool forgets a broken client (idle or
  // released), so once the database is back the next query gets a fresh connection: recovery
  // needs no restart.
  pool.on('error', (error) => log?.warn({ err: error }, 'idle PostgreSQL connection lost'));
  // A connection lost while it is checked out (inside a transaction, between its statements) has
  // no pool listener: its 'error' would be unhandled and end the process. The statement in
  // flight fails on its own, as does the next one (503 DATABASE_UNAVAILABLE), and the pool drops
  // the client when it is released (no longer queryable): nothing is left to do here. (An idle
  // client's loss is logged by the pool's own listener above.)
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  // The wait for a connection, timed for the metrics (alda_db_pool_wait_seconds). drizzle and
  // pool.query both come through connect(); with a callback (pool.query) or for a promise.
  let waitObserver: ((seconds: number) => void) | null = null;
  const connect = pool.connect.bind(pool) as (
    callback?: (error: Error | undefined, client: unknown, done: unknown) => void,
  ) => Promise<unknown> | undefined;
  (pool as { connect: unknown }).connect = (
    callback?: (error: Error | undefined, client: unknown, done: unknown) => void,
  ) => {
    const observe = waitObserver;
    if (!observe) return connect(callback);
    const started = performance.now();
    const waited = () => observe((performance.now() - started) / 1000);
    if (callback)
      return connect((error, client, done) => {
        waited();
        callback(error, client, done);
      });
    return connect()?.finally(waited);
  };
  const db = drizzleNodePg({ client: pool, ...logger });
  const listener = createPostgresListener(databaseUrl, log, timings);
  let closed = false;
  return {
    db,
    kind: 'postgres',
    location: `PostgreSQL (${describeUrl(databaseUrl)})`,
    migrate: async () => {
      // Advisory locks belong to a connection, so migrate over one dedicated client.
      const client = new pg.Client({
        connectionString: databaseUrl,
        connectionTimeoutMillis: timings.connectTimeoutMs,
      });
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
    listen: (channel, handler, options) => listener.listen(channel, handler, options),
    close: async () => {
      if (closed) return;
      closed = true;
      await listener.close();
      await pool.end();
    },
    stats: () => ({
      pool: {
        inUse: pool.totalCount - pool.idleCount,
        idle: pool.idleCount,
        waiting: pool.waitingCount,
        max: pool.options.max ?? 10,
      },
      listenConnected: listener.connected(),
    }),
    onPoolWait: (observer) => {
      waitObserver = observer;
    },
  };
}

/** `application_name` of each instance's LISTEN connection. */
export const LISTEN_APPLICATION_NAME = 'alda-api-listen';

/**
 * Backoff between attempts to get the LISTEN connection back: 0.25 s doubling up to
 * `reconnectMaxMs` (DATABASE_RECONNECT_MAX_MS).
 */
const LISTEN_RETRY_MIN_MS = 250;

/**
 * LISTEN needs a session of its own (a pooled connection goes back to the pool and would drop
 * it), so notifications come through one dedicated client per process, opened on the first
 * `listen`. When that connection is lost (restart, failover) it reconnects with backoff and
 * LISTENs again on every channel; NOTIFYs sent while it was away are lost, which listeners must
 * tolerate (the payment hub's clients fall back to reading the order over HTTP).
 */
function createPostgresListener(
  databaseUrl: string,
  log: DatabaseOptions['log'],
  timings: Timings,
) {
  const handlers = new Map<string, Set<NotificationHandler>>();
  const reconnected = new Map<NotificationHandler, () => void>();
  const lostCallbacks = new Map<NotificationHandler, () => void>();
  let client: pg.Client | undefined;
  /** Set once a connection was lost, so the next one tells listeners it is back. */
  let wasLost = false;
  let connecting: Promise<pg.Client> | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  const firstDelay = Math.min(LISTEN_RETRY_MIN_MS, timings.reconnectMaxMs);
  let retryDelay = firstDelay;
  let closed = false;

  const quote = (channel: string) => pg.escapeIdentifier(channel);

  function deliver(message: pg.Notification) {
    for (const handler of handlers.get(message.channel) ?? []) {
      try {
        handler(message.payload ?? '');
      } catch (error) {
        log?.warn({ err: error, channel: message.channel }, 'notification handler failed');
      }
    }
  }

  function lost(lostClient: pg.Client, error?: Error) {
    if (client !== lostClient) return;
    client = undefined;
    lostClient.removeAllListeners('notification');
    lostClient.end().catch(() => {});
    if (closed) return;
    wasLost = true;
    log?.warn({ err: error }, 'PostgreSQL LISTEN connection lost; reconnecting');
    for (const callback of lostCallbacks.values()) {
      try {
        callback();
      } catch (callbackError) {
        log?.warn({ err: callbackError }, 'connection-lost callback failed');
      }
    }
    scheduleReconnect();
  }

  function scheduleReconnect() {
    if (closed || retryTimer || handlers.size === 0) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      connect().catch(() => scheduleReconnect());
    }, retryDelay);
    retryTimer.unref();
    retryDelay = Math.min(retryDelay * 2, timings.reconnectMaxMs);
  }

  function connect(): Promise<pg.Client> {
    if (client) return Promise.resolve(client);
    connecting ??= (async () => {
      // Named, so operators (and the tests that cut it) can find it in pg_stat_activity;
      // TCP keep-alive notices a silently dropped connection.
      const next = new pg.Client({
        connectionString: databaseUrl,
        application_name: LISTEN_APPLICATION_NAME,
        keepAlive: true,
        // An attempt into a network that swallows packets must end, or the retries would stop
        // behind it for good (docs/decisions/0060-database-outage.md).
        connectionTimeoutMillis: timings.connectTimeoutMs,
      });
      // Until it is ours, an error only fails this attempt (the caller retries).
      next.on('error', () => {});
      try {
        await next.connect();
        for (const channel of handlers.keys()) await next.query(`listen ${quote(channel)}`);
      } catch (error) {
        await next.end().catch(() => {});
        throw error;
      }
      if (closed) {
        await next.end().catch(() => {});
        throw new Error('database closed');
      }
      next.removeAllListeners('error');
      next.on('error', (error) => lost(next, error));
      next.on('end', () => lost(next));
      next.on('notification', deliver);
      client = next;
      retryDelay = firstDelay;
      if (wasLost) {
        wasLost = false;
        log?.warn({}, 'PostgreSQL LISTEN connection restored');
        for (const callback of reconnected.values()) {
          try {
            callback();
          } catch (error) {
            log?.warn({ err: error }, 'reconnect callback failed');
          }
        }
      }
      return next;
    })().finally(() => {
      connecting = undefined;
    });
    return connecting;
  }

  return {
    /** Up, or nothing to listen to yet; false from a lost connection until it is back. */
    connected: () => client !== undefined || handlers.size === 0,
    async listen(
      channel: string,
      handler: NotificationHandler,
      options: ListenOptions = {},
    ): Promise<() => Promise<void>> {
      if (closed) throw new Error('database closed');
      if (options.onReconnected) reconnected.set(handler, options.onReconnected);
      if (options.onLost) lostCallbacks.set(handler, options.onLost);
      let set = handlers.get(channel);
      const isNew = !set;
      set ??= new Set();
      set.add(handler);
      handlers.set(channel, set);
      try {
        const current = await connect();
        // LISTEN is idempotent: harmless when a fresh connection already listened on it.
        if (isNew) await current.query(`listen ${quote(channel)}`);
      } catch (error) {
        set.delete(handler);
        reconnected.delete(handler);
        lostCallbacks.delete(handler);
        if (set.size === 0) handlers.delete(channel);
        throw error;
      }
      return async () => {
        reconnected.delete(handler);
        lostCallbacks.delete(handler);
        const current = handlers.get(channel);
        if (!current?.delete(handler) || current.size > 0) return;
        handlers.delete(channel);
        await client?.query(`unlisten ${quote(channel)}`).catch(() => {});
      };
    },
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      handlers.clear();
      reconnected.clear();
      await connecting?.catch(() => {});
      const current = client;
      client = undefined;
      if (current) {
        current.removeAllListeners('end');
        current.removeAllListeners('notification');
        await current.end().catch(() => {});
      }
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
