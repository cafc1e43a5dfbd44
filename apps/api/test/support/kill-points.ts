import type pg from 'pg';

/*
 * Deterministic kill points without a line of test code in the API: a trigger in the test's own
 * PostgreSQL database makes the API's database session sleep (`pg_sleep`) right after the n-th
 * write of a row to a table — inside the API's transaction, which is then open with that write
 * done and the rest not yet — and the test, watching `pg_stat_activity` from its own
 * connection, SIGKILLs the API process at that moment. The transaction can never commit: its
 * client is gone, and `client_connection_check_interval` makes the server notice the closed
 * socket while it sleeps and roll back, as it does when a crashed client's connection drops.
 * A point on a table written by an autocommit statement or by the next transaction of a flow
 * kills between two transactions. The triggers are dropped before the API starts again.
 */

export interface KillPoint {
  /** What the flow has done when it dies (test output). */
  label: string;
  table: string;
  event: 'insert' | 'update' | 'delete' | 'insert or update';
  /** Only writes of these columns count (UPDATE OF …). */
  columns?: string[];
  /** A WHEN condition on NEW/OLD, e.g. `new.delivered_at is not null`. */
  when?: string;
  /** The n-th matching row (across transactions) is where the API dies; 1 by default. */
  nth?: number;
}

const TRIGGER = 'crash_kill_point';

/** The session's wait event while it sleeps in the trigger. */
const SLEEPING = `wait_event = 'PgSleep'`;

/**
 * Installs the kill point (one at a time) and makes the server notice dead clients quickly
 * (for connections opened from now on: call before the API starts).
 */
export async function armKillPoint(client: pg.Client, database: string, point: KillPoint) {
  await client.query(`alter database ${database} set client_connection_check_interval = 100`);
  await client.query(`drop sequence if exists crash_kill_hits`);
  await client.query(`create sequence crash_kill_hits`);
  await client.query(`
    create or replace function crash_kill_point() returns trigger language plpgsql as $$
    begin
      if nextval('crash_kill_hits') = tg_argv[0]::bigint then
        perform pg_sleep(600);
      end if;
      return null;
    end $$`);
  const of = point.columns ? ` of ${point.columns.join(', ')}` : '';
  const when = point.when ? ` when (${point.when})` : '';
  await client.query(
    `create trigger ${TRIGGER} after ${point.event}${of} on ${point.table} for each row${when} execute function crash_kill_point('${point.nth ?? 1}')`,
  );
}

/** Drops the kill point's trigger (after the killed session is gone). */
export async function disarmKillPoint(client: pg.Client, point: KillPoint) {
  await client.query(`drop trigger if exists ${TRIGGER} on ${point.table}`);
}

/** True once a session of this database sleeps in the kill point. */
export async function atKillPoint(client: pg.Client, database: string): Promise<boolean> {
  const { rows } = await client.query<{ n: number }>(
    `select count(*)::int as n from pg_stat_activity where datname = $1 and ${SLEEPING}`,
    [database],
  );
  return (rows[0]?.n ?? 0) > 0;
}

/** Waits until the sessions of the killed process have ended (their transactions rolled back). */
export async function waitForDeadSessions(client: pg.Client, database: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await client.query<{ n: number }>(
      `select count(*)::int as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`,
      [database],
    );
    if ((rows[0]?.n ?? 0) === 0) return;
    if (Date.now() > deadline) {
      if (process.env.CRASH_DEBUG) {
        const { rows: left } = await client.query(
          `select pid, application_name, state, wait_event, backend_start, left(query, 120) as query from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`,
          [database],
        );
        process.stdout.write(`kill-points: sessions left ${JSON.stringify(left)}\n`);
      }
      // The server has not noticed yet: end them as it would.
      await client.query(
        `select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`,
        [database],
      );
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
