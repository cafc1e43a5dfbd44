import type { SqlSession } from './copy';

/*
 * The seeder never writes into a database with real customers. It loads only a database that
 * has no users (new, or not even migrated) or that it made itself, which it records in a table
 * of its own, `scale_seed` (one row: when, how many lines, which seed), written in the same
 * transaction as the data. `--reset` replaces a database only when that row is there. A demo
 * database (`npm start`) has users and no such row: refused too.
 */

export const MARKER_TABLE = 'scale_seed';

/** Refused to run: the CLI exits with 2 and prints the message. */
export class ScaleSeedRefused extends Error {
  override name = 'ScaleSeedRefused';
  readonly exitCode = 2;
}

export interface Marker {
  seededAt: string;
  lines: number;
  seed: number;
}

export interface DatabaseState {
  /** The schema is there (users exists). */
  migrated: boolean;
  /** At least one user. */
  hasUsers: boolean;
  /** About how many (planner's estimate; for the message only). */
  usersEstimate: number;
  marker: Marker | null;
}

export const CREATE_MARKER = `CREATE TABLE IF NOT EXISTS ${MARKER_TABLE} (
  id integer PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  seeded_at timestamptz NOT NULL,
  lines integer NOT NULL,
  seed bigint NOT NULL,
  clock timestamptz NOT NULL,
  rows jsonb NOT NULL
)`;

export async function inspectDatabase(session: SqlSession): Promise<DatabaseState> {
  const [tables] = await session.query(
    `SELECT to_regclass('public.users') IS NOT NULL AS users, to_regclass('public.${MARKER_TABLE}') IS NOT NULL AS marker`,
  );
  const migrated = tables?.users === true;
  let hasUsers = false;
  let usersEstimate = 0;
  if (migrated) {
    const [row] = await session.query(
      `SELECT EXISTS (SELECT 1 FROM users) AS any, (SELECT reltuples::bigint FROM pg_class WHERE oid = 'public.users'::regclass) AS estimate`,
    );
    hasUsers = row?.any === true;
    usersEstimate = Math.max(hasUsers ? 1 : 0, Number(row?.estimate ?? 0));
  }
  let marker: Marker | null = null;
  if (tables?.marker === true) {
    const [row] = await session.query(
      `SELECT seeded_at::text AS "seededAt", lines, seed::integer AS seed FROM ${MARKER_TABLE} LIMIT 1`,
    );
    if (row)
      marker = { seededAt: String(row.seededAt), lines: Number(row.lines), seed: Number(row.seed) };
  }
  return { migrated, hasUsers, usersEstimate, marker };
}

/**
 * Whether the seeder may load this database: `fresh` (no users), or `reset` (its own earlier
 * data, to be replaced). Anything else is refused with the reason.
 */
export function decide(state: DatabaseState, reset: boolean, where: string): 'fresh' | 'reset' {
  if (state.marker) {
    if (reset) return 'reset';
    throw new ScaleSeedRefused(
      `${where} was already filled by seed:scale (${state.marker.lines.toLocaleString('en')} lines, seed ${state.marker.seed}, ${state.marker.seededAt}). Run again with --reset to replace that data.`,
    );
  }
  if (state.hasUsers) {
    throw new ScaleSeedRefused(
      `${where} holds customers (about ${state.usersEstimate.toLocaleString('en')} users) and was not made by seed:scale: it is never touched. Point DATABASE_URL (or DATA_DIR) at an empty database.`,
    );
  }
  return 'fresh';
}
