import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { accounts } from '../../db/schema/accounts';
import { actions, type NewActionRow } from '../../db/schema/actions';
import {
  givenDataCounters,
  lineBalances,
  type GivenDataCounterRow,
} from '../../db/schema/balances';
import { plans } from '../../db/schema/catalog';
import { dataTransfers, type DataTransferRow } from '../../db/schema/data-transfers';
import { phoneLines } from '../../db/schema/phone-lines';
import { users } from '../../db/schema/users';

/** A line as data transfers need it: who it belongs to and what its plan allows. */
export interface TransferLine {
  lineId: string;
  msisdn: string;
  status: 'active' | 'processing' | 'cancelled';
  isPrepaid: boolean;
  /** The line's user, or the account owner for a line without a user of its own. */
  customerId: string | null;
  firstname: string | null;
  lastname: string | null;
  showInPhoneBook: boolean | null;
  /** The plan's monthly data (first balance of a month), null without a plan. */
  dataMb: number | null;
  euAllowanceMb: number | null;
  /** The plan's monthly give allowance (SPEC §3 givenData.max). */
  giftMaxMb: number | null;
}

function selectLines(db: Db) {
  return db
    .select({
      lineId: phoneLines.id,
      msisdn: phoneLines.msisdn,
      status: phoneLines.status,
      isPrepaid: sql<boolean>`(${phoneLines.isPrepaid} or coalesce(${accounts.type} = 'prepaid', false))`,
      customerId: sql<string | null>`coalesce(${phoneLines.userId}, ${accounts.ownerUserId})`,
      firstname: users.firstname,
      lastname: users.lastname,
      showInPhoneBook: users.showInPhoneBook,
      dataMb: plans.dataMb,
      euAllowanceMb: sql<
        number | null
      >`case when ${accounts.euPackage} then ${plans.euPackageDataMb} else null end`,
      giftMaxMb: plans.giftMaxMb,
    })
    .from(phoneLines)
    .leftJoin(accounts, eq(phoneLines.accountId, accounts.id))
    .leftJoin(plans, eq(plans.id, sql`coalesce(${phoneLines.planId}, ${accounts.planId})`))
    .leftJoin(users, eq(users.id, sql`coalesce(${phoneLines.userId}, ${accounts.ownerUserId})`))
    .$dynamic();
}

/** The line that is not cancelled with this number. */
export async function findLineByMsisdn(db: Db, msisdn: string): Promise<TransferLine | undefined> {
  const [row] = await selectLines(db).where(
    and(eq(phoneLines.msisdn, msisdn), ne(phoneLines.status, 'cancelled')),
  );
  return row;
}

export async function findLinesByIds(db: Db, ids: readonly string[]): Promise<TransferLine[]> {
  if (ids.length === 0) return [];
  return selectLines(db).where(inArray(phoneLines.id, [...new Set(ids)]));
}

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

export async function insertActions(db: Db, rows: NewActionRow[]): Promise<void> {
  if (rows.length > 0) await db.insert(actions).values(rows);
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
