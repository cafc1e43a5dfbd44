import type { ScaleResult } from './driver';
import type { RequestRecord } from './load';

/*
 * The figures of the scale test (issue 44 §4): requests, failures and latency percentiles per
 * phase, and the one table the script prints. Pure functions over the recorded requests, so the
 * CI test and the script print the same thing.
 */

/** Nearest-rank percentile of sorted milliseconds; NaN for none. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

export interface PhaseFigures {
  phase: string;
  requests: number;
  failures: number;
  p50: number;
  p95: number;
  p99: number;
  /** Requests per answering instance (X-Alda-Server), `?` for none (failed before an answer). */
  byServer: Record<string, number>;
}

/** Figures of the requests that started in `phase` (all phases with `phase` undefined). */
export function figuresOf(records: readonly RequestRecord[], phase?: string): PhaseFigures {
  const mine = records.filter((r) => phase === undefined || r.phase === phase);
  const durations = mine
    .filter((r) => !r.failed)
    .map((r) => r.end - r.start)
    .sort((a, b) => a - b);
  const byServer: Record<string, number> = {};
  for (const r of mine) byServer[r.server ?? '?'] = (byServer[r.server ?? '?'] ?? 0) + 1;
  return {
    phase: phase ?? 'all',
    requests: mine.length,
    failures: mine.filter((r) => r.failed).length,
    p50: percentile(durations, 50),
    p95: percentile(durations, 95),
    p99: percentile(durations, 99),
    byServer,
  };
}

export interface PaymentFigures {
  /** Payments the test started (rows in the database for the test's purchases). */
  made: number;
  /** Of those: paid and fulfilled exactly once. */
  fulfilled: number;
  /** Made but not fulfilled (failed, cancelled, stuck, or fulfilled twice). */
  lost: number;
}

const ms = (value: number) => (Number.isNaN(value) ? '–' : `${Math.round(value)} ms`);

function table(header: string[], rows: string[][], rightAligned: Set<number>): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    `| ${cells
      .map((c, i) =>
        rightAligned.has(i) ? c.padStart(widths[i] as number) : c.padEnd(widths[i] as number),
      )
      .join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (rightAligned.has(i) ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}

/** The table the script prints (Markdown, so it goes into docs/reliability.md as it is). */
export function renderTable(phases: readonly PhaseFigures[], payments: PaymentFigures): string {
  const rows = phases.map((f) => [
    f.phase,
    String(f.requests),
    String(f.failures),
    ms(f.p50),
    ms(f.p95),
    ms(f.p99),
  ]);
  const right = new Set([1, 2, 3, 4, 5]);
  return [
    table(['phase', 'requests', 'failures', 'p50', 'p95', 'p99'], rows, right),
    '',
    table(
      ['payments made', 'fulfilled', 'lost'],
      [[String(payments.made), String(payments.fulfilled), String(payments.lost)]],
      new Set([0, 1, 2]),
    ),
  ].join('\n');
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The figures after the table, as the script prints them. */
export function printResult(result: ScaleResult, print: (line: string) => void): void {
  const { kill, rolling } = result;
  print('');
  print(result.table);
  print('');
  print(
    `kill -9 ${kill.server}: hub clients per instance before ${JSON.stringify(kill.hubClientsBefore)}; ` +
      `in flight at the kill: ${kill.clientInFlight} requests (all instances), HAProxy sessions on ${kill.server} ${kill.haproxySessions} (of them hub WebSockets ${kill.hubTunnels}) ` +
      `(instance's own gauge ${kill.inFlightMetric ?? '?'} requests, ${kill.hubConnectionsMetric ?? '?'} hub connections); ` +
      `process gone ${Math.round(kill.goneMs)} ms after the SIGKILL, ${kill.startedInGap} requests started meanwhile; ` +
      `failed ${kill.failed} ≤ bound ${kill.bound}`,
  );
  for (const failure of kill.failures) print(`  failed: ${failure}`);
  print(
    `  HAProxy marked it DOWN after ${seconds(kill.haproxyDownMs)}, Prometheus up=0 after ${seconds(kill.prometheusDownMs)}, ` +
      `back UP ${seconds(kill.restartedMs)} after the kill; hub clients on it ${kill.hubOnKilled}, reconnected ${kill.hubReconnected}, learned the outcome ${kill.hubLearned}`,
  );
  print(
    `rolling restart: ${rolling.steps
      .map(
        (s) =>
          `${s.server} DOWN ${seconds(s.downMs)} / exit ${s.exitCode} ${seconds(s.exitMs)} / UP ${seconds(s.upMs)}`,
      )
      .join(
        '; ',
      )}; failed ${rolling.failed}; hub clients waiting on a stopped instance ${rolling.hubOnStopped}, cut off when it closed ${rolling.hubLost}, reconnected ${rolling.hubReconnected}, learned the outcome ${rolling.hubLearned}`,
  );
  print(
    `database: ${result.database.made} payments, ${result.database.fulfilledOnce} fulfilled once; ` +
      `effects ${result.database.effects.map((e) => `${e.msisdn} +${e.actual}/${e.expected} ${e.unit}`).join(', ')}; ` +
      `stuck ${JSON.stringify(result.database.stuck)}`,
  );
  print(`Prometheus, request rate per instance:\n${result.prometheus.rate}`);
  print(`Prometheus, up of ${kill.server} per second over the kill: ${result.prometheus.upVictim}`);
  print(
    `HAProxy per server (wretr retries, wredis redispatches, hrsp_5xx, econ, eresp): ${JSON.stringify(result.haproxy)}`,
  );
  const hiccups = result.notes;
  if (hiccups.length > 0) print(`notes:\n${hiccups.map((n) => `  - ${n}`).join('\n')}`);
  print(`${result.mode} run in ${seconds(result.durationMs)}`);
  if (result.ok) print('All promises kept.');
  else {
    print(`${result.broken.length} promise(s) broken:`);
    for (const line of result.broken) print(`  ✗ ${line}`);
  }
}
