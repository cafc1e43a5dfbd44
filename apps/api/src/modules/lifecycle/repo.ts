import { and, asc, eq, inArray, isNotNull, lte, ne, notInArray, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { accounts, type AccountRow, type NewAccountRow } from '../../db/schema/accounts';
import { lineBalances, prepaidBalances, type LineBalanceRow } from '../../db/schema/balances';
import { planTypes, plans } from '../../db/schema/catalog';
import { orders, type NewOrderRow, type OrderRow } from '../../db/schema/orders';
import { phoneLines, type PhoneLineRow } from '../../db/schema/phone-lines';
import { provisioningSteps, type NewProvisioningStepRow } from '../../db/schema/provisioning';
import { users } from '../../db/schema/users';

/* The lifecycle's own reads and writes (ADR 0056). */

export async function insertLifecycleOrder(db: Db, row: NewOrderRow): Promise<OrderRow> {
  const [inserted] = await db.insert(orders).values(row).returning();
  if (!inserted) throw new Error('order insert returned nothing');
  return inserted;
}

export async function insertLifecycleStep(db: Db, row: NewProvisioningStepRow): Promise<void> {
  await db.insert(provisioningSteps).values(row);
}

/** The step rows of an order, oldest first. */
export async function stepsOf(db: Db, orderId: string) {
  return db
    .select()
    .from(provisioningSteps)
    .where(eq(provisioningSteps.orderId, orderId))
    .orderBy(asc(provisioningSteps.at), asc(provisioningSteps.id));
}

export async function lockAccount(db: Db, id: string): Promise<AccountRow | undefined> {
  const [row] = await db.select().from(accounts).where(eq(accounts.id, id)).for('update');
  return row;
}

export async function findAccountById(db: Db, id: string): Promise<AccountRow | undefined> {
  const [row] = await db.select().from(accounts).where(eq(accounts.id, id));
  return row;
}

/** The account's lines (every status), locked, in id order. */
export async function lockLinesOfAccount(db: Db, accountId: string): Promise<PhoneLineRow[]> {
  return db
    .select()
    .from(phoneLines)
    .where(eq(phoneLines.accountId, accountId))
    .orderBy(asc(phoneLines.id))
    .for('update');
}

export async function findLineById(db: Db, id: string): Promise<PhoneLineRow | undefined> {
  const [row] = await db.select().from(phoneLines).where(eq(phoneLines.id, id));
  return row;
}

export async function lockLine(db: Db, id: string): Promise<PhoneLineRow | undefined> {
  const [row] = await db.select().from(phoneLines).where(eq(phoneLines.id, id)).for('update');
  return row;
}

export async function updateLineRow(
  db: Db,
  id: string,
  patch: Partial<Omit<PhoneLineRow, 'id'>>,
): Promise<void> {
  await db.update(phoneLines).set(patch).where(eq(phoneLines.id, id));
}

export async function updateAccountRow(
  db: Db,
  id: string,
  patch: Partial<Omit<AccountRow, 'id'>>,
): Promise<void> {
  await db.update(accounts).set(patch).where(eq(accounts.id, id));
}

export async function insertAccountRow(db: Db, row: NewAccountRow): Promise<AccountRow> {
  const [inserted] = await db.insert(accounts).values(row).returning();
  if (!inserted) throw new Error('account insert returned nothing');
  return inserted;
}

/** A prepaid account of the user that is not cancelled, if any (the oldest). */
export async function findPrepaidAccountOf(
  db: Db,
  userId: string,
): Promise<AccountRow | undefined> {
  const [row] = await db
    .select()
    .from(accounts)
    .where(
      and(
        eq(accounts.ownerUserId, userId),
        eq(accounts.type, 'prepaid'),
        ne(accounts.status, 'cancelled'),
      ),
    )
    .orderBy(asc(accounts.createdAt), asc(accounts.id))
    .limit(1);
  return row;
}

/** Open lifecycle orders of these lines or accounts (the member's pending change). */
export async function findOpenLifecycleOrders(
  db: Db,
  accountIds: readonly string[],
): Promise<OrderRow[]> {
  if (accountIds.length === 0) return [];
  return db
    .select()
    .from(orders)
    .where(
      and(
        inArray(orders.accountId, [...accountIds]),
        isNotNull(orders.lifecycleAction),
        eq(orders.isComplete, false),
        eq(orders.isCancelled, false),
      ),
    )
    .orderBy(asc(orders.createdAt), asc(orders.id));
}

/** A lifecycle order due at a month end (`effective_at <= now`, waiting `month_end`), not done. */
const dueAtMonthEnd = (now: Date) =>
  and(
    isNotNull(orders.lifecycleAction),
    eq(orders.provisioningWaitingFor, 'month_end'),
    lte(orders.effectiveAt, now),
    eq(orders.isComplete, false),
    eq(orders.isCancelled, false),
  );

/**
 * Claims one lifecycle order due at a month end (`effective_at <= now`, waiting `month_end`) and
 * locks it; orders another instance holds are skipped.
 */
export async function claimDueMonthEndOrder(
  db: Db,
  now: Date,
  skip: readonly string[] = [],
): Promise<OrderRow | undefined> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(dueAtMonthEnd(now), skip.length > 0 ? notInArray(orders.id, [...skip]) : undefined))
    .orderBy(asc(orders.effectiveAt), asc(orders.createdAt), asc(orders.id))
    .limit(1)
    .for('update', { skipLocked: true });
  return row;
}

