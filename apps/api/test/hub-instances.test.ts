import { eq, sql } from 'drizzle-orm';
import {
  DefaultHttpClient,
  NullLogger,
  type HttpRequest,
  type HttpResponse,
  type HubConnection,
} from '@microsoft/signalr';
import { orderPlacedResponse, PAYMENT_HUB_PATH } from '@alda/contract/schemas/orders';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/rows';
import { orders } from '../src/db/schema/orders';
import { seedDemoData } from '../src/seed/seed';
import {
  CARDS,
  injectDelivery,
  packagePurchase,
  submitCard,
  WEBHOOK_SECRET,
  type DeliveryControl,
} from './payments-fixture';
import { NOW, signIn } from './demo-accounts';
import { createTestApps, usingPostgres, waitFor, type TestApps } from './helper';
import {
  changePayment,
  collectPaymentUpdates,
  hubClient,
  listenLocally,
  placePendingOrder,
  tokenOf,
  userId,
  waitForCount,
} from './hub-helper';

/*
 * ARCHITECTURE "Scaling past one machine": PaymentUpdated fans out through PostgreSQL
 * LISTEN/NOTIFY, so a payment that changes on one API instance reaches a client connected to
 * another. Two `buildApp` instances on ONE database, each with its own pool and its own LISTEN
 * connection. Only meaningful on PostgreSQL (CI's PostgreSQL pass, or DATABASE_URL locally);
 * on PGlite "two instances" would share one in-process database.
 */

