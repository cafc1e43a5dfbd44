// Running the tools the native scripts need, from node_modules (no npx, no network).
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** The file of a package's command (`bin` in its package.json). */
export function binOf(pkg: string, command: string): string {
  const manifestPath = require.resolve(`${pkg}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
    bin?: string | Record<string, string>;
  };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin?.[command];
  if (!bin) throw new Error(`${pkg} has no command ${command}`);
  return path.join(path.dirname(manifestPath), bin);
}

/** Runs a package's command with this Node; throws when it fails. */
export function runBin(
  pkg: string,
  command: string,
  args: readonly string[],
  options: SpawnSyncOptions,
): void {
  const result = spawnSync(process.execPath, [binOf(pkg, command), ...args], {
    stdio: 'inherit',
    ...options,
  });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    // With piped output (the test), the tool's own words say why.
    const output = [result.stdout, result.stderr].map((o) => o?.toString() ?? '').join('');
    throw new Error(
      `${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal})\n${output}`,
    );
  }
}

/** The Capacitor CLI (`cap …`) in the app directory `cwd`. */
export const capacitor = (args: readonly string[], options: SpawnSyncOptions) =>
  runBin('@capacitor/cli', 'capacitor', args, options);
