import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/*
 * The demo TMF641 server's own store (issue 43, adapters/network/tmf641-demo/): the network
 * simulator answering as an OSS under /tmf-api/serviceOrdering/v4/ in demo mode. It plays a
 * separate company, like the test card provider: the API never reads these tables, and the
 * TMF641 adapter learns about the orders only over HTTP (answers, events, GET). Kept in the
 * database so that several instances share the orders and a restart loses nothing.
 */

/** The states the demo's orders go through (a subset of TMF641's ServiceOrderStateType). */
export const TMF641_DEMO_STATES = [
  'acknowledged',
  'inProgress',
  'completed',
  'failed',
  'partial',
] as const;
export type Tmf641DemoState = (typeof TMF641_DEMO_STATES)[number];

/** A TMF641 `ServiceOrder` as the demo answers it (JSON; only what the demo itself sets is typed). */
export interface Tmf641DemoOrderJson {
  id: string;
  href: string;
  state: Tmf641DemoState;
  externalId?: string;
  serviceOrderItem: Tmf641DemoItemJson[];
  [property: string]: unknown;
}

export interface Tmf641DemoItemJson {
  id: string;
  action: string;
  state: Tmf641DemoState;
  service: {
    serviceSpecification?: { id: string; [property: string]: unknown };
    serviceCharacteristic?: { name: string; value?: unknown; [property: string]: unknown }[];
    [property: string]: unknown;
  };
  [property: string]: unknown;
}

/**
 * One service order: `order` is the whole `ServiceOrder` as GET answers it; `state` and
 * `external_id` repeat what is in it for the queries. `next_at` is when its next step is due
 * (acknowledged → inProgress → completed or failed), null once it has ended.
 */
export const tmf641DemoOrders = pgTable(
  'tmf641_demo_orders',
  {
    id: text('id').primaryKey(),
    /** The client's `externalId`: one order per value (a repeated POST answers the first). */
    externalId: text('external_id'),
    state: text('state', { enum: TMF641_DEMO_STATES }).notNull(),
    order: jsonb('order').$type<Tmf641DemoOrderJson>().notNull(),
    nextAt: timestamp('next_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('tmf641_demo_orders_external_id_uq')
      .on(t.externalId)
      .where(sql`${t.externalId} is not null`),
    index('tmf641_demo_orders_next_at_idx')
      .on(t.nextAt)
      .where(sql`${t.nextAt} is not null`),
    index('tmf641_demo_orders_created_at_idx').on(t.createdAt),
    check(
      'tmf641_demo_orders_state',
      sql`${t.state} in ('acknowledged', 'inProgress', 'completed', 'failed', 'partial')`,
    ),
  ],
);

export type Tmf641DemoOrderRow = typeof tmf641DemoOrders.$inferSelect;

/**
 * The listeners registered at `POST /hub` (TMF641 EventSubscription). One per callback and
 * query: registering the same again answers the registration there is.
 */
export const tmf641DemoHubs = pgTable(
  'tmf641_demo_hubs',
  {
    id: text('id').primaryKey(),
    /** The listener's base address; events go to `<callback>/listener/<eventName>`. */
    callback: text('callback').notNull(),
    /** The subscription's `query` as sent ('' when none), e.g. `eventType=ServiceOrderStateChangeEvent`. */
    query: text('query').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('tmf641_demo_hubs_callback_query_uq').on(t.callback, t.query)],
);

export type Tmf641DemoHubRow = typeof tmf641DemoHubs.$inferSelect;

/**
 * The events to deliver, one row per listener and event, written in the transaction of the
 * state change. Delivered oldest first; a failed delivery is tried again later (a few times,
 * with backoff), and a listener deleted takes its undelivered events with it.
 */
export const tmf641DemoEvents = pgTable(
  'tmf641_demo_events',
  {
    /** Sorts by creation, so events due at the same moment go out in order. */
    id: text('id').primaryKey(),
    hubId: text('hub_id')
      .notNull()
      .references(() => tmf641DemoHubs.id, { onDelete: 'cascade' }),
    orderId: text('order_id').notNull(),
    eventType: text('event_type').notNull(),
    /** The full URL posted to. */
    url: text('url').notNull(),
    /** The event as JSON text, as sent. */
    body: text('body').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('tmf641_demo_events_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.deliveredAt} is null`),
    index('tmf641_demo_events_hub_idx').on(t.hubId),
  ],
);

export type Tmf641DemoEventRow = typeof tmf641DemoEvents.$inferSelect;
