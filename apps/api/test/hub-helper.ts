import type { AddressInfo } from 'node:net';
import {
  HttpTransportType,
  HubConnectionBuilder,
  LogLevel,
  type HttpClient,
  type HubConnection,
  type IRetryPolicy,
} from '@microsoft/signalr';
import { eq } from 'drizzle-orm';
import { WebSocket } from 'ws';
import type { FastifyInstance } from 'fastify';
import {
  PAYMENT_HUB_PATH,
  paymentUpdated,
  type PaymentUpdated,
} from '@alda/contract/schemas/orders';
import type { Db } from '../src/db/client';
import { orders, type OrderRow } from '../src/db/schema/orders';
import { DEMO_USERS } from '../src/seed/demo-users';
import { notifyPaymentUpdated } from '../src/modules/payments/events';
import { waitFor } from './helper';

/*
 * Shared by the payment hub tests: an app listening on a real port (the official client speaks
 * HTTP and WebSockets, not `inject`), official-client connections, and orders whose payment
 * changes the way the payments service changes them (row update + NOTIFY in one transaction).
 */

/** Base URL of an app that listens on an ephemeral port of 127.0.0.1. */
export async function listenLocally(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

export const userId = (firstname: string): string => {
  const user = DEMO_USERS.find((u) => u.firstname === firstname);
  if (!user) throw new Error(`no demo user ${firstname}`);
  return user.id;
};

/** The access token inside an `Authorization: Bearer …` header. */
export const tokenOf = (headers: { authorization: string }) =>
  headers.authorization.replace(/^Bearer /, '');

/** An official-client connection, not started. Logging off: failures are asserted, not printed. */
export function hubClient(
  baseUrl: string,
  accessToken: string | (() => string),
  options: { reconnect?: number[] | IRetryPolicy; httpClient?: HttpClient } = {},
): HubConnection {
  let builder = new HubConnectionBuilder()
    .withUrl(`${baseUrl}${PAYMENT_HUB_PATH}`, {
      accessTokenFactory: typeof accessToken === 'string' ? () => accessToken : accessToken,
      transport: HttpTransportType.WebSockets,
      ...(options.httpClient ? { httpClient: options.httpClient } : {}),
    })
    .configureLogging(LogLevel.None);
  if (Array.isArray(options.reconnect)) builder = builder.withAutomaticReconnect(options.reconnect);
  else if (options.reconnect) builder = builder.withAutomaticReconnect(options.reconnect);
  return builder.build();
}

/** Every PaymentUpdated the connection receives, parsed with the contract schema. */
export function collectPaymentUpdates(connection: HubConnection): PaymentUpdated[] {
  const received: PaymentUpdated[] = [];
  connection.on('PaymentUpdated', (payload: unknown) => {
    received.push(paymentUpdated.parse(payload));
  });
  return received;
}

/** Waits until `list` has at least `count` entries. */
export async function waitForCount<T>(list: T[], count: number, timeoutMs = 5_000): Promise<T[]> {
  return waitFor(async () => (list.length >= count ? list : undefined), timeoutMs);
}

/** A card-paid extra package order of the user, payment pending. */
export async function placePendingOrder(db: Db, ownerId: string): Promise<OrderRow> {
  const [row] = await db
    .insert(orders)
    .values({
      userId: ownerId,
      kind: 'extra_package',
      priceOere: 4_900,
      paymentStatus: 'pending',
      packageId: 'extra-5gb',
    })
    .returning();
  if (!row) throw new Error('order not inserted');
  return row;
}

/**
 * Moves the order's payment as the payments service does: the row change and the NOTIFY in one
 * transaction. With `rollback` the transaction is rolled back after the NOTIFY.
 */
export async function changePayment(
  db: Db,
  order: OrderRow,
  status: 'paid' | 'failed' | 'cancelled' | 'pending',
  options: { rollback?: boolean } = {},
): Promise<void> {
  const rollback = new Error('rolled back on purpose');
  try {
    await db.transaction(async (tx) => {
      await tx
        .update(orders)
        .set({
          paymentStatus: status,
          ...(status === 'paid' ? { isComplete: true, completedAt: new Date() } : {}),
        })
        .where(eq(orders.id, order.id));
      await notifyPaymentUpdated(tx, { orderId: order.id, userId: order.userId });
      if (options.rollback) throw rollback;
    });
  } catch (error) {
    if (error !== rollback) throw error;
  }
}

/** Lets a NOTIFY that would arrive, arrive (used before asserting that nothing came). */
export const settle = (ms = 300) => new Promise((resolve) => setTimeout(resolve, ms));

/** A hub message as a raw client sees it. */
export type RawMessage = Record<string, unknown>;

/** POST negotiate with a bearer token; answers the status and the JSON body. */
export async function negotiate(baseUrl: string, accessToken: string, version = 1) {
  const res = await fetch(`${baseUrl}${PAYMENT_HUB_PATH}/negotiate?negotiateVersion=${version}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${accessToken}` },
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/**
 * A hand-made hub client on the `ws` package, to test the protocol byte by byte: it records
 * every message (split at 0x1E), the close code and whether the upgrade was refused.
 */
export class RawHubClient {
  readonly messages: RawMessage[] = [];
  readonly raw: string[] = [];
  closeCode: number | undefined;
  refusedWith: number | undefined;
  private readonly ws: WebSocket;
  readonly opened: Promise<void>;
  readonly closed: Promise<void>;

  constructor(url: string, headers: Record<string, string> = {}) {
    this.ws = new WebSocket(url, { headers });
    this.ws.on('message', (data: Buffer) => {
      const text = data.toString('utf8');
      this.raw.push(text);
      for (const part of text.split(RS)) {
        if (part !== '') this.messages.push(JSON.parse(part) as RawMessage);
      }
    });
    this.ws.on('unexpected-response', (_request, response) => {
      this.refusedWith = response.statusCode;
      this.ws.terminate();
    });
    this.ws.on('error', () => {});
    this.opened = new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('close', () => reject(new Error(`not opened (${this.refusedWith ?? '?'})`)));
    });
    this.opened.catch(() => {});
    this.closed = new Promise((resolve) => {
      this.ws.once('close', (code) => {
        this.closeCode = code;
        resolve();
      });
    });
  }

  /** Negotiates and connects with the Authorization header (or the access_token query). */
  static async connect(
    baseUrl: string,
    accessToken: string,
    options: { via?: 'header' | 'query'; handshake?: boolean } = {},
  ): Promise<RawHubClient> {
    const { body } = await negotiate(baseUrl, accessToken);
    const url = new URL(`${baseUrl.replace(/^http/, 'ws')}${PAYMENT_HUB_PATH}`);
    url.searchParams.set('id', String(body.connectionToken));
    if (options.via === 'query') url.searchParams.set('access_token', accessToken);
    const client = new RawHubClient(
      url.toString(),
      options.via === 'query' ? {} : { authorization: `Bearer ${accessToken}` },
    );
    await client.opened;
    if (options.handshake ?? true) {
      client.send(`{"protocol":"json","version":1}${RS}`);
      await client.waitForMessage((m) => Object.keys(m).length === 0);
    }
    return client;
  }

  send(text: string) {
    this.ws.send(text);
  }

  /** Sends messages framed with 0x1E, all in one WebSocket frame. */
  sendMessages(...messages: object[]) {
    this.ws.send(messages.map((m) => JSON.stringify(m) + RS).join(''));
  }

  async waitForMessage(match: (m: RawMessage) => boolean, timeoutMs = 5_000) {
    return waitFor(async () => this.messages.find(match), timeoutMs);
  }

  close() {
    this.ws.terminate();
  }

  /** Stops reading from the socket, as a client whose network went away: nothing is answered. */
  freeze() {
    (this.ws as unknown as { _socket: { pause(): void } })._socket.pause();
  }
}

export const RS = '\u001e';
