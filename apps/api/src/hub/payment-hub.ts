import { HUB_KEEP_ALIVE_MS, HUB_SERVER_TIMEOUT_MS } from '@alda/contract/constants';
import {
  PAYMENT_HUB_PATH,
  type PaymentStatus,
  type PaymentUpdated,
} from '@alda/contract/schemas/orders';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/client';
import type { AuthUser } from '../plugins/auth';
import { toOrderDto } from '../modules/orders/dto';
import {
  HubError,
  registerHubServer,
  type HubConnection,
  type HubOptions,
  type HubServer,
} from './hub-server';
import { PAYMENT_UPDATED_CHANNEL, parsePaymentUpdatedNotice } from '../modules/payments/events';
import { findOrderWithPayment, type OrderWithPayment } from './repo';
import { createPaymentWatch } from './payment-watch';

/*
 * The payment hub (SPEC §4 "Payment flow", §7 "Payment hub"): a client listens to one of its
 * orders and gets PaymentUpdated when the order's payment changes. Changes arrive as NOTIFYs on
 * PAYMENT_UPDATED_CHANNEL (payment-events.ts), sent by whoever changed the payment inside the
 * same transaction, so only committed changes reach clients; every API instance LISTENs and
 * serves its own connections (docs/decisions/0051-payment-hub.md).
 */

export interface PaymentHubOptions extends HubOptions {
  /** Orders one connection may listen to at once. */
  maxOrdersPerConnection: number;
}

export const DEFAULT_PAYMENT_HUB_OPTIONS: PaymentHubOptions = {
  keepAliveMs: HUB_KEEP_ALIVE_MS,
  serverTimeoutMs: HUB_SERVER_TIMEOUT_MS,
  handshakeTimeoutMs: 15_000,
  connectionTokenTtlMs: 15_000,
  maxMessageBytes: 32 * 1024,
  maxQueuedInvocations: 32,
  maxBufferedBytes: 1024 * 1024,
  maxConnectionsPerUser: 10,
  maxOrdersPerConnection: 20,
};

export const PAYMENT_UPDATED_TARGET = 'PaymentUpdated';

export interface PaymentHubDeps {
  database: Database;
  authenticate(accessToken: string): Promise<AuthUser | null>;
  tokenKey: Uint8Array;
  /** The app's clock: a connection is closed when its access token expires by it. */
  now?: () => Date;
  options?: Partial<PaymentHubOptions> | undefined;
}

export interface PaymentHub {
  /** Live connections of this instance. */
  readonly connections: number;
  /**
   * A pending order was read over HTTP (the status screen without the hub): its payment is read
   * from the provider at the watch's pace for a while (payment-watch.ts).
   */
  watchedOverHttp(orderId: string): void;
}

/** How long one HTTP read of a pending order keeps it watched: the status screen reads every ≤ 10 s. */
const HTTP_WATCH_LEASE_MS = 15_000;

declare module 'fastify' {
  interface FastifyInstance {
    paymentHub: PaymentHub;
  }
}

/** Same text for an unknown order and someone else's, so ids cannot be probed. */
const UNKNOWN_ORDER = 'Unknown order.';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What a connection was last sent about an order. */
interface SentState {
  readonly status: PaymentStatus;
  readonly serialized: string;
}

const TERMINAL: ReadonlySet<PaymentStatus> = new Set(['paid', 'failed', 'cancelled']);

/** The PaymentUpdated payload (contract `paymentUpdated`) of an order as it is now. */
export function paymentUpdatedPayload({
  order,
  paymentUpdatedAt,
}: OrderWithPayment): PaymentUpdated {
  return {
    orderId: order.id,
    status: order.paymentStatus,
    order: toOrderDto(order),
    updatedAt: (paymentUpdatedAt ?? order.completedAt ?? order.createdAt).toISOString(),
  };
}

