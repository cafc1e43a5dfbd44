import { sql } from 'drizzle-orm';
import {
  check,
  index,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/** The calls of the network adapter, each one kind of TMF641 service order (ADR 0082). */
export const NETWORK_CALLS = [
  'activate',
  'prepareEsim',
  'issueSim',
  'requestPort',
  'setDataBarred',
  'setRoamingDataBarred',
] as const;
export type NetworkCallKind = (typeof NETWORK_CALLS)[number];

/**
 * TMF641 v4 ServiceOrderStateType. A row keeps the state as the OSS wrote it, also one outside
 * these (an OSS's own or differently cased state): the adapter takes such an order as existing
 * and still open (tmf641/wire.ts `knownState`).
 */
export const SERVICE_ORDER_STATES = [
  'acknowledged',
  'rejected',
  'pending',
  'held',
  'inProgress',
  'cancelled',
  'completed',
  'failed',
  'partial',
  'assessingCancellation',
  'pendingCancellation',
] as const;
export type ServiceOrderState = (typeof SERVICE_ORDER_STATES)[number];

/**
 * The service orders the TMF641 network adapter has placed with the OSS
 * (docs/decisions/0082-network-tmf641.md), one row per idempotency key: the adapter looks here
 * before it POSTs, so a call asked again never makes a second order. Events and polled answers
 * move a row forward only (`event_time`, then the state's rank; a terminal state is final).
 *
 * - `external_id`: our idempotency key, sent as the order's `externalId`;
 * - `tmf_id`, `href`: the OSS's id and link of the order (not unique here: the OSS owns them);
 * - `order_id`: the provisioning order the call belongs to (`orders.id`), made due when the
 *   service order ends;
 * - `state`: the OSS's state as it wrote it (ServiceOrderStateType, or one of its own);
 * - `characteristics`: what the order's item returned (`matchingId`, `iccid`, `portDate`, …);
 * - `service_id`: the id the OSS gave the item's service (`serviceOrderItem.service.id`): of a
 *   completed `activate`, the line's service, which later `modify` items name;
 * - `error_code`, `error_reason`: the OSS's `errorMessage` of a failed order;
 * - `event_time`: the OSS's `eventTime` of the newest event applied (its clock);
 * - `heard_at`, `polled_at`: when we last heard of the order (answer, event or poll) and last
 *   asked with GET (our clock): the polling fallback asks after TMF641_POLL_S of silence.
 */
export const networkServiceOrders = pgTable(
  'network_service_orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    externalId: text('external_id').notNull(),
    tmfId: text('tmf_id').notNull(),
    href: text('href'),
    kind: text('kind', { enum: NETWORK_CALLS }).notNull(),
    msisdn: text('msisdn').notNull(),
    // No foreign key: on PostgreSQL the row is written beside the provisioning transaction,
    // which holds the order FOR UPDATE, and the key's check (FOR KEY SHARE) would wait for it.
    orderId: uuid('order_id'),
    state: text('state').notNull(),
    characteristics: jsonb('characteristics')
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    serviceId: text('service_id'),
    errorCode: text('error_code'),
    errorReason: text('error_reason'),
    eventTime: timestamp('event_time', { withTimezone: true }),
    heardAt: timestamp('heard_at', { withTimezone: true }).notNull(),
    polledAt: timestamp('polled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('network_service_orders_external_id_uq').on(t.externalId),
    index('network_service_orders_tmf_id_idx').on(t.tmfId),
    index('network_service_orders_order_id_idx').on(t.orderId),
    index('network_service_orders_msisdn_idx').on(t.msisdn),
    check(
      'network_service_orders_kind',
      sql`${t.kind} in ('activate', 'prepareEsim', 'issueSim', 'requestPort', 'setDataBarred', 'setRoamingDataBarred')`,
    ),
  ],
);

export type NetworkServiceOrderRow = typeof networkServiceOrders.$inferSelect;
export type NewNetworkServiceOrderRow = typeof networkServiceOrders.$inferInsert;

/**
 * The listeners registered with the OSS's hub (`POST /hub`, TMF641 EventSubscription): one per
 * OSS address and callback, so a restart (or a second instance) does not register again.
 */
export const networkHubSubscriptions = pgTable(
  'network_hub_subscriptions',
  {
    /** TMF641_URL the hub belongs to. */
    apiUrl: text('api_url').notNull(),
    callback: text('callback').notNull(),
    /** The OSS's id of the subscription (for `DELETE /hub/{id}`). */
    hubId: text('hub_id').notNull(),
    query: text('query'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('network_hub_subscriptions_uq').on(t.apiUrl, t.callback)],
);

export type NetworkHubSubscriptionRow = typeof networkHubSubscriptions.$inferSelect;
