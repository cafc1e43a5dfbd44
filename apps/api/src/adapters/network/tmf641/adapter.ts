import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/client';
import type {
  NetworkCallKind,
  NetworkServiceOrderRow,
} from '../../../db/schema/network-service-orders';
import {
  NetworkOrderFailedError,
  NetworkPendingError,
  type NetworkAdapter,
  type NetworkCall,
} from '../network';
import { Tmf641HttpError, type Tmf641Client } from './client';
import {
  applyServiceOrder,
  findLineServiceId,
  findServiceOrder,
  recordServiceOrder,
  type ApplyResult,
} from './store';
import {
  activateOrder,
  dataBarringOrder,
  isFailure,
  isTerminal,
  issueSimOrder,
  knownState,
  prepareEsimOrder,
  requestPortOrder,
  roamingBarringOrder,
  serviceIdOf,
  STATE_MAX,
  type ServiceOrderCreate,
  type ServiceOrderIn,
} from './wire';

/*
 * The network adapter on TM Forum TMF641 Service Ordering v4 (docs/decisions/0082-network-
 * tmf641.md). Every call is a service order at the operator's OSS, keyed by the call's
 * idempotency key (`externalId`):
 *
 * 1. The key is looked up in network_service_orders; only when it is not there is the order
 *    POSTed (and recorded), so a call asked again never makes a second order. A POST whose
 *    answer was lost (timeout, 5xx) is looked up by `GET /serviceOrder?externalId=` first.
 * 2. The order completes later: the OSS's events (listener.ts) move the row forward, and when
 *    none came for TMF641_POLL_S the adapter asks `GET /serviceOrder/{id}` itself.
 * 3. Provisioning calls answer at once: the result once `completed`, NetworkOrderFailedError
 *    once failed (a port the donor refused is `rejected` as today), else NetworkPendingError —
 *    the worker asks again with the same key.
 *    Barring calls (owner controls, roaming cap) wait in-process up to TMF641_WAIT_S for the
 *    end (an event wakes them), since their callers answer the customer in the same request;
 *    without events they ask the OSS after TMF641_BAR_POLL_S of silence (≤ the wait), so a bar
 *    finishes also when no event comes. A bar names the line's service by the id the OSS gave
 *    it (the completed `activate`), once there is one.
 * 4. A state the document does not have (`InProgress`, an OSS's own) is kept as written and
 *    logged; the order exists and is still open — never "no order", which would place it again.
 *
 * Where the rows are written: on PostgreSQL on the adapter's own connection, committed at once —
 * an event reaching any instance finds the order, and a caller's transaction that rolls back
 * never forgets an order the OSS has. On PGlite (one connection, one process) a write beside an
 * open transaction would wait for it to end, so there they are written in the caller's
 * transaction (`call.tx`); provisioning commits it also when the network says "not yet".
 */

export interface Tmf641AdapterOptions {
  client: Tmf641Client;
  db: Db;
  /** True on PostgreSQL (rows on the adapter's own connection), false on PGlite (see above). */
  ownConnection: boolean;
  now: () => Date;
  log: FastifyBaseLogger;
  /** PROVISIONING_STEP_S: the cadence of the worker's timed steps, as with the simulator. */
  stepS: number;
  /** TMF641_POLL_S: silence after which the adapter asks the OSS itself. */
  pollS: number;
  /** TMF641_WAIT_S: how long a barring call waits for its order to end. */
  waitS: number;
  /** TMF641_BAR_POLL_S: silence after which a waiting barring call asks the OSS (≤ waitS). */
  barPollS: number;
  /** ESIM_SMDP_ADDRESS, for an eSIM order whose answer names no `smdpAddress`. */
  smdpAddress: string;
}

/** A provisioning order's id in its call key (`alda:order:<uuid>:…`, network.ts). */
const ORDER_KEY = /^alda:order:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}):/i;
/** How often a waiting barring call looks at its row (another instance may have had the event). */
const RECHECK_MS = 1000;
/** Keys whose POST answer was lost, remembered for the look-up before sending again. */
const LOST_MAX = 10_000;
/**
 * How long an event delivered in this process is kept for a call that starts waiting just after
 * it came (the OSS can be quicker than our recording of its answer).
 */
