import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { commandEnv } from '../../command-env';
import { ConfigError, loadConfig } from '../../config';
import { openDatabase, type Database } from '../../db/client';
import { pgliteFolderProblem } from '../../db/pglite-folder';
import { SCALE_EMAIL_DOMAIN } from './households';
import { describeRatios } from './ratios';
import { ScaleSeedRefused } from './safety';
import {
  maxLines,
  PGLITE_MAX_LINES,
  SCALE_PASSWORD,
  seedScale,
  type ScaleProgress,
  type SeedScaleResult,
} from './seed-scale';

/*
 * `npm run seed:scale -- --lines N`: fills an empty database with an operator-sized synthetic
 * data set (seed-scale.ts). Exit codes: 0 done, 1 failed, 2 refused (a database with customers,
 * or seeded before without --reset) or a usage error.
 */

function helpText(): string {
  return `Usage: npm run seed:scale -- --lines N [--seed S] [--reset] [--quiet]

Fills the configured database with synthetic Faroese customers for measuring the app:
DATABASE_URL (PostgreSQL, loaded with COPY), else the PGlite folder DATA_DIR (multi-row
INSERTs; at most ${PGLITE_MAX_LINES.toLocaleString('en')} lines). Migrates it first.

Options:
  --lines N     phone lines to create, cancelled ones of the past included (default 10000;
                at most ${maxLines().toLocaleString('en')}: the 6-digit numbering plan)
  --seed S      random seed (default 1): the same seed and clock give the same rows (all
                but the password hash, salted anew each run)
  --reset       replace the data of an earlier seed:scale run (only such a database)
  --now ISO     end the history at this instant instead of now
  --quiet       no progress bar
  --help        this text

Safety: it refuses (exit 2) a database that has users and was not made by seed:scale (the
demo of npm start included), and one it made before unless --reset. Its marker is the table
scale_seed (when, lines, seed, state), written before it empties anything and marked done
when all is loaded; a run that stopped half-way is finished off by --reset (the marker keeps
the keys and indexes it set aside until they are back).

Every seeded customer signs in with their e-mail (…@${SCALE_EMAIL_DOMAIN}) and the password
${SCALE_PASSWORD} (one argon2id hash of the app's own, shared by all). Names are Faroese, addresses
from the locality list. Numbers are 6 digits: Faroese mobile numbers (2, 5, 7, 9) while they
last, never an easy number of the number picker, one in ten mobile numbers left free for it,
none of the demo's; past ~250,000 lines the fixed-line and other blocks follow.

What is in it:
${describeRatios()}

Per line that comes to ~130 usage_daily rows, ~17 usage_records, ~5 orders, ~3.7 payments and
receipts, ~5 activity-log entries, ~4.5 notifications: ~177 rows and ~28 KB of database.
Measured on the 2-core development machine (PostgreSQL 15, other work running): 10,000 lines
in ~6 s, 100,000 in ~1 min, 1,000,000 in ~11 min (27 GB).

How: one generator (a seeded PRNG, households in order), rows written in batches of 2,000
lines with binary COPY over two connections while the next batch is made; the loaded tables
emptied first, their foreign keys and secondary indexes set aside and made again from the
catalog's definitions afterwards (each key checked once over its table); then ANALYZE.
`;
}

class UsageError extends Error {}

interface Args {
  lines: number;
  seed: number;
  reset: boolean;
  quiet: boolean;
  now: Date | undefined;
}

function parse(argv: string[]): Args | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        lines: { type: 'string', default: '10000' },
        seed: { type: 'string', default: '1' },
        reset: { type: 'boolean', default: false },
        quiet: { type: 'boolean', default: false },
        now: { type: 'string' },
        help: { type: 'boolean', default: false },
      },
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) return 'help';
  const lines = Number(values.lines.replace(/[_,]/g, ''));
  if (!Number.isInteger(lines) || lines < 1)
    throw new UsageError(`--lines must be a whole number ≥ 1, not "${values.lines}".`);
  const seed = Number(values.seed);
  if (!Number.isInteger(seed) || seed < 0 || seed > 2_147_483_647)
    throw new UsageError(
      `--seed must be a whole number from 0 to 2147483647, not "${values.seed}".`,
    );
  const now = values.now === undefined ? undefined : new Date(values.now);
  if (now && Number.isNaN(now.getTime()))
    throw new UsageError(`--now must be an ISO 8601 instant, not "${values.now}".`);
  return { lines, seed, reset: values.reset, quiet: values.quiet, now };
}

/** The PGlite folder, unless it cannot be used now (in memory, open in the server). */
function checkPgliteFolder(dataDir: string): void {
  // A folder without a database yet is fine: the seeder creates and migrates it.
  if (dataDir !== 'memory' && !existsSync(path.join(dataDir, 'PG_VERSION'))) return;
  const problem = pgliteFolderProblem(dataDir);
  if (problem) throw new ScaleSeedRefused(problem);
}

