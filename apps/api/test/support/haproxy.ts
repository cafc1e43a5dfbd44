import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './api-process';

/*
 * The balancer an operator runs, for tests (issue 44 §4): Debian's HAProxy with the shipped
 * deploy/haproxy/alda.cfg, unchanged. The file takes everything that differs between a test and
 * production from environment variables (addresses, the unprivileged start, optionally the
 * health-check timings), and includes its second and third server only when ALDA_API_2 and
 * ALDA_API_3 are set (`.if defined(…)`), so one, two or three backends need no rewritten copy:
 * what the tests exercise is byte for byte what ships.
 *
 * The stats listener of the file (ALDA_STATS_BIND, a port of its own here) answers the CSV of
 * `/stats;csv`, from which `serverStates()` and `serverStats()` read each server's state and
 * counters. The config adds `X-Alda-Server: <server name>` to every answer, so a test also sees
 * per request which instance answered.
 */

export type ServerState = 'UP' | 'DOWN';

export interface Haproxy {
  /** Where clients connect: http://127.0.0.1:port (the file's ALDA_BIND). */
  url: string;
  /** The servers of the backend, in the order of `backends`: api1, api2, … */
  servers: string[];
  /** The stats listener (ALDA_STATS_BIND): `${statsUrl}/stats;csv`, `${statsUrl}/metrics`. */
  statsUrl: string;
  /** The process id of haproxy. */
  pid: number;
  /** The end of what haproxy wrote (its log: one line per request, server state changes). */
  output(): string;
  /** Stops haproxy (SIGTERM: it closes every connection at once) and waits until it is gone. */
  close(): Promise<void>;
  /**
   * Server name → its status as HAProxy reports it: 'UP', 'DOWN', 'UP 1/2' (failing, not yet
   * down), 'DOWN 1/2' (recovering), 'MAINT', 'DRAIN', 'no check'.
   */
  serverStates(): Promise<Record<string, string>>;
  /** Server name → its whole CSV row (lbtot: times chosen, hrsp_5xx, chkfail, check_status, …). */
  serverStats(): Promise<Record<string, Record<string, string>>>;
  /** Resolves once `server` is `state` (polls the stats); fails after `timeoutMs` (10 s). */
  waitFor(server: string, state: ServerState, timeoutMs?: number): Promise<void>;
}

export interface HaproxyOptions {
  /** The API instances, 'host:port' (1 to 3: the file has three server lines). */
  backends: string[];
  /** The port clients connect to on 127.0.0.1; by default a free one. */
  port?: number;
  /**
   * More variables for the file, e.g. ALDA_CHECK_INTER / ALDA_CHECK_FALL / ALDA_CHECK_RISE to
   * shorten the health check (a test must not wait on the production timings).
   */
  env?: Record<string, string>;
}

/**
 * The shipped configuration. ALDA_HAPROXY_CONFIG names another file instead: to run the tests
 * against a changed copy before it replaces the shipped one (or to break it on purpose).
 */
export const HAPROXY_CONFIG =
  process.env.ALDA_HAPROXY_CONFIG ??
  fileURLToPath(new URL('../../../../deploy/haproxy/alda.cfg', import.meta.url));
/** The server lines of the file, in order: `server api1 "${ALDA_API_1}"`, … */
const MAX_BACKENDS = 3;

function haproxyBinary(): string {
  if (existsSync('/usr/sbin/haproxy')) return '/usr/sbin/haproxy';
  try {
    const found = execFileSync('sh', ['-c', 'command -v haproxy'], { encoding: 'utf8' }).trim();
    if (found) return found;
  } catch {
    // not on the PATH either
  }
  throw new Error(
    'HAProxy is not installed (no /usr/sbin/haproxy, none on the PATH): apt-get install haproxy (.ci/run installs it)',
  );
}

/*
 * A haproxy must not outlive the test process, however that ends. `setpriv --pdeathsig`
 * (util-linux) has the kernel send it SIGKILL when its parent dies, SIGKILL of a vitest worker
 * included, when no exit handler runs; the 'exit' hook below covers the ordinary ends (and a
 * system without setpriv).
 */
const SETPRIV = '/usr/bin/setpriv';
const alive = new Set<ChildProcess>();
/** The folders of the haproxy processes not closed yet (their admin sockets). */
const folders = new Set<string>();
let exitHookInstalled = false;
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const child of alive) child.kill('SIGKILL');
    for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The rows of HAProxy's stats CSV ("# pxname,svname,…" then one line per proxy and server). */