const RECENT_MS = 60_000;

/** An event handed to a waiting call in this process. */
interface Delivery {
  order: ServiceOrderIn;
  eventTime: Date;
}

export interface Tmf641Adapter extends NetworkAdapter {
  readonly kind: 'tmf641';
  /** The adapter's clock: an event without a time counts as received at its now. */
  now(): Date;
  /**
   * An event the listener received: wakes the calls of this process waiting on that order,
   * which record it in their own transaction. Answers how many took it.
   */
  deliver(order: ServiceOrderIn, eventTime: Date): number;
  /**
   * Records an event (the listener, after `deliver`) on the adapter's connection and, when the
   * order ends, makes its provisioning order due now.
   */
  receive(order: ServiceOrderIn, eventTime: Date): Promise<ApplyResult>;
}

export function createTmf641Adapter(options: Tmf641AdapterOptions): Tmf641Adapter {
  const { client, log, now, pollS } = options;
  const lost = new Set<string>();
  /** Waiting calls by `externalId` and by `tmf:<OSS id>`. */
  const waiting = new Map<string, Set<(delivery: Delivery) => void>>();
  /** Events delivered lately, by the same names, for calls not yet waiting when they came. */
  const recent = new Map<string, Delivery & { at: number }>();

  const storeOf = (call: NetworkCall): Db =>
    options.ownConnection ? options.db : (call.tx ?? options.db);

  async function post(body: ServiceOrderCreate): Promise<ServiceOrderIn> {
    if (lost.has(body.externalId)) {
      const found = await client.findByExternalId(body.externalId);
      lost.delete(body.externalId);
      if (found) return found;
    }
    try {
      return await client.createServiceOrder(body);
    } catch (error) {
      if (error instanceof Tmf641HttpError && error.lost) {
        if (lost.size >= LOST_MAX) lost.clear();
        lost.add(body.externalId);
      }
      throw error;
    }
  }

  /**
   * The key's row: found, or placed now (POST) and recorded with the answer's state. `body` may
   * be a function building the order, called only when the key is not known yet.
   */
  async function place(
    kind: NetworkCallKind,
    msisdn: string,
    body: ServiceOrderCreate | (() => Promise<ServiceOrderCreate>),
    call: NetworkCall,
  ): Promise<NetworkServiceOrderRow> {
    const store = storeOf(call);
    const known = await findServiceOrder(store, call.key);
    if (known) return known;
    const answer = await post(typeof body === 'function' ? await body() : body);
    const at = now();
    const row = await recordServiceOrder(store, {
      externalId: call.key,
      tmfId: answer.id,
      href: answer.href ?? null,
      kind,
      msisdn,
      orderId: ORDER_KEY.exec(call.key)?.[1]?.toLowerCase() ?? null,
      state: 'acknowledged',
      serviceId: serviceIdOf(answer),
      heardAt: at,
      createdAt: at,
      updatedAt: at,
    });
    log.info(
      { key: call.key, tmfId: answer.id, kind, state: answer.state ?? 'acknowledged' },
      'tmf641: service order placed',
    );
    // An OSS may answer with the order already done (or refused): taken as a polled answer.
    if (answer.state && answer.state !== 'acknowledged')
      return (await apply(store, row, answer, null)) ?? row;
    return row;
  }

  /** Logs a state the document does not have: kept as written, the order taken as open. */
  function noteState(order: ServiceOrderIn, key: string | undefined, source: string): void {
    if (order.state && knownState(order.state) === null)
      log.warn(
        { key, tmfId: order.id, state: order.state.slice(0, STATE_MAX), source },
        'tmf641: the OSS gave a state TMF641 does not have; kept as written, the order taken as still open',
      );
  }

  async function apply(
    store: Db,
    row: NetworkServiceOrderRow,
    order: ServiceOrderIn,
    eventTime: Date | null,
  ): Promise<NetworkServiceOrderRow | null> {
    // An event's state is logged once, by `receive` (the listener), also when a waiting call
    // takes it first.
    if (eventTime === null) noteState(order, row.externalId, 'answer');
    const result = await applyServiceOrder(store, {
      order,
      eventTime,
      now: now(),
      makeDue: false,
      externalId: row.externalId,
    });
    if (result.ended && result.row) ended(result.row);
    return result.row;
  }

  function ended(row: NetworkServiceOrderRow): void {
    if (isFailure(row.state))
      log.warn(
        {
          key: row.externalId,
          tmfId: row.tmfId,
          kind: row.kind,
          state: row.state,
          code: row.errorCode,
          reason: row.errorReason,
        },
        'tmf641: service order failed',
      );
    else
      log.info(
        { key: row.externalId, tmfId: row.tmfId, kind: row.kind, state: row.state },
        'tmf641: service order completed',
      );
  }

  /**
   * The polling fallback: asks the OSS when nothing was heard of the order for TMF641_POLL_S
   * (a waiting barring call, `bar`: TMF641_BAR_POLL_S).
   */
  async function pollIfSilent(
    store: Db,
    row: NetworkServiceOrderRow,
    bar = false,
  ): Promise<NetworkServiceOrderRow> {
    if (isTerminal(row.state)) return row;
    const afterS = bar ? options.barPollS : pollS;
    if (now().getTime() - row.heardAt.getTime() < afterS * 1000) return row;
    const answer = await client.getServiceOrder(row.tmfId);
    const updated = (await apply(store, row, answer, null)) ?? row;
    log.info(
      { key: row.externalId, tmfId: row.tmfId, kind: row.kind, state: updated.state },
      bar
        ? 'tmf641: no event for TMF641_BAR_POLL_S while a bar waits; polled the service order'
        : 'tmf641: no event for TMF641_POLL_S; polled the service order',
    );
    return updated;
  }

  /** The finished row, or the failure / the wait as the errors of network.ts. */
  function outcome(row: NetworkServiceOrderRow): NetworkServiceOrderRow {
    if (row.state === 'completed') return row;
    if (isFailure(row.state))
      throw new NetworkOrderFailedError(
        row.externalId,
        row.state,
        row.errorCode,
        row.errorReason ?? `the network's order ${row.tmfId} ended ${row.state}`,
      );
    throw new NetworkPendingError(row.externalId, row.state, pollS);
  }

  /** A provisioning call: placed or found, polled when silent, answered at once. */
  async function provisioningCall(
    kind: NetworkCallKind,
    msisdn: string,
    body: ServiceOrderCreate,
    call: NetworkCall,
  ): Promise<NetworkServiceOrderRow> {
    const store = storeOf(call);
    return pollIfSilent(store, await place(kind, msisdn, body, call));
  }

  /** Resolves with the next event for the row delivered in this process, or null after `ms`. */
  function nextDelivery(row: NetworkServiceOrderRow, ms: number): Promise<Delivery | null> {
    const names = [row.externalId, `tmf:${row.tmfId}`];
    for (const name of names) {
      const early = recent.get(name);
      if (early && Date.now() - early.at < RECENT_MS) {
        recent.delete(name);
        return Promise.resolve(early);
      }
    }
    return new Promise((resolve) => {
      const done = (delivery: Delivery | null) => {
        clearTimeout(timer);
        for (const name of names) {
          const set = waiting.get(name);
          set?.delete(done);
          if (set?.size === 0) waiting.delete(name);
        }
        resolve(delivery);
      };
      const timer = setTimeout(() => done(null), ms);
      for (const name of names) {
        const set = waiting.get(name) ?? new Set();
        set.add(done);
        waiting.set(name, set);
      }
    });
  }

  /**
   * A barring call: placed or found — a `modify` of the line's service, named by its id once the
   * OSS has given one — then waits up to TMF641_WAIT_S for the order to end, asking the OSS
   * itself after TMF641_BAR_POLL_S without news (the configuration keeps that within the wait).
   */
  async function barringCall(
    kind: 'setDataBarred' | 'setRoamingDataBarred',
    msisdn: string,
    barred: boolean,
    call: NetworkCall,
  ): Promise<void> {
    const store = storeOf(call);
    // The line's service id is looked up only for an order not placed yet.
    let row = await place(
      kind,
      msisdn,
      async () => {
        const serviceId = await findLineServiceId(store, msisdn);
        return kind === 'setDataBarred'
          ? dataBarringOrder(call.key, msisdn, barred, serviceId)
          : roamingBarringOrder(call.key, msisdn, barred, serviceId);
      },
      call,
    );
    const deadline = Date.now() + options.waitS * 1000;
    for (;;) {
      row = await pollIfSilent(store, row, true);
      if (isTerminal(row.state)) break;
      const left = deadline - Date.now();
      if (left <= 0) break;
      const delivery = await nextDelivery(row, Math.min(left, RECHECK_MS));
      row = delivery
        ? ((await apply(store, row, delivery.order, delivery.eventTime)) ?? row)
        : ((await findServiceOrder(store, row.externalId)) ?? row);
    }
    outcome(row);
  }

  /** A returned characteristic as text; a completed order without it is a failure of the OSS. */
  function result(row: NetworkServiceOrderRow, name: string): string {
    const value = row.characteristics[name];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
    throw new NetworkOrderFailedError(
      row.externalId,
      row.state,
      'MISSING_CHARACTERISTIC',
      `the network's ${row.kind} order ${row.tmfId} completed without the characteristic ${name}`,
    );
  }

  return {
    kind: 'tmf641',
    stepS: options.stepS,
    now,

    async requestPort(msisdn, iccid, _now, call) {
      const row = await provisioningCall(
        'requestPort',
        msisdn,
        requestPortOrder(call.key, msisdn, iccid),
        call,
      );
      if (isFailure(row.state) && row.errorCode === 'PORT_SIMCARD_MISMATCH')
        return { status: 'rejected', code: 'PORT_SIMCARD_MISMATCH' };
      const done = outcome(row);
      const portDate = new Date(result(done, 'portDate'));
      if (Number.isNaN(portDate.getTime()))
        throw new NetworkOrderFailedError(
          done.externalId,
          done.state,
          'INVALID_CHARACTERISTIC',
          `the network's port order ${done.tmfId} answered a portDate that is not a date`,
        );
      return { status: 'accepted', portDate };
    },

    async prepareEsim(msisdn, call) {
      const row = outcome(
        await provisioningCall('prepareEsim', msisdn, prepareEsimOrder(call.key, msisdn), call),
      );
      const smdp = row.characteristics.smdpAddress;
      return {
        smdpAddress: typeof smdp === 'string' && smdp !== '' ? smdp : options.smdpAddress,
        matchingId: result(row, 'matchingId'),
      };
    },

    async issueSim(msisdn, call) {
      const row = outcome(
        await provisioningCall('issueSim', msisdn, issueSimOrder(call.key, msisdn), call),
      );
      return { iccid: result(row, 'iccid'), pin: result(row, 'pin'), puk: result(row, 'puk') };
    },

    async activate(input, call) {
      outcome(
        await provisioningCall('activate', input.msisdn, activateOrder(call.key, input), call),
      );
    },

    setDataBarred: (msisdn, barred, call) => barringCall('setDataBarred', msisdn, barred, call),

    setRoamingDataBarred: (msisdn, barred, call) =>
      barringCall('setRoamingDataBarred', msisdn, barred, call),

    deliver(order, eventTime) {
      // As the store finds the row: by our key when the OSS echoes it, else by the OSS's id.
      const wake = (name: string) => {
        const calls = [...(waiting.get(name) ?? [])];
        for (const call of calls) call({ order, eventTime });
        return calls.length;
      };
      const taken = (order.externalId ? wake(order.externalId) : 0) || wake(`tmf:${order.id}`);
      if (taken === 0) {
        // Kept a while for a call about to wait on it (on PGlite its row is not readable yet).
        const now = Date.now();
        for (const [name, early] of recent) if (now - early.at >= RECENT_MS) recent.delete(name);
        if (recent.size < LOST_MAX)
          recent.set(order.externalId ?? `tmf:${order.id}`, { order, eventTime, at: now });
      }
      return taken;
    },

    async receive(order, eventTime) {
      noteState(order, order.externalId, 'event');
      const result = await applyServiceOrder(options.db, {
        order,
        eventTime,
        now: now(),
        makeDue: true,
      });
      if (result.ended && result.row) ended(result.row);
      return result;
    },
  };
}
