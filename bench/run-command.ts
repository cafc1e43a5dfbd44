// Runs a bench the way the smoke tests do (bench/smoke-run.test.ts, bench/smoke-soak.test.ts). A
// module of its own: a test file that imported another would run that file's tests again.
import { spawn } from 'node:child_process';
import path from 'node:path';

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
