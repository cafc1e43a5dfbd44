import { createHash, randomBytes } from 'node:crypto';
import { readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { z } from 'zod/mini';
import { buildApp, type AppDeps } from '../src/app';
import { loadConfig, type Config } from '../src/config';
import { openDatabase, PGLITE_EXTENSIONS, type Database } from '../src/db/client';
import { demoUser } from '../src/seed/demo-users';
import { MIGRATIONS_DIR } from '../src/paths';

/*
 * Integration tests build the whole app (`buildApp`) on a real database and talk to it with
 * `app.inject` (CONVENTIONS "Tests", fastify/demo test/helper.ts).
 *
 * - DATABASE_URL unset: an in-memory PGlite per app.
 * - DATABASE_URL set (CI, `DATABASE_URL=postgres://postgres@127.0.0.1:5432/test`): a fresh
 *   database `t_<random>` on that server per app, dropped afterwards, so test files running in
 *   parallel (and parallel CI runs) never see each other's rows.
 */

export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';

/** The server of DATABASE_URL, when the suite runs against PostgreSQL. */
const serverUrl = process.env.DATABASE_URL;

export const usingPostgres = serverUrl !== undefined && serverUrl !== '';

export interface TestDatabase {
  /** Connection string of the fresh database, or undefined for PGlite. */
  url: string | undefined;
  drop(): Promise<void>;
}

let snapshot: Promise<Blob> | undefined;

/** A hash of the migration files: a snapshot or template made from other migrations is not used. */
async function migrationsHash(): Promise<string> {
  const hash = createHash('sha256');
  for (const file of (await readdir(MIGRATIONS_DIR, { recursive: true })).sort()) {
    const full = path.join(MIGRATIONS_DIR, file);
    if ((await stat(full)).isFile()) hash.update(file).update(await readFile(full));
  }
  return hash.digest('hex').slice(0, 16);
}

/** A short hash of a function's source text. */
function sourceHash(fn: (...args: never[]) => unknown): string {
  return createHash('sha256').update(fn.toString()).digest('hex').slice(0, 8);
}

/**
 * Cuts the test snapshot down from a fresh migrated data directory, to make each of the suite's
 * ~200 app starts cheaper (issue 45, CI time; CPU per start measured 820 → 480 ms):
 * - template0 and template1 are dropped: the tests never create a database on PGlite, and the
 *   two copies of the system catalogs were half the snapshot's files and a third of its bytes;
 * - shared_buffers is 16 MB instead of 128 MB: PostgreSQL initialises every buffer at start, and
 *   an empty test database with what one test writes fits in 16 MB many times over.
 * Production and `npm start` open their data directories with PGlite's defaults; this is a test
 * database only.
 */
async function slimForTests(client: PGlite): Promise<void> {
  for (const name of ['template0', 'template1']) {
    await client.exec(`alter database ${name} is_template false`);
    await client.exec(`drop database ${name}`);
  }
  await client.exec(`alter system set shared_buffers = '16MB'`);
}

/**
 * A migrated, empty PGlite data directory, made once per migration set and shared by all test
 * files through the temp folder (written atomically, so parallel workers may race harmlessly).
 * Loading it takes ~0.3 s where initdb plus migrations take ~2 s.
 */
export function pgliteSnapshot(): Promise<Blob> {
  snapshot ??= (async () => {
    const file = path.join(
      os.tmpdir(),
      // slimForTests' text is in the name too: a snapshot cut another way is not reused.
      `alda-api-pglite-${await migrationsHash()}-${sourceHash(slimForTests)}.tar`,
    );
    const cached = await readFile(file).catch(() => undefined);
    if (cached) return new Blob([cached]);
    const client = new PGlite({ extensions: PGLITE_EXTENSIONS });
    try {
      await migrate(drizzle({ client }), { migrationsFolder: MIGRATIONS_DIR });
      await slimForTests(client);
      const dump = await client.dumpDataDir('none');
      const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
      await writeFile(temp, Buffer.from(await dump.arrayBuffer()));
      await rename(temp, file);
      return dump;
    } finally {
      await client.close();
    }
  })();
  return snapshot;
}

let template: Promise<string> | undefined;

/** `serverUrl` with another database. */
function databaseUrl(name: string): string {
  const url = new URL(serverUrl!);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A migrated, empty PostgreSQL database to copy (`create database … template`), made once per
 * migration set on the server and shared by all test files: a copy takes ~0.1–0.3 s where
 * migrating a new database took 0.7–0.9 s, for each of the suite's apps (issue 45, CI time). It
 * is migrated under a temporary name and renamed when done, so a worker never copies a half-made
 * one; of two workers that make it at once, the second drops its own.
 */
function migratedTemplate(): Promise<string> {
  template ??= (async () => {
    const name = `alda_template_${await migrationsHash()}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    try {
      const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
      if (found.rowCount) return name;
      const temp = `${name}_${randomBytes(4).toString('hex')}`;
      await admin.query(`create database ${temp}`);
      try {
        const database = await openDatabase({ databaseUrl: databaseUrl(temp), dataDir: 'memory' });
        try {
          await database.migrate();
        } finally {
          await database.close();
        }
        await admin.query(`alter database ${temp} rename to ${name}`);
      } catch (error) {
        await admin.query(`drop database if exists ${temp} with (force)`);
        // 42P04 duplicate_database: another worker renamed its copy first.
        if ((error as { code?: string }).code === '42P04') return name;
        throw error;
      }
      return name;
    } finally {
      await admin.end();
    }
  })();
  return template;
}

/**
 * A fresh database for one app (or nothing to do on PGlite): empty, or with `migrated` a copy of
 * the migrated template (what createTestApp uses; a test of migrating or restoring wants it empty).
 */
export async function createTestDatabase({ migrated = false } = {}): Promise<TestDatabase> {
  if (!usingPostgres || !serverUrl) return { url: undefined, drop: async () => {} };
  const name = `t_${randomBytes(6).toString('hex')}`;
  const from = migrated ? await migratedTemplate() : null;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}${from ? ` template ${from}` : ''}`);
  } finally {
    await admin.end();
  }
  return {
    url: databaseUrl(name),
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** Config as a test wants it: quiet logs, memory PGlite, a fixed secret, no web app, no month end. */
export function testConfig(env: Record<string, string> = {}, databaseUrl?: string): Config {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: 'memory',
    JWT_SECRET: TEST_JWT_SECRET,
    WEB_DIST: '/nonexistent/alda-web-dist',
    CONSOLE_DIST: '/nonexistent/alda-console-dist',
    // Tests seed data at fixed instants while many apps run on the real clock: the month-end job
    // (ADR 0053) would move those balances at start, so it is on only where a test asks for it.
    MONTH_END_INTERVAL_S: '0',
    // Likewise the provisioning worker (ADR 0055): tests run its rounds with `app.provisioning.runDue()`.
    PROVISIONING_POLL_MS: '0',
    // And the data-export worker (issue 32): tests run its rounds with `app.dataExports.runRound()`.
    DATA_EXPORT_POLL_MS: '0',
    // And the support job (issue 46): tests run its rounds with `app.supportJob.runRound()`.
    SUPPORT_POLL_MS: '0',
    // And the push dispatcher (ADR 0096): tests run its rounds with `app.pushJob.runRound()`.
    PUSH_POLL_MS: '0',
    // Every answer served from an instance's memory is checked against the database (ADR 0057):
    // the whole suite then proves that each write it makes tells the instances.
    READ_CACHE_CHECK: 'true',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...env,
  });
}

/** Log lines an app wrote, parsed (use with LOG_LEVEL set in `env`). */
export class LogCapture extends Writable {
  readonly lines: Record<string, unknown>[] = [];
  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (line.trim()) this.lines.push(JSON.parse(line) as Record<string, unknown>);
    }
    callback();
  }
}

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  /** Closes the app (server, then database) and drops the PostgreSQL test database. */
  close(): Promise<void>;
}

