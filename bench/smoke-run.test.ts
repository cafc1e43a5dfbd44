// The bench smoke (issue 45): `npm run bench -- --smoke` runs every bench of `npm run bench` for a
// few seconds each (the API load bench on PGlite and, when one is reachable, PostgreSQL; the
// payment hub; the bundle sizes; Lighthouse's two cases). The figures are not judged: the machine
// is shared and noisy. What fails is a bench that no longer runs, or one that stops printing the
// figures it exists for. Runs in `npm run test:e2e`, after the web build it measures.
import { expect, test } from 'vitest';
import { run } from './run-command';

test('npm run bench -- --smoke: every bench runs and prints its figures', async () => {
  const { code, output } = await run('node', ['bench/run.mjs', '--smoke']);
  expect(code).toBe(0);
  expect(output).not.toContain('FAILED');
  // The API bench: its table on PGlite with both hello-worlds, the summary of ratios with their
  // goals, and the steps from node:http to the API (the jobs' step needs PostgreSQL).
  expect(output).toMatch(/hello-world \(node:http\)\s+[\d.]+/);
  expect(output).toMatch(/hello-world \(Fastify\)\s+[\d.]+/);
  expect(output).toMatch(/GET \/api\/subscriptions .*\d\.\d\d×/);
  expect(output).toMatch(/From node:http to the API on PGlite/);
  expect(output).toMatch(/GET \/api\/notifications 304\s+\d\.\d\d×\s+\d\.\d\d×/);
  // The payment hub: idle connections and the PaymentUpdated latency.
  expect(output).toMatch(/Payment hub, API on /);
  expect(output).toMatch(/PaymentUpdated/);
  // The bundle sizes of the first screens.
  expect(output).toMatch(/login\s+\/rita-inn\s+JS\s+[\d.]+ KiB/);
  expect(output).toMatch(/home\s+\/\s+JS\s+[\d.]+ KiB/);
  // Lighthouse: both cases, every run printed, the worker active before a returning run.
  expect(output).toMatch(/returning home run 1\/1: performance \d+, .*worker active before/);
  expect(output).toMatch(/first-open home run 1\/1: performance \d+, .*worker none before/);
  expect(output).toMatch(/\| returning\s+\| home\s+\|\s+\d+ \|/);
  expect(output).toMatch(/\| first-open\s+\| home\s+\|\s+\d+ \|/);
  // Each run scored again at the slowdown calibrated to this machine (--calibrate).
  expect(output).toMatch(
    /calibrated \(benchmarkIndex \d+, [\d.]+× instead of 4×\): performance \d+/,
  );
}, 900_000);
