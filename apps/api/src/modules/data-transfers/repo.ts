import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  givenDataCounters,
  lineBalances,
  type GivenDataCounterRow,
} from '../../db/schema/balances';
import { dataTransfers, type DataTransferRow } from '../../db/schema/data-transfers';

export async function insertTransfer(
  db: Db,
  row: typeof dataTransfers.$inferInsert,
): Promise<DataTransferRow> {
  const [inserted] = await db.insert(dataTransfers).values(row).returning();
  if (!inserted) throw new Error('data transfer insert returned nothing');
  return inserted;
}

export async function findTransfer(db: Db, id: string): Promise<DataTransferRow | undefined> {
  const [row] = await db.select().from(dataTransfers).where(eq(dataTransfers.id, id));
  return row;
}

/** The transfer, locked for the rest of the transaction (approve and decline take it first). */
export async function lockTransfer(db: Db, id: string): Promise<DataTransferRow | undefined> {
  const [row] = await db.select().from(dataTransfers).where(eq(dataTransfers.id, id)).for('update');
  return row;
}

export async function decideTransfer(
  db: Db,
  id: string,
  status: 'approved' | 'declined',
  at: Date,
): Promise<DataTransferRow> {
  const [row] = await db
    .update(dataTransfers)
    .set({ status, decidedAt: at })
    .where(eq(dataTransfers.id, id))
    .returning();
  if (!row) throw new Error('data transfer vanished while locked');
  return row;
}

/** Pending requests addressed to the customer, oldest first (partial index). */
export async function findPendingRequestsFor(db: Db, userId: string): Promise<DataTransferRow[]> {
  return db
    .select()
    .from(dataTransfers)
    .where(
      and(
        eq(dataTransfers.recipientUserId, userId),
        eq(dataTransfers.status, 'pending'),
        eq(dataTransfers.kind, 'request'),
      ),
    )
    .orderBy(asc(dataTransfers.createdAt), asc(dataTransfers.id));
}

/**
 * Creates this month's give counter of the line if it has none (max copied from the plan) and
 * locks it (`select … for update`).
 */
export async function lockGivenCounter(
  db: Db,
  lineId: string,
  month: string,
  maxMb: number,
  at: Date,
): Promise<GivenDataCounterRow> {
  await db
    .insert(givenDataCounters)
    .values({ lineId, month, givenMb: 0, maxMb, updatedAt: at })
    .onConflictDoNothing();
  const [row] = await db
    .select()
    .from(givenDataCounters)
    .where(and(eq(givenDataCounters.lineId, lineId), eq(givenDataCounters.month, month)))
    .for('update');
  if (!row) throw new Error('given-data counter missing after insert');
  return row;
}

export async function addGiven(
  db: Db,
  lineId: string,
  month: string,
  mb: number,
  at: Date,
): Promise<void> {
  await db
    .update(givenDataCounters)
    .set({ givenMb: sql`${givenDataCounters.givenMb} + ${mb}`, updatedAt: at })
    .where(and(eq(givenDataCounters.lineId, lineId), eq(givenDataCounters.month, month)));
}

/** Moves `mb` of domestic data between two locked balances (remaining and total move together). */
export async function shiftDomestic(db: Db, lineId: string, deltaMb: number, at: Date) {
  await db
    .update(lineBalances)
    .set({
      domesticRemainingMb: sql`${lineBalances.domesticRemainingMb} + ${deltaMb}`,
      domesticTotalMb: sql`${lineBalances.domesticTotalMb} + ${deltaMb}`,
      updatedAt: at,
    })
    .where(eq(lineBalances.lineId, lineId));
}

/** The caller's transfer made with this Idempotency-Key, if any. */
export async function findByIdempotencyKey(
  db: Db,
  userId: string,
  key: string,
): Promise<DataTransferRow | undefined> {
  const [row] = await db
    .select()
    .from(dataTransfers)
    .where(and(eq(dataTransfers.requesterUserId, userId), eq(dataTransfers.idempotencyKey, key)));
  return row;
}
