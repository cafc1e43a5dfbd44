import { and, asc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { lineEuAllowanceMb, linePlanJoin } from '../../db/line-facts';
import { accounts } from '../../db/schema/accounts';
import {
  lineBalances,
  usageDaily,
  usageRecords,
  type LineBalanceRow,
  type NewUsageRecordRow,
  type UsageRecordRow,
} from '../../db/schema/balances';
import { plans } from '../../db/schema/catalog';
import { phoneLines } from '../../db/schema/phone-lines';

/** A line usage can be booked on, with what its first balance of a month holds. */
export interface MeteredLine {
  lineId: string;
  msisdn: string;
  status: 'active' | 'processing' | 'cancelled';
  /** The plan's monthly data, null when the line has no plan yet. */
  dataMb: number | null;
  /** The EU allowance when the account has the EU package and the plan offers one. */
  euAllowanceMb: number | null;
}

/** Lines that are not cancelled with these numbers, with their plan's allowances. */
export async function findMeteredLines(db: Db, msisdns: readonly string[]): Promise<MeteredLine[]> {
  if (msisdns.length === 0) return [];
  return selectMetered(db).where(
    and(inArray(phoneLines.msisdn, [...msisdns]), ne(phoneLines.status, 'cancelled')),
  );
}

/** Every line in service (the demo simulator's targets). */
export async function findActiveMeteredLines(db: Db): Promise<MeteredLine[]> {
  // A number whose data the owner paused uses none (ADR 0068): the network bars it.
  return selectMetered(db)
    .where(and(eq(phoneLines.status, 'active'), isNull(phoneLines.dataPausedAt)))
    .orderBy(asc(phoneLines.msisdn));
}

function selectMetered(db: Db) {
  return db
    .select({
      lineId: phoneLines.id,
      msisdn: phoneLines.msisdn,
      status: phoneLines.status,
      dataMb: plans.dataMb,
      euAllowanceMb: lineEuAllowanceMb(),
    })
    .from(phoneLines)
    .leftJoin(accounts, eq(phoneLines.accountId, accounts.id))
    .leftJoin(plans, linePlanJoin())
    .$dynamic();
}

/**
 * Stores the records that are new and answers them as stored; a record id seen before is skipped
 * (`on conflict do nothing`). Inserted in id order, so concurrent batches that share records
 * wait for each other instead of deadlocking.
 */
export async function insertNewUsageRecords(
  db: Db,
  rows: NewUsageRecordRow[],
): Promise<UsageRecordRow[]> {
  if (rows.length === 0) return [];
  const sorted = [...rows].sort((a, b) =>
    a.recordId < b.recordId ? -1 : a.recordId > b.recordId ? 1 : 0,
  );
  return db
    .insert(usageRecords)
    .values(sorted)
    .onConflictDoNothing({ target: usageRecords.recordId })
    .returning();
}

/** The stored records of these ids (any order; ids never received are absent). */
export async function findUsageRecords(
  db: Db,
  recordIds: readonly string[],
): Promise<UsageRecordRow[]> {
  if (recordIds.length === 0) return [];
  return db
    .select()
    .from(usageRecords)
    .where(inArray(usageRecords.recordId, [...recordIds]));
}

export async function updateBalance(
  db: Db,
  lineId: string,
  values: Pick<
    LineBalanceRow,
    | 'domesticRemainingMb'
    | 'domesticUsedMb'
    | 'euUsedMb'
    | 'updatedAt'
    | 'roamingChargedOere'
    | 'roamingChargedMb'
    | 'roamingWrittenOffMb'
    | 'roamingStoppedAt'
  >,
): Promise<void> {
  await db.update(lineBalances).set(values).where(eq(lineBalances.lineId, lineId));
}

/**
 * The roaming caps set on these lines (ADR 0078). Read after their balances are locked: a cap
 * change locks the balance too, so the rating sees the cap as it stands.
 */
export async function findRoamingCaps(
  db: Db,
  lineIds: readonly string[],
): Promise<
  { lineId: string; msisdn: string; roamingCapOere: number | null; roamingCapOff: boolean }[]
> {
  if (lineIds.length === 0) return [];
  return db
    .select({
      lineId: phoneLines.id,
      msisdn: phoneLines.msisdn,
      roamingCapOere: phoneLines.roamingCapOere,
      roamingCapOff: phoneLines.roamingCapOff,
    })
    .from(phoneLines)
    .where(inArray(phoneLines.id, [...lineIds]));
}

/** Stores how records were rated against the roaming cap (only records with something to store). */
export async function setRecordCharges(
  db: Db,
  charges: readonly {
    recordId: string;
    chargedMb: number;
    chargeOere: number;
    writtenOffMb: number;
  }[],
): Promise<void> {
  for (const c of charges) {
    if (c.chargedMb === 0 && c.writtenOffMb === 0) continue;
    await db
      .update(usageRecords)
      .set({ chargedMb: c.chargedMb, chargeOere: c.chargeOere, writtenOffMb: c.writtenOffMb })
      .where(eq(usageRecords.recordId, c.recordId));
  }
}

/** Use to add to one line's day (ADR 0066). */
export interface DailyUse {
  lineId: string;
  /** Faroese calendar day, `yyyy-mm-dd`. */
  day: string;
  domesticMb: number;
  euMb: number;
  /** Roaming charges of the day's records, øre (ADR 0078). */
  roamingChargedOere: number;
}

/**
 * Adds use to the lines' daily aggregates, making a day's row on its first use. In key order, so
 * concurrent batches touching the same days wait for each other instead of deadlocking.
 */
export async function addDailyUse(db: Db, rows: readonly DailyUse[]): Promise<void> {
  if (rows.length === 0) return;
  const sorted = [...rows].sort((a, b) =>
    a.lineId === b.lineId ? (a.day < b.day ? -1 : 1) : a.lineId < b.lineId ? -1 : 1,
  );
  await db
    .insert(usageDaily)
    .values(sorted)
    .onConflictDoUpdate({
      target: [usageDaily.lineId, usageDaily.day],
      set: {
        domesticMb: sql`${usageDaily.domesticMb} + excluded.domestic_mb`,
        euMb: sql`${usageDaily.euMb} + excluded.eu_mb`,
        roamingChargedOere: sql`${usageDaily.roamingChargedOere} + excluded.roaming_charged_oere`,
      },
    });
}
