// The bench smoke (issue 45) for the benches `npm run bench` leaves out: the soak (ten minutes
// in full) and the polls alone (bench/polling.ts). Seconds each; the figures are not judged.
import { expect, test } from 'vitest';
import { run } from './run-command';
import { SMOKE_FLAGS } from './smoke-flags.mjs';

test('npm run bench:soak, for a few seconds: the polling load runs and memory is printed', async () => {
  const { code, output } = await run('npx', ['tsx', 'bench/soak.ts', ...SMOKE_FLAGS.soak]);
  expect(code).toBe(0);
  expect(output).toMatch(/50 customers signed in/);
  // At least one window row: time, req/s, p50, p99, unexpected, RSS, heap.
  expect(output).toMatch(/^\s+\d+ s\s+\d+\s+[\d.]+\s+[\d.]+\s+0\s+\d+/m);
}, 300_000);

test('bench/polling.ts, for a few seconds: both polls, the 304 with no query', async () => {
  const { code, output } = await run('npx', [
    'tsx',
    'bench/polling.ts',
    ...SMOKE_FLAGS.api,
    '--db',
    'pglite',
  ]);
  expect(code).toBe(0);
  expect(output).toMatch(/GET \/api\/notifications/);
  expect(output).toMatch(/GET \/api\/data-transfers/);
  expect(output).toMatch(/304/);
}, 300_000);
