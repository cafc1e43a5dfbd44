import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope } from '@alda/contract/envelope';
import { tokens } from '@alda/contract/schemas/auth';
import { notificationsResponse } from '@alda/contract/schemas/notifications';
import { receiptsResponse } from '@alda/contract/schemas/receipts';
import { staffCustomerSearchResult } from '@alda/contract/schemas/staff-customers';
import { subscriptionsResponse } from '@alda/contract/schemas/subscriptions';
import { usageHistoryResponse } from '@alda/contract/schemas/usage';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app';
import { openDatabase, type Database } from '../src/db/client';
import { rowsOf } from '../src/db/rows';
import { ORDER_KINDS, PAYMENT_STATUSES, PROVISIONING_WAITS } from '../src/db/schema/orders';
import { RATIOS } from '../src/seed/scale/ratios';
import { ScaleSeedRefused } from '../src/seed/scale/safety';
import {
  SCALE_PASSWORD,
  seedScale,
  type SeedScaleOptions,
  type SeedScaleResult,
} from '../src/seed/scale/seed-scale';
import { seedDemoData } from '../src/seed/seed';
import {
  bearer,
  createTestDatabase,
  parse,
  pgliteSnapshot,
  testConfig,
  usingPostgres,
  type TestDatabase,
} from './helper';
import { signInStaff } from './staff-helper';

/*
 * `npm run seed:scale` (src/seed/scale): 300 lines on a fresh database (PGlite, or PostgreSQL
 * with DATABASE_URL: there through COPY), then what a user of the data would notice: the counts
 * keep the stated ratios, families have 2–6 members, a seeded customer signs in through the
 * real app and sees their home, the console finds them; and the seeder refuses the databases it
 * must not touch.
 */

const LINES = 300;
const SEED = 7;

interface Seeded {
  app: FastifyInstance;
  database: Database;
  testDb: TestDatabase;
  result: SeedScaleResult;
  options: SeedScaleOptions;
}

/** A migrated test database, seeded (COPY on PostgreSQL, INSERTs on PGlite), then the app. */
async function seeded(lines: number): Promise<Seeded> {
  const testDb = await createTestDatabase({ migrated: true });
  const database = await openDatabase({
    databaseUrl: testDb.url,
    dataDir: 'memory',
    pgliteSnapshot: usingPostgres ? undefined : await pgliteSnapshot(),
  });
  const options: SeedScaleOptions = testDb.url
    ? { databaseUrl: testDb.url, lines, seed: SEED }
    : { database, lines, seed: SEED };
  // Seeded before the app starts, as a database is seeded before `npm start` reads it.
  const result = await seedScale(options);
  const app = await buildApp(testConfig({}, testDb.url), { database });
  return { app, database, testDb, result, options };
}

async function count(app: FastifyInstance, query: string): Promise<number> {
  const [row] = rowsOf(await app.db.execute(sql.raw(query)));
  return Number(row?.n ?? NaN);
}

let s: Seeded;
beforeAll(async () => {
  s = await seeded(LINES);
}, 60_000);
afterAll(async () => {
  await s?.app.close();
  await s?.testDb.drop();
});

