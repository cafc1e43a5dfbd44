import { HubConnectionState, type HubConnection } from '@microsoft/signalr';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { errorEnvelope } from '@alda/contract/envelope';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/app';
import { databaseUnavailableReason } from '../src/db/errors';
import type { OrderRow } from '../src/db/schema/orders';
import { DEMO_PASSWORD } from '../src/seed/demo-users';
import { seedDemoData } from '../src/seed/seed';
import { NOW, signIn } from './demo-accounts';
import {
  bearer,
  createTestDatabase,
  demoUser,
  parse,
  testConfig,
  usingPostgres,
  waitFor,
  type TestDatabase,
} from './helper';
import {
  changePayment,
  collectPaymentUpdates,
  hubClient,
  listenLocally,
  placePendingOrder,
  tokenOf,
  userId,
} from './hub-helper';
import { startTcpProxy, type CutMode, type TcpProxy } from './support/tcp-proxy';

/*
 * Issue 14 part 4, docs/decisions/0060-database-outage.md: with a TCP proxy between the API and
 * PostgreSQL that the test cuts and restores, the API answers 503 DATABASE_UNAVAILABLE (fast,
 * not a hang) and /readyz 503 while the database is gone, keeps its hub connections, and comes
 * back by itself within seconds of the database's return: reads 200 again, the LISTEN
 * connection back and listening, and what its NOTIFYs would have said while it was away made
 * good (a payment completed during the outage reaches the client; a hub connection of a session
 * ended meanwhile is closed).
 *
 * Instance A talks to the database through the proxy; instance B, on the same database
 * directly, stands for the rest of the fleet (the outage is A's: a network cut, or the database
 * seen from A). PostgreSQL only: PGlite lives inside the process and cannot be cut away.
 */

/** Settings that shorten the waits (production: 5 s and 5 s). */
const CONNECT_TIMEOUT_MS = 1_000;
const RECONNECT_MAX_MS = 500;
/** The promise: a request during the outage is answered within this (not a hang). */
const ANSWER_BOUND_MS = 3_000;
/** The promise: everything is back within this after the database returns. */
const RECOVERY_BOUND_MS = 5_000;
/** Hub pings every 200 ms, so the hub connection's liveness is exercised during the outage. */
const KEEP_ALIVE_MS = 200;