/**
 * Installs the payment hub at PAYMENT_HUB_PATH and, when the app is ready, LISTENs for payment
 * changes; both stop when the app closes.
 */
export async function registerPaymentHub(
  app: FastifyInstance,
  deps: PaymentHubDeps,
): Promise<PaymentHub> {
  const options = { ...DEFAULT_PAYMENT_HUB_OPTIONS, ...deps.options };
  const { database } = deps;
  const db = database.db;
  const log = app.log.child({ hub: 'payment' });
  /**
   * orderId → connections listening to it, and the reverse: per connection, each order it listens
   * to with the last PaymentUpdated it was sent for it, so it never hears the same state twice
   * (two notices read after both commits, or the listen-time answer crossing a notice) nor a
   * pending after the outcome (a read that started before the outcome's commit answering last).
   */
  const listeners = new Map<string, Set<HubConnection>>();
  const listening = new Map<HubConnection, Map<string, SentState | undefined>>();
  /**
   * While a connection listens to an open order, its payment is read from the provider at the
   * pace of their polling guidelines (payment-watch.ts); the release of each connection's hold.
   */
  const { config } = app;
  const watch = createPaymentWatch({
    firstMs: config.paymentWatchFirstS * 1000,
    everyMs: config.paymentWatchEveryS * 1000,
    maxMs: config.paymentWatchMaxS * 1000,
    leaseMs: HTTP_WATCH_LEASE_MS,
    // The payments core is registered after the hub; it is there before anyone can listen.
    poll: (orderId) => app.payments.reconcileWatched(orderId),
    log,
  });
  const holds = new Map<HubConnection, Map<string, () => void>>();

  function hold(connection: HubConnection, orderId: string) {
    let mine = holds.get(connection);
    if (!mine) {
      mine = new Map();
      holds.set(connection, mine);
    }
    if (!mine.has(orderId)) mine.set(orderId, watch.hold(orderId));
  }

  function subscribe(connection: HubConnection, orderId: string) {
    let orders = listening.get(connection);
    if (!orders) {
      orders = new Map();
      listening.set(connection, orders);
    }
    if (!orders.has(orderId) && orders.size >= options.maxOrdersPerConnection) {
      throw new HubError('Listening to too many orders.');
    }
    if (!orders.has(orderId)) orders.set(orderId, undefined);
    let set = listeners.get(orderId);
    if (!set) {
      set = new Set();
      listeners.set(orderId, set);
    }
    set.add(connection);
  }

  function unsubscribe(connection: HubConnection, orderId: string) {
    const mine = holds.get(connection);
    mine?.get(orderId)?.();
    mine?.delete(orderId);
    if (mine?.size === 0) holds.delete(connection);
    const orders = listening.get(connection);
    orders?.delete(orderId);
    if (orders?.size === 0) listening.delete(connection);
    const set = listeners.get(orderId);
    set?.delete(connection);
    if (set?.size === 0) listeners.delete(orderId);
  }

  /**
   * Sends the order's state to a connection listening to it, unless it was the last one sent;
   * `serialized` is the payload's JSON, made once for all the order's listeners.
   */
  function sendState(
    connection: HubConnection,
    orderId: string,
    payload: PaymentUpdated,
    serialized = JSON.stringify(payload),
  ) {
    const orders = listening.get(connection);
    if (!orders?.has(orderId)) return;
    const last = orders.get(orderId);
    if (last?.serialized === serialized) return;
    if (last && TERMINAL.has(last.status) && !TERMINAL.has(payload.status)) return;
    orders.set(orderId, { status: payload.status, serialized });
    connection.send(PAYMENT_UPDATED_TARGET, [payload]);
  }

  const orderArgument = (value: unknown): string => {
    if (typeof value !== 'string' || !UUID.test(value)) throw new HubError(UNKNOWN_ORDER);
    return value.toLowerCase();
  };

  const server: HubServer = await registerHubServer(app, {
    path: PAYMENT_HUB_PATH,
    name: 'payment',
    database,
    options,
    authenticate: deps.authenticate,
    tokenKey: deps.tokenKey,
    ...(deps.now ? { now: deps.now } : {}),
    hub: {
      methods: {
        ListenToOrder: {
          parameters: 1,
          async invoke(connection, [value]) {
            const orderId = orderArgument(value);
            // Subscribed before the read, so a change committed meanwhile is not missed.
            subscribe(connection, orderId);
            const found = await findOrderWithPayment(db, orderId);
            if (!found || found.order.userId !== connection.userId) {
              unsubscribe(connection, orderId);
              throw new HubError(UNKNOWN_ORDER);
            }
            // A client that listens after the outcome still learns it (SPEC §4 "Payment flow").
            if (!TERMINAL.has(found.order.paymentStatus)) {
              // Still listening (not gone during the read): its payment is watched meanwhile.
              if (listening.get(connection)?.has(orderId)) hold(connection, orderId);
              return {};
            }
            return {
              followUp: () => {
                sendState(connection, orderId, paymentUpdatedPayload(found));
              },
            };
          },
        },
        StopListeningToOrder: {
          parameters: 1,
          async invoke(connection, [value]) {
            if (typeof value !== 'string') throw new HubError(UNKNOWN_ORDER);
            unsubscribe(connection, value.toLowerCase());
            return {};
          },
        },
      },
      onDisconnected(connection) {
        for (const orderId of [...(listening.get(connection)?.keys() ?? [])]) {
          unsubscribe(connection, orderId);
        }
      },
    },
  });

  /*
   * One read per notice for all local listeners of the order. Notices for one order are handled
   * one after another (a later read never overtakes an earlier one); notices that arrive during
   * a read fold into one more read.
   */
  const refreshing = new Map<string, { again: boolean }>();

  async function refresh(orderId: string) {
    const running = refreshing.get(orderId);
    if (running) {
      running.again = true;
      return;
    }
    const state = { again: true };
    refreshing.set(orderId, state);
    try {
      while (state.again) {
        state.again = false;
        if (!listeners.has(orderId)) return;
        const found = await findOrderWithPayment(db, orderId);
        if (!found) return;
        const payload = paymentUpdatedPayload(found);
        const serialized = JSON.stringify(payload);
        for (const connection of listeners.get(orderId) ?? []) {
          if (connection.userId === found.order.userId) {
            sendState(connection, orderId, payload, serialized);
          }
        }
      }
    } finally {
      refreshing.delete(orderId);
    }
  }

  let stopListening: (() => Promise<void>) | undefined;
  app.addHook('onReady', async () => {
    const refreshInBackground = (orderId: string) => {
      refresh(orderId).catch((error: unknown) => {
        log.error({ err: error, orderId }, 'PaymentUpdated fan-out failed');
      });
    };
    stopListening = await database.listen(
      PAYMENT_UPDATED_CHANNEL,
      (payload) => {
        const notice = parsePaymentUpdatedNotice(payload);
        if (!notice) {
          log.warn('malformed payment notice ignored');
          return;
        }
        const orderId = notice.orderId.toLowerCase();
        // Most instances have nobody listening to a given order: no read then.
        if (listeners.has(orderId)) refreshInBackground(orderId);
      },
      {
        // Changes committed while the LISTEN connection was down were not heard: send every
        // listened order's current state once, so no client waits for an event that is gone.
        onReconnected: () => {
          for (const orderId of listeners.keys()) refreshInBackground(orderId);
        },
      },
    );
  });
  app.addHook('preClose', async () => {
    await watch.close();
    await stopListening?.();
    stopListening = undefined;
  });

  const hub: PaymentHub = {
    get connections() {
      return server.size;
    },
    watchedOverHttp: (orderId) => watch.touch(orderId.toLowerCase()),
  };
  app.decorate('paymentHub', hub);
  return hub;
}
