import { and, asc, desc, eq, inArray, isNotNull, isNull, lte, ne, or, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { olderThan } from '../../db/keyset';
import { accounts, type NewAccountRow } from '../../db/schema/accounts';
import { orders, type NewOrderRow, type OrderRow } from '../../db/schema/orders';
import {
  numberReservations,
  phoneLines,
  type NewPhoneLineRow,
  type NumberReservationRow,
  type PhoneLineRow,
} from '../../db/schema/phone-lines';
import {
  provisioningSteps,
  simPickupLocations,
  type NewProvisioningStepRow,
  type ProvisioningStepRow,
  type SimPickupLocationRow,
} from '../../db/schema/provisioning';
import type { AccountRow } from '../../db/schema/accounts';
import { PROVISIONED_KINDS } from './steps';

/* Pickup shops. */

export async function listPickupLocations(db: Db): Promise<SimPickupLocationRow[]> {
  return db
    .select()
    .from(simPickupLocations)
    .orderBy(asc(simPickupLocations.sortOrder), asc(simPickupLocations.name));
}

export async function findPickupLocations(
  db: Db,
  ids: readonly string[],
): Promise<SimPickupLocationRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(simPickupLocations)
    .where(inArray(simPickupLocations.id, [...ids]));
}

/* Steps. */

export async function insertStep(db: Db, row: NewProvisioningStepRow): Promise<void> {
  await db.insert(provisioningSteps).values(row);
}

/** The steps of these orders, oldest first. */
export async function findSteps(
  db: Db,
  orderIds: readonly string[],
): Promise<ProvisioningStepRow[]> {
  if (orderIds.length === 0) return [];
  return db
    .select()
    .from(provisioningSteps)
    .where(inArray(provisioningSteps.orderId, [...orderIds]))
    .orderBy(asc(provisioningSteps.at), asc(provisioningSteps.id));
}

/* Orders. */

/**
 * Provisioned orders only: those with a SIM delivery (new lines, members, SIM changes) and the
 * lifecycle's orders (plan changes, transfers, cancellations: received → active, ADR 0056).
 */
const provisioned = () =>
  or(
    and(inArray(orders.kind, [...PROVISIONED_KINDS]), isNotNull(orders.simDelivery)),
    isNotNull(orders.lifecycleAction),
  );

export async function findProvisionedOrder(db: Db, id: string): Promise<OrderRow | undefined> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.id, id), provisioned()));
  return row;
}

/** Locks a provisioned order for the rest of the transaction. */
export async function lockProvisionedOrder(db: Db, id: string): Promise<OrderRow | undefined> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.id, id), provisioned()))
    .for('update');
  return row;
}

/**
 * Claims one due order (`provisioning_next_at <= now`, waiting on the network or on the
 * customer's SIM confirmation) and locks it; orders other workers hold are skipped.
 */
export async function claimDueOrder(db: Db, now: Date): Promise<OrderRow | undefined> {
  const [row] = await db
    .select()
    .from(orders)
    .where(
      and(
        isNotNull(orders.provisioningNextAt),
        lte(orders.provisioningNextAt, now),
        inArray(orders.provisioningWaitingFor, ['network', 'customer_sim']),
        eq(orders.isComplete, false),
        eq(orders.isCancelled, false),
        provisioned(),
      ),
    )
    .orderBy(asc(orders.provisioningNextAt), asc(orders.id))
    .limit(1)
    .for('update', { skipLocked: true });
  return row;
}

export type OrderProvisioningPatch = Partial<
  Pick<
    OrderRow,
    | 'provisioningWaitingFor'
    | 'provisioningNextAt'
    | 'portDate'
    | 'portingSimcardNumber'
    | 'esimMatchingId'
  >
>;

export async function updateOrder(db: Db, id: string, patch: OrderProvisioningPatch) {
  await db.update(orders).set(patch).where(eq(orders.id, id));
}

/** Which provisioned orders an operator lists. */
export type OrderState =
  'open' | 'waiting_network' | 'waiting_customer' | 'failed' | 'complete' | 'all';

/** A page of {@link listOrdersByState}: keyset paging on (created_at, id), never OFFSET. */
export interface OrderPage {
  /** Only the orders older than this order (`olderThan`, db/keyset.ts): no order lists nothing. */
  before?: string | undefined;
  /** A further condition on the order (the console's search). */
  where?: SQL | undefined;
  /** At most this many (default 500). */
  limit?: number;
}

