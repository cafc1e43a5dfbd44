import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/*
 * A real Prometheus (Debian's `prometheus`) scraping the API instances of the scale test, and
 * `promtool query` against it, as an operator would look (issue 44 §4). Scrapes every second, so
 * a kill shows in `up` within a second or two.
 */

const run = promisify(execFile);
const SETPRIV = '/usr/bin/setpriv';

export interface PromSample {
  metric: Record<string, string>;
  value?: [number, string];
  values?: [number, string][];
}

export interface Prometheus {
  url: string;
  /** `promtool query instant <url> <expr>`: the text promtool prints and the parsed samples. */
  instant(expr: string, at?: number): Promise<{ text: string; samples: PromSample[] }>;
  /** `promtool query range`, from/to in unix milliseconds. */
  range(
    expr: string,
    fromMs: number,
    toMs: number,
    step: string,
  ): Promise<{ text: string; samples: PromSample[] }>;
  /** Resolves once `probe` holds for the answer of `expr`; fails after `timeoutMs`. */
  waitUntil(
    expr: string,
    probe: (samples: PromSample[]) => boolean,
    timeoutMs: number,
  ): Promise<number>;
  close(): Promise<void>;
}

function binary(name: string): string {
  for (const dir of ['/usr/bin', '/usr/local/bin', '/usr/sbin']) {
    if (existsSync(path.join(dir, name))) return path.join(dir, name);
  }
  throw new Error(
    `${name} is not installed: apt-get install prometheus (scripts/scale-test.sh does)`,
  );
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts Prometheus on 127.0.0.1:`port` with job "alda" over `targets` ('host:port'). */
export async function startPrometheus(port: number, targets: string[]): Promise<Prometheus> {
  const prometheus = binary('prometheus');
  const promtool = binary('promtool');
  const dir = await mkdtemp(path.join(tmpdir(), 'alda-prometheus-'));
  const config = path.join(dir, 'prometheus.yml');
  // The job name the alerts and dashboard select (deploy/prometheus/prometheus.yml).
  await writeFile(
    config,
    [
      'global:',
      '  scrape_interval: 1s',
      '  scrape_timeout: 900ms',
      '  evaluation_interval: 1s',
      'scrape_configs:',
      '  - job_name: alda',
      '    metrics_path: /metrics',
      '    static_configs:',
      `      - targets: [${targets.map((t) => `'${t}'`).join(', ')}]`,
      '',
    ].join('\n'),
  );
  const args = [
    `--config.file=${config}`,
    `--storage.tsdb.path=${path.join(dir, 'data')}`,
    `--web.listen-address=127.0.0.1:${port}`,
    '--log.level=warn',
  ];
  // The kernel kills it if this process dies without cleaning up (as test/support/haproxy.ts).
  const child: ChildProcess = existsSync(SETPRIV)
    ? spawn(SETPRIV, ['--pdeathsig', 'SIGKILL', prometheus, ...args], {
        stdio: ['ignore', 'ignore', 'pipe'],
      })
    : spawn(prometheus, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  child.stderr?.on(
    'data',
    (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)),
  );
  let gone = false;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      gone = true;
      resolve();
    }),
  );
  const onExit = () => child.kill('SIGKILL');
  process.once('exit', onExit);
  const url = `http://127.0.0.1:${port}`;

  const close = async () => {
    process.off('exit', onExit);
    if (!gone) child.kill('SIGTERM');
    await exited;
    await rm(dir, { recursive: true, force: true });
  };

  const deadline = Date.now() + 30_000;
  for (;;) {
    if (gone) throw new Error(`prometheus exited during start:\n${output}`);
    const ready = await fetch(`${url}/-/ready`, { signal: AbortSignal.timeout(1_000) }).then(
      (res) => res.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      await close();
      throw new Error(`prometheus did not become ready:\n${output}`);
    }
    await sleep(100);
  }

  async function promtoolJson(args: string[]): Promise<{ text: string; samples: PromSample[] }> {
    const [textRun, jsonRun] = await Promise.all([
      run(promtool, args, { timeout: 10_000 }),
      run(promtool, [...args.slice(0, 2), '-o', 'json', ...args.slice(2)], { timeout: 10_000 }),
    ]);
    const parsed = JSON.parse(jsonRun.stdout || '[]') as PromSample[] | null;
    return { text: textRun.stdout.trim(), samples: parsed ?? [] };
  }

  const seconds = (ms: number) => (ms / 1000).toFixed(3);

  return {
    url,
    instant: (expr, at) =>
      promtoolJson([
        'query',
        'instant',
        ...(at === undefined ? [] : [`--time=${seconds(at)}`]),
        url,
        expr,
      ]),
    range: (expr, fromMs, toMs, step) =>
      promtoolJson([
        'query',
        'range',
        `--start=${seconds(fromMs)}`,
        `--end=${seconds(toMs)}`,
        `--step=${step}`,
        url,
        expr,
      ]),
    async waitUntil(expr, probe, timeoutMs) {
      const started = Date.now();
      for (;;) {
        const { samples } = await promtoolJson(['query', 'instant', url, expr]).catch(() => ({
          samples: [] as PromSample[],
        }));
        if (probe(samples)) return Date.now() - started;
        if (Date.now() - started > timeoutMs)
          throw new Error(`prometheus: "${expr}" not as expected after ${timeoutMs} ms`);
        await sleep(200);
      }
    },
    close,
  };
}