describe('seed:scale: the data', () => {
  it('writes exactly the lines asked for, and the counts it reports are the rows in the tables', async () => {
    expect(s.result.lines).toBe(LINES);
    expect(await count(s.app, 'SELECT count(*) AS n FROM phone_lines')).toBe(LINES);
    for (const [table, rows] of Object.entries(s.result.rows)) {
      expect(await count(s.app, `SELECT count(*) AS n FROM ${table}`), table).toBe(rows);
    }
    expect(s.result.databaseBytes).toBeGreaterThan(0);
  });

  it('keeps the stated ratios', async () => {
    const r = s.result.rows;
    const lines = (where: string) =>
      count(s.app, `SELECT count(*) AS n FROM phone_lines WHERE ${where}`);
    const active = await lines(`status = 'active'`);
    const cancelled = await lines(`status = 'cancelled'`);
    // ~12 % of lines are cancelled ones of the past; most of the rest are in service.
    expect(cancelled / LINES).toBeGreaterThan(0.05);
    expect(cancelled / LINES).toBeLessThan(0.2);
    expect(await lines(`is_prepaid`)).toBeGreaterThan(0);
    // One balance per line in service; a daily row for most days of the history.
    expect(r.line_balances).toBe(active);
    const daysPerLine = (r.usage_daily ?? 0) / active;
    expect(daysPerLine).toBeGreaterThan(100);
    expect(daysPerLine).toBeLessThan(185);
    // Raw records for the last RATIOS.recordDays days: data, calls and SMS, ~2–3 a day.
    const recordsPerLine = (r.usage_records ?? 0) / active;
    expect(recordsPerLine).toBeGreaterThan(RATIOS.recordDays * 1.5);
    expect(recordsPerLine).toBeLessThan(RATIOS.recordDays * 4);
    // Every paid payment has its receipt; a paying customer pays every month of the history.
    expect(r.receipts).toBe(
      await count(s.app, `SELECT count(*) AS n FROM payments WHERE state = 'paid'`),
    );
    const payers = await count(
      s.app,
      `SELECT count(*) AS n FROM payment_agreements WHERE status = 'active'`,
    );
    const monthly = await count(
      s.app,
      `SELECT count(*) AS n FROM orders WHERE kind = 'subscription_payment' AND payment_status = 'paid'`,
    );
    expect(monthly / payers).toBeGreaterThan(4);
    expect(monthly / payers).toBeLessThanOrEqual(7);
    // Sessions for ~30 % of users, a support conversation for ~2 %.
    const users = r.users ?? 0;
    const withSessions = await count(s.app, 'SELECT count(DISTINCT user_id) AS n FROM sessions');
    expect(withSessions / users).toBeGreaterThan(0.15);
    expect(withSessions / users).toBeLessThan(0.45);
    const withSupport = await count(
      s.app,
      'SELECT count(DISTINCT user_id) AS n FROM support_conversations',
    );
    expect(withSupport / users).toBeLessThan(0.08);
  });

  it('has family accounts of 2–6 members, individual and prepaid accounts', async () => {
    const sizes = rowsOf(
      await s.app.db.execute(
        sql.raw(
          `SELECT a.type, count(l.id)::int AS members FROM accounts a JOIN phone_lines l ON l.account_id = a.id
            WHERE a.status <> 'cancelled' GROUP BY a.id, a.type`,
        ),
      ),
    );
    const families = sizes.filter((a) => a.type === 'family_plan').map((a) => Number(a.members));
    expect(families.length).toBeGreaterThan(3);
    expect(Math.min(...families)).toBeGreaterThanOrEqual(2);
    expect(Math.max(...families)).toBeLessThanOrEqual(6);
    expect(new Set(sizes.map((a) => a.type))).toEqual(
      new Set(['family_plan', 'individual_plan', 'prepaid']),
    );
  });

  it('has orders of every payment state and the provisioning states, and only the schema’s kinds', async () => {
    const values = async (column: string) =>
      rowsOf(
        await s.app.db.execute(
          sql.raw(`SELECT DISTINCT ${column} AS v FROM orders WHERE ${column} IS NOT NULL`),
        ),
      ).map((r) => String(r.v));
    expect(new Set(await values('payment_status'))).toEqual(new Set(PAYMENT_STATUSES));
    const kinds = await values('kind');
    expect(kinds.every((k) => (ORDER_KINDS as readonly string[]).includes(k))).toBe(true);
    expect(kinds.length).toBeGreaterThanOrEqual(8);
    const waits = await values('provisioning_waiting_for');
    expect(waits.every((w) => (PROVISIONING_WAITS as readonly string[]).includes(w))).toBe(true);
    expect(waits).toContain('none');
    expect(waits).toContain('month_end');
    // Orders still in provisioning wait for the network or the customer's SIM.
    expect(waits.some((w) => w === 'network' || w === 'customer_sim')).toBe(true);
  });
});

