import { parseArgs } from 'node:util';
import { interruptScaleTest, runScaleTest, type ScaleMode } from './driver';
import { printResult } from './report';

/*
 * The scale test from the command line (scripts/scale-test.sh runs it with tsx):
 *
 *   npx tsx test/scale/run.ts [--short] [--json <file>]
 *
 * Full mode by default (a few minutes); `--short` or SCALE_SHORT=1 is CI's version (under two
 * minutes). The PostgreSQL server is DATABASE_URL's (default postgres://postgres@127.0.0.1:5432/
 * postgres); the test makes a database of its own there and drops it. Prints the table and the
 * figures; exits 1 when a promise is broken, listing each with its evidence.
 */

const { values } = parseArgs({
  options: { short: { type: 'boolean', default: false }, json: { type: 'string' } },
});
const mode: ScaleMode =
  values.short || ['1', 'true'].includes(process.env.SCALE_SHORT ?? '') ? 'short' : 'full';
const serverUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

async function main(): Promise<void> {
  const started = Date.now();
  const log = (line: string) =>
    console.log(`[${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${line}`);
  log(`scale test, ${mode} mode, PostgreSQL ${new URL(serverUrl).host}`);
  const result = await runScaleTest({ mode, serverUrl, log });
  printResult(result, (line) => console.log(line));
  if (values.json) {
    const { writeFile } = await import('node:fs/promises');
    await writeFile(values.json, JSON.stringify(result, null, 2));
  }
  process.exit(result.ok ? 0 : 1);
}

// Ctrl-C or a SIGTERM: stop what the run started and drop its database before leaving.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(
      `\n${signal}: stopping the instances, HAProxy and Prometheus, dropping the database`,
    );
    void interruptScaleTest().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
