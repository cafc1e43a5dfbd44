import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { openDatabase, type Database } from '../src/db/client';
import { serveOperatorCommands } from '../src/operator';
import { operatorSocketPath } from '../src/operator-socket';
import { testConfig } from './helper';

/*
 * `npm run operator` beside a running server on PGlite (ADR 0075), for the tests that run the real
 * program: this process holds a fresh PGlite folder open and serves the operator socket as
 * `main.ts` does; `operatorCli` runs `tsx src/operator.ts`, which hands its command over.
 */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const exec = promisify(execFile);

/** Runs the operator program with `env` on top of this process's; its exit code and output. */
export const operatorCli = (args: string[], env: Record<string, string | undefined>) =>
  // Node with tsx's loader, as `tsx` runs it, without npx's own start-up (~1 s a call).
  exec(process.execPath, ['--import', 'tsx', 'apps/api/src/operator.ts', ...args], {
    cwd: repoRoot,
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    timeout: 60_000,
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({
      code: error.code ?? -1,
      stdout: error.stdout ?? '',
      stderr: error.stderr ?? '',
    }),
  );

export interface OperatorServer {
  /** The temporary DATA_DIR (the caller removes it). */
  dir: string;
  /** The database the "server" holds open. */
  database: Database;
  socket: { close(): Promise<void> };
}

/** A migrated PGlite database in a new temporary folder, held open, with the operator socket served. */
export async function startOperatorServer(prefix: string): Promise<OperatorServer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  const database = await openDatabase({ dataDir: dir });
  await database.migrate();
  const socketPath = operatorSocketPath(dir);
  if (!socketPath) throw new Error('temp dir too long for a socket');
  const socket = await serveOperatorCommands(socketPath, testConfig({ DATA_DIR: dir }), database);
  return { dir, database, socket };
}