describe.skipIf(!usingPostgres)(
  usingPostgres
    ? 'issue 14: database outage (PostgreSQL behind a TCP proxy that is cut and restored)'
    : 'issue 14: database outage — skipped: needs PostgreSQL (DATABASE_URL); PGlite runs inside the process, there is no connection to cut',
  () => {
    let database: TestDatabase;
    let proxy: TcpProxy;
    let a: FastifyInstance;
    let b: FastifyInstance;
    let baseUrl: string;
    let auth: { authorization: string };
    const open: HubConnection[] = [];
    const measured: Record<string, number> = {};

    beforeAll(async () => {
      database = await createTestDatabase();
      if (!database.url) throw new Error('no database url');
      const direct = new URL(database.url);
      proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
      const viaProxy = new URL(database.url);
      viaProxy.hostname = '127.0.0.1';
      viaProxy.port = String(proxy.port);

      const timings = {
        DATABASE_CONNECT_TIMEOUT_MS: String(CONNECT_TIMEOUT_MS),
        DATABASE_RECONNECT_MAX_MS: String(RECONNECT_MAX_MS),
      };
      // buildApp opens the database itself, so the config's timings are the ones under test.
      b = await buildApp(testConfig(timings, database.url), { now: () => NOW });
      await b.database.migrate();
      await seedDemoData(b.db, NOW);
      a = await buildApp(testConfig(timings, viaProxy.toString()), {
        now: () => NOW,
        hub: { keepAliveMs: KEEP_ALIVE_MS, serverTimeoutMs: 3_000 },
      });
      await b.ready();
      baseUrl = await listenLocally(a);
      auth = await signIn(a, 'Jóannes');
    });

    afterAll(async () => {
      // Each step bounded and named: one CI run on a loaded machine (2026-11-25) spent the whole
      // hook timeout here after every test had passed, and it could not be reproduced alone or
      // under stress-ng; a step that hangs again is named on stderr instead of hiding which one.
      const step = async (name: string, work: () => Promise<unknown> | undefined) => {
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<void>((resolve) => {
          timer = setTimeout(() => {
            console.warn(`db-outage teardown: ${name} still running after 15 s`);
            resolve();
          }, 15_000);
        });
        await Promise.race([Promise.resolve(work()).catch(() => {}), late]);
        clearTimeout(timer);
      };
      for (const connection of open) await step('hub connection stop', () => connection.stop());
      // The proxy first: connection attempts it still holds would keep A's pool from ending.
      await step('proxy close', () => proxy?.close());
      await step('app A close', () => a?.close());
      await step('app B close', () => b?.close());
      await database?.drop();
      // Read by people running the file: how long recovery took (ADR 0060 quotes these).
      console.info('db-outage timings (ms):', JSON.stringify(measured));
    });

    // A failed test must not leave the next one without a database.
    afterEach(async () => {
      if (!proxy.isCut) return;
      await proxy.restore();
      await waitFor(async () => ((await probe('/readyz')).statusCode === 200 ? true : undefined));
    });

    const me = (headers: Record<string, string> = auth) =>
      a.inject({ method: 'GET', url: '/api/auth/me', headers });
    const probe = (url: '/readyz' | '/healthz') => a.inject({ method: 'GET', url });

    /** A request with its duration; one that hangs past the bound fails the test. */
    async function timed(request: () => Promise<LightMyRequestResponse>) {
      const started = performance.now();
      let timer: NodeJS.Timeout | undefined;
      const hang = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no answer within ${ANSWER_BOUND_MS} ms (a hang)`)),
          ANSWER_BOUND_MS,
        );
      });
      try {
        const res = await Promise.race([request(), hang]);
        return { res, ms: performance.now() - started };
      } finally {
        clearTimeout(timer);
      }
    }

    /** Polls until `ok` (each try bounded by the answer bound), and answers how long it took. */
    async function recoveredWithin(
      name: string,
      since: number,
      ok: () => Promise<boolean>,
    ): Promise<number> {
      await waitFor(async () => ((await ok()) ? true : undefined), RECOVERY_BOUND_MS);
      const ms = Math.round(performance.now() - since);
      measured[name] = ms;
      return ms;
    }

    async function hubConnection(token: string) {
      const connection = hubClient(baseUrl, token);
      connection.keepAliveIntervalInMilliseconds = KEEP_ALIVE_MS;
      connection.serverTimeoutInMilliseconds = 3_000;
      open.push(connection);
      const closed: (string | undefined)[] = [];
      connection.onclose((error) => closed.push(error?.message ?? 'closed'));
      const updates = collectPaymentUpdates(connection);
      await connection.start();
      return { connection, closed, updates };
    }

    /** Signs in on instance B (a session A only hears of through the database). */
    async function sessionOnB() {
      const res = await b.inject({
        method: 'POST',
        url: '/api/auth/email-login',
        payload: { email: demoUser('Jóannes').email, password: DEMO_PASSWORD },
      });
      expect(res.statusCode).toBe(200);
      return res.json<{ data: { accessToken: string; refreshToken: string } }>().data;
    }

    /** The outage as a client sees it: a read that needs the database, probes, the hub. */
    async function expectOutage(mode: CutMode) {
      // The first request may still be served before the instance hears of the cut; within a
      // moment every read that needs the database answers 503, each within the bound.
      const answered = await waitFor(async () => {
        const { res, ms } = await timed(() => me({ ...auth, 'accept-language': 'en' }));
        expect(ms).toBeLessThan(ANSWER_BOUND_MS);
        return res.statusCode === 503 ? { res, ms } : undefined;
      }, ANSWER_BOUND_MS);
      measured[`503 answered in (${mode})`] = Math.round(answered.ms);
      expect(parse(errorEnvelope, answered.res).error).toEqual({
        code: 'DATABASE_UNAVAILABLE',
        message: 'The service cannot reach its data right now. Try again in a few seconds.',
        retryAfter: 5,
      });
      expect(answered.res.headers['retry-after']).toBe('5');

      // The first failures may come from pooled connections the cut broke; these need a new
      // connection, which the network now refuses or swallows: answered within the bound all
      // the same (the pool's connect timeout), never a hang.
      for (let i = 0; i < 3; i += 1) {
        const again = await timed(() => me());
        measured[`503 of read ${i + 1} needing a new connection (${mode})`] = Math.round(again.ms);
        expect(again.res.statusCode).toBe(503);
      }

      // Faroese by default, and every route alike (here the authenticated start-up read).
      const { res: overview, ms } = await timed(() =>
        a.inject({ method: 'GET', url: '/api/subscriptions', headers: auth }),
      );
      measured[`503 of a fresh read in (${mode})`] = Math.round(ms);
      expect(ms).toBeLessThan(ANSWER_BOUND_MS);
      expect(overview.statusCode).toBe(503);
      expect(parse(errorEnvelope, overview).error).toMatchObject({
        code: 'DATABASE_UNAVAILABLE',
        message: 'Tænastan fær ikki samband við sínar dátur í løtuni. Royn aftur um nøkur sekund.',
      });

      const ready = await timed(() => probe('/readyz'));
      measured[`readyz 503 in (${mode})`] = Math.round(ready.ms);
      expect(ready.ms).toBeLessThan(ANSWER_BOUND_MS);
      expect(ready.res.statusCode).toBe(503);
      expect((await probe('/healthz')).statusCode).toBe(200);
    }

    it('answers 503 DATABASE_UNAVAILABLE fast while PostgreSQL is gone, keeps hub connections, and recovers by itself', async () => {
      // Before: all well.
      expect((await me()).statusCode).toBe(200);
      expect((await probe('/readyz')).statusCode).toBe(200);
      const owner = userId('Jóannes');
      const paidDuringOutage = await placePendingOrder(b.db, owner);
      const paidAfter = await placePendingOrder(b.db, owner);
      const hub = await hubConnection(tokenOf(auth));
      await hub.connection.invoke('ListenToOrder', paidDuringOutage.id);
      await hub.connection.invoke('ListenToOrder', paidAfter.id);
      // A second session on A's hub, ended elsewhere while A cannot hear it.
      const other = await sessionOnB();
      const doomed = await hubConnection(other.accessToken);
      expect(a.paymentHub.connections).toBe(2);

      await proxy.cut('refuse');
      const cutAt = performance.now();
      await expectOutage('refuse');

      // Meanwhile the rest of the fleet works: a payment completes, a session ends.
      await changePayment(b.db, paidDuringOutage, 'paid');
      const logout = await b.inject({
        method: 'POST',
        url: '/api/auth/logout',
        payload: { refreshToken: other.refreshToken },
      });
      expect(logout.statusCode).toBe(204);

      // The hub keeps its connections: pings flow, and a method that needs no database answers.
      await new Promise((resolve) => setTimeout(resolve, 4 * KEEP_ALIVE_MS));
      await hub.connection.invoke('StopListeningToOrder', crypto.randomUUID());
      expect(hub.connection.state).toBe(HubConnectionState.Connected);
      expect(hub.closed).toEqual([]);
      expect(doomed.connection.state).toBe(HubConnectionState.Connected);
      expect(a.paymentHub.connections).toBe(2);
      expect(hub.updates).toEqual([]);
      measured['outage (refuse)'] = Math.round(performance.now() - cutAt);

      await proxy.restore();
      const restoredAt = performance.now();
      // Reads and readiness come back with the pool's next connection.
      await recoveredWithin('reads 200 (refuse)', restoredAt, async () => {
        return (await me()).statusCode === 200;
      });
      await recoveredWithin('readyz 200 (refuse)', restoredAt, async () => {
        return (await probe('/readyz')).statusCode === 200;
      });
      // The LISTEN connection is back and made good what its NOTIFYs would have said: the
      // payment completed during the outage reaches the client, the ended session's hub
      // connection is closed, and its access token is refused (memory started over).
      await recoveredWithin('missed payment delivered (refuse)', restoredAt, async () =>
        hub.updates.some((u) => u.orderId === paidDuringOutage.id && u.status === 'paid'),
      );
      await recoveredWithin('missed session end applied (refuse)', restoredAt, async () =>
        doomed.closed.includes('Server returned an error on close: The session has ended.'),
      );
      expect((await me(bearer(other.accessToken))).statusCode).toBe(401);

      // NOTIFYs after the return are heard: LISTEN resubscribed.
      await expectNotified(hub.updates, paidAfter, 'failed', restoredAt, 'refuse');
      expect(hub.connection.state).toBe(HubConnectionState.Connected);
      expect(hub.closed).toEqual([]);
    });

    it('answers within the connect timeout when the network swallows packets (blackhole), and recovers', async () => {
      const owner = userId('Jóannes');
      const order = await placePendingOrder(b.db, owner);
      const hub = await hubConnection(tokenOf(auth));
      await hub.connection.invoke('ListenToOrder', order.id);
      expect((await me()).statusCode).toBe(200);

      await proxy.cut('blackhole');
      await expectOutage('blackhole');
      await changePayment(b.db, order, 'cancelled');
      expect(hub.connection.state).toBe(HubConnectionState.Connected);

      await proxy.restore();
      const restoredAt = performance.now();
      await recoveredWithin('reads 200 (blackhole)', restoredAt, async () => {
        return (await me()).statusCode === 200;
      });
      await recoveredWithin('readyz 200 (blackhole)', restoredAt, async () => {
        return (await probe('/readyz')).statusCode === 200;
      });
      await recoveredWithin('missed payment delivered (blackhole)', restoredAt, async () =>
        hub.updates.some((u) => u.orderId === order.id && u.status === 'cancelled'),
      );
      // A second change after the return arrives by NOTIFY.
      await expectNotified(hub.updates, order, 'paid', restoredAt, 'blackhole');
      expect(hub.closed).toEqual([]);
    });

    it('fails a transaction whose connection drops between its statements with DATABASE_UNAVAILABLE; the process lives on', async () => {
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let begun: () => void = () => {};
      const inside = new Promise<void>((resolve) => {
        begun = resolve;
      });
      const transaction = a.db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        begun();
        await held;
        await tx.execute(sql`select 1`);
      });
      await inside;
      // The checked-out connection is reset while no statement runs on it: without a listener
      // of its own its 'error' would be unhandled and end the process.
      await proxy.cut('refuse');
      await new Promise((resolve) => setTimeout(resolve, 100));
      release();
      const failure: unknown = await transaction.then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(databaseUnavailableReason(failure)).toBeDefined();
      await proxy.restore();
      await waitFor(async () => ((await me()).statusCode === 200 ? true : undefined));
    });

    /** Changes the payment on B and waits for the PaymentUpdated that only A's LISTEN brings. */
    async function expectNotified(
      updates: { orderId: string; status: string }[],
      order: OrderRow,
      status: 'paid' | 'failed',
      restoredAt: number,
      mode: CutMode,
    ) {
      // Called once the missed payment arrived, i.e. after the LISTEN connection is back and
      // has re-sent what its clients listen to: this change can only come by NOTIFY.
      await changePayment(b.db, order, status);
      await recoveredWithin(`NOTIFY after return heard (${mode})`, restoredAt, async () =>
        updates.some((u) => u.orderId === order.id && u.status === status),
      );
    }
  },
);
