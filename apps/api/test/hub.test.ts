import { HubConnectionState, type HubConnection } from '@microsoft/signalr';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { errorEnvelope } from '@alda/contract/envelope';
import { PAYMENT_HUB_PATH } from '@alda/contract/schemas/orders';
import { notifyPaymentUpdated } from '../src/modules/payments/events';
import { seedDemoData } from '../src/seed/seed';
import { signIn, NOW } from './demo-accounts';
import { createTestApp, type TestApp } from './helper';
import {
  changePayment,
  collectPaymentUpdates,
  hubClient,
  listenLocally,
  placePendingOrder,
  settle,
  tokenOf,
  userId,
  waitForCount,
} from './hub-helper';

/*
 * The payment hub with the official @microsoft/signalr client in Node (SPEC §4 "Payment flow",
 * §7 "Payment hub"): negotiate, WebSocket, handshake, ListenToOrder, PaymentUpdated from a
 * committed payment change, StopListeningToOrder, refusals.
 */

let t: TestApp;
let baseUrl: string;
let joannes: string;
let sunneva: string;
const open: HubConnection[] = [];

beforeAll(async () => {
  t = await createTestApp({}, { now: () => NOW });
  await seedDemoData(t.app.db, NOW);
  joannes = tokenOf(await signIn(t.app, 'Jóannes'));
  sunneva = tokenOf(await signIn(t.app, 'Sunneva'));
  baseUrl = await listenLocally(t.app);
});
afterAll(() => t.close());
afterEach(async () => {
  for (const connection of open.splice(0)) await connection.stop();
});

async function connect(accessToken = joannes) {
  const connection = hubClient(baseUrl, accessToken);
  open.push(connection);
  const updates = collectPaymentUpdates(connection);
  await connection.start();
  return { connection, updates };
}

/** A new pending order of Jóannes and a connection of his listening to it. */
async function listeningToNewOrder() {
  const order = await placePendingOrder(t.app.db, userId('Jóannes'));
  const { connection, updates } = await connect();
  await connection.invoke('ListenToOrder', order.id);
  return { order, connection, updates };
}

describe('payment hub with the official client (SPEC §4 Payment flow, §7 Payment hub)', () => {
  it('SPEC §4 Payment flow: connect, listen to an order, receive PaymentUpdated with the new state', async () => {
    const order = await placePendingOrder(t.app.db, userId('Jóannes'));
    const { connection, updates } = await connect();
    expect(connection.state).toBe(HubConnectionState.Connected);

    await connection.invoke('ListenToOrder', order.id);
    await changePayment(t.app.db, order, 'paid');

    const [update] = await waitForCount(updates, 1);
    expect(update).toMatchObject({
      orderId: order.id,
      status: 'paid',
      order: { id: order.id, kind: 'extra_package', paymentStatus: 'paid', isComplete: true },
    });
    expect(update?.order.price).toEqual({ net: 3_920, vat: 980, gross: 4_900 });
    expect(Date.parse(update?.updatedAt ?? '')).not.toBeNaN();
  });

  it('SPEC §4 Payment flow: after StopListeningToOrder no more PaymentUpdated arrives', async () => {
    const { order, connection, updates } = await listeningToNewOrder();
    await changePayment(t.app.db, order, 'pending');
    await waitForCount(updates, 1);

    await connection.invoke('StopListeningToOrder', order.id);
    await changePayment(t.app.db, order, 'paid');
    await settle();
    expect(updates.map((u) => u.status)).toEqual(['pending']);
  });

  it('a rolled-back payment change sends nothing; the next committed one does', async () => {
    const { order, updates } = await listeningToNewOrder();

    await changePayment(t.app.db, order, 'paid', { rollback: true });
    await settle();
    expect(updates).toEqual([]);

    await changePayment(t.app.db, order, 'failed');
    const [update] = await waitForCount(updates, 1);
    expect(update?.status).toBe('failed');
  });

  it('only connections listening to the order get its event', async () => {
    const first = await placePendingOrder(t.app.db, userId('Jóannes'));
    const second = await placePendingOrder(t.app.db, userId('Jóannes'));
    const a = await connect();
    const b = await connect();
    await a.connection.invoke('ListenToOrder', first.id);
    await b.connection.invoke('ListenToOrder', second.id);

    await changePayment(t.app.db, second, 'paid');
    await waitForCount(b.updates, 1);
    await settle();
    expect(a.updates).toEqual([]);
    expect(b.updates[0]?.orderId).toBe(second.id);
  });

  it('SPEC §4 Payment flow: states only move forward — a state is heard once, and never pending after the outcome', async () => {
    const { order, connection, updates } = await listeningToNewOrder();

    await changePayment(t.app.db, order, 'paid');
    await waitForCount(updates, 1);
    // A second notice with nothing changed (two webhooks whose reads both saw the outcome).
    await notifyPaymentUpdated(t.app.db, { orderId: order.id, userId: order.userId });
    // A read that saw the row before the outcome and answered last (forced here by moving the
    // row back, which the payments service never does).
    await changePayment(t.app.db, order, 'pending');
    await settle();
    expect(updates.map((u) => u.status)).toEqual(['paid']);

    // Listening again answers the outcome, still once for this connection.
    await connection.invoke('ListenToOrder', order.id);
    await settle();
    expect(updates).toHaveLength(1);
  });

  it('SPEC §4 Payment flow: listening after the payment ended sends its outcome at once', async () => {
    const order = await placePendingOrder(t.app.db, userId('Jóannes'));
    await changePayment(t.app.db, order, 'failed');
    const { connection, updates } = await connect();

    await connection.invoke('ListenToOrder', order.id);
    const [update] = await waitForCount(updates, 1);
    expect(update).toMatchObject({ orderId: order.id, status: 'failed' });
  });

  it("SPEC §7 Payment hub: another customer's order is refused with the same error as an unknown one", async () => {
    const order = await placePendingOrder(t.app.db, userId('Jóannes'));
    const { connection, updates } = await connect(sunneva);

    const foreign = await connection.invoke('ListenToOrder', order.id).catch((e: Error) => e);
    const unknown = await connection
      .invoke('ListenToOrder', '00000000-0000-4000-8000-000000000000')
      .catch((e: Error) => e);
    const garbage = await connection.invoke('ListenToOrder', 'not-an-id').catch((e: Error) => e);
    expect(foreign).toBeInstanceOf(Error);
    expect(String(foreign)).toContain('Unknown order.');
    expect(String(unknown)).toBe(String(foreign));
    expect(String(garbage)).toBe(String(foreign));

    // And the refused listen does not leak the order's events either.
    await changePayment(t.app.db, order, 'paid');
    await settle();
    expect(updates).toEqual([]);
    expect(connection.state).toBe(HubConnectionState.Connected);
  });

  it('an unknown method is answered with an error, method names match case-insensitively', async () => {
    const order = await placePendingOrder(t.app.db, userId('Jóannes'));
    const { connection, updates } = await connect();
    const error = await connection.invoke('PayForMe', order.id).catch((e: Error) => e);
    expect(String(error)).toContain("Unknown hub method 'PayForMe'");

    await connection.invoke('listentoorder', order.id);
    await changePayment(t.app.db, order, 'paid');
    expect((await waitForCount(updates, 1))[0]?.status).toBe('paid');
  });

  it('SPEC §7 Payment hub: negotiate without a valid token is 401 with the error envelope', async () => {
    const none = await fetch(`${baseUrl}${PAYMENT_HUB_PATH}/negotiate?negotiateVersion=1`, {
      method: 'POST',
    });
    expect(none.status).toBe(401);
    expect(errorEnvelope.parse(await none.json()).error.code).toBe('UNAUTHORIZED');

    const bad = await fetch(`${baseUrl}${PAYMENT_HUB_PATH}/negotiate?negotiateVersion=1`, {
      method: 'POST',
      headers: { authorization: 'Bearer not-a-token' },
    });
    expect(bad.status).toBe(401);

    const client = hubClient(baseUrl, 'not-a-token');
    await expect(client.start()).rejects.toThrow(/401/);
    expect(client.state).toBe(HubConnectionState.Disconnected);
  });
});

