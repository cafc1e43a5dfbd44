import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { gunzip as gunzipCallback, gzip as gzipCallback } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { commandEnv, commandPath } from './command-env';
import { ConfigError, loadConfig, type Config } from './config';
import { pgliteFolderProblem } from './db/pglite-folder';
import { PGLITE_EXTENSIONS } from './db/client';

/*
 * `npm run db:backup -- <file>` and `npm run db:restore -- <file> [--force]` (issue 14,
 * docs/operations.md "Backups"): a whole-database copy of the configured database.
 *
 * - PostgreSQL (DATABASE_URL): `pg_dump --format=custom` (consistent: one snapshot, the server
 *   keeps running) and `pg_restore` into an empty database (or, with --force, over an existing
 *   one: its objects are dropped first). pg_dump must be at least the server's major version.
 * - PGlite (DATA_DIR): PGlite's own data-directory dump (a tarball, gzipped), restored into an
 *   empty DATA_DIR. PGlite is opened by one process at a time: stop the server first.
 *
 * Exit codes: 0 done, 1 failed (message on stderr), 2 usage.
 */

export const HELP = `Usage:
  npm run db:backup -- <file>            copy the configured database into <file>
  npm run db:restore -- <file> [--force] restore <file> into the configured database

DATABASE_URL set: pg_dump / pg_restore (custom format); the server may keep running for a
backup. Restore wants an empty database; --force drops the existing objects first.
Otherwise the PGlite folder DATA_DIR: stop the server first; restore wants an empty or absent
DATA_DIR (--force empties it).
`;

const gzip = promisify(gzipCallback);
const gunzip = promisify(gunzipCallback);

export type BackupKind = 'postgresql' | 'pglite';

export class BackupError extends Error {
  override name = 'BackupError';
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', (error) =>
      reject(new BackupError(`${command} could not start (${error.message}); is it installed?`)),
    );
    child.once('exit', (code) =>
      code === 0
        ? resolve()
        : reject(new BackupError(`${command} failed with exit code ${code}: ${stderr.trim()}`)),
    );
  });
}

/** Tables in the database's own schemas (not PostgreSQL's catalogues). */
async function userTableCount(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const result = await client.query<{ count: string }>(
      `select count(*) from information_schema.tables
        where table_schema not in ('pg_catalog', 'information_schema')`,
    );
    return Number(result.rows[0]?.count ?? 0);
  } finally {
    await client.end();
  }
}

const isPglite = (config: Config) => !config.databaseUrl;

/** Writes a copy of the configured database to `file`. */
export async function backupDatabase(config: Config, file: string): Promise<BackupKind> {
  await mkdir(path.dirname(path.resolve(file)), { recursive: true });
  if (!isPglite(config)) {
    await run('pg_dump', [
      '--format=custom',
      '--no-owner',
      '--no-privileges',
      `--file=${file}`,
      `--dbname=${config.databaseUrl}`,
    ]);
    return 'postgresql';
  }
  const problem = pgliteFolderProblem(config.dataDir);
  if (problem) throw new BackupError(problem);
  const db = new PGlite(config.dataDir, { extensions: PGLITE_EXTENSIONS });
  try {
    // PGlite's own 'gzip' mode never settles on Node (it relies on a web CompressionStream);
    // the plain tarball is gzipped here instead (~40 MB → a few MB).
    // dumpDataDir before the database is up never settles: wait for it first.
    await db.waitReady;
    const dump = await db.dumpDataDir('none');
    await writeFile(file, await gzip(Buffer.from(await dump.arrayBuffer())));
  } finally {
    await db.close();
  }
  return 'pglite';
}

/** Restores `file` (made by {@link backupDatabase}) into the configured database. */
export async function restoreDatabase(
  config: Config,
  file: string,
  { force = false }: { force?: boolean } = {},
): Promise<BackupKind> {
  if (!existsSync(file)) throw new BackupError(`${file} does not exist.`);
  if (!isPglite(config)) {
    const url = config.databaseUrl as string;
    if (!force && (await userTableCount(url)) > 0) {
      throw new BackupError(
        'The database is not empty. Restore into a new database, or pass --force to drop its objects first.',
      );
    }
    await run('pg_restore', [
      '--no-owner',
      '--no-privileges',
      '--exit-on-error',
      ...(force ? ['--clean', '--if-exists'] : []),
      `--dbname=${url}`,
      file,
    ]);
    return 'postgresql';
  }
  if (config.dataDir === 'memory') {
    throw new BackupError('DATA_DIR is "memory": set it to the folder to restore into.');
  }
  const entries = existsSync(config.dataDir) ? await readdir(config.dataDir) : [];
  if (existsSync(path.join(config.dataDir, 'postmaster.pid'))) {
    throw new BackupError(pgliteFolderProblem(config.dataDir) ?? 'The folder is in use.');
  }
  if (entries.length > 0) {
    if (!force) {
      throw new BackupError(
        `${config.dataDir} is not empty. Restore into a new folder, or pass --force to replace it.`,
      );
    }
    await rm(config.dataDir, { recursive: true, force: true });
  }
  await mkdir(config.dataDir, { recursive: true });
  const db = new PGlite(config.dataDir, {
    extensions: PGLITE_EXTENSIONS,
    loadDataDir: new Blob([await gunzip(await readFile(file))]),
  });
  try {
    // A query proves the copy opens as a database before the restore reports success.
    await db.query('select 1');
  } finally {
    await db.close();
  }
  return 'pglite';
}

export async function cli(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { force: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${HELP}`);
    return 2;
  }
  const [verb, file] = parsed.positionals;
  if (parsed.values.help) {
    console.log(HELP);
    return 0;
  }
  if ((verb !== 'backup' && verb !== 'restore') || !file || parsed.positionals.length > 2) {
    console.error(HELP);
    return 2;
  }
  const target = commandPath(env, file);
  try {
    const config = loadConfig(commandEnv(env));
    const kind =
      verb === 'backup'
        ? await backupDatabase(config, target)
        : await restoreDatabase(config, target, { force: parsed.values.force === true });
    console.log(`${verb === 'backup' ? 'backed up' : 'restored'} (${kind}): ${target}`);
    return 0;
  } catch (error) {
    if (error instanceof BackupError || error instanceof ConfigError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await cli(process.argv.slice(2));
}
