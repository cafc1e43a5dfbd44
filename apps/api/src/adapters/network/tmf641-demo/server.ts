import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../../db/client';
import type {
  Tmf641DemoItemJson,
  Tmf641DemoOrderJson,
  Tmf641DemoOrderRow,
  Tmf641DemoState,
} from '../../../db/schema/tmf641-demo';
import { urlWithoutCallbackSecret } from '../../../log-privacy';
import type { NetworkSimulator } from '../simulator';
import { specificationOf, type DemoErrorMessage } from './catalogue';
import {
  allHubs,
  claimDueEvents,
  deleteHub,
  dueOrders,
  findOrder,
  findOrderByExternalId,
  insertEvents,
  insertHub,
  insertOrder,
  listOrders,
  lockOrder,
  markEventDelivered,
  markEventFailed,
  updateOrder,
} from './store';
import {
  newOrderJson,
  parseEventSubscriptionInput,
  parseServiceOrderCreate,
  Tmf641DemoError,
  valuesOf,
  withState,
  type ServiceOrderCreateIn,
} from './wire';

/*
 * The network simulator answering as an OSS over TMF641 Service Ordering v4 (issue 43,
 * docs/decisions/0082-network-tmf641.md "The demo TMF641 server"), so that NETWORK_ADAPTER=tmf641
 * runs end to end on one machine. Every order goes acknowledged → inProgress → completed (or
 * failed) one step every `stepMs`; the results are the simulator's (`catalogue.ts`). Each state
 * change is written with its events in one transaction, and the events go to every registered
 * listener from a durable queue with retries — delivery never holds up an order, and a GET always
 * answers the truth. Orders, listeners and events live in the database, so several instances
 * share them (SKIP LOCKED) and a restart loses nothing.
 */

export const STATE_CHANGE_EVENT = 'ServiceOrderStateChangeEvent';
export const ATTRIBUTE_VALUE_CHANGE_EVENT = 'ServiceOrderAttributeValueChangeEvent';

/** An event POST as the demo sends it. */
export interface EventRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** Sends one event; resolves with the HTTP status, throws when nothing answered. */
export type EventDelivery = (request: EventRequest) => Promise<{ status: number }>;

/** The demo's database, opened on first use (see database.ts). */
export interface DemoDatabase {
  get(): Promise<Db>;
  /** Whether it is open; a round before that has nothing to do. */
  opened(): boolean;
}

export interface Tmf641DemoOptions {
  database: DemoDatabase;
  now: () => Date;
  log: {
    info(obj: object, msg: string): void;
    warn(obj: object, msg: string): void;
  };
  /** The simulator that carries the orders out (and can be asked what it holds). */
  network: NetworkSimulator;
  /** TMF641_DEMO_STEP_MS: from one state to the next. */
  stepMs: number;
  /** Absolute base of the orders' `href` (APP_URL + /tmf-api/serviceOrdering/v4). */
  baseUrl: string;
  /** TMF641_TOKEN: when set, every request must carry `Authorization: Bearer <token>`. */
  token?: string | undefined;
  /** TMF641_LISTENER_SECRET: sent as `Authorization: Bearer <secret>` with every event. */
  listenerSecret?: string | undefined;
  /** How events are sent; by default an HTTP POST with a 5 s timeout. */
  deliver?: EventDelivery | undefined;
}

/** Attempts per event: the first and four more, 1, 2, 4 and 8 s apart; then it is dropped. */
const MAX_ATTEMPTS = 5;
const MAX_BACKOFF_MS = 60_000;
/** While one worker delivers an event, others leave it alone for this long. */
const DELIVERY_LEASE_MS = 30_000;
const DELIVERY_TIMEOUT_MS = 5_000;
/** Orders stepped and events sent per round at most. */
const ROUND_LIMIT = 50;

async function deliverOverHttp(request: EventRequest): Promise<{ status: number }> {
  const response = await fetch(request.url, {
    method: 'POST',
    headers: request.headers,
    body: request.body,
    signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
  });
  await response.arrayBuffer().catch(() => undefined);
  return { status: response.status };
}

/** Ids that sort by creation time, so events due at the same moment go out in order. */
let sequence = 0;
function orderedId(at: Date): string {
  sequence = (sequence + 1) % 1_000_000;
  return `evt_${String(at.getTime()).padStart(15, '0')}_${String(sequence).padStart(6, '0')}_${randomBytes(4).toString('hex')}`;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * The event types a listener asked for in its subscription's `query` (`eventType=A,B`, TMF630
 * filtering), or null for all.
 */
export function wantedEvents(query: string): Set<string> | null {
  const types = new URLSearchParams(query).get('eventType');
  if (types === null) return null;
  return new Set(
    types
      .split(',')
      .map((type) => type.trim())
      .filter(Boolean),
  );
}