/**
 * Provisioned orders in a state, newest first. Served by orders_open_created_at_id_idx (the open
 * states) and orders_created_at_id_idx (`complete`, `all`), read backwards.
 */
export async function listOrdersByState(
  db: Db,
  state: OrderState,
  page: OrderPage = {},
): Promise<OrderRow[]> {
  const open = and(eq(orders.isComplete, false), eq(orders.isCancelled, false));
  const where = {
    open: and(open, ne(orders.provisioningWaitingFor, 'none')),
    waiting_network: and(open, eq(orders.provisioningWaitingFor, 'network')),
    waiting_customer: and(
      open,
      inArray(orders.provisioningWaitingFor, ['customer_sim', 'customer_correction']),
    ),
    failed: and(open, eq(orders.provisioningWaitingFor, 'none')),
    complete: eq(orders.isComplete, true),
    all: undefined,
  }[state];
  const older = page.before ? olderThan(orders.createdAt, orders.id, page.before) : undefined;
  return db
    .select()
    .from(orders)
    .where(and(provisioned(), where, older, page.where))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(page.limit ?? 500);
}

export async function insertOrder(db: Db, row: NewOrderRow): Promise<OrderRow> {
  const [inserted] = await db.insert(orders).values(row).returning();
  if (!inserted) throw new Error('order insert returned nothing');
  return inserted;
}

/** An open order of this line (its pending SIM change), if any. */
export async function findOpenOrderOfLine(db: Db, lineId: string): Promise<OrderRow | undefined> {
  const [row] = await db
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.lineId, lineId),
        eq(orders.isComplete, false),
        eq(orders.isCancelled, false),
        provisioned(),
        or(isNull(orders.provisioningWaitingFor), ne(orders.provisioningWaitingFor, 'none')),
      ),
    )
    .limit(1);
  return row;
}

/* The customer's side: agreements, reservations, accounts and lines. */

/** Locks a reservation row (whoever holds it, expired or not). */
export async function lockReservation(
  db: Db,
  id: string,
): Promise<NumberReservationRow | undefined> {
  const [row] = await db
    .select()
    .from(numberReservations)
    .where(eq(numberReservations.id, id))
    .for('update');
  return row;
}

export async function deleteReservation(db: Db, id: string): Promise<void> {
  await db.delete(numberReservations).where(eq(numberReservations.id, id));
}

/** Deletes the user's expired reservation with this id (a failed sign-up cleans up after itself). */
export async function deleteExpiredReservation(
  db: Db,
  id: string,
  userId: string,
  now: Date,
): Promise<void> {
  await db
    .delete(numberReservations)
    .where(
      and(
        eq(numberReservations.id, id),
        eq(numberReservations.userId, userId),
        lte(numberReservations.expiresAt, now),
      ),
    );
}

export async function insertAccount(db: Db, row: NewAccountRow): Promise<AccountRow> {
  const [inserted] = await db.insert(accounts).values(row).returning();
  if (!inserted) throw new Error('account insert returned nothing');
  return inserted;
}

export async function insertLine(db: Db, row: NewPhoneLineRow): Promise<PhoneLineRow> {
  const [inserted] = await db.insert(phoneLines).values(row).returning();
  if (!inserted) throw new Error('line insert returned nothing');
  return inserted;
}

export async function findLine(db: Db, id: string): Promise<PhoneLineRow | undefined> {
  const [row] = await db.select().from(phoneLines).where(eq(phoneLines.id, id));
  return row;
}

export async function findAccount(db: Db, id: string): Promise<AccountRow | undefined> {
  const [row] = await db.select().from(accounts).where(eq(accounts.id, id));
  return row;
}

export async function updateLine(
  db: Db,
  id: string,
  patch: Partial<Omit<PhoneLineRow, 'id'>>,
): Promise<void> {
  await db.update(phoneLines).set(patch).where(eq(phoneLines.id, id));
}

export async function updateAccount(
  db: Db,
  id: string,
  patch: Partial<Omit<AccountRow, 'id'>>,
): Promise<void> {
  await db.update(accounts).set(patch).where(eq(accounts.id, id));
}

/** The reservation is live for the user at `now` (held by them and not expired). */
export function reservationHeldBy(
  row: NumberReservationRow | undefined,
  userId: string,
  now: Date,
): row is NumberReservationRow {
  return row !== undefined && row.userId === userId && row.expiresAt > now;
}
