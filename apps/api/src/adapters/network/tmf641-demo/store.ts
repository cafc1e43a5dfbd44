import { and, asc, desc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import {
  tmf641DemoEvents,
  tmf641DemoHubs,
  tmf641DemoOrders,
  type Tmf641DemoEventRow,
  type Tmf641DemoHubRow,
  type Tmf641DemoOrderJson,
  type Tmf641DemoOrderRow,
  type Tmf641DemoState,
} from '../../../db/schema/tmf641-demo';

/* The demo TMF641 server's queries (its own tables, db/schema/tmf641-demo.ts). */

export async function findOrder(db: Db, id: string): Promise<Tmf641DemoOrderRow | undefined> {
  const [row] = await db.select().from(tmf641DemoOrders).where(eq(tmf641DemoOrders.id, id));
  return row;
}

export async function findOrderByExternalId(
  db: Db,
  externalId: string,
): Promise<Tmf641DemoOrderRow | undefined> {
  const [row] = await db
    .select()
    .from(tmf641DemoOrders)
    .where(eq(tmf641DemoOrders.externalId, externalId));
  return row;
}

/** Inserts the order unless one with its `externalId` exists; undefined then. */
export async function insertOrder(
  db: Db,
  row: typeof tmf641DemoOrders.$inferInsert,
): Promise<Tmf641DemoOrderRow | undefined> {
  const [inserted] = await db
    .insert(tmf641DemoOrders)
    .values(row)
    .onConflictDoNothing()
    .returning();
  return inserted;
}

/** Newest first, with the total count of matching orders. */
export async function listOrders(
  db: Db,
  filter: { externalId?: string | undefined; state?: Tmf641DemoState | undefined },
  page: { offset: number; limit: number },
): Promise<{ rows: Tmf641DemoOrderRow[]; total: number }> {
  const where = and(
    filter.externalId === undefined
      ? undefined
      : eq(tmf641DemoOrders.externalId, filter.externalId),
    filter.state === undefined ? undefined : eq(tmf641DemoOrders.state, filter.state),
  );
  const rows = await db
    .select()
    .from(tmf641DemoOrders)
    .where(where)
    .orderBy(desc(tmf641DemoOrders.createdAt), desc(tmf641DemoOrders.id))
    .offset(page.offset)
    .limit(page.limit);
  const [count] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(tmf641DemoOrders)
    .where(where);
  return { rows, total: count?.total ?? 0 };
}

/** The orders whose next step is due (their ids and states as of now; not locked). */
export async function dueOrders(
  db: Db,
  at: Date,
  limit: number,
): Promise<Pick<Tmf641DemoOrderRow, 'id' | 'state'>[]> {
  return db
    .select({ id: tmf641DemoOrders.id, state: tmf641DemoOrders.state })
    .from(tmf641DemoOrders)
    .where(lte(tmf641DemoOrders.nextAt, at))
    .orderBy(asc(tmf641DemoOrders.nextAt), asc(tmf641DemoOrders.id))
    .limit(limit);
}

/** Locks one order for the rest of the transaction; undefined when another worker holds it. */
export async function lockOrder(db: Db, id: string): Promise<Tmf641DemoOrderRow | undefined> {
  const [row] = await db
    .select()
    .from(tmf641DemoOrders)
    .where(eq(tmf641DemoOrders.id, id))
    .for('update', { skipLocked: true });
  return row;
}

export async function updateOrder(
  db: Db,
  id: string,
  order: Tmf641DemoOrderJson,
  nextAt: Date | null,
  at: Date,
): Promise<void> {
  await db
    .update(tmf641DemoOrders)
    .set({ state: order.state, order, nextAt, updatedAt: at })
    .where(eq(tmf641DemoOrders.id, id));
}

/** Inserts the registration unless the same callback and query are registered; then that one. */
export async function insertHub(
  db: Db,
  row: typeof tmf641DemoHubs.$inferInsert,
): Promise<Tmf641DemoHubRow> {
  const [inserted] = await db.insert(tmf641DemoHubs).values(row).onConflictDoNothing().returning();
  if (inserted) return inserted;
  const [existing] = await db
    .select()
    .from(tmf641DemoHubs)
    .where(
      and(eq(tmf641DemoHubs.callback, row.callback), eq(tmf641DemoHubs.query, row.query ?? '')),
    );
  if (!existing) throw new Error('tmf641 demo hub neither inserted nor found');
  return existing;
}

/** Deletes a registration (and its undelivered events); false when there was none. */
export async function deleteHub(db: Db, id: string): Promise<boolean> {
  const deleted = await db
    .delete(tmf641DemoHubs)
    .where(eq(tmf641DemoHubs.id, id))
    .returning({ id: tmf641DemoHubs.id });
  return deleted.length > 0;
}

export async function allHubs(db: Db): Promise<Tmf641DemoHubRow[]> {
  return db.select().from(tmf641DemoHubs).orderBy(asc(tmf641DemoHubs.createdAt));
}

export async function insertEvents(
  db: Db,
  rows: (typeof tmf641DemoEvents.$inferInsert)[],
): Promise<void> {
  if (rows.length > 0) await db.insert(tmf641DemoEvents).values(rows);
}

/**
 * Claims due events for delivery: their next attempt moves `leaseMs` ahead, so another worker
 * (another instance) leaves them alone meanwhile; if this one dies, they are due again when the
 * lease ends. Oldest first.
 */
export async function claimDueEvents(
  db: Db,
  at: Date,
  leaseMs: number,
  limit: number,
): Promise<Tmf641DemoEventRow[]> {
  const due = db
    .select({ id: tmf641DemoEvents.id })
    .from(tmf641DemoEvents)
    .where(and(isNull(tmf641DemoEvents.deliveredAt), lte(tmf641DemoEvents.nextAttemptAt, at)))
    .orderBy(asc(tmf641DemoEvents.nextAttemptAt), asc(tmf641DemoEvents.id))
    .limit(limit)
    .for('update', { skipLocked: true });
  const rows = await db
    .update(tmf641DemoEvents)
    .set({ nextAttemptAt: new Date(at.getTime() + leaseMs) })
    .where(inArray(tmf641DemoEvents.id, due))
    .returning();
  return rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

export async function markEventDelivered(db: Db, id: string, at: Date): Promise<void> {
  await db
    .update(tmf641DemoEvents)
    .set({ deliveredAt: at, attempts: sql`${tmf641DemoEvents.attempts} + 1`, lastError: null })
    .where(eq(tmf641DemoEvents.id, id));
}

/** A failed attempt: tried again at `nextAttemptAt`, or never (null: parked for good). */
export async function markEventFailed(
  db: Db,
  id: string,
  nextAttemptAt: Date | null,
  error: string,
): Promise<void> {
  await db
    .update(tmf641DemoEvents)
    .set({
      attempts: sql`${tmf641DemoEvents.attempts} + 1`,
      lastError: error.slice(0, 500),
      nextAttemptAt: nextAttemptAt ?? new Date('9999-12-31T00:00:00Z'),
    })
    .where(eq(tmf641DemoEvents.id, id));
}