describe.skipIf(!usingPostgres)('payment hub across instances (PostgreSQL LISTEN/NOTIFY)', () => {
  let t: TestApps;
  let urls: string[];
  let token: string;
  const open: HubConnection[] = [];

  beforeAll(async () => {
    // Webhooks of the test provider go to instance 1, whichever instance queued them.
    const delivery: DeliveryControl = { down: false, sent: [] };
    t = await createTestApps(
      2,
      { PAYMENT_WEBHOOK_SECRET: WEBHOOK_SECRET, PAYMENT_RECONCILE_INTERVAL_S: '0' },
      {
        now: () => NOW,
        payments: {
          deliverWebhook: injectDelivery(() => {
            if (!t.apps[0]) throw new Error('no app');
            return t.apps[0];
          }, delivery),
          testProviderIntervalMs: 0,
        },
      },
    );
    const [one] = t.apps;
    if (!one) throw new Error('no app');
    await seedDemoData(one.db, NOW);
    token = tokenOf(await signIn(one, 'Jóannes'));
    urls = [];
    for (const app of t.apps) urls.push(await listenLocally(app));
  });
  afterAll(() => t.close());
  afterEach(async () => {
    for (const connection of open.splice(0)) await connection.stop();
  });

  async function connectTo(url: string | undefined) {
    if (!url) throw new Error('no url');
    const connection = hubClient(url, token);
    open.push(connection);
    const updates = collectPaymentUpdates(connection);
    await connection.start();
    return { connection, updates };
  }

  it('ARCHITECTURE scaling: the webhook handled by instance 1 reaches a client connected to instance 2', async () => {
    const [one, two] = t.apps;
    if (!one || !two) throw new Error('two apps expected');
    const placed = orderPlacedResponse.parse(await one.payments.placePaidOrder(packagePurchase()));
    const { connection, updates } = await connectTo(urls[1]);
    await connection.invoke('ListenToOrder', placed.order.id);
    expect(two.paymentHub.connections).toBe(1);
    expect(one.paymentHub.connections).toBe(0);

    // The card page and the provider's signed webhooks, all on instance 1.
    expect((await submitCard(one, placed, CARDS.succeed)).statusCode).toBe(303);
    await one.testProvider?.tick();

    const paid = await waitFor(async () => updates.find((u) => u.status === 'paid'));
    expect(paid).toMatchObject({ orderId: placed.order.id, order: { isComplete: true } });
  });

  it("ADR 0051: logging out on one instance ends that session's hub connection on the other", async () => {
    const [one] = t.apps;
    if (!one) throw new Error('two apps expected');
    const login = await one.inject({
      method: 'POST',
      url: '/api/auth/email-login',
      payload: { email: 'sunneva@demo.alda.fo', password: 'Demo1234!' },
    });
    const { accessToken, refreshToken } = login.json().data as {
      accessToken: string;
      refreshToken: string;
    };
    if (!urls[1]) throw new Error('no url');
    const connection = hubClient(urls[1], accessToken, { reconnect: [0, 100] });
    open.push(connection);
    const closed = new Promise<string | undefined>((resolve) =>
      connection.onclose((error) => resolve(error?.message)),
    );
    await connection.start();
    const logout = await one.inject({
      method: 'POST',
      url: '/api/auth/logout',
      payload: { refreshToken },
    });
    expect(logout.statusCode).toBe(204);
    expect(await closed).toBe('Server returned an error on close: The session has ended.');
  });

  it('a negotiate answered by one instance opens the WebSocket on the other (no sticky sessions)', async () => {
    const [one, two] = t.apps;
    if (!one || !two) throw new Error('two apps expected');
    const order = await placePendingOrder(one.db, userId('Jóannes'));
    // Negotiate on instance 1, WebSocket on instance 2, as a round-robin balancer may route it.
    const negotiated: string[] = [];
    class Balancer extends DefaultHttpClient {
      override send(request: HttpRequest): Promise<HttpResponse> {
        const url = (request.url ?? '').replace(urls[1] ?? '', urls[0] ?? '');
        negotiated.push(url);
        return super.send({ ...request, url });
      }
    }
    const connection = hubClient(urls[1] ?? '', token, {
      httpClient: new Balancer(NullLogger.instance),
    });
    open.push(connection);
    const updates = collectPaymentUpdates(connection);
    await connection.start();
    expect(negotiated).toEqual([`${urls[0]}${PAYMENT_HUB_PATH}/negotiate?negotiateVersion=1`]);
    expect(two.paymentHub.connections).toBe(1);
    await connection.invoke('ListenToOrder', order.id);
    await changePayment(one.db, order, 'failed');
    expect((await waitForCount(updates, 1))[0]?.status).toBe('failed');
  });

  it('the LISTEN connection comes back after PostgreSQL drops it, and listened orders are re-sent', async () => {
    const [one, two] = t.apps;
    if (!one || !two) throw new Error('two apps expected');
    const order = await placePendingOrder(one.db, userId('Jóannes'));
    const later = await placePendingOrder(one.db, userId('Jóannes'));
    const { connection, updates } = await connectTo(urls[1]);
    await connection.invoke('ListenToOrder', order.id);
    await connection.invoke('ListenToOrder', later.id);

    const listeners = async () =>
      rowsOf(
        await one.db.execute(
          sql`select pid from pg_stat_activity where datname = current_database() and query ilike 'listen%'`,
        ),
      ).map((r) => Number(r.pid));
    const before = await listeners();
    expect(before).toHaveLength(2); // one LISTEN connection per instance

    // A change whose NOTIFY is lost (as one sent while the LISTEN connection is down would be).
    await one.db.update(orders).set({ paymentStatus: 'paid' }).where(eq(orders.id, order.id));
    await one.db.execute(
      sql`select pg_terminate_backend(pid) from unnest(${sql.raw(`array[${before.join(',')}]`)}::int[]) as pid`,
    );

    // Back after the first retry, the hub re-reads what its clients listen to: the missed state.
    // (Both orders are re-read at once, so their updates may arrive in either order.)
    const update = await waitFor(async () => updates.find((u) => u.orderId === order.id), 10_000);
    expect(update).toMatchObject({ orderId: order.id, status: 'paid' });
    // (the other listened order is re-sent too, unchanged)
    await waitForCount(updates, 2);
    expect(updates.find((u) => u.orderId === later.id)?.status).toBe('pending');

    // And notifications flow again on the new connection.
    await changePayment(one.db, later, 'failed');
    await waitFor(async () => updates.find((u) => u.status === 'failed'));
    const after = await waitFor(async () => {
      const pids = await listeners();
      return pids.length === 2 ? pids : undefined;
    });
    expect(after.some((pid) => before.includes(pid))).toBe(false);
  });
});
