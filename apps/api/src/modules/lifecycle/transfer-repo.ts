import { and, asc, eq, inArray, ne, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { accounts, type AccountRow, type NewAccountRow } from '../../db/schema/accounts';
import { lineBalances, type LineBalanceRow } from '../../db/schema/balances';
import {
  lineHandovers,
  type LineHandoverRow,
  type NewLineHandoverRow,
} from '../../db/schema/lifecycle';
import { orders, type OrderRow } from '../../db/schema/orders';
import { phoneLines, type PhoneLineRow } from '../../db/schema/phone-lines';
import { users, type UserRow } from '../../db/schema/users';

/*
 * The rows transfers and hand-overs read and write (docs/decisions/0056-subscription-lifecycle.md
 * "Family members", "Hand a number to another person"). Locks are taken account first, then
 * lines, as every lifecycle change does.
 */

/** Locks these accounts (id order) for the rest of the transaction. */
export async function lockAccounts(db: Db, ids: readonly string[]): Promise<AccountRow[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  return db
    .select()
    .from(accounts)
    .where(inArray(accounts.id, unique))
    .orderBy(asc(accounts.id))
    .for('update');
}

/** Locks one account for the rest of the transaction. */
export async function lockAccount(db: Db, id: string): Promise<AccountRow | undefined> {
  const [row] = await lockAccounts(db, [id]);
  return row;
}

/** Locks a line (any status) for the rest of the transaction. */
export async function lockLine(db: Db, id: string): Promise<PhoneLineRow | undefined> {
  const [row] = await db.select().from(phoneLines).where(eq(phoneLines.id, id)).for('update');
  return row;
}

export async function findLine(db: Db, id: string): Promise<PhoneLineRow | undefined> {
  const [row] = await db.select().from(phoneLines).where(eq(phoneLines.id, id));
  return row;
}

export async function findAccount(db: Db, id: string): Promise<AccountRow | undefined> {
  const [row] = await db.select().from(accounts).where(eq(accounts.id, id));
  return row;
}

/** Lines of an account that are not cancelled (active or being set up), oldest first. */
export async function findLiveLinesOfAccount(db: Db, accountId: string): Promise<PhoneLineRow[]> {
  return db
    .select()
    .from(phoneLines)
    .where(and(eq(phoneLines.accountId, accountId), ne(phoneLines.status, 'cancelled')))
    .orderBy(asc(phoneLines.createdAt), asc(phoneLines.id));
}

/** The owner's family account that is not cancelled (active or being set up), if any. */
export async function findLiveFamilyAccountOf(
  db: Db,
  ownerUserId: string,
): Promise<AccountRow | undefined> {
  const [row] = await db
    .select()
    .from(accounts)
    .where(
      and(
        eq(accounts.ownerUserId, ownerUserId),
        eq(accounts.type, 'family_plan'),
        ne(accounts.status, 'cancelled'),
      ),
    );
  return row;
}

export async function insertAccount(db: Db, row: NewAccountRow): Promise<AccountRow> {
  const [inserted] = await db.insert(accounts).values(row).returning();
  if (!inserted) throw new Error('account insert returned nothing');
  return inserted;
}

export async function updateAccount(
  db: Db,
  id: string,
  patch: Partial<Omit<AccountRow, 'id'>>,
): Promise<void> {
  await db.update(accounts).set(patch).where(eq(accounts.id, id));
}

export async function updateLine(
  db: Db,
  id: string,
  patch: Partial<Omit<PhoneLineRow, 'id'>>,
): Promise<void> {
  await db.update(phoneLines).set(patch).where(eq(phoneLines.id, id));
}

/** Open orders (neither complete nor cancelled) on these accounts or lines, oldest first. */
export async function findOpenOrders(
  db: Db,
  where: { accountIds?: readonly string[]; lineIds?: readonly string[] },
): Promise<OrderRow[]> {
  const accountIds = [...new Set(where.accountIds ?? [])];
  const lineIds = [...new Set(where.lineIds ?? [])];
  const scopes = [
    ...(accountIds.length > 0 ? [inArray(orders.accountId, accountIds)] : []),
    ...(accountIds.length > 0 ? [inArray(orders.targetAccountId, accountIds)] : []),
    ...(lineIds.length > 0 ? [inArray(orders.lineId, lineIds)] : []),
  ];
  if (scopes.length === 0) return [];
  return db
    .select()
    .from(orders)
    .where(and(or(...scopes), eq(orders.isComplete, false), eq(orders.isCancelled, false)))
    .orderBy(asc(orders.createdAt), asc(orders.id));
}

/** Locks the balance row of a line, if it has one. */
export async function lockBalance(db: Db, lineId: string): Promise<LineBalanceRow | undefined> {
  const [row] = await db
    .select()
    .from(lineBalances)
    .where(eq(lineBalances.lineId, lineId))
    .for('update');
  return row;
}

export async function updateBalance(
  db: Db,
  lineId: string,
  patch: Partial<Omit<LineBalanceRow, 'lineId'>>,
): Promise<void> {
  await db.update(lineBalances).set(patch).where(eq(lineBalances.lineId, lineId));
}

/* Users. */

export async function findUsersByIds(db: Db, ids: readonly string[]): Promise<UserRow[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  return db.select().from(users).where(inArray(users.id, unique));
}

/* Hand-overs. */

export async function insertHandover(db: Db, row: NewLineHandoverRow): Promise<LineHandoverRow> {
  const [inserted] = await db.insert(lineHandovers).values(row).returning();
  if (!inserted) throw new Error('hand-over insert returned nothing');
  return inserted;
}

export async function findHandover(db: Db, id: string): Promise<LineHandoverRow | undefined> {
  const [row] = await db.select().from(lineHandovers).where(eq(lineHandovers.id, id));
  return row;
}

export async function lockHandover(db: Db, id: string): Promise<LineHandoverRow | undefined> {
  const [row] = await db.select().from(lineHandovers).where(eq(lineHandovers.id, id)).for('update');
  return row;
}

/** The pending hand-over of a line, if any. */
export async function findPendingHandoverOfLine(
  db: Db,
  lineId: string,
): Promise<LineHandoverRow | undefined> {
  const [row] = await db
    .select()
    .from(lineHandovers)
    .where(and(eq(lineHandovers.lineId, lineId), eq(lineHandovers.status, 'pending')));
  return row;
}

/** Pending hand-overs to or from the user, oldest first. */
export async function findPendingHandoversOf(db: Db, userId: string): Promise<LineHandoverRow[]> {
  return db
    .select()
    .from(lineHandovers)
    .where(
      and(
        eq(lineHandovers.status, 'pending'),
        or(eq(lineHandovers.toUserId, userId), eq(lineHandovers.fromUserId, userId)),
      ),
    )
    .orderBy(asc(lineHandovers.createdAt), asc(lineHandovers.id));
}

export async function decideHandover(
  db: Db,
  id: string,
  patch: Pick<LineHandoverRow, 'status' | 'decidedAt'> & { orderId?: string | null },
): Promise<LineHandoverRow> {
  const [row] = await db
    .update(lineHandovers)
    .set(patch)
    .where(eq(lineHandovers.id, id))
    .returning();
  if (!row) throw new Error(`hand-over ${id} vanished`);
  return row;
}