/** `<callback>/listener/serviceOrderStateChangeEvent` (TMF641's listener paths). */
export function listenerUrl(callback: string, eventType: string): string {
  return `${callback.replace(/\/+$/, '')}/listener/${eventType.charAt(0).toLowerCase()}${eventType.slice(1)}`;
}

/**
 * A repeated `externalId` is the same order when every item sent has the same id, action,
 * specification and characteristics as the order's (a completed order's items also carry the
 * results, which the client did not send).
 */
function sameItems(order: Tmf641DemoOrderJson, input: ServiceOrderCreateIn): boolean {
  if (order.serviceOrderItem.length !== input.serviceOrderItem.length) return false;
  return input.serviceOrderItem.every((sent) => {
    const kept = order.serviceOrderItem.find((entry) => entry.id === sent.id);
    if (!kept || kept.action !== sent.action) return false;
    if (kept.service.serviceSpecification?.id !== sent.service.serviceSpecification?.id)
      return false;
    const values = valuesOf(kept.service.serviceCharacteristic);
    return (sent.service.serviceCharacteristic ?? []).every(
      (c) => JSON.stringify(values.get(c.name)) === JSON.stringify(c.value),
    );
  });
}

export type Tmf641DemoServer = ReturnType<typeof createTmf641DemoServer>;

