import pg from 'pg';

/*
 * A pause point: the kill point's gentler sibling (kill-points.ts). A trigger in the test's own
 * PostgreSQL database makes the API's session wait, right after the n-th write of a row to a
 * table, on an advisory lock the test holds — inside the API's open transaction, with the locks
 * that transaction took still held. While it waits the test can send the same work to another
 * instance and see what it does; `release()` lets the first one finish and commit. Nothing in
 * the API's code knows about it. Two instances racing for the same rows thus meet every time,
 * instead of once in a while.
 */

export interface PausePointSpec {
  table: string;
  event: 'insert' | 'update';
  /** A WHEN condition on NEW/OLD, e.g. `new.step = 'esim_ready'`. */
  when?: string;
}

export interface PausePoint {
  /** True while an API session waits at the point. */
  paused(): Promise<boolean>;
  /**
   * True while some other session of the database waits for a row or transaction lock (not
   * the pause point's): an instance blocked behind the paused transaction's locks.
   */
  blockedBehind(): Promise<boolean>;
  /** Lets the paused transaction go on, and drops the trigger (later writes pass). */
  release(): Promise<void>;
}

/** Advisory lock key of the pause points (any number no API code uses). */
const GATE_KEY = 7_140_514;

/**
 * Installs a pause point on the database of `url` that catches the first matching write from
 * now on. One at a time per database.
 */
export async function armPausePoint(url: string, spec: PausePointSpec): Promise<PausePoint> {
  const database = new URL(url).pathname.slice(1);
  const gate = new pg.Client({ connectionString: url });
  await gate.connect();
  const when = spec.when ? ` when (${spec.when})` : '';
  await gate.query(`select pg_advisory_lock(${GATE_KEY})`);
  await gate.query(`drop sequence if exists pause_point_hits`);
  await gate.query(`create sequence pause_point_hits`);
  await gate.query(`
    create or replace function pause_point() returns trigger language plpgsql as $$
    begin
      if nextval('pause_point_hits') = 1 then
        perform pg_advisory_xact_lock_shared(${GATE_KEY});
      end if;
      return null;
    end $$`);
  await gate.query(
    `create trigger pause_point after ${spec.event} on ${spec.table} for each row${when} execute function pause_point()`,
  );
  const waiting = async (advisory: boolean) => {
    const { rows } = await gate.query<{ n: number }>(
      `select count(*)::int as n from pg_stat_activity
       where datname = $1 and wait_event_type = 'Lock' and (wait_event = 'advisory') = $2`,
      [database, advisory],
    );
    return (rows[0]?.n ?? 0) > 0;
  };
  let released = false;
  return {
    paused: () => waiting(true),
    blockedBehind: () => waiting(false),
    async release() {
      if (released) return;
      released = true;
      try {
        // Unlocked first: dropping the trigger waits for the paused transaction's table lock.
        await gate.query(`select pg_advisory_unlock(${GATE_KEY})`);
        await gate.query(`drop trigger if exists pause_point on ${spec.table}`);
      } finally {
        await gate.end();
      }
    },
  };
}
