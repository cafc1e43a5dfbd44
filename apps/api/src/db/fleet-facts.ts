import { sql } from 'drizzle-orm';
import type { Db } from './client';
import { rowsOf } from './rows';
import type { FleetFacts } from '../metrics/metrics';

/** A timestamp as the drivers hand it back (node-postgres: Date; PGlite: Date or text). */
type Moment = Date | string | null;

/** An open provisioning order is overdue when its next step was due longer ago than this. */
export const PROVISIONING_OVERDUE_S = 5 * 60;

/**
 * How long one reading of the fleet's facts is reused. Every instance answers its own scrapes,
 * and Prometheus scrapes each every 15 s or so: this bounds the database work to a few small
 * aggregate queries per instance and interval, however often someone scrapes.
 */
const REUSE_MS = 10_000;

/**
 * Payments by state and the open provisioning orders, read from the database: the same for
 * every instance, so alerts take max() over instances. Counts only — no row leaves the database.
 */
export function createFleetFacts(db: Db, now: () => Date): () => Promise<FleetFacts> {
  let last: { at: number; facts: Promise<FleetFacts> } | null = null;

  async function read(): Promise<FleetFacts> {
    const at = now();
    const iso = at.toISOString();
    const payments = rowsOf(
      await db.execute(sql`
        select state, count(*)::int as count,
               min(created_at) filter (
                 where state in ('created', 'pending') and method <> 'agreement'
               ) as oldest
        from payments group by state`),
    ) as { state: string; count: number; oldest: Moment }[];
    const provisioning = rowsOf(
      await db.execute(sql`
        select provisioning_waiting_for as waiting_for, count(*)::int as count,
               min(created_at) as oldest,
               (count(*) filter (
                 where provisioning_next_at < ${iso}::timestamptz - make_interval(secs => ${PROVISIONING_OVERDUE_S})
               ))::int as overdue
        from orders
        where provisioning_next_at is not null and not is_complete and not is_cancelled
          and provisioning_waiting_for is not null
        group by provisioning_waiting_for`),
    ) as { waiting_for: string; count: number; oldest: Moment; overdue: number }[];
    const ageS = (oldest: Moment[]) => {
      const times = oldest.filter((o) => o !== null).map((o) => new Date(o).getTime());
      return times.length === 0 ? 0 : Math.max(0, (at.getTime() - Math.min(...times)) / 1000);
    };
    return {
      payments: Object.fromEntries(payments.map((r) => [r.state, r.count])),
      paymentsOpenOldestAgeS: ageS(payments.map((r) => r.oldest)),
      provisioning: Object.fromEntries(provisioning.map((r) => [r.waiting_for, r.count])),
      provisioningOldestAgeS: ageS(provisioning.map((r) => r.oldest)),
      provisioningOverdue: provisioning.reduce((sum, r) => sum + r.overdue, 0),
    };
  }

  return () => {
    const at = Date.now();
    if (!last || at - last.at >= REUSE_MS) {
      const facts = read();
      last = { at, facts };
      // A failed reading is not reused.
      facts.catch(() => {
        if (last?.facts === facts) last = null;
      });
    }
    return last.facts;
  };
}
