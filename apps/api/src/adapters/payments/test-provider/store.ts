import { and, asc, eq, inArray, isNotNull, isNull, lt, lte, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { rowsOf } from '../../../db/rows';
import {
  testProviderCards,
  testProviderPayments,
  testProviderWebhooks,
} from '../../../db/schema/test-provider';

/**
 * The test provider's own store (its tables only; the API's tables are never touched here, as
 * a real provider could not touch them either).
 */
export type TestProviderPaymentRow = typeof testProviderPayments.$inferSelect;
export type TestProviderCardRow = typeof testProviderCards.$inferSelect;
export type TestProviderWebhookRow = typeof testProviderWebhooks.$inferSelect;

export async function insertProviderPayment(
  db: Db,
  row: typeof testProviderPayments.$inferInsert,
): Promise<TestProviderPaymentRow> {
  const [inserted] = await db.insert(testProviderPayments).values(row).returning();
  if (!inserted) throw new Error('test provider payment not inserted');
  return inserted;
}

export async function findProviderPayment(
  db: Db,
  id: string,
): Promise<TestProviderPaymentRow | undefined> {
  const [row] = await db.select().from(testProviderPayments).where(eq(testProviderPayments.id, id));
  return row;
}

/** Locks one payment (the card form's POST and settlement change it). */
export async function lockProviderPayment(
  db: Db,
  id: string,
): Promise<TestProviderPaymentRow | undefined> {
  const [row] = await db
    .select()
    .from(testProviderPayments)
    .where(eq(testProviderPayments.id, id))
    .for('update');
  return row;
}

export async function updateProviderPayment(
  db: Db,
  id: string,
  values: Partial<typeof testProviderPayments.$inferInsert>,
): Promise<TestProviderPaymentRow> {
  const [row] = await db
    .update(testProviderPayments)
    .set(values)
    .where(eq(testProviderPayments.id, id))
    .returning();
  if (!row) throw new Error(`test provider payment ${id} vanished`);
  return row;
}

/** Processing payments whose settle time has come, locked (skipping ones another worker has). */
export async function lockDueSettlements(
  db: Db,
  now: Date,
  limit: number,
): Promise<TestProviderPaymentRow[]> {
  return db
    .select()
    .from(testProviderPayments)
    .where(
      and(
        isNotNull(testProviderPayments.settleAt),
        lte(testProviderPayments.settleAt, now),
        eq(testProviderPayments.state, 'processing'),
      ),
    )
    .orderBy(asc(testProviderPayments.settleAt))
    .limit(limit)
    .for('update', { skipLocked: true });
}

/**
 * Whether the worker has anything to do: a processing payment whose settle time has come, a
 * checkout left unsubmitted since before `staleBefore`, or a webhook due — the conditions of
 * `lockDueSettlements`, `lockStaleCheckouts` and `claimDueWebhooks`, asked in one statement on
 * their partial indexes, without a transaction or a lock.
 */
export async function anythingDue(db: Db, now: Date, staleBefore: Date): Promise<boolean> {
  const p = testProviderPayments;
  const w = testProviderWebhooks;
  const one = { one: sql`1` };
  const settling = db
    .select(one)
    .from(p)
    .where(and(isNotNull(p.settleAt), lte(p.settleAt, now), eq(p.state, 'processing')));
  const stale = db
    .select(one)
    .from(p)
    .where(
      and(
        eq(p.state, 'created'),
        lt(p.createdAt, staleBefore),
        inArray(p.kind, ['checkout', 'card_setup']),
      ),
    );
  const webhooks = db
    .select(one)
    .from(w)
    .where(and(isNull(w.deliveredAt), lte(w.nextAttemptAt, now)));
  const [row] = rowsOf(
    await db.execute(
      sql`select (exists (${settling}) or exists (${stale}) or exists (${webhooks})) as due`,
    ),
  );
  return row?.due === true;
}

/** Unsubmitted checkouts created before `before`, locked. */
export async function lockStaleCheckouts(
  db: Db,
  before: Date,
  limit: number,
): Promise<TestProviderPaymentRow[]> {
  return db
    .select()
    .from(testProviderPayments)
    .where(
      and(
        eq(testProviderPayments.state, 'created'),
        lt(testProviderPayments.createdAt, before),
        inArray(testProviderPayments.kind, ['checkout', 'card_setup']),
      ),
    )
    .limit(limit)
    .for('update', { skipLocked: true });
}

export async function insertCard(
  db: Db,
  row: typeof testProviderCards.$inferInsert,
): Promise<TestProviderCardRow> {
  const [inserted] = await db.insert(testProviderCards).values(row).returning();
  if (!inserted) throw new Error('test provider card not inserted');
  return inserted;
}

export async function findCard(db: Db, id: string): Promise<TestProviderCardRow | undefined> {
  const [row] = await db.select().from(testProviderCards).where(eq(testProviderCards.id, id));
  return row;
}

/**
 * Ends the agreement on a card: `stopped_at` is set once (a second stop keeps the first time).
 * Answers false when there is no such card.
 */
export async function stopCard(db: Db, id: string, at: Date): Promise<boolean> {
  const [row] = await db
    .update(testProviderCards)
    .set({
      stoppedAt: sql`coalesce(${testProviderCards.stoppedAt}, ${at.toISOString()}::timestamptz)`,
    })
    .where(eq(testProviderCards.id, id))
    .returning({ id: testProviderCards.id });
  return row !== undefined;
}

export async function insertWebhooks(
  db: Db,
  rows: (typeof testProviderWebhooks.$inferInsert)[],
): Promise<void> {
  if (rows.length > 0) await db.insert(testProviderWebhooks).values(rows);
}

/**
 * Claims due webhooks for delivery: their next attempt moves `leaseMs` ahead, so another worker
 * (another instance) skips them while this one delivers; if this one dies mid-way, they become
 * due again when the lease runs out. Oldest first.
 */
export async function claimDueWebhooks(
  db: Db,
  now: Date,
  leaseMs: number,
  limit: number,
): Promise<TestProviderWebhookRow[]> {
  const due = db
    .select({ id: testProviderWebhooks.id })
    .from(testProviderWebhooks)
    .where(
      and(isNull(testProviderWebhooks.deliveredAt), lte(testProviderWebhooks.nextAttemptAt, now)),
    )
    .orderBy(asc(testProviderWebhooks.nextAttemptAt), asc(testProviderWebhooks.id))
    .limit(limit)
    .for('update', { skipLocked: true });
  const rows = await db
    .update(testProviderWebhooks)
    .set({ nextAttemptAt: new Date(now.getTime() + leaseMs) })
    .where(inArray(testProviderWebhooks.id, due))
    .returning();
  return rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

export async function markWebhookDelivered(db: Db, id: string, at: Date): Promise<void> {
  await db
    .update(testProviderWebhooks)
    .set({ deliveredAt: at, attempts: sql`${testProviderWebhooks.attempts} + 1`, lastError: null })
    .where(eq(testProviderWebhooks.id, id));
}

export async function markWebhookFailed(
  db: Db,
  id: string,
  nextAttemptAt: Date | null,
  error: string,
): Promise<void> {
  await db
    .update(testProviderWebhooks)
    .set({
      attempts: sql`${testProviderWebhooks.attempts} + 1`,
      lastError: error.slice(0, 500),
      // No next attempt: parked far in the future (given up; reconciliation covers it).
      nextAttemptAt: nextAttemptAt ?? new Date('9999-12-31T00:00:00Z'),
    })
    .where(eq(testProviderWebhooks.id, id));
}
