import { and, asc, eq, inArray, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { accounts, type AccountRow } from '../../db/schema/accounts';
import { lineBalances, type LineBalanceRow } from '../../db/schema/balances';
import {
  lineHandovers,
  type LineHandoverRow,
  type NewLineHandoverRow,
} from '../../db/schema/lifecycle';
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
