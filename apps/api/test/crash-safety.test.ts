import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LINE_IDS, DEMO_PASSWORD, demoUser } from '../src/seed/demo-users';
import { usingPostgres } from './helper';
import {
  killAllStarted,
  postgresDatabases,
  startApi,
  withClient,
  type ApiProcess,
} from './support/api-process';
import {
  armKillPoint,
  atKillPoint,
  disarmKillPoint,
  waitForDeadSessions,
  type KillPoint,
} from './support/kill-points';
import { signupBody } from './provisioning-fixtures';
import { callJson, payOnCardPage, until } from './support/http-json';
import { registrationForm } from './support/registration';

/*
 * Crash safety (issue 14): the real server runs as a process and is killed with SIGKILL in the
 * middle of a package purchase with its payment webhook, a sign-up order and its provisioning, a
 * data gift between family lines, and a month-end round. After a restart on the same database,
 * with the client retrying as a client does (same Idempotency-Key) and the jobs running, every
 * flow must converge: no half-written change, no order left open, nothing applied twice.
 *
 * Where it dies is a kill point (support/kill-points.ts): the n-th write of a row to a table,
 * inside the API's transaction (or between two of them), or just after the answer reached the
 * client. Each run picks one with a seeded generator: CRASH_RUNS runs per flow (default 1),
 * CRASH_SEED to repeat a run (printed). CRASH_RUNS at or above a flow's number of points covers
 * them all.
 *
 * PostgreSQL only: the kill points are placed from a second connection (pg_stat_activity and a
 * trigger), which PGlite — one connection inside the API process — cannot give. PGlite on disk
 * does keep every committed transaction and roll back an open one when its process is SIGKILLed
 * (measured: thousands of acknowledged commits, none lost), but it runs with fsync off, so it is
 * not safe against a power cut or an OS crash.
 */

const runs = Math.max(1, Number(process.env.CRASH_RUNS ?? '1'));
const seed = Number(process.env.CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));