/** Progress on stderr: a bar on a terminal, otherwise a line every ~10 % and per phase. */
function progressReporter(quiet: boolean): { update(p: ScaleProgress): void; stop(): void } {
  if (quiet) return { update: () => {}, stop: () => {} };
  if (process.stderr.isTTY) {
    const bar = new cliProgress.SingleBar(
      {
        stream: process.stderr,
        format:
          '{phase} |{bar}| {percentage}% | {value}/{total} lines | {rate} lines/s | {rows} rows | ETA {eta_formatted}',
        hideCursor: true,
        etaBuffer: 20,
        fps: 5,
      },
      cliProgress.Presets.shades_classic,
    );
    let started = false;
    return {
      update(p) {
        const payload = {
          phase: p.phase.padEnd(11),
          rate: rateOf(p),
          rows: p.rows.toLocaleString('en'),
        };
        if (!started) {
          bar.start(p.linesTotal, p.linesDone, payload);
          started = true;
        } else bar.update(p.linesDone, payload);
      },
      stop: () => bar.stop(),
    };
  }
  let lastTenth = -1;
  let lastPhase = '';
  return {
    update(p) {
      const tenth = Math.floor((p.linesDone / p.linesTotal) * 10);
      if (p.phase === lastPhase && tenth === lastTenth) return;
      lastPhase = p.phase;
      lastTenth = tenth;
      const eta =
        p.linesDone > 0 && p.phase === 'loading'
          ? ((p.elapsedMs / p.linesDone) * (p.linesTotal - p.linesDone)) / 1000
          : null;
      process.stderr.write(
        `seed:scale ${p.phase} ${p.linesDone.toLocaleString('en')}/${p.linesTotal.toLocaleString('en')} lines, ${p.rows.toLocaleString('en')} rows, ${rateOf(p)} lines/s, ${(p.elapsedMs / 1000).toFixed(0)} s${eta === null ? '' : `, ETA ${eta.toFixed(0)} s`}\n`,
      );
    },
    stop: () => {},
  };
}

const rateOf = (p: ScaleProgress) =>
  p.elapsedMs > 0 ? Math.round((p.linesDone / p.elapsedMs) * 1000).toLocaleString('en') : '0';

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toLocaleString('en', { maximumFractionDigits: 1 })} MB`;
}

/** The summary table on stdout. */
export function summary(result: SeedScaleResult, location: string): string {
  const rows = Object.entries(result.rows).sort((a, b) => b[1] - a[1]);
  const width = Math.max(...rows.map(([name]) => name.length), 'total'.length);
  const seconds = result.wallMs / 1000;
  return [
    `Seeded ${location}: ${result.lines.toLocaleString('en')} lines, seed ${result.seed}, history up to ${result.now.toISOString()}`,
    '',
    ...rows.map(([name, n]) => `  ${name.padEnd(width)}  ${n.toLocaleString('en').padStart(14)}`),
    `  ${'total'.padEnd(width)}  ${result.totalRows.toLocaleString('en').padStart(14)}`,
    '',
    `  database size   ${mb(result.databaseBytes)} (${(result.bytesPerLine / 1024).toFixed(1)} KB per line)`,
    `  wall time       ${seconds.toFixed(1)} s`,
    `  rows/s          ${Math.round(result.totalRows / seconds).toLocaleString('en')}`,
    `  lines/s         ${Math.round(result.lines / seconds).toLocaleString('en')}`,
    '',
    `Sign in with any seeded e-mail (…@${SCALE_EMAIL_DOMAIN}) and the password ${SCALE_PASSWORD}.`,
  ].join('\n');
}

export async function run(argv: string[]): Promise<number> {
  let args: Args | 'help';
  try {
    args = parse(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\nRun npm run seed:scale -- --help for the options.\n`);
    return 2;
  }
  if (args === 'help') {
    process.stdout.write(helpText());
    return 0;
  }
  const progress = progressReporter(args.quiet);
  let database: Database | undefined;
  try {
    const config = loadConfig(commandEnv(process.env));
    if (!config.databaseUrl) {
      if (args.lines > PGLITE_MAX_LINES) {
        throw new ScaleSeedRefused(
          `PGlite takes at most ${PGLITE_MAX_LINES.toLocaleString('en')} lines (it runs inside this process, without COPY); set DATABASE_URL to seed PostgreSQL.`,
        );
      }
      checkPgliteFolder(config.dataDir);
      database = await openDatabase({ dataDir: config.dataDir });
    }
    const common = {
      lines: args.lines,
      seed: args.seed,
      reset: args.reset,
      now: args.now,
      onProgress: (p: ScaleProgress) => progress.update(p),
    };
    const result = config.databaseUrl
      ? await seedScale({ ...common, databaseUrl: config.databaseUrl })
      : await seedScale({ ...common, database: database as Database });
    progress.stop();
    const location = database?.location ?? `PostgreSQL (${new URL(config.databaseUrl ?? '').host})`;
    process.stdout.write(`${summary(result, location)}\n`);
    return 0;
  } catch (error) {
    progress.stop();
    if (error instanceof ScaleSeedRefused || error instanceof ConfigError) {
      process.stderr.write(`seed:scale refused: ${error.message}\n`);
      return 2;
    }
    process.stderr.write(
      `seed:scale failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    return 1;
  } finally {
    await database?.close();
  }
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    process.exit(1);
  },
);
