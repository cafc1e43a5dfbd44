// The volume bench's smoke: `npm run bench:scale -- --short` seeds 300 lines on PostgreSQL and
// runs every section of the bench for a few seconds: ingest single and batched beside COPY, on
// one instance and on three behind HAProxy; the desk; a customer's day with a purchase beside
// the demo; month end by one instance and by three with one killed; the month's charges by three
// with one killed; size per line. The figures are not judged, except that the month ends moved
// every balance and nothing twice and no customer was charged twice (the bench exits non-zero
// otherwise); a bench that no longer runs, or no longer prints its table, is. Needs PostgreSQL
// (BENCH_PG_URL, DATABASE_URL or 127.0.0.1:5432); without one it is skipped and says so.
import pg from 'pg';
import { expect, test } from 'vitest';
import { run } from './run-command';

const server =
  process.env.BENCH_PG_URL ??
  process.env.DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/postgres';

async function reachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: server, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    return true;
  } catch {
    console.log(`bench:scale smoke SKIPPED: no PostgreSQL at ${new URL(server).host}`);
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

test.skipIf(!(await reachable()))(
  'npm run bench:scale -- --short: seeds, measures every section and prints the table',
  async () => {
    const { code, output } = await run('npx', ['tsx', 'bench/scale.ts', '--short']);
    expect(code).toBe(0);
    const row = (label: string, cells: string) =>
      expect(output).toMatch(new RegExp(`\\| ${label}\\s+\\|\\s+${cells} \\|`));
    row('Ingest, one instance, single Usage: records/s', '\\|\\s+\\d+');
    row('Ingest, one instance, batches of 1000: records/s', '\\|\\s+\\d+');
    row('  COPY into usage_records’ shape: rows/s', '\\|\\s+\\d+');
    row('Ingest, 3 instances behind HAProxy, single Usage: records/s', '\\|\\s+\\d+');
    row('Ingest, 3 instances behind HAProxy, batches of 1000: records/s', '\\|\\s+\\d+');
    row('Desk search by name: p50 / p95 ms', '\\|\\s+[\\d.]+ / [\\d.]+');
    row('Customer home: p50 / p95 ms', '[\\d.]+ / [\\d.]+\\s+\\|\\s+[\\d.]+ / [\\d.]+');
    row('Customer purchase: p50 / p95 ms', '[\\d.]+ / [\\d.]+\\s+\\|\\s+[\\d.]+ / [\\d.]+');
    row('Month end, all lines, one instance: seconds', '\\|\\s+[\\d.]+');
    row('Month end, 3 instances, one killed halfway: seconds', '\\|\\s+[\\d.]+');
    expect(output.match(/\|\s+moved \/ kept owed twice\s+\|\s+\|\s+0 \/ 0 \|/g)).toHaveLength(2);
    row('Month charges, 3 instances for 6 s, one killed: placed', '\\|\\s+\\d+');
    row('  customers charged twice', '\\|\\s+0');
    row('Database size per line, kB', '\\|\\s+[\\d.]+');
  },
  600_000,
);
