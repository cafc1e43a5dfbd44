import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The API test files that take longest, longest first (issue 45, CI time), as measured on both
 * databases (2026-11-27: payments.property 74–82 s, scale 54 s on PostgreSQL, the rest 12–35 s).
 *
 * Vitest starts the files it has no timing for in order of size, and otherwise the longest first
 * by its cache. CI's PostgreSQL pass had the cache of the PGlite pass just before it, where the
 * scale test is skipped and took no time: it started last and ran alone for its last 40 s. A file
 * missing here only loses its place at the front.
 */
const SLOW_FIRST = [
  // Seeds 100,000 lines on PostgreSQL (some 90–150 s); skipped on PGlite.
  'scale-indexes.test.ts',
  'payments.property.test.ts',
  'scale.test.ts',
  'payments.chaos.property.test.ts',
  'crash-safety.test.ts',
  'bills-crash.test.ts',
  'backup-restore.test.ts',
  'hostile-input.property.test.ts',
  'month-charge.test.ts',
  'lifecycle-cancellation.test.ts',
  'operator-socket.test.ts',
  'payments.restart.test.ts',
  'network-tmf641.test.ts',
  'shutdown-drain.test.ts',
  'hub-lifecycle.test.ts',
  'usage-tmf635-volume.test.ts',
  'payments.vipps-guidelines.test.ts',
];

function rank(file: TestSpecification): number {
  if (file.project.name !== 'api') return SLOW_FIRST.length;
  const index = SLOW_FIRST.indexOf(path.basename(file.moduleId));
  return index === -1 ? SLOW_FIRST.length : index;
}

/** Vitest's own order, with the API suite's slowest files moved to the front of their project. */
export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);

    // Array.prototype.sort is stable: every other file keeps vitest's order.
    return sorted
      .map((file, index) => ({ file, index }))
      .sort((a, b) =>
        a.file.project.name === b.file.project.name
          ? rank(a.file) - rank(b.file) || a.index - b.index
          : a.index - b.index,
      )
      .map(({ file }) => file);
  }
}
