import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { accounts, type AccountRow } from '../../db/schema/accounts';
import {
  givenDataCounters,
  lineBalances,
  prepaidBalances,
  type GivenDataCounterRow,
  type LineBalanceRow,
  type PrepaidBalanceRow,
} from '../../db/schema/balances';
import { phoneLines, type PhoneLineRow } from '../../db/schema/phone-lines';
import { users } from '../../db/schema/users';

/** The person behind a line or account, as far as subscriptions need them. */
export interface PersonRow {
  id: string;
  firstname: string;
  lastname: string;
  showInPhoneBook: boolean;
}

/**
 * Accounts a customer takes part in and that are not cancelled: those they own and those on
 * which they use a line that is not cancelled.
 */
export async function findAccountIdsOfUser(db: Db, userId: string): Promise<string[]> {
  const [owned, used] = await Promise.all([
    db
      .select({ id: accounts.id })
      .from(accounts)
      .where(and(eq(accounts.ownerUserId, userId), ne(accounts.status, 'cancelled'))),
    db
      .select({ id: accounts.id })
      .from(phoneLines)
      .innerJoin(accounts, eq(phoneLines.accountId, accounts.id))
      .where(
        and(
          eq(phoneLines.userId, userId),
          ne(phoneLines.status, 'cancelled'),
          ne(accounts.status, 'cancelled'),
        ),
      ),
  ]);
  return [...new Set([...owned, ...used].map((r) => r.id))];
}

export async function findAccountsByIds(db: Db, ids: readonly string[]): Promise<AccountRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(accounts)
    .where(inArray(accounts.id, [...ids]))
    .orderBy(asc(accounts.createdAt), asc(accounts.id));
}

/** A line that is not cancelled, by id. */
export async function findLiveLineById(db: Db, id: string): Promise<PhoneLineRow | undefined> {
  const [row] = await db
    .select()
    .from(phoneLines)
    .where(and(eq(phoneLines.id, id), ne(phoneLines.status, 'cancelled')));
  return row;
}

export async function findPeople(db: Db, ids: readonly string[]): Promise<PersonRow[]> {
  if (ids.length === 0) return [];
  return db
    .select({
      id: users.id,
      firstname: users.firstname,
      lastname: users.lastname,
      showInPhoneBook: users.showInPhoneBook,
    })
    .from(users)
    .where(inArray(users.id, [...ids]));
}

export async function findBalances(db: Db, lineIds: readonly string[]): Promise<LineBalanceRow[]> {
  if (lineIds.length === 0) return [];
  return db
    .select()
    .from(lineBalances)
    .where(inArray(lineBalances.lineId, [...lineIds]));
}

/** Given-data counters of these lines for one Faroese month (`yyyy-mm`). */
export async function findGivenData(
  db: Db,
  lineIds: readonly string[],
  month: string,
): Promise<GivenDataCounterRow[]> {
  if (lineIds.length === 0) return [];
  return db
    .select()
    .from(givenDataCounters)
    .where(
      and(inArray(givenDataCounters.lineId, [...lineIds]), eq(givenDataCounters.month, month)),
    );
}

export async function findPrepaidBalances(
  db: Db,
  lineIds: readonly string[],
): Promise<PrepaidBalanceRow[]> {
  if (lineIds.length === 0) return [];
  return db
    .select()
    .from(prepaidBalances)
    .where(inArray(prepaidBalances.lineId, [...lineIds]));
}

/** The account, locked for the rest of the transaction (the EU toggle takes it first). */
export async function lockAccount(db: Db, id: string): Promise<AccountRow | undefined> {
  const [row] = await db.select().from(accounts).where(eq(accounts.id, id)).for('update');
  return row;
}

export async function setAccountEuPackage(db: Db, id: string, on: boolean): Promise<void> {
  await db.update(accounts).set({ euPackage: on }).where(eq(accounts.id, id));
}

/**
 * Sets the EU allowance of the month on locked balances: the plan's EU data when switched on
 * (never below what was already used abroad, which the balance check requires), null when off.
 */
export async function setEuAllowance(
  db: Db,
  lineIds: readonly string[],
  allowanceMb: number | null,
  at: Date,
): Promise<void> {
  if (lineIds.length === 0) return;
  await db
    .update(lineBalances)
    .set({
      euAllowanceMb:
        allowanceMb === null
          ? null
          : sql`greatest(${allowanceMb}::integer, ${lineBalances.euUsedMb})`,
      updatedAt: at,
    })
    .where(inArray(lineBalances.lineId, [...lineIds]));
}