describe('seed:scale: the app serves the seeded customers', () => {
  it('a customer signs in with the stated password and sees their subscriptions, usage history, notifications and receipts', async () => {
    const [owner] = rowsOf(
      await s.app.db.execute(
        sql.raw(
          `SELECT u.email, l.id AS line FROM users u JOIN accounts a ON a.owner_user_id = u.id AND a.type = 'family_plan' AND a.status = 'active'
             JOIN phone_lines l ON l.user_id = u.id AND l.account_id = a.id AND l.status = 'active' ORDER BY u.email LIMIT 1`,
        ),
      ),
    );
    const login = await s.app.inject({
      method: 'POST',
      url: '/api/auth/email-login',
      payload: { email: owner?.email, password: SCALE_PASSWORD },
    });
    expect(login.statusCode, login.body).toBe(200);
    const headers = bearer(parse(dataEnvelope(tokens), login).data.accessToken);
    const home = await s.app.inject({ url: '/api/subscriptions', headers });
    expect(home.statusCode, home.body).toBe(200);
    const overview = parse(dataEnvelope(subscriptionsResponse), home).data;
    expect(overview.currentAccount?.type).toBe('family_plan');
    const history = await s.app.inject({
      url: `/api/subscriptions/${String(owner?.line)}/usage-history`,
      headers,
    });
    expect(history.statusCode, history.body).toBe(200);
    const days = parse(dataEnvelope(usageHistoryResponse), history).data;
    expect(JSON.stringify(days)).toMatch(/[1-9]/);
    for (const url of ['/api/notifications', '/api/receipts', '/api/orders', '/api/actions']) {
      const res = await s.app.inject({ url, headers });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    }
    parse(
      dataEnvelope(notificationsResponse),
      await s.app.inject({ url: '/api/notifications', headers }),
    );
    const receipts = parse(
      dataEnvelope(receiptsResponse),
      await s.app.inject({ url: '/api/receipts', headers }),
    ).data;
    expect(receipts.total).toBeGreaterThan(0);
  });

  it('the console finds a seeded customer by name and by number', async () => {
    const [customer] = rowsOf(
      await s.app.db.execute(
        sql.raw(
          `SELECT u.id, u.firstname, u.lastname, u.phone_number FROM users u
            JOIN phone_lines l ON l.user_id = u.id AND l.status = 'active'
            WHERE (SELECT count(*) FROM users v WHERE v.firstname = u.firstname AND v.lastname = u.lastname) = 1
            ORDER BY u.id LIMIT 1`,
        ),
      ),
    );
    const staff = await signInStaff(s.app, 'support');
    const search = async (q: string) => {
      const res = await s.app.inject({
        url: `/api/staff/customers?q=${encodeURIComponent(q)}`,
        headers: staff.headers,
      });
      expect(res.statusCode, res.body).toBe(200);
      return parse(dataEnvelope(staffCustomerSearchResult), res).data.items.map((hit) => hit.id);
    };
    expect(await search(`${String(customer?.firstname)} ${String(customer?.lastname)}`)).toContain(
      customer?.id,
    );
    expect(await search(String(customer?.phone_number))).toContain(customer?.id);
  });
});

describe('seed:scale: safety', () => {
  it('refuses a second run without --reset, and replaces its own data with --reset', async () => {
    await expect(seedScale(s.options)).rejects.toThrow(ScaleSeedRefused);
    await expect(seedScale(s.options)).rejects.toThrow(/already filled by seed:scale.*--reset/);
    const again = await seedScale({ ...s.options, lines: 40, reset: true });
    expect(again.lines).toBe(40);
    expect(await count(s.app, 'SELECT count(*) AS n FROM phone_lines')).toBe(40);
    expect(await count(s.app, 'SELECT lines AS n FROM scale_seed')).toBe(40);
    // A run that stopped half-way is its own too: refused without --reset.
    await s.app.db.execute(sql.raw(`UPDATE scale_seed SET state = 'loading'`));
    await expect(seedScale(s.options)).rejects.toThrow(/was being filled by seed:scale/);
  });

  it('refuses a database with the demo customers, even with --reset, and leaves it as it was', async () => {
    const testDb = await createTestDatabase({ migrated: true });
    const database = await openDatabase({
      databaseUrl: testDb.url,
      dataDir: 'memory',
      pgliteSnapshot: usingPostgres ? undefined : await pgliteSnapshot(),
    });
    try {
      await seedDemoData(database.db);
      const options = testDb.url ? { databaseUrl: testDb.url } : { database };
      for (const reset of [false, true]) {
        const refused = seedScale({ ...options, lines: 10, reset });
        await expect(refused).rejects.toThrow(ScaleSeedRefused);
        await expect(refused).rejects.toThrow(/holds customers/);
      }
      const [users] = rowsOf(await database.db.execute(sql`SELECT count(*)::int AS n FROM users`));
      expect(users?.n).toBe(5);
    } finally {
      await database.close();
      await testDb.drop();
    }
  });
});