describe('ended sessions (ADR 0051)', () => {
  /** A fresh e-mail login (Jóannes by default): its access and refresh token. */
  async function session(email = 'joannes@demo.alda.fo') {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/email-login',
      payload: { email, password: 'Demo1234!' },
    });
    const { accessToken, refreshToken } = res.json().data as {
      accessToken: string;
      refreshToken: string;
    };
    return { accessToken, refreshToken };
  }

  /** An official client with automatic reconnect, and what ended it. */
  async function connectReconnecting(accessToken: string) {
    const connection = hubClient(baseUrl, accessToken, { reconnect: [0, 100, 100] });
    open.push(connection);
    const states: string[] = [];
    connection.onreconnecting(() => states.push('reconnecting'));
    const closed = new Promise<string | undefined>((resolve) =>
      connection.onclose((error) => resolve(error?.message)),
    );
    await connection.start();
    return { connection, states, closed };
  }

  it('logging out closes the hub connections of that session at once, without a reconnect; another session stays connected', async () => {
    const phone = await session();
    const tablet = await session();
    const onPhone = await connectReconnecting(phone.accessToken);
    const onTablet = await connectReconnecting(tablet.accessToken);

    const logout = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      payload: { refreshToken: phone.refreshToken },
    });
    expect(logout.statusCode).toBe(204);
    expect(await onPhone.closed).toBe('Server returned an error on close: The session has ended.');
    expect(onPhone.states).toEqual([]);
    expect(onPhone.connection.state).toBe(HubConnectionState.Disconnected);
    await settle();
    expect(onTablet.connection.state).toBe(HubConnectionState.Connected);
  });

  it('a new password ends the hub connections of every other session of the customer', async () => {
    const other = await session('gudrun@demo.alda.fo');
    const current = await session('gudrun@demo.alda.fo');
    const onOther = await connectReconnecting(other.accessToken);
    const onCurrent = await connectReconnecting(current.accessToken);
    const changed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/change-password',
      headers: { authorization: `Bearer ${current.accessToken}` },
      payload: { currentPassword: 'Demo1234!', password: 'Nýtt-loyniord-2026' },
    });
    expect(changed.statusCode).toBe(200);
    expect(await onOther.closed).toBe('Server returned an error on close: The session has ended.');
    await settle();
    expect(onCurrent.connection.state).toBe(HubConnectionState.Connected);
  });
});
