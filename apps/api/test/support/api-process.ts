import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { TEST_JWT_SECRET } from '../helper';

/*
 * The real API as a process (`node --import tsx src/main.ts`: migrate, seed, listen, jobs), for
 * tests that must kill it the way an operating system or an orchestrator does: SIGKILL, no
 * shutdown hooks, no closing of the database. It restarts on the same database and the same
 * port, with the same JWT and webhook secrets, so tokens, card pages and webhooks of the first
 * life stay valid in the second.
 */

const apiDir = fileURLToPath(new URL('../..', import.meta.url));

/** The webhook secret of the processes (the test provider signs with it, the API verifies). */
export const PROCESS_WEBHOOK_SECRET = 'api-process-webhook-secret-0123456789abcdefghij';

/** Every process started here that has not exited yet, so a failing test leaves none behind. */
const alive = new Set<ChildProcess>();

/*
 * Ports for what tests start on a port of their choosing (API processes, proxies, a listening
 * app). Test files run side by side in several vitest workers, so each worker hands out ports
 * from a range of its own, below the kernel's ephemeral ports (32768 and up on Linux), where
 * servers on port 0 and outgoing connections get theirs. A port asked of the kernel and released
 * could be handed to another file before it is used, and a port freed by a killed process (a
 * restart takes it again) could be taken by another file's process meanwhile; then a readiness
 * check could be answered by the other file's server.
 */
const PORTS_FROM = 20_000;
const PORTS_PER_WORKER = 500;
const worker = Number(process.env.VITEST_POOL_ID ?? '1');
const firstPort = PORTS_FROM + ((worker - 1) % 25) * PORTS_PER_WORKER;
// Where this file starts in the range: files of one worker run one after the other, and a port
// the last one used may still be held for a moment.
let nextPort = firstPort + Math.floor(Math.random() * PORTS_PER_WORKER);

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A TCP port on 127.0.0.1 that is free now and that no other test file is given. */
export async function freePort(): Promise<number> {
  for (let tried = 0; tried < PORTS_PER_WORKER; tried += 1) {
    const port = nextPort;
    nextPort = port + 1 < firstPort + PORTS_PER_WORKER ? port + 1 : firstPort;
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port in ${firstPort}–${firstPort + PORTS_PER_WORKER - 1}`);
}

export interface ApiProcessOptions {
  /** PostgreSQL database of the process; unset: PGlite in `dataDir`. */
  databaseUrl?: string | undefined;
  /** PGlite folder (on disk, so the data outlives the process) when no `databaseUrl`. */
  dataDir?: string | undefined;
  /** More settings (job intervals, …); they win over the defaults below. */
  env?: Record<string, string>;
  /** The port to listen on (a restart keeps it); by default a free one. */
  port?: number;
  /** How long to wait for /readyz. */
  readyTimeoutMs?: number;
  /**
   * False: resolve as soon as the process is spawned, without waiting for /readyz — for a process
   * that is killed during its start-up work (a month end on PGlite, bills-crash.test.ts).
   */
  waitReady?: boolean;
}

export interface ApiProcess {
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code (null when killed by a signal) once the process is gone. */
  readonly exited: Promise<number | null>;
  /** SIGKILL: the process stops at once, mid-request, mid-transaction. */
  kill(): Promise<void>;
  /** SIGTERM: the graceful shutdown of main.ts; resolves with the exit code. */
  stop(): Promise<number | null>;
  /** A new process on the same database, port and secrets (this one must have exited). */
  restart(overrides?: Record<string, string>): Promise<ApiProcess>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts the API and resolves once `/readyz` answers 200. */
export async function startApi(options: ApiProcessOptions): Promise<ApiProcess> {
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    APP_URL: url,
    LOG_LEVEL: 'warn',
    DEMO_MODE: 'true',
    JWT_SECRET: TEST_JWT_SECRET,
    PAYMENT_WEBHOOK_SECRET: PROCESS_WEBHOOK_SECRET,
    WEB_DIST: '/nonexistent/alda-web-dist',
    CONSOLE_DIST: '/nonexistent/alda-console-dist',
    RATE_LIMIT_MAX: '0',
    // The demo's usage simulator would move balances under the test's feet.
    USAGE_SIMULATOR_INTERVAL_S: '0',
    // No balancer in front unless a test puts one there (and sets its own drain).
    SHUTDOWN_DRAIN_MS: '0',
    ...(options.databaseUrl
      ? { DATABASE_URL: options.databaseUrl }
      : { DATA_DIR: options.dataDir ?? '' }),
    ...options.env,
  };
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: apiDir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  alive.add(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      alive.delete(child);
      resolve(code);
    }),
  );
  let gone = false;
  void exited.then(() => (gone = true));

  const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000);
  while (options.waitReady !== false) {
    if (gone) throw new Error(`the API exited during start:\n${output}`);
    const ready = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2_000) }).then(
      (res) => res.status === 200,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the API did not become ready:\n${output}`);
    }
    await sleep(100);
  }

  const pid = child.pid;
  if (pid === undefined) throw new Error('no pid');
  const api: ApiProcess = {
    url,
    port,
    pid,
    output: () => output,
    exited,
    async kill() {
      if (!gone) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (!gone) child.kill('SIGTERM');
      return exited;
    },
    async restart(overrides = {}) {
      if (!gone) throw new Error('restart: the process is still running');
      return startApi({ ...options, port, env: { ...options.env, ...overrides } });
    },
  };
  return api;
}

/** Kills (SIGKILL) every process started here that is still running. */
export async function killAllStarted(): Promise<void> {
  await Promise.all(
    [...alive].map(
      (child) =>
        new Promise<void>((resolve) => {
          child.once('exit', () => resolve());
          child.kill('SIGKILL');
        }),
    ),
  );
}

/**
 * Databases on the PostgreSQL server of DATABASE_URL for process tests: an empty one, or a copy of
 * another (`CREATE DATABASE … TEMPLATE`, a file copy: a migrated, seeded database in ~0.1 s
 * instead of a process start). Every database made here is dropped by `dropAll()`.
 */
export function postgresDatabases(serverUrl: string) {
  const made: string[] = [];
  const urlOf = (name: string) => {
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    return url.toString();
  };
  async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  }
  async function create(template?: string): Promise<{ name: string; url: string }> {
    const name = `t_crash_${randomBytes(5).toString('hex')}`;
    await admin((client) =>
      client.query(`create database ${name}${template ? ` template ${template}` : ''}`),
    );
    made.push(name);
    return { name, url: urlOf(name) };
  }
  return {
    create: () => create(),
    /** A copy of `template` (no one may be connected to it). */
    clone: (template: string) => create(template),
    async dropAll() {
      await admin(async (client) => {
        for (const name of made.splice(0))
          await client.query(`drop database if exists ${name} with (force)`);
      });
    },
  };
}

/** Runs `work` with a client on `url`, closed afterwards. */
export async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
