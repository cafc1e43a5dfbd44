import { and, desc, eq, gt, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import {
  networkHubSubscriptions,
  networkServiceOrders,
  type NetworkHubSubscriptionRow,
  type NetworkServiceOrderRow,
  type NewNetworkServiceOrderRow,
} from '../../../db/schema/network-service-orders';
import { orders } from '../../../db/schema/orders';
import {
  characteristicsOf,
  errorOf,
  isFailure,
  isTerminal,
  serviceIdOf,
  STATE_MAX,
  stateRank,
  type ServiceOrderIn,
} from './wire';

/*
 * The TMF641 adapter's rows (docs/decisions/0082-network-tmf641.md): the service orders it
 * placed, one per idempotency key, and the hub subscriptions. Every function takes the `Db` to
 * use, since the adapter writes either on its own connection or in the caller's transaction
 * (see tmf641/adapter.ts).
 */

export async function findServiceOrder(
  db: Db,
  externalId: string,
): Promise<NetworkServiceOrderRow | undefined> {
  const [row] = await db
    .select()
    .from(networkServiceOrders)
    .where(eq(networkServiceOrders.externalId, externalId));
  return row;
}

/**
 * Records a placed order. Two callers recording the same key (two instances asking at once)
 * keep the first row; both answer it.
 */
export async function recordServiceOrder(
  db: Db,
  row: NewNetworkServiceOrderRow,
): Promise<NetworkServiceOrderRow> {
  const [inserted] = await db
    .insert(networkServiceOrders)
    .values(row)
    .onConflictDoNothing({ target: networkServiceOrders.externalId })
    .returning();
  if (inserted) return inserted;
  const existing = await findServiceOrder(db, row.externalId);
  if (!existing) throw new Error(`service order ${row.externalId} vanished`);
  return existing;
}

/** What applying an answer or an event did. */
export type ApplyOutcome =
  /** The row moved forward (state, results or error). */
  | 'applied'
  /** Older than what the row has, a repeat, or the row is already final: nothing changed. */
  | 'unchanged'
  /** No row of ours has this order. */
  | 'unknown'
  /** Several rows have the OSS's id and the event has no externalId to tell them apart. */
  | 'ambiguous';

export interface ApplyResult {
  outcome: ApplyOutcome;
  row: NetworkServiceOrderRow | null;
  /** The row reached a terminal state with this update. */
  ended: boolean;
}

/**
 * Applies what the OSS says of an order — an event (`eventTime` set) or a polled answer (null) —
 * in one transaction, forward only:
 *
 * - a terminal state is final: nothing moves a completed or failed order again;
 * - an event older than the newest applied one (`event_time`) is ignored, and one at the same
 *   time only if its state is further along (stateRank), so repeats and late deliveries are
 *   harmless;
 * - a polled answer is the OSS's state now: taken whenever the row is not final;
 * - a state outside ServiceOrderStateType is kept as the OSS wrote it, and the order stays open;
 * - the id the OSS gives the item's service is kept (a later `modify` names it).
 *
 * The row is found by our key (`externalId`) when the OSS echoes it, else by the OSS's id.
 * When the order ends and `makeDue` is set, the provisioning order it belongs to is made due
 * now, so the worker performs its step at once instead of at its next poll.
 */
export async function applyServiceOrder(
  db: Db,
  input: {
    order: ServiceOrderIn;
    eventTime: Date | null;
    now: Date;
    makeDue: boolean;
    /** The row already known (the adapter's own calls), else it is looked up. */
    externalId?: string;
  },
): Promise<ApplyResult> {
  return db.transaction(async (tx) => {
    const { order, eventTime, now } = input;
    const key = input.externalId ?? order.externalId;
    let rows = key
      ? await tx
          .select()
          .from(networkServiceOrders)
          .where(eq(networkServiceOrders.externalId, key))
          .for('update')
      : [];
    if (rows.length === 0 && input.externalId === undefined)
      rows = await tx
        .select()
        .from(networkServiceOrders)
        .where(eq(networkServiceOrders.tmfId, order.id))
        .limit(2)
        .for('update');
    if (rows.length === 0) return { outcome: 'unknown', row: null, ended: false };
    if (rows.length > 1) return { outcome: 'ambiguous', row: null, ended: false };
    const row = rows[0] as NetworkServiceOrderRow;
    const heard = { heardAt: now, ...(eventTime === null ? { polledAt: now } : {}) };
    // As the OSS wrote it (an empty one says nothing: the row's stays).
    const state = order.state ? order.state.slice(0, STATE_MAX) : row.state;
    const stale =
      isTerminal(row.state) ||
      (eventTime !== null &&
        row.eventTime !== null &&
        (eventTime.getTime() < row.eventTime.getTime() ||
          (eventTime.getTime() === row.eventTime.getTime() &&
            stateRank(state) <= stateRank(row.state))));
    if (stale) {
      const [touched] = await tx
        .update(networkServiceOrders)
        .set(heard)
        .where(eq(networkServiceOrders.id, row.id))
        .returning();
      return { outcome: 'unchanged', row: touched ?? row, ended: false };
    }
    const error = isFailure(state) ? errorOf(order) : { code: null, reason: null };
    const [updated] = await tx
      .update(networkServiceOrders)
      .set({
        state,
        characteristics: { ...row.characteristics, ...characteristicsOf(order) },
        serviceId: serviceIdOf(order) ?? row.serviceId,
        errorCode: error.code,
        errorReason: error.reason,
        eventTime:
          eventTime !== null &&
          (row.eventTime === null || eventTime.getTime() > row.eventTime.getTime())
            ? eventTime
            : row.eventTime,
        ...heard,
        updatedAt: now,
      })
      .where(eq(networkServiceOrders.id, row.id))
      .returning();
    const ended = isTerminal(state);
    if (ended && input.makeDue && row.orderId)
      await tx
        .update(orders)
        .set({ provisioningNextAt: now })
        .where(
          and(
            eq(orders.id, row.orderId),
            eq(orders.isComplete, false),
            eq(orders.isCancelled, false),
            isNotNull(orders.provisioningNextAt),
            gt(orders.provisioningNextAt, now),
          ),
        );
    return { outcome: 'applied', row: updated ?? row, ended };
  });
}

/** The service orders of provisioning orders (the staff console shows the OSS's states). */
export async function findServiceOrdersOfOrder(
  db: Db,
  orderId: string,
): Promise<NetworkServiceOrderRow[]> {
  return db
    .select()
    .from(networkServiceOrders)
    .where(eq(networkServiceOrders.orderId, orderId))
    .orderBy(networkServiceOrders.createdAt, sql`${networkServiceOrders.id}`);
}

/**
 * The OSS's id of the number's line service: the one it gave when it completed the number's
 * newest `activate` (the `add` that made the service), or null while it has given none. Only
 * the `add` counts: an answer to a `modify` may carry anything (an example's `"string"`).
 */
export async function findLineServiceId(db: Db, msisdn: string): Promise<string | null> {
  const [row] = await db
    .select({ serviceId: networkServiceOrders.serviceId })
    .from(networkServiceOrders)
    .where(
      and(
        eq(networkServiceOrders.msisdn, msisdn),
        eq(networkServiceOrders.kind, 'activate'),
        eq(networkServiceOrders.state, 'completed'),
        isNotNull(networkServiceOrders.serviceId),
      ),
    )
    .orderBy(desc(networkServiceOrders.updatedAt), desc(networkServiceOrders.createdAt))
    .limit(1);
  return row?.serviceId ?? null;
}

/** The subscriptions kept for an OSS (TMF641_URL), e.g. an old callback's after a rotation. */
export async function findHubSubscriptions(
  db: Db,
  apiUrl: string,
): Promise<NetworkHubSubscriptionRow[]> {
  return db
    .select()
    .from(networkHubSubscriptions)
    .where(eq(networkHubSubscriptions.apiUrl, apiUrl));
}

export async function deleteHubSubscription(
  db: Db,
  apiUrl: string,
  callback: string,
): Promise<void> {
  await db
    .delete(networkHubSubscriptions)
    .where(
      and(
        eq(networkHubSubscriptions.apiUrl, apiUrl),
        eq(networkHubSubscriptions.callback, callback),
      ),
    );
}

export async function recordHubSubscription(db: Db, row: NetworkHubSubscriptionRow): Promise<void> {
  await db
    .insert(networkHubSubscriptions)
    .values(row)
    .onConflictDoUpdate({
      target: [networkHubSubscriptions.apiUrl, networkHubSubscriptions.callback],
      set: { hubId: row.hubId, query: row.query, createdAt: row.createdAt },
    });
}
