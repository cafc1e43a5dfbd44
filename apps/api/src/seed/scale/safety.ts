import type { SqlSession } from './copy';
import type { RestoreStep } from './keys';

/*
 * The seeder never writes into a database with real customers. It loads only a database that
 * has no users (new, or not even migrated) or that it made itself, which it records in a table
 * of its own, `scale_seed` (one row: when, how many lines, which seed), written before it
 * touches anything. `--reset` replaces a database only when that row is there. A demo database
 * (`npm start`) has users and no such row: refused too.
 *
 * The row also says whether the load finished (`state`), and holds what the load set aside
 * (`restore`: the foreign keys and indexes it dropped, keys.ts) until they are back, so a run
 * that died half-way leaves a database the next `--reset` run repairs and fills.
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
  state: 'loading' | 'done';
  /** What a load set aside and has not put back yet (empty once it is done). */
  restore: RestoreStep[];
}

export interface DatabaseState {
  /** The schema is there (users exists). */
  migrated: boolean;
  /** At least one user. */
  hasUsers: boolean;
  /** How many, counted up to {@link USERS_COUNTED} (for the message only). */
  usersEstimate: number;
  marker: Marker | null;
}

const USERS_COUNTED = 100_000;

export const CREATE_MARKER = [
  `CREATE TABLE IF NOT EXISTS ${MARKER_TABLE} (
    id integer PRIMARY KEY DEFAULT 1 CHECK (id = 1),
    seeded_at timestamptz NOT NULL,
    lines integer NOT NULL,
    seed bigint NOT NULL,
    clock timestamptz NOT NULL,
    rows jsonb NOT NULL
  )`,
  `ALTER TABLE ${MARKER_TABLE} ADD COLUMN IF NOT EXISTS state text NOT NULL DEFAULT 'done'`,
  `ALTER TABLE ${MARKER_TABLE} ADD COLUMN IF NOT EXISTS restore jsonb NOT NULL DEFAULT '[]'`,
];

export async function inspectDatabase(session: SqlSession): Promise<DatabaseState> {
  const [tables] = await session.query(
    `SELECT to_regclass('public.users') IS NOT NULL AS users, to_regclass('public.${MARKER_TABLE}') IS NOT NULL AS marker`,
  );
  const migrated = tables?.users === true;
  let hasUsers = false;
  let usersEstimate = 0;
  if (migrated) {
    // Counted up to a limit: a message needs no exact count of a big database.
    const [row] = await session.query(
      `SELECT count(*)::int AS n FROM (SELECT 1 FROM users LIMIT ${USERS_COUNTED}) AS u`,
    );
    usersEstimate = Number(row?.n ?? 0);
    hasUsers = usersEstimate > 0;
  }
  const marker = tables?.marker === true ? await readMarker(session) : null;
  return { migrated, hasUsers, usersEstimate, marker };
}

async function readMarker(session: SqlSession): Promise<Marker | null> {
  for (const statement of CREATE_MARKER.slice(1)) await session.query(statement);
  const [row] = await session.query(
    `SELECT seeded_at::text AS "seededAt", lines, seed::integer AS seed, state, restore FROM ${MARKER_TABLE} LIMIT 1`,
  );
  if (!row) return null;
  return {
    seededAt: String(row.seededAt),
    lines: Number(row.lines),
    seed: Number(row.seed),
    state: row.state === 'loading' ? 'loading' : 'done',
    restore: Array.isArray(row.restore) ? (row.restore as RestoreStep[]) : [],
  };
}

/**
 * Whether the seeder may load this database: `fresh` (no users), or `reset` (its own earlier
 * data, to be replaced). Anything else is refused with the reason.
 */
export function decide(state: DatabaseState, reset: boolean, where: string): 'fresh' | 'reset' {
  if (state.marker) {
    if (reset) return 'reset';
    const { lines, seed, seededAt } = state.marker;
    const what =
      state.marker.state === 'loading'
        ? `was being filled by seed:scale when that run stopped (${lines.toLocaleString('en')} lines, seed ${seed}, ${seededAt})`
        : `was already filled by seed:scale (${lines.toLocaleString('en')} lines, seed ${seed}, ${seededAt})`;
    throw new ScaleSeedRefused(`${where} ${what}. Run again with --reset to replace that data.`);
  }
  if (state.hasUsers) {
    throw new ScaleSeedRefused(
      `${where} holds customers (${usersText(state.usersEstimate)}) and was not made by seed:scale: it is never touched. Point DATABASE_URL (or DATA_DIR) at an empty database.`,
    );
  }
  return 'fresh';
}

function usersText(n: number): string {
  if (n >= USERS_COUNTED) return `${USERS_COUNTED.toLocaleString('en')} users or more`;
  return n === 1 ? '1 user' : `${n.toLocaleString('en')} users`;
}
