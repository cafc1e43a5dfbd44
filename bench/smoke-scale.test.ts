// The volume bench's smoke: `npm run bench:scale -- --short` seeds 300 lines on PostgreSQL and
// runs every section of the bench for two seconds (ingest single and batched beside COPY, the
// desk, a customer's day beside the demo, month end, size per line). The figures are not judged;
// a bench that no longer runs, or no longer prints its table, is. Needs PostgreSQL (BENCH_PG_URL,
// DATABASE_URL or 127.0.0.1:5432); without one it is skipped and says so.
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
    expect(output).toMatch(/\| Ingest, single Usage: records\/s\s+\|\s+\|\s+\d+ \|/);
    expect(output).toMatch(/\| Ingest, batches of 1000: records\/s\s+\|\s+\|\s+\d+ \|/);
    expect(output).toMatch(/COPY into usage_records’ shape: rows\/s\s+\|\s+\|\s+\d+ \|/);
    expect(output).toMatch(/\| Desk search by name: p50 \/ p95 ms\s+\|\s+\|\s+[\d.]+ \/ [\d.]+ \|/);
    expect(output).toMatch(/\| Customer home: p50 \/ p95 ms\s+\|\s+[\d.]+ \/ [\d.]+ \|/);
    expect(output).toMatch(/\| Month end, all lines: seconds\s+\|\s+\|\s+[\d.]+ \|/);
    expect(output).toMatch(/\| Database size per line, kB\s+\|\s+\|\s+[\d.]+ \|/);
  },
  300_000,
);
