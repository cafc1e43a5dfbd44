import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { expect } from 'vitest';
import { dataEnvelope } from '@alda/contract/envelope';
import { orderPlacedResponse, orderResponse } from '@alda/contract/schemas/orders';
import type { Db } from '../src/db/client';
import { accounts } from '../src/db/schema/accounts';
import { lineBalances } from '../src/db/schema/balances';
import { orders } from '../src/db/schema/orders';
import { phoneLines } from '../src/db/schema/phone-lines';
import { createMonthEndService } from '../src/modules/month-end/service';
import { parse, type testClock } from './helper';
import type { Headers } from './lifecycle-b-fixtures';

/*
 * Plan changes, cancellations and the month end of the subscription lifecycle
 * (docs/decisions/0056-subscription-lifecycle.md): requests and reads the tests share.
 */

const log = pino({ level: 'silent' });

/** A lifecycle request with an Idempotency-Key (a new one by default), answered in English. */
export function send(
  app: FastifyInstance,
  method: 'PATCH' | 'DELETE' | 'POST',
  url: string,
  headers: Headers,
  payload?: Record<string, unknown>,
  key: string | null = randomUUID(),
) {
  return app.inject({
    method,
    url,
    headers: { ...headers, 'accept-language': 'en', ...(key ? { 'idempotency-key': key } : {}) },
    ...(payload ? { payload } : {}),
  });
}

/** PATCH /api/subscriptions/{lineId} {planId}. */
export function changePlan(
  app: FastifyInstance,
  headers: Headers,
  lineId: string,
  planId: string,
  key: string | null = randomUUID(),
) {
  return send(app, 'PATCH', `/api/subscriptions/${lineId}`, headers, { planId }, key);
}

/** The order a placing call answered (200 expected). */
export function placedOrder(res: Awaited<ReturnType<typeof send>>) {
  expect(res.statusCode, res.body).toBe(200);
  const { data } = parse(dataEnvelope(orderPlacedResponse), res);
  expect(data.paymentUrl).toBeNull();
  return data.order;
}

/** GET /api/orders/{id}. */
export async function getOrder(app: FastifyInstance, headers: Headers, id: string) {
  const res = await app.inject({ method: 'GET', url: `/api/orders/${id}`, headers });
  expect(res.statusCode, res.body).toBe(200);
  return parse(dataEnvelope(orderResponse), res).data;
}

/** A month-end job of its own on the app's database and clock (rounds run by hand). */
export function monthEndOf(db: Db, clock: ReturnType<typeof testClock>) {
  return createMonthEndService({ db, now: clock.now, log });
}

export async function lineRow(db: Db, id: string) {
  const [row] = await db.select().from(phoneLines).where(eq(phoneLines.id, id));
  return row;
}

export async function accountRow(db: Db, id: string) {
  const [row] = await db.select().from(accounts).where(eq(accounts.id, id));
  return row;
}

export async function balanceRow(db: Db, lineId: string) {
  const [row] = await db.select().from(lineBalances).where(eq(lineBalances.lineId, lineId));
  return row;
}

export async function orderRow(db: Db, id: string) {
  const [row] = await db.select().from(orders).where(eq(orders.id, id));
  return row;
}