export function createTmf641DemoServer(options: Tmf641DemoOptions) {
  const { database, now, log, network } = options;
  const deliver = options.deliver ?? deliverOverHttp;
  const expectedToken = options.token === undefined ? null : digest(options.token);

  /** 401 unless the request carries the configured bearer token (any, when none is set). */
  function authorize(header: string | undefined): void {
    if (expectedToken === null) return;
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
    if (match?.[1] && timingSafeEqual(digest(match[1]), expectedToken)) return;
    throw new Tmf641DemoError(401, 'UNAUTHORIZED', 'A valid bearer token is required');
  }

  async function existingOrder(db: Db, externalId: string, input: ServiceOrderCreateIn) {
    const existing = await findOrderByExternalId(db, externalId);
    if (!existing) return undefined;
    if (!sameItems(existing.order, input)) {
      throw new Tmf641DemoError(
        409,
        'EXTERNAL_ID_CONFLICT',
        `externalId ${externalId} belongs to service order ${existing.id} with other items`,
      );
    }
    return existing.order;
  }

  /** `POST /serviceOrder`: the new order, or the one that has the same `externalId`. */
  async function createOrder(body: unknown): Promise<Tmf641DemoOrderJson> {
    const input = parseServiceOrderCreate(body);
    const db = await database.get();
    if (input.externalId !== undefined) {
      const existing = await existingOrder(db, input.externalId, input);
      if (existing) return existing;
    }
    const at = now();
    const id = randomUUID();
    const order = newOrderJson(
      input,
      id,
      `${options.baseUrl}/serviceOrder/${id}`,
      at,
      new Date(at.getTime() + 2 * options.stepMs),
    );
    const inserted = await insertOrder(db, {
      id,
      externalId: input.externalId ?? null,
      state: 'acknowledged',
      order,
      nextAt: new Date(at.getTime() + options.stepMs),
      createdAt: at,
      updatedAt: at,
    });
    if (!inserted) {
      // Another request with the same externalId won the race.
      const existing = await existingOrder(db, input.externalId ?? '', input);
      if (existing) return existing;
      throw new Error('tmf641 demo: order neither inserted nor found');
    }
    // Not the externalId: a key may hold a phone number (log-privacy.ts, issue 14).
    log.info({ serviceOrder: id }, 'tmf641 demo: service order acknowledged');
    return inserted.order;
  }

  async function getOrder(id: string): Promise<Tmf641DemoOrderJson> {
    const row = await findOrder(await database.get(), id);
    if (!row) {
      throw new Tmf641DemoError(404, 'NOT_FOUND', `No service order with id ${id}`);
    }
    return row.order;
  }

  async function findOrders(
    filter: { externalId?: string | undefined; state?: Tmf641DemoState | undefined },
    page: { offset: number; limit: number },
  ): Promise<{ orders: Tmf641DemoOrderJson[]; total: number }> {
    const { rows, total } = await listOrders(await database.get(), filter, page);
    return { orders: rows.map((row) => row.order), total };
  }

  async function registerListener(
    body: unknown,
  ): Promise<{ id: string; callback: string; query?: string }> {
    const input = parseEventSubscriptionInput(body);
    const hub = await insertHub(await database.get(), {
      id: randomUUID(),
      callback: input.callback,
      query: input.query,
      createdAt: now(),
    });
    log.info({ hub: hub.id, query: hub.query }, 'tmf641 demo: listener registered');
    return { id: hub.id, callback: hub.callback, ...(hub.query ? { query: hub.query } : {}) };
  }

  async function unregisterListener(id: string): Promise<void> {
    if (!(await deleteHub(await database.get(), id))) {
      throw new Tmf641DemoError(404, 'NOT_FOUND', `No listener with id ${id}`);
    }
    log.info({ hub: id }, 'tmf641 demo: listener removed');
  }

  /** Queues the events of a state change for every listener that wants them (caller's tx). */
  async function enqueue(
    tx: Db,
    events: { type: string; order: Tmf641DemoOrderJson; fieldPath?: string }[],
    at: Date,
  ): Promise<void> {
    const hubs = await allHubs(tx);
    const rows = [];
    for (const event of events) {
      const body = JSON.stringify({
        eventId: randomUUID(),
        eventTime: at.toISOString(),
        eventType: event.type,
        ...(event.fieldPath ? { fieldPath: event.fieldPath } : {}),
        event: { serviceOrder: event.order },
      });
      for (const hub of hubs) {
        if (wantedEvents(hub.query)?.has(event.type) === false) continue;
        rows.push({
          id: orderedId(at),
          hubId: hub.id,
          orderId: event.order.id,
          eventType: event.type,
          url: listenerUrl(hub.callback, event.type),
          body,
          nextAttemptAt: at,
          createdAt: at,
        });
      }
    }
    await insertEvents(tx, rows);
  }

  /** Carries out an order's items on the simulator: the completed (or failed) order. */
  async function carryOut(order: Tmf641DemoOrderJson, at: Date) {
    const items: Tmf641DemoItemJson[] = [];
    const errors: (DemoErrorMessage & { timestamp: string })[] = [];
    let results = 0;
    for (const entry of order.serviceOrderItem) {
      const specId = entry.service.serviceSpecification?.id ?? '';
      const spec = specificationOf(specId);
      const outcome = spec
        ? await spec.perform(network, valuesOf(entry.service.serviceCharacteristic), at, {
            key: `tmf641-demo:${order.id}:${entry.id}`,
          })
        : {
            ok: false as const,
            error: {
              code: 'UNKNOWN_SERVICE_SPECIFICATION',
              reason: `${specId} is not in the catalogue`,
              message: 'Nothing was done.',
            },
          };
      if (outcome.ok) {
        results += outcome.results.length;
        const sent = (entry.service.serviceCharacteristic ?? []).filter(
          (c) => !outcome.results.some((r) => r.name === c.name),
        );
        items.push({
          ...entry,
          state: 'completed',
          service: {
            ...entry.service,
            state: 'active',
            serviceCharacteristic: [...sent, ...outcome.results],
          },
        });
      } else {
        const error = { ...outcome.error, timestamp: at.toISOString() };
        errors.push(error);
        items.push({ ...entry, state: 'failed', errorMessage: [error] });
      }
    }
    const failed = items.filter((entry) => entry.state === 'failed').length;
    const state: Tmf641DemoState =
      failed === 0 ? 'completed' : failed === items.length ? 'failed' : 'partial';
    const done: Tmf641DemoOrderJson = {
      ...order,
      state,
      completionDate: at.toISOString(),
      serviceOrderItem: items,
      // The order's errors are its items' (without item references: README of the document).
      ...(errors.length > 0 ? { errorMessage: errors } : {}),
    };
    return { done, results };
  }

  /** Takes one due order one step further; false when it was not due (any more) or is taken. */
  async function step(id: string, expected: Tmf641DemoState, at: Date): Promise<boolean> {
    const db = await database.get();
    const stepped = await db.transaction(async (tx) => {
      const row: Tmf641DemoOrderRow | undefined = await lockOrder(tx, id);
      if (!row || row.state !== expected || row.nextAt === null || row.nextAt > at) return null;
      if (row.state === 'acknowledged') {
        const order: Tmf641DemoOrderJson = {
          ...withState(row.order, 'inProgress'),
          startDate: at.toISOString(),
        };
        await updateOrder(tx, id, order, new Date(at.getTime() + options.stepMs), at);
        await enqueue(tx, [{ type: STATE_CHANGE_EVENT, order }], at);
        return order;
      }
      const { done, results } = await carryOut(row.order, at);
      await updateOrder(tx, id, done, null, at);
      await enqueue(
        tx,
        [
          { type: STATE_CHANGE_EVENT, order: done },
          ...(results > 0 && done.state !== 'failed'
            ? [
                {
                  type: ATTRIBUTE_VALUE_CHANGE_EVENT,
                  order: done,
                  fieldPath: 'serviceOrderItem.service.serviceCharacteristic',
                },
              ]
            : []),
        ],
        at,
      );
      return done;
    });
    if (!stepped) return false;
    log.info(
      {
        serviceOrder: id,
        state: stepped.state,
        ...(stepped.errorMessage
          ? { error: (stepped.errorMessage as DemoErrorMessage[])[0]?.code }
          : {}),
      },
      `tmf641 demo: service order ${stepped.state}`,
    );
    return true;
  }

  /** One round of progress: every due order one step. */
  async function advance(): Promise<number> {
    if (!database.opened()) return 0;
    const at = now();
    let advanced = 0;
    for (const due of await dueOrders(await database.get(), at, ROUND_LIMIT)) {
      try {
        if (await step(due.id, due.state, at)) advanced += 1;
      } catch (error) {
        // One order that cannot go on (rolled back, due again next round) holds up no other.
        log.warn({ err: error, serviceOrder: due.id }, 'tmf641 demo: step failed');
      }
    }
    return advanced;
  }

  let stopped = true;
  /** A test is running a round by hand. */
  let manual = false;

  /** One round of delivery: the due events, oldest first; failures tried again with backoff. */
  async function deliverDue(): Promise<number> {
    if (!database.opened()) return 0;
    const db = await database.get();
    const claimed = await claimDueEvents(db, now(), DELIVERY_LEASE_MS, ROUND_LIMIT);
    for (const event of claimed) {
      if (stopped && !manual) break;
      let error: string | null = null;
      try {
        const { status } = await deliver({
          url: event.url,
          headers: {
            'content-type': 'application/json',
            ...(options.listenerSecret
              ? { authorization: `Bearer ${options.listenerSecret}` }
              : {}),
          },
          body: event.body,
        });
        if (status < 200 || status >= 300) error = `HTTP ${status}`;
      } catch (cause) {
        error = cause instanceof Error ? cause.message : String(cause);
      }
      if (error === null) {
        await markEventDelivered(db, event.id, now());
        continue;
      }
      const attempts = event.attempts + 1;
      const next =
        attempts >= MAX_ATTEMPTS
          ? null
          : new Date(now().getTime() + Math.min(1000 * 2 ** (attempts - 1), MAX_BACKOFF_MS));
      await markEventFailed(db, event.id, next, error);
      log.warn(
        {
          event: event.id,
          eventType: event.eventType,
          serviceOrder: event.orderId,
          // The callback's secret segment masked, as in every log line (ADR 0082 §7).
          url: urlWithoutCallbackSecret(event.url),
          attempts,
          error: urlWithoutCallbackSecret(error),
          nextAttemptAt: next?.toISOString() ?? null,
        },
        next
          ? 'tmf641 demo: event delivery failed'
          : 'tmf641 demo: event delivery failed, given up',
      );
    }
    return claimed.length;
  }

  /** Runs `work` after any round of it still running; rounds of one kind never overlap. */
  function serial<T>(work: () => Promise<T>) {
    let tail: Promise<unknown> = Promise.resolve();
    let busy = 0;
    return {
      run(): Promise<T> {
        busy += 1;
        const next = tail.then(work);
        tail = next
          .then(
            () => undefined,
            () => undefined,
          )
          .finally(() => {
            busy -= 1;
          });
        return next;
      },
      busy: () => busy > 0,
      idle: () => tail,
    };
  }
  const progress = serial(advance);
  const delivery = serial(deliverDue);
  let timer: NodeJS.Timeout | null = null;

  const background = () => {
    if (stopped) return;
    if (!progress.busy()) {
      progress.run().then(
        (advanced) => {
          if (advanced > 0 && !delivery.busy() && !stopped) {
            delivery
              .run()
              .catch((error: unknown) =>
                log.warn({ err: error }, 'tmf641 demo: delivery round failed'),
              );
          }
        },
        (error: unknown) => log.warn({ err: error }, 'tmf641 demo: progress round failed'),
      );
    }
    if (!delivery.busy()) {
      delivery
        .run()
        .catch((error: unknown) => log.warn({ err: error }, 'tmf641 demo: delivery round failed'));
    }
  };

  return {
    /** The simulator behind the demo (tests and the demo ask it what it holds). */
    network,
    authorize,
    createOrder,
    getOrder,
    findOrders,
    registerListener,
    unregisterListener,
    /**
     * One round by hand (tests, on the app's clock): every due order one step, then every due
     * event sent (`sent` counts the attempts). Waits for a background round still running first.
     */
    async tick(): Promise<{ advanced: number; sent: number }> {
      manual = true;
      try {
        const advanced = await progress.run();
        let sent = 0;
        for (let claimed = await delivery.run(); claimed > 0; claimed = await delivery.run()) {
          sent += claimed;
        }
        return { advanced, sent };
      } finally {
        manual = false;
      }
    },
    /** Starts the background rounds: every `intervalMs`, progress and delivery each. */
    start(intervalMs: number): void {
      if (timer) return;
      stopped = false;
      timer = setInterval(background, intervalMs);
      timer.unref();
      background();
    },
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = null;
      await Promise.all([progress.idle(), delivery.idle()]);
    },
  };
}