/**
 * Builds a migrated app on a fresh database. The app is not `ready()` yet, so a test may still
 * add routes (e.g. one that throws) before the first `inject`.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  deps: AppDeps = {},
): Promise<TestApp> {
  const database = await createTestDatabase({ migrated: true });
  const config = testConfig(env, database.url);
  let app: FastifyInstance;
  try {
    const opened = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      pgliteSnapshot: usingPostgres ? undefined : await pgliteSnapshot(),
    });
    app = await buildApp(config, { database: opened, ...deps });
    await app.database.migrate();
  } catch (error) {
    await database.drop();
    throw error;
  }
  return {
    app,
    config,
    async close() {
      try {
        await app.close();
      } finally {
        await database.drop();
      }
    },
  };
}

/** Parses an answer with a contract schema, so every test also checks the wire format. */
export function parse<T extends z.core.$ZodType>(
  schema: T,
  response: LightMyRequestResponse,
): z.output<T> {
  return z.parse(schema, response.json());
}

export interface TestApps {
  apps: FastifyInstance[];
  config: Config;
  close(): Promise<void>;
}

/**
 * Several app instances on ONE database, as behind a load balancer: on PostgreSQL each has its
 * own connection pool to the shared test database (like separate processes); on PGlite they
 * share the one in-process database (PGlite cannot be opened twice). Used to prove that state
 * which must hold across instances (rate limits, codes, sessions) lives in the database.
 */
export async function createTestApps(
  count: number,
  env: Record<string, string> = {},
  deps: AppDeps = {},
): Promise<TestApps> {
  const database = await createTestDatabase({ migrated: true });
  const config = testConfig(env, database.url);
  const apps: FastifyInstance[] = [];
  try {
    let shared: Database | undefined;
    for (let i = 0; i < count; i += 1) {
      const opened =
        shared ??
        (await openDatabase({
          databaseUrl: config.databaseUrl,
          dataDir: config.dataDir,
          pgliteSnapshot: usingPostgres ? undefined : await pgliteSnapshot(),
        }));
      if (!usingPostgres) shared = opened;
      apps.push(await buildApp(config, { database: opened, ...deps }));
    }
    await apps[0]?.database.migrate();
  } catch (error) {
    for (const app of apps.reverse()) await app.close();
    await database.drop();
    throw error;
  }
  return {
    apps,
    config,
    async close() {
      try {
        // The last to close closes a shared PGlite; closing it twice is harmless.
        for (const app of [...apps].reverse()) await app.close();
      } finally {
        await database.drop();
      }
    },
  };
}

/** Polls `probe` until it returns something other than undefined (or fails after `timeoutMs`). */
export async function waitFor<T>(
  probe: () => Promise<T | undefined>,
  timeoutMs = 5_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`waitFor: nothing after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A test clock: `now` for AppDeps, `advance(seconds)` to move it. */
export function testClock(start = '2026-03-01T10:00:00.000Z') {
  let current = new Date(start);
  return {
    now: () => current,
    advance(seconds: number) {
      current = new Date(current.getTime() + seconds * 1000);
    },
    set(iso: string) {
      current = new Date(iso);
    },
  };
}

/** `Authorization` header of an access token. */
export const bearer = (accessToken: string) => ({ authorization: `Bearer ${accessToken}` });

/** A demo customer by first name (seed/demo-users.ts). */
export { demoUser };