function parseStatsCsv(text: string): Record<string, string>[] {
  const [header = '', ...lines] = text.split('\n').filter((line) => line.trim() !== '');
  const columns = header.replace(/^#\s*/, '').split(',');
  return lines.map((line) => {
    const values = line.split(',');
    return Object.fromEntries(columns.map((column, i) => [column, values[i] ?? '']));
  });
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Starts haproxy with the shipped config in front of `backends` and resolves once it accepts
 * connections and every server is UP after a passed health check.
 */
export async function startHaproxy(options: HaproxyOptions): Promise<Haproxy> {
  const { backends } = options;
  if (backends.length < 1 || backends.length > MAX_BACKENDS)
    throw new Error(
      `startHaproxy: ${backends.length} backends; deploy/haproxy/alda.cfg has server lines for 1 to ${MAX_BACKENDS}`,
    );
  const binary = haproxyBinary();
  const port = options.port ?? (await freePort());
  const statsPort = await freePort();
  // The admin socket of the file's "global" section, in a folder of this start.
  const dir = await mkdtemp(path.join(tmpdir(), 'alda-haproxy-'));
  folders.add(dir);
  const servers = backends.map((_, i) => `api${i + 1}`);
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    // No chroot, no switch to the haproxy user: a test runs it as whoever runs the tests.
    ALDA_UNPRIVILEGED: '1',
    ALDA_BIND: `127.0.0.1:${port}`,
    ALDA_STATS_BIND: `127.0.0.1:${statsPort}`,
    ALDA_ADMIN_SOCKET: path.join(dir, 'admin.sock'),
    // Without root haproxy cannot raise its file descriptor limit for the file's 20,000.
    ALDA_MAXCONN: '1000',
    ...Object.fromEntries(backends.map((backend, i) => [`ALDA_API_${i + 1}`, backend])),
    ...options.env,
  };
  // -db: in the foreground, not as a daemon, so this process is its parent and sees it exit.
  const args = ['-db', '-f', HAPROXY_CONFIG];
  const child = existsSync(SETPRIV)
    ? spawn(SETPRIV, ['--pdeathsig', 'SIGKILL', binary, ...args], {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      })
    : spawn(binary, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  alive.add(child);
  installExitHook();
  // Read all the time (haproxy logs every request to stdout; a full pipe would stall it); only
  // the end is kept, for error messages.
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-50_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let gone = false;
  const exited = new Promise<void>((resolve) => {
    const end = () => {
      gone = true;
      alive.delete(child);
      resolve();
    };
    child.once('exit', end);
    // Not started at all (the binary vanished between the check and the spawn).
    child.once('error', (error) => {
      keep(Buffer.from(`\n${String(error)}`));
      end();
    });
  });

  const statsUrl = `http://127.0.0.1:${statsPort}`;
  async function serverStats(): Promise<Record<string, Record<string, string>>> {
    const res = await fetch(`${statsUrl}/stats;csv;norefresh`, {
      signal: AbortSignal.timeout(2_000),
    });
    if (!res.ok) throw new Error(`haproxy stats: HTTP ${res.status}`);
    const rows = parseStatsCsv(await res.text()).filter(
      (row) => row.pxname === 'alda' && row.svname !== 'FRONTEND' && row.svname !== 'BACKEND',
    );
    return Object.fromEntries(rows.map((row) => [row.svname ?? '', row]));
  }
  async function serverStates(): Promise<Record<string, string>> {
    const stats = await serverStats();
    return Object.fromEntries(Object.entries(stats).map(([name, row]) => [name, row.status ?? '']));
  }

  const close = async () => {
    if (!gone) child.kill('SIGTERM');
    await exited;
    await rm(dir, { recursive: true, force: true });
    folders.delete(dir);
  };

  async function waitFor(server: string, state: ServerState, timeoutMs = 10_000): Promise<void> {
    if (!servers.includes(server))
      throw new Error(`haproxy: no server ${server} (servers: ${servers.join(', ')})`);
    const deadline = Date.now() + timeoutMs;
    let last = '';
    for (;;) {
      if (gone) throw new Error(`haproxy exited while waiting for ${server} ${state}:\n${output}`);
      // A stats request that fails (haproxy busy for a moment) is just asked again.
      const states = await serverStates().catch((): Record<string, string> => ({}));
      last = states[server] ?? last;
      if (last === state) return;
      if (Date.now() > deadline)
        throw new Error(
          `haproxy: ${server} is "${last}", not ${state}, after ${timeoutMs} ms:\n${output.slice(-5_000)}`,
        );
      await sleep(25);
    }
  }

  // Ready: the client port accepts, and every server is UP after a health check that passed
  // (HAProxy starts a checked server as UP before its first check; L7OK says one passed).
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (gone) {
      await close();
      throw new Error(`haproxy exited during start:\n${output}`);
    }
    const stats = await serverStats().catch(() => undefined);
    const ready =
      stats !== undefined &&
      servers.every(
        (name) => stats[name]?.status === 'UP' && stats[name]?.check_status === 'L7OK',
      ) &&
      (await canConnect(port));
    if (ready) break;
    if (Date.now() > deadline) {
      await close();
      throw new Error(
        `haproxy did not become ready (every server UP after a passed check) in 15 s; servers: ${JSON.stringify(
          stats &&
            Object.fromEntries(
              Object.entries(stats).map(([n, r]) => [
                n,
                `${r.status} ${r.check_status} ${r.check_desc ?? ''}`,
              ]),
            ),
        )}\n${output}`,
      );
    }
    await sleep(25);
  }

  return {
    url: `http://127.0.0.1:${port}`,
    servers,
    statsUrl,
    pid: child.pid ?? 0,
    output: () => output,
    close,
    serverStates,
    serverStats,
    waitFor,
  };
}