/** mulberry32: a small seeded generator, so a failing run can be repeated with its seed. */
function generator(start: number) {
  let a = start >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** `count` kill points of `points`: a seeded shuffle, repeated when runs exceed the points. */
function pick<T>(points: readonly T[], count: number, salt: number): T[] {
  const random = generator(seed + salt);
  const shuffled = [...points];
  for (let i = shuffled.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [shuffled[i], shuffled[j]] = [shuffled[j] as T, shuffled[i] as T];
  }
  return Array.from({ length: count }, (_, i) => shuffled[i % shuffled.length] as T);
}

/** Short job intervals: nothing waits on a clock a setting can shorten. */
const JOBS = {
  PAYMENT_RECONCILE_INTERVAL_S: '1',
  PAYMENT_RECONCILE_AFTER_S: '1',
  PROVISIONING_POLL_MS: '200',
  PROVISIONING_STEP_S: '0',
  PROVISIONING_SIM_CONFIRM_S: '0',
  MONTH_END_INTERVAL_S: '1',
  // Not the month's charge on agreements: the demo's unpaid month would be charged by whichever
  // process runs first, and its writes (orders, payments, versions) would move these flows' kill
  // points. It is placed once per customer and month by its Idempotency-Key (month-charge.test.ts).
  MONTH_END_CHARGE: 'false',
};

/** The client side: JSON over HTTP to whichever process is running now. */
class Client {
  constructor(public api: ApiProcess) {}

  call(
    method: string,
    path: string,
    options: { token?: string; body?: unknown; key?: string } = {},
  ) {
    return callJson(this.api.url, method, path, options);
  }

  async login(email: string, password = DEMO_PASSWORD): Promise<string> {
    const res = await this.call('POST', '/api/auth/email-login', { body: { email, password } });
    if (res.status !== 200) throw new Error(`login ${email}: ${res.status}`);
    return String(res.data?.accessToken);
  }
}

/** What one run of a flow remembers across the crash. */
type Ctx = Record<string, unknown> & { db: pg.Client };

interface Flow {
  name: string;
  /** Kill points; `afterAnswer` kills once the flow's requests are answered (a lost answer). */
  points: (KillPoint | { label: 'after the answer'; afterAnswer: true })[];
  /** SQL on the fresh copy before the API starts. */
  prepare?(ctx: Ctx): Promise<void>;
  /** Drives the flow over HTTP until it is done (a kill interrupts it). */
  drive(client: Client, ctx: Ctx): Promise<void>;
  /** After the restart: what the client does again (retries with the same key). */
  recover(client: Client, ctx: Ctx): Promise<void>;
  /** Waits for the jobs to finish the flow. */
  settle(client: Client, ctx: Ctx): Promise<void>;
  /** The invariants, read from the database. */
  check(ctx: Ctx): Promise<void>;
}

const q = async <T extends Record<string, unknown>>(
  db: pg.Client,
  sql: string,
  params?: unknown[],
) => (await db.query<T>(sql, params)).rows;

const one = async <T extends Record<string, unknown>>(
  db: pg.Client,
  sql: string,
  params?: unknown[],
) => {
  const rows = await q<T>(db, sql, params);
  if (rows.length !== 1) throw new Error(`expected one row of ${sql}, got ${rows.length}`);
  return rows[0] as T;
};

const JOANNES = demoUser('Jóannes');

/* ---------------------------------------------------------------------------------------------
 * A package purchase: order + payment, the provider's card page, the webhook that fulfils it.
 */
const purchase: Flow = {
  name: 'package purchase with its payment webhook',
  points: [
    {
      label: 'placing: order and payment written, not committed',
      table: 'payments',
      event: 'insert',
    },
    {
      label: 'placing committed, the provider being called',
      table: 'test_provider_payments',
      event: 'insert',
    },
    {
      label: "the provider's answer being stored",
      table: 'payments',
      event: 'update',
      columns: ['provider_payment_id'],
    },
    {
      label: 'card page submitted: the provider queueing its webhooks',
      table: 'test_provider_webhooks',
      event: 'insert',
    },
    {
      label: 'webhook: event recorded, payment not yet paid',
      table: 'payment_webhook_events',
      event: 'insert',
      when: `new.type = 'payment.succeeded'`,
    },
    {
      label: 'fulfilment: package data added, receipt not yet',
      table: 'line_balances',
      event: 'update',
    },
    { label: 'fulfilment: receipt written', table: 'receipts', event: 'insert' },
    {
      label: 'fulfilment: notification written, not committed',
      table: 'notifications',
      event: 'insert',
    },
    {
      label: 'paid and committed, the webhook not yet marked delivered',
      table: 'test_provider_webhooks',
      event: 'update',
      columns: ['delivered_at'],
      when: `new.delivered_at is not null and new.body like '%payment.succeeded%'`,
    },
    { label: 'after the answer', afterAnswer: true },
  ],
  async prepare(ctx) {
    ctx.key = randomUUID();
    ctx.before = await one<{ total: number }>(
      ctx.db,
      `select domestic_total_mb as total from line_balances where line_id = $1`,
      [DEMO_LINE_IDS.joannes],
    );
  },
  async drive(client, ctx) {
    ctx.token = await client.login(JOANNES.email);
    const placed = await client.call('POST', '/api/packages', {
      token: String(ctx.token),
      key: String(ctx.key),
      body: { packageId: 'data-1', phoneNumber: '214455', payWith: 'card' },
    });
    expect(placed.status).toBe(201);
    const order = placed.data?.order as { id: string };
    ctx.orderId = order.id;
    expect(await payOnCardPage(String(placed.data?.paymentUrl))).toBe(303);
    // The status screen follows the order until it is done.
    await until('the order to complete', async () => {
      const res = await client.call('GET', `/api/orders/${order.id}`, { token: String(ctx.token) });
      return res.data?.isComplete === true ? true : undefined;
    });
  },
  async recover(client, ctx) {
    ctx.token ??= await client.login(JOANNES.email);
    // A payment the provider never saw (the process died between the commit and the provider's
    // answer) is cancelled by reconciliation after a fixed grace of 30 s; we age it instead of
    // waiting, then retry as the client would.
    const unsent = await ctx.db.query(
      `update payments set created_at = created_at - interval '5 minutes', updated_at = updated_at - interval '5 minutes'
       where user_id = $1 and state = 'created' and provider_payment_id is null`,
      [JOANNES.id],
    );
    if ((unsent.rowCount ?? 0) > 0) {
      await until('reconciliation to cancel the unsent payment', async () => {
        const open = await q(
          ctx.db,
          `select 1 from payments where user_id = $1 and state = 'created' and provider_payment_id is null`,
          [JOANNES.id],
        );
        return open.length === 0 ? true : undefined;
      });
    }
    const retry = await client.call('POST', '/api/packages', {
      token: String(ctx.token),
      key: String(ctx.key),
      body: { packageId: 'data-1', phoneNumber: '214455', payWith: 'card' },
    });
    expect(retry.status, JSON.stringify(retry)).toBe(201);
    const order = retry.data?.order as { id: string };
    // The retry answers the first order when there was one.
    if (ctx.orderId) expect(order.id).toBe(ctx.orderId);
    ctx.orderId = order.id;
    const paymentUrl = retry.data?.paymentUrl;
    const provider = await q<{ state: string }>(
      ctx.db,
      `select tp.state from test_provider_payments tp join payments p on p.provider_payment_id = tp.id where p.order_id = $1`,
      [order.id],
    );
    // The card page was not submitted (or its submission died with the process): pay again.
    if (typeof paymentUrl === 'string' && provider[0]?.state === 'created')
      expect(await payOnCardPage(paymentUrl)).toBe(303);
  },
  async settle(_client, ctx) {
    await until('every purchase to end', async () => {
      const open = await q(
        ctx.db,
        `select 1 from orders o join payments p on p.order_id = o.id
         where o.user_id = $1 and o.kind = 'extra_package'
           and (not (o.is_complete or o.is_cancelled) or p.state in ('created', 'pending'))`,
        [JOANNES.id],
      );
      return open.length === 0 ? true : undefined;
    });
  },
  async check(ctx) {
    const rows = await q<{
      order_id: string;
      key: string | null;
      is_complete: boolean;
      is_cancelled: boolean;
      payment_status: string;
      state: string;
      fulfilled: boolean;
      receipts: number;
      provider_state: string | null;
    }>(
      ctx.db,
      `select o.id as order_id, o.idempotency_key as key, o.is_complete, o.is_cancelled, o.payment_status,
              p.state, p.fulfilled_at is not null as fulfilled,
              (select count(*)::int from receipts r where r.payment_id = p.id) as receipts,
              tp.state as provider_state
       from orders o join payments p on p.order_id = o.id
       left join test_provider_payments tp on tp.id = p.provider_payment_id
       where o.user_id = $1 and o.kind = 'extra_package' and o.idempotency_key is not null`,
      [JOANNES.id],
    );
    // Every purchase through the API has an Idempotency-Key; the demo's bill history (a package
    // bought last month, demo-bills.ts) was written by the seed without one.
    expect(rows.length).toBe(1);
    const row = rows[0];
    if (!row) return;
    expect(row.order_id).toBe(ctx.orderId);
    expect(row.key).toBe(ctx.key);
    // One order, final, and all of its parts agree.
    expect(row.is_complete !== row.is_cancelled).toBe(true);
    const paid = row.state === 'paid';
    expect(row.payment_status).toBe(row.state);
    expect(row.fulfilled).toBe(paid);
    expect(row.is_complete).toBe(paid);
    expect(row.receipts).toBe(paid ? 1 : 0);
    // Money taken at the provider ⇔ the package given.
    expect(row.provider_state === 'succeeded').toBe(paid);
    const after = await one<{ total: number }>(
      ctx.db,
      `select domestic_total_mb as total from line_balances where line_id = $1`,
      [DEMO_LINE_IDS.joannes],
    );
    const before = ctx.before as { total: number };
    expect(after.total).toBe(before.total + (paid ? 1024 : 0));
    ctx.outcome = paid ? 'paid once' : `cancelled (${row.state})`;
  },
};

/* ---------------------------------------------------------------------------------------------
 * A data gift from Jóannes to Sunneva, a member of his family plan.
 */
const GIFT_MB = 500;
const gift: Flow = {
  name: 'data gift between family lines',
  points: [
    {
      label: "giver's balance lowered, receiver's not yet",
      table: 'line_balances',
      event: 'update',
    },
    {
      label: 'both balances moved, counter not yet',
      table: 'line_balances',
      event: 'update',
      nth: 2,
    },
    { label: 'monthly given counter raised', table: 'given_data_counters', event: 'update' },
    { label: 'transfer row written', table: 'data_transfers', event: 'insert' },
    { label: 'activity log written', table: 'actions', event: 'insert', nth: 2 },
    { label: 'notification written', table: 'notifications', event: 'insert' },
    {
      label: 'change versions bumped, about to commit',
      table: 'user_versions',
      event: 'insert or update',
      nth: 2,
    },
    { label: 'after the answer', afterAnswer: true },
  ],
  async prepare(ctx) {
    ctx.key = randomUUID();
    ctx.before = await q(
      ctx.db,
      `select line_id, domestic_total_mb, domestic_remaining_mb from line_balances where line_id in ($1, $2) order by line_id`,
      [DEMO_LINE_IDS.joannes, DEMO_LINE_IDS.sunneva],
    );
    ctx.loggedBefore = await q(
      ctx.db,
      `select type, count(*)::int as n from actions where type in ('data_given', 'data_received') group by type order by type`,
    );
    ctx.toldBefore = await q(
      ctx.db,
      `select 1 from notifications where user_id = $1 and type = 'data_received'`,
      [demoUser('Sunneva').id],
    );
    ctx.givenBefore = await q(
      ctx.db,
      `select month, given_mb from given_data_counters where line_id = $1`,
      [DEMO_LINE_IDS.joannes],
    );
  },
  async drive(client, ctx) {
    ctx.token = await client.login(JOANNES.email);
    const res = await client.call('POST', '/api/data-transfers', {
      token: String(ctx.token),
      key: String(ctx.key),
      body: { kind: 'gift', fromPhoneNumber: '214455', phoneNumber: '214456', dataAmount: GIFT_MB },
    });
    expect(res.status, JSON.stringify(res)).toBeLessThan(300);
    ctx.transferId = res.data?.id;
  },
  async recover(client, ctx) {
    ctx.token ??= await client.login(JOANNES.email);
    const res = await client.call('POST', '/api/data-transfers', {
      token: String(ctx.token),
      key: String(ctx.key),
      body: { kind: 'gift', fromPhoneNumber: '214455', phoneNumber: '214456', dataAmount: GIFT_MB },
    });
    expect(res.status, JSON.stringify(res)).toBeLessThan(300);
    if (ctx.transferId) expect(res.data?.id).toBe(ctx.transferId);
    ctx.transferId = res.data?.id;
  },
  async settle() {},
  async check(ctx) {
    const transfers = await q<{ id: string; data_mb: number; status: string }>(
      ctx.db,
      `select id, data_mb, status from data_transfers where requester_user_id = $1`,
      [JOANNES.id],
    );
    expect(transfers).toEqual([{ id: ctx.transferId, data_mb: GIFT_MB, status: 'approved' }]);
    const before = ctx.before as {
      line_id: string;
      domestic_total_mb: number;
      domestic_remaining_mb: number;
    }[];
    const after = await q(
      ctx.db,
      `select line_id, domestic_total_mb, domestic_remaining_mb from line_balances where line_id in ($1, $2) order by line_id`,
      [DEMO_LINE_IDS.joannes, DEMO_LINE_IDS.sunneva],
    );
    const shift = (lineId: string) => (lineId === DEMO_LINE_IDS.joannes ? -GIFT_MB : GIFT_MB);
    expect(after).toEqual(
      before.map((b) => ({
        ...b,
        domestic_total_mb: b.domestic_total_mb + shift(b.line_id),
        domestic_remaining_mb: b.domestic_remaining_mb + shift(b.line_id),
      })),
    );
    // The giver's counter of this month grew by the gift, once.
    const counter = await q<{ month: string; given_mb: number }>(
      ctx.db,
      `select month, given_mb from given_data_counters where line_id = $1`,
      [DEMO_LINE_IDS.joannes],
    );
    const givenBefore = ctx.givenBefore as { month: string; given_mb: number }[];
    const grown = counter.map(
      (c) => c.given_mb - (givenBefore.find((b) => b.month === c.month)?.given_mb ?? 0),
    );
    expect(grown.reduce((sum, mb) => sum + mb, 0)).toBe(GIFT_MB);
    const logged = await q<{ type: string; n: number }>(
      ctx.db,
      `select type, count(*)::int as n from actions where type in ('data_given', 'data_received') group by type order by type`,
    );
    const loggedBefore = ctx.loggedBefore as { type: string; n: number }[];
    const countOf = (rows: { type: string; n: number }[], type: string) =>
      rows.find((r) => r.type === type)?.n ?? 0;
    // One entry in each customer's activity log, one notification to the receiver.
    for (const type of ['data_given', 'data_received'])
      expect(countOf(logged, type) - countOf(loggedBefore, type), type).toBe(1);
    const told = await q(
      ctx.db,
      `select 1 from notifications where user_id = $1 and type = 'data_received'`,
      [demoUser('Sunneva').id],
    );
    expect(told.length - (ctx.toldBefore as unknown[]).length).toBe(1);
    ctx.outcome = 'moved once';
  },
};

/* ---------------------------------------------------------------------------------------------
 * A sign-up: a new customer registers a card, reserves a number and orders a subscription
 * (eSIM); the provisioning worker carries the order to an active line.
 */
const signup: Flow = {
  name: 'sign-up order and its provisioning',
  points: [
    {
      label: 'sign-up: account, line and order written, not committed',
      table: 'orders',
      event: 'insert',
      nth: 2,
    },
    {
      label: "sign-up: first step 'received' written",
      table: 'provisioning_steps',
      event: 'insert',
    },
    {
      label: "worker: step 'esim_ready' written",
      table: 'provisioning_steps',
      event: 'insert',
      nth: 2,
    },
    {
      label: "worker: step 'active' written, line not yet active",
      table: 'provisioning_steps',
      event: 'insert',
      nth: 3,
    },
    {
      label: "worker: the new line's balance written",
      table: 'line_balances',
      event: 'insert',
    },
    { label: 'after the answer', afterAnswer: true },
  ],
  async prepare(ctx) {
    ctx.key = randomUUID();
    const n = Math.floor(Math.random() * 10_000);
    ctx.email = `crash${n}-${Date.now()}@example.fo`;
    ctx.phone = `59${String(n).padStart(4, '0')}`;
    ctx.msisdn = `2198${String(Math.floor(Math.random() * 100)).padStart(2, '0')}`;
  },
  async drive(client, ctx) {
    const registered = await client.call('POST', '/api/auth/register', {
      body: registrationForm({ email: String(ctx.email), phoneNumber: String(ctx.phone) }),
    });
    expect(registered.status, JSON.stringify(registered)).toBe(200);
    const token = String(registered.data?.accessToken);
    ctx.token = token;
    // The card on file comes first (ADR 0055).
    const agreement = await client.call('POST', '/api/agreements', {
      token,
      key: randomUUID(),
      body: {},
    });
    expect(agreement.status).toBe(201);
    expect(await payOnCardPage(String(agreement.data?.paymentUrl))).toBe(303);
    await until('the card on file', async () => {
      const res = await client.call('GET', '/api/agreements', { token });
      return res.data?.status === 'active' ? true : undefined;
    });
    const reserved = await client.call('POST', '/api/auth/reserved-numbers', {
      token,
      body: { phoneNumber: ctx.msisdn },
    });
    expect(reserved.status).toBe(200);
    ctx.body = signupBody({
      phoneNumberReservationId: reserved.data?.reservationId as string,
    });
    ctx.sent = true;
    const placed = await client.call('POST', '/api/subscriptions', {
      token,
      key: String(ctx.key),
      body: ctx.body,
    });
    expect(placed.status, JSON.stringify(placed)).toBe(201);
    const order = placed.data?.order as { id: string };
    ctx.orderId = order.id;
    await until('the order to complete', async () => {
      const res = await client.call('GET', `/api/orders/${order.id}`, { token });
      return res.data?.isComplete === true ? true : undefined;
    });
  },
  async recover(client, ctx) {
    expect(ctx.sent, 'the kill points are in the sign-up, after the setup').toBe(true);
    const retry = await client.call('POST', '/api/subscriptions', {
      token: String(ctx.token),
      key: String(ctx.key),
      body: ctx.body,
    });
    expect(retry.status, JSON.stringify(retry)).toBe(201);
    const order = retry.data?.order as { id: string };
    if (ctx.orderId) expect(order.id).toBe(ctx.orderId);
    ctx.orderId = order.id;
  },
  async settle(_client, ctx) {
    await until('the sign-up order to complete', async () => {
      const rows = await q(ctx.db, `select 1 from orders where id = $1 and is_complete`, [
        ctx.orderId,
      ]);
      return rows.length === 1 ? true : undefined;
    });
  },
  async check(ctx) {
    const user = await one<{ id: string }>(ctx.db, `select id from users where email = $1`, [
      ctx.email,
    ]);
    const orders = await q<{ id: string; is_complete: boolean; is_cancelled: boolean }>(
      ctx.db,
      `select id, is_complete, is_cancelled from orders where user_id = $1 and kind = 'new_subscription'`,
      [user.id],
    );
    expect(orders).toEqual([{ id: ctx.orderId, is_complete: true, is_cancelled: false }]);
    const steps = await q<{ step: string; n: number }>(
      ctx.db,
      `select step, count(*)::int as n from provisioning_steps where order_id = $1 group by step order by min(at), step`,
      [ctx.orderId],
    );
    expect(steps).toEqual([
      { step: 'received', n: 1 },
      { step: 'esim_ready', n: 1 },
      { step: 'active', n: 1 },
    ]);
    const lines = await q<{ id: string; status: string }>(
      ctx.db,
      `select id, status from phone_lines where msisdn = $1`,
      [ctx.msisdn],
    );
    expect(lines.map((l) => l.status)).toEqual(['active']);
    const line = lines[0];
    const account = await one<{ status: string; plan_id: string | null }>(
      ctx.db,
      `select a.status, a.plan_id from accounts a join phone_lines l on l.account_id = a.id where l.id = $1`,
      [line?.id],
    );
    expect(account).toEqual({ status: 'active', plan_id: 'individual-5' });
    const balances = await q(ctx.db, `select 1 from line_balances where line_id = $1`, [line?.id]);
    expect(balances).toHaveLength(1);
    const reservations = await q(ctx.db, `select 1 from number_reservations where msisdn = $1`, [
      ctx.msisdn,
    ]);
    expect(reservations).toHaveLength(0);
    ctx.outcome = 'active once';
  },
};

/* ---------------------------------------------------------------------------------------------
 * A month end: every balance is of last month, and a plan downgrade waits on the month start.
 * The job runs as the process starts. The outcome must equal a run without a crash.
 */
const MONTH_START = `date_trunc('month', now() at time zone 'Atlantic/Faroe') at time zone 'Atlantic/Faroe'`;
const LAST_MONTH_START = `(date_trunc('month', now() at time zone 'Atlantic/Faroe') - interval '1 month') at time zone 'Atlantic/Faroe'`;

async function monthEndPrepare(ctx: Ctx) {
  await ctx.db.query(
    `update orders set effective_at = ${MONTH_START}
     where lifecycle_action = 'plan_downgrade' and not is_complete and not is_cancelled`,
  );
  // Something left of every month, different per line, so that a second rollover would show.
  await ctx.db.query(
    `update line_balances set period_start = ${LAST_MONTH_START},
       domestic_remaining_mb = least(domestic_total_mb, 100 + abs(hashtext(line_id::text)) % 700),
       domestic_used_mb = domestic_total_mb - least(domestic_total_mb, 100 + abs(hashtext(line_id::text)) % 700)`,
  );
}

/** What a month end decides, without timestamps (compared with the run without a crash). */
async function monthEndState(db: pg.Client) {
  return {
    balances: await q(
      db,
      `select line_id, period_start = ${MONTH_START} as this_month, domestic_total_mb, domestic_remaining_mb,
              domestic_used_mb, eu_allowance_mb, eu_used_mb, rollover_mb
       from line_balances order by line_id`,
    ),
    orders: await q(
      db,
      `select id, is_complete, is_cancelled from orders where lifecycle_action is not null order by id`,
    ),
    accounts: await q(db, `select id, status, plan_id from accounts order by id`),
    lines: await q(db, `select id, status, plan_id from phone_lines order by id`),
  };
}

async function monthEndDone(db: pg.Client) {
  const open = await q(
    db,
    `select 1 from line_balances where period_start < ${MONTH_START}
     union all
     select 1 from orders where effective_at <= now() and lifecycle_action is not null
       and not is_complete and not is_cancelled`,
  );
  return open.length === 0 ? true : undefined;
}

const monthEnd: Flow = {
  name: 'month-end round',
  points: [
    {
      label: 'the plan downgrade due at the month start being completed',
      table: 'orders',
      event: 'update',
      when: `new.is_complete`,
    },
    {
      label: 'the first balance started over, the others not yet',
      table: 'line_balances',
      event: 'update',
      when: `new.period_start > old.period_start`,
    },
    {
      label: 'four balances started over, the others not yet',
      table: 'line_balances',
      event: 'update',
      when: `new.period_start > old.period_start`,
      nth: 4,
    },
    {
      label: "all balances started over, the customers' change versions being bumped",
      table: 'user_versions',
      event: 'insert or update',
      nth: 5,
    },
    { label: 'after the answer', afterAnswer: true },
  ],
  prepare: monthEndPrepare,
  async drive(_client, ctx) {
    await until('the month end', async () => {
      if (ctx.killed) throw new Error('killed');
      return monthEndDone(ctx.db);
    });
  },
  async recover() {},
  async settle(_client, ctx) {
    await until('the month end', () => monthEndDone(ctx.db));
  },
  async check(ctx) {
    expect(await monthEndState(ctx.db)).toEqual(ctx.expected);
    ctx.outcome = 'same as without a crash';
  },
};

/* --------------------------------------------------------------------------------------------- */

describe.skipIf(!usingPostgres)('crash safety: SIGKILL at any point, restart, converge', () => {
  const databases = postgresDatabases(process.env.DATABASE_URL ?? '');
  let template = '';
  let monthEndExpected: unknown;

  beforeAll(async () => {
    process.stdout.write(`crash-safety: CRASH_SEED=${seed} CRASH_RUNS=${runs}\n`);
    // One migrated, seeded demo database, copied for every run.
    const base = await databases.create();
    const api = await startApi({ databaseUrl: base.url, env: JOBS });
    try {
      const client = new Client(api);
      // Let the seeded demo orders finish provisioning, so that the runs start quiet.
      await withClient(base.url, (db) =>
        until('the demo orders', async () => {
          const due = await q(
            db,
            `select 1 from orders where provisioning_next_at <= now() and not is_complete and not is_cancelled`,
          );
          return due.length === 0 ? true : undefined;
        }),
      );
      // A plan downgrade that waits on the next month start (the month-end flow makes it due).
      const token = await client.login(demoUser('Guðrun').email);
      const down = await client.call('PATCH', `/api/subscriptions/${DEMO_LINE_IDS.gudrun}`, {
        token,
        key: randomUUID(),
        body: { planId: 'individual-5' },
      });
      expect(down.status, JSON.stringify(down)).toBe(200);
    } finally {
      expect(await api.stop()).toBe(0);
    }
    template = base.name;
    // The month end without a crash: what every crashed one must come to.
    const control = await databases.clone(template);
    await withClient(control.url, (db) => monthEndPrepare({ db }));
    const ref = await startApi({ databaseUrl: control.url, env: JOBS });
    try {
      monthEndExpected = await withClient(control.url, async (db) => {
        await until('the month end', () => monthEndDone(db));
        return monthEndState(db);
      });
    } finally {
      await ref.stop();
    }
  }, 120_000);

  afterAll(async () => {
    await killAllStarted();
    await databases.dropAll();
  });

  const flows = [purchase, signup, gift, monthEnd];
  flows.forEach((flow, f) => {
    for (const point of pick(flow.points, runs, f * 7919)) {
      it(`${flow.name}: killed at "${point.label}" → converges after a restart`, async () => {
        const copy = await databases.clone(template);
        await withClient(copy.url, async (db) => {
          const ctx: Ctx = { db, expected: monthEndExpected };
          await flow.prepare?.(ctx);
          const killPoint = 'afterAnswer' in point ? null : point;
          if (killPoint) await armKillPoint(db, copy.name, killPoint);
          const t0 = Date.now();
          const phases: string[] = [];
          const phase = (name: string) =>
            phases.push(`${name} ${((Date.now() - t0) / 1000).toFixed(1)}s`);
          let api = await startApi({ databaseUrl: copy.url, env: JOBS });
          phase('started');
          const client = new Client(api);
          try {
            // Drive the flow; the kill interrupts it (its error is expected then).
            let killed = false;
            let driven = false;
            let driveError: unknown;
            const driving = flow.drive(client, ctx).then(
              () => {
                driven = true;
              },
              (error: unknown) => {
                if (!killed) driveError = error;
              },
            );
            if (killPoint) {
              await until(
                `kill point "${killPoint.label}"`,
                async () => {
                  if (driveError) throw driveError;
                  return (await atKillPoint(db, copy.name)) ? true : undefined;
                },
                30_000,
              );
              killed = true;
              ctx.killed = true;
              phase('at kill point');
              await api.kill();
              await driving;
              await waitForDeadSessions(db, copy.name);
              await disarmKillPoint(db, killPoint);
              phase('killed');
            } else {
              await driving;
              if (driveError) throw driveError;
              expect(driven).toBe(true);
              killed = true;
              await api.kill();
            }
            api = await api.restart();
            client.api = api;
            phase('restarted');
            await flow.recover(client, ctx);
            await flow.settle(client, ctx);
            phase('settled');
            await flow.check(ctx);
            process.stdout.write(
              `crash-safety: ${flow.name} / ${point.label}: ${String(ctx.outcome)} (${phases.join(', ')})\n`,
            );
          } catch (error) {
            const message = error instanceof Error ? error.message : String(error);
            throw new Error(
              `${flow.name}, killed at "${point.label}" (CRASH_SEED=${seed}): ${message}\n--- API output ---\n${api.output().slice(-4000)}`,
              { cause: error },
            );
          } finally {
            await api.kill();
          }
        });
      }, 120_000);
    }
  });
});
