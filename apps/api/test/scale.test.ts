import { afterAll, describe, expect, it } from 'vitest';
import { killAllStarted } from './support/api-process';
import { usingPostgres } from './helper';
import { runScaleTest } from './scale/driver';
import { printResult } from './scale/report';

/*
 * Issue 44 §4, the short version of scripts/scale-test.sh in CI's PostgreSQL pass: three API
 * processes on one fresh database behind HAProxy (deploy/haproxy/alda.cfg), a real Prometheus,
 * a mixed load of virtual customers; kill -9 of one instance mid-load, then a rolling restart.
 * test/scale/driver.ts runs it and checks every promise; this file asserts its verdict and the
 * figures the promises rest on, and prints the table.
 *
 * PostgreSQL only: PGlite is one process's database; three processes cannot share it. It needs
 * Debian's haproxy and prometheus (.ci/run installs them).
 */

describe.skipIf(!usingPostgres)(
  usingPostgres
    ? 'issue 44 §4: three instances behind HAProxy under load'
    : 'issue 44 §4: three instances behind HAProxy — skipped: needs PostgreSQL (DATABASE_URL); PGlite is the database of one process',
  () => {
    afterAll(async () => {
      await killAllStarted();
    });

    it(
      'issue 44 §4: kill -9 of one instance fails only what was in flight on it, a rolling restart fails nothing, every payment is fulfilled once and every hub client learns its outcome (short scale test)',
      async () => {
        const progress: string[] = [];
        const result = await runScaleTest({
          mode: 'short',
          serverUrl: process.env.DATABASE_URL as string,
          log: (line) => progress.push(line),
        });
        const printed: string[] = [];
        printResult(result, (line) => printed.push(line));
        console.info(printed.join('\n'));

        // The verdict, with every broken promise and the run's progress when it fails.
        expect(result.broken, `${progress.join('\n')}\n${printed.join('\n')}`).toEqual([]);
        expect(result.ok).toBe(true);
        // The figures behind it: the run did what it claims to have done.
        expect(result.kill.hubOnKilled).toBeGreaterThan(0);
        expect(result.kill.hubLearned).toBe(result.kill.hubOnKilled);
        expect(result.kill.failed).toBeLessThanOrEqual(result.kill.bound);
        expect(result.rolling.failed).toBe(0);
        expect(result.rolling.steps.map((s) => s.exitCode)).toEqual([0, 0, 0]);
        expect(result.payments.made).toBeGreaterThan(0);
        expect(result.payments).toEqual({
          made: result.payments.made,
          fulfilled: result.payments.made,
          lost: 0,
        });
        expect(result.prometheus.upVictim).toMatch(/^1.*0.*1$/);
      },
      // Under 2 minutes on a 2-core machine; the bound leaves room for a busy CI neighbour.
      240_000,
    );
  },
);