/**
 * Whether a lifecycle order due at a month end is still to be carried out (or is being carried
 * out by another instance) for a customer: placed by them, or on an account they own.
 */
export async function hasDueMonthEndOrderOf(db: Db, userId: string, now: Date): Promise<boolean> {
  const owned = db
    .select({ id: accounts.id })
    .from(accounts)
    .where(eq(accounts.ownerUserId, userId));
  const [row] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(dueAtMonthEnd(now), or(eq(orders.userId, userId), inArray(orders.accountId, owned))))
    .limit(1);
  return row !== undefined;
}

export async function findOrderById(db: Db, id: string): Promise<OrderRow | undefined> {
  const [row] = await db.select().from(orders).where(eq(orders.id, id));
  return row;
}

export async function lockOrder(db: Db, id: string): Promise<OrderRow | undefined> {
  const [row] = await db.select().from(orders).where(eq(orders.id, id)).for('update');
  return row;
}

export async function setOrderWaiting(
  db: Db,
  id: string,
  patch: Partial<Pick<OrderRow, 'provisioningWaitingFor' | 'provisioningNextAt'>>,
): Promise<void> {
  await db.update(orders).set(patch).where(eq(orders.id, id));
}

export async function cancelOrderRow(db: Db, id: string, at: Date): Promise<void> {
  await db
    .update(orders)
    .set({
      isCancelled: true,
      cancelledAt: at,
      provisioningWaitingFor: 'none',
      provisioningNextAt: null,
    })
    .where(and(eq(orders.id, id), eq(orders.isComplete, false), eq(orders.isCancelled, false)));
}

export async function findUserNames(
  db: Db,
  ids: readonly string[],
): Promise<{ id: string; firstname: string; lastname: string }[]> {
  if (ids.length === 0) return [];
  return db
    .select({ id: users.id, firstname: users.firstname, lastname: users.lastname })
    .from(users)
    .where(inArray(users.id, [...ids]));
}

/* Balances of the month. */

/** The balance rows of these lines, locked (id order). */
export async function lockBalancesOf(
  db: Db,
  lineIds: readonly string[],
): Promise<LineBalanceRow[]> {
  if (lineIds.length === 0) return [];
  return db
    .select()
    .from(lineBalances)
    .where(inArray(lineBalances.lineId, [...lineIds]))
    .orderBy(asc(lineBalances.lineId))
    .for('update');
}

export async function updateBalanceRow(
  db: Db,
  lineId: string,
  patch: Partial<Omit<LineBalanceRow, 'lineId'>>,
): Promise<void> {
  await db.update(lineBalances).set(patch).where(eq(lineBalances.lineId, lineId));
}

/** The prepaid (talutíð) plan new talutíð numbers get: the first offered plan of a prepaid type. */
export async function findPrepaidPlanId(db: Db): Promise<string | undefined> {
  const [row] = await db
    .select({ id: plans.id })
    .from(plans)
    .innerJoin(planTypes, eq(plans.planTypeId, planTypes.id))
    .where(and(eq(planTypes.kind, 'prepaid'), eq(plans.isOffered, true)))
    .orderBy(asc(plans.sortOrder), asc(plans.id))
    .limit(1);
  return row?.id;
}

/** A talutíð number's credit row, started at 0 if it has none. */
export async function ensurePrepaidBalance(db: Db, lineId: string, at: Date): Promise<void> {
  await db
    .insert(prepaidBalances)
    .values({ lineId, balanceOere: 0, updatedAt: at })
    .onConflictDoNothing();
}
