// The bench smoke (issue 45): `npm run bench -- --smoke` runs every bench of `npm run bench` for a
// few seconds each (the API load bench on PGlite and, when one is reachable, PostgreSQL; the
// payment hub; the bundle sizes; Lighthouse's two cases). The figures are not judged: the machine
// is shared and noisy. What fails is a bench that no longer runs, or one that stops printing the
// figures it exists for. Runs in `npm run test:e2e`, after the web build it measures.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { expect, test } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');

/** Runs a command at the repository's root; resolves with its exit code and all its output. */
export function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    // Kept for the assertions and passed on as it comes, so a bench that hangs shows where.
    const take = (chunk: Buffer) => {
      output += chunk.toString();
      process.stdout.write(chunk);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

test('npm run bench -- --smoke: every bench runs and prints its figures', async () => {
  const { code, output } = await run('node', ['bench/run.mjs', '--smoke']);
  expect(code).toBe(0);
  expect(output).not.toContain('FAILED');
  // The API bench: its table on PGlite, and the summary of ratios with their goals.
  expect(output).toMatch(/hello-world \(Fastify\)\s+[\d.]+/);
  expect(output).toMatch(/GET \/api\/subscriptions .*\d\.\d\d×/);
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
}, 900_000);
