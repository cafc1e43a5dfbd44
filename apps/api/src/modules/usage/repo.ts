import { and, asc, eq, inArray, isNull, ne, sql, type SQL } from 'drizzle-orm';
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

/**
 * Lines that are not cancelled with these numbers, with their plan's allowances. Their accounts'
 * ids are read first and named in the join, so the accounts are read by id (an index) for a
 * batch of any size, not scanned whole for a hash join (ADR 0093).
 */
export async function findMeteredLines(db: Db, msisdns: readonly string[]): Promise<MeteredLine[]> {
  if (msisdns.length === 0) return [];
  const live = and(inArray(phoneLines.msisdn, [...msisdns]), ne(phoneLines.status, 'cancelled'));
  const accountIds = (
    await db.selectDistinct({ id: phoneLines.accountId }).from(phoneLines).where(live)
  ).flatMap((r) => (r.id ? [r.id] : []));
  return selectMetered(
    db,
    accountIds.length > 0 ? inArray(accounts.id, accountIds) : sql`false`,
  ).where(live);
}

/** Every line in service (the demo simulator's targets). */
export async function findActiveMeteredLines(db: Db): Promise<MeteredLine[]> {
  // A number whose data the owner paused uses none (ADR 0068): the network bars it.
  return selectMetered(db)
    .where(and(eq(phoneLines.status, 'active'), isNull(phoneLines.dataPausedAt)))
    .orderBy(asc(phoneLines.msisdn));
}

/** Lines with their allowances; `accountsRead` narrows the accounts joined (ADR 0093). */
function selectMetered(db: Db, accountsRead?: SQL) {
  return db
    .select({
      lineId: phoneLines.id,
      msisdn: phoneLines.msisdn,
      status: phoneLines.status,
      dataMb: plans.dataMb,
      euAllowanceMb: lineEuAllowanceMb(),
    })
    .from(phoneLines)
    .leftJoin(accounts, and(eq(phoneLines.accountId, accounts.id), accountsRead))
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

/** A balance's figures after a batch's use, as `updateBalances` writes them. */
export type BalanceUpdate = Pick<
  LineBalanceRow,
  | 'lineId'
  | 'domesticRemainingMb'
  | 'domesticUsedMb'
  | 'euUsedMb'
  | 'updatedAt'
  | 'roamingChargedOere'
  | 'roamingChargedMb'
  | 'roamingWrittenOffMb'
  | 'roamingStoppedAt'
>;

/**
 * Writes the balances of a batch's lines in one statement (ADR 0093): the rows travel as one
 * JSON parameter, so a batch of a thousand lines is one round trip, not a thousand.
 */
export async function updateBalances(db: Db, rows: readonly BalanceUpdate[]): Promise<void> {
  if (rows.length === 0) return;
  const values = JSON.stringify(
    rows.map((r) => ({
      line_id: r.lineId,
      domestic_remaining_mb: r.domesticRemainingMb,
      domestic_used_mb: r.domesticUsedMb,
      eu_used_mb: r.euUsedMb,
      roaming_charged_oere: r.roamingChargedOere,
      roaming_charged_mb: r.roamingChargedMb,
      roaming_written_off_mb: r.roamingWrittenOffMb,
      roaming_stopped_at: r.roamingStoppedAt?.toISOString() ?? null,
      updated_at: r.updatedAt.toISOString(),
    })),
  );
  await db.execute(sql`
    update ${lineBalances} as b set
      domestic_remaining_mb = v.domestic_remaining_mb,
      domestic_used_mb = v.domestic_used_mb,
      eu_used_mb = v.eu_used_mb,
      roaming_charged_oere = v.roaming_charged_oere,
      roaming_charged_mb = v.roaming_charged_mb,
      roaming_written_off_mb = v.roaming_written_off_mb,
      roaming_stopped_at = v.roaming_stopped_at,
      updated_at = v.updated_at
    from jsonb_to_recordset(${values}::jsonb) as v(
      line_id uuid, domestic_remaining_mb integer, domestic_used_mb integer, eu_used_mb integer,
      roaming_charged_oere integer, roaming_charged_mb integer, roaming_written_off_mb integer,
      roaming_stopped_at timestamptz, updated_at timestamptz)
    where b.line_id = v.line_id`);
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

/**
 * Stores how records were rated against the roaming cap (only records with something to store),
 * in one statement for the batch (ADR 0093).
 */
export async function setRecordCharges(
  db: Db,
  charges: readonly {
    recordId: string;
    chargedMb: number;
    chargeOere: number;
    writtenOffMb: number;
  }[],
): Promise<void> {
  const rows = charges.filter((c) => c.chargedMb !== 0 || c.writtenOffMb !== 0);
  if (rows.length === 0) return;
  const values = JSON.stringify(
    rows.map((c) => ({
      record_id: c.recordId,
      charged_mb: c.chargedMb,
      charge_oere: c.chargeOere,
      written_off_mb: c.writtenOffMb,
    })),
  );
  await db.execute(sql`
    update ${usageRecords} as u set
      charged_mb = v.charged_mb, charge_oere = v.charge_oere, written_off_mb = v.written_off_mb
    from jsonb_to_recordset(${values}::jsonb) as v(
      record_id text, charged_mb integer, charge_oere integer, written_off_mb integer)
    where u.record_id = v.record_id`);
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
