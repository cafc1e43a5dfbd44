import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { generate } from 'otplib';
import { buildApp } from '../src/app';
import { openDatabase } from '../src/db/client';
import { createMonthEndService } from '../src/modules/month-end/service';
import { SCALE_PASSWORD, seedScale } from '../src/seed/scale/seed-scale';
import { createTestDatabase, testConfig, usingPostgres, type TestDatabase } from './helper';

/*
 * Every query on the paths that carry an operator's volume uses an index (docs/performance.md
 * "Operator's volume", ADR 0093): the usage feed (one Usage and a batch of 1000), the month end,
 * the console's customer search and its lists of payments and orders (first and older pages,
 * filtered and searched), and a customer's sign-in, home screen and poll. The test runs
 * those paths through the real app on a database seeded like an operator's (seedScale, 100,000
 * lines), records every statement the app sends with its parameters, and asks PostgreSQL for
 * each one's plan: a sequential scan of a table that grows with the customers fails it. On
 * PostgreSQL only: PGlite holds tens of thousands of lines at most, and its planner is the same.
 */

const LINES = Number(process.env.SCALE_INDEX_LINES ?? 100_000);

/**
 * Tables that do not grow with the customers: the catalogue, content and the staff. A scan of
 * these is cheap at any size.
 */
const SMALL_TABLES = new Set([
  'plan_types',
  'plans',
  'extra_packages',
  'content_pages',
  'content_versions',
  'status_messages',
  'sim_pickup_locations',
  'number_price_classes',
  'number_fees',
  'staff_users',
  'staff_recovery_codes',
  'staff_sessions',
  'support_saved_replies',
  'partner_clients',
  'payment_webhook_registrations',
  'network_hub_subscriptions',
  'test_provider_cards',
  // Per address and minute, and deleted when the minute is over: bounded by the traffic, not
  // by the customers.
  'rate_limit_counters',
]);

/**
 * A scan of a table this small costs less than its index would: the planner's choice is right
 * whatever the table. A table that grows with the customers is far larger at 100,000 lines.
 */
const SMALL_ROWS = 1_000;

interface Statement {
  sql: string;
  params: unknown[];
  path: string;
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

function seqScans(node: PlanNode): string[] {
  const own =
    node['Node Type'] === 'Seq Scan' && node['Relation Name'] ? [node['Relation Name']] : [];
  return [...own, ...(node.Plans ?? []).flatMap(seqScans)];
}

const SKIP =
  /^\s*(begin|commit|rollback|savepoint|release|listen|unlisten|set |show |select pg_notify)/i;

describe.skipIf(!usingPostgres)(
  `every query of the volume paths uses an index (${LINES.toLocaleString('en')} lines, PostgreSQL)`,
  () => {
    let database: TestDatabase;
    let app: FastifyInstance;
    let explain: pg.Client;
    const statements: Statement[] = [];
    let path = 'start';

    beforeAll(async () => {
      database = await createTestDatabase({ migrated: true });
      await seedScale({ databaseUrl: database.url, lines: LINES, seed: 7, quiet: true });
      const config = testConfig(
        {
          USAGE_FEED_TOKEN: 'scale-index-feed-token-0123456789abcdef',
          RATE_LIMIT_MAX: '0',
          // Only the paths' own statements: every job that queries on a timer is off.
          PROVISIONING_POLL_MS: '0',
          MONTH_END_INTERVAL_S: '0',
          PAYMENT_RECONCILE_INTERVAL_S: '0',
          USAGE_SIMULATOR_INTERVAL_S: '0',
          DATA_EXPORT_POLL_MS: '0',
          SUPPORT_POLL_MS: '0',
          NUMBER_UNLOCK_INTERVAL_S: '0',
        },
        database.url,
      );
      const opened = await openDatabase({
        databaseUrl: config.databaseUrl,
        dataDir: config.dataDir,
        onQuery: (sql, params) => {
          if (!SKIP.test(sql)) statements.push({ sql, params, path });
        },
      });
      app = await buildApp(config, {
        database: opened,
        payments: { testProviderIntervalMs: 0 },
      });
      explain = new pg.Client({ connectionString: database.url });
      await explain.connect();
    }, 600_000);

    afterAll(async () => {
      await explain?.end();
      await app?.close();
      await database?.drop();
    });

    /** The plans' sequential scans of growing tables, per path. */
    async function scansOf(which: string): Promise<string[]> {
      const seen = new Set<string>();
      const found: string[] = [];
      for (const statement of statements.filter((s) => s.path === which)) {
        if (seen.has(statement.sql)) continue;
        seen.add(statement.sql);
        const { rows } = await explain.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(
          `explain (format json) ${statement.sql}`,
          statement.params,
        );
        const plan = rows[0]?.['QUERY PLAN'][0]?.Plan;
        if (!plan) continue;
        for (const table of seqScans(plan))
          if (!SMALL_TABLES.has(table) && (await rowsOf(table)) >= SMALL_ROWS)
            found.push(`${table}: ${statement.sql.slice(0, 160)}`);
      }
      expect(seen.size, `no statement was recorded for ${which}`).toBeGreaterThan(0);
      return found;
    }

    /** The table's rows as the planner counts them. */
    async function rowsOf(table: string): Promise<number> {
      const { rows } = await explain.query<{ n: number }>(
        'select greatest(reltuples, 0)::float8 as n from pg_class where oid = $1::regclass',
        [table],
      );
      return rows[0]?.n ?? 0;
    }

    async function sample(sql: string): Promise<Record<string, string>[]> {
      return (await explain.query<Record<string, string>>(sql)).rows;
    }

    it('the usage feed: one Usage and a batch of 1000 (TMF635)', async () => {
      const numbers = (
        await sample(
          "select msisdn from phone_lines where status = 'active' order by md5(msisdn) limit 1000",
        )
      ).map((r) => r.msisdn as string);
      const usage = (id: string, msisdn: string) => ({
        id,
        usageDate: new Date(Date.now() - 60_000).toISOString(),
        usageType: 'data',
        relatedParty: [{ id: `298${msisdn}`, role: 'subscriber', '@referredType': 'Subscriber' }],
        usageCharacteristic: [
          { name: 'dataVolume', valueType: 'Quantity', value: { amount: 2048, units: 'KB' } },
        ],
      });
      const headers = { authorization: 'Bearer scale-index-feed-token-0123456789abcdef' };
      path = 'ingest';
      const one = await app.inject({
        method: 'POST',
        url: '/tmf-api/usageManagement/v4/usage',
        headers,
        payload: usage('scale-index-one', numbers[0]!),
      });
      expect(one.statusCode, one.body).toBe(201);
      const batch = await app.inject({
        method: 'POST',
        url: '/tmf-api/usageManagement/v4/usage',
        headers,
        payload: numbers.map((n, i) => usage(`scale-index-batch-${i}`, n)),
      });
      expect(batch.statusCode, batch.body).toBe(200);
      path = 'idle';
      expect(await scansOf('ingest')).toEqual([]);
    }, 120_000);

    it('the console: customer search by name, number, start of a number, e-mail and customer id; the payments and orders lists, paged, filtered and searched', async () => {
      const [person] = await sample(
        `select u.id, u.firstname, u.lastname, u.email, l.msisdn
         from users u join phone_lines l on l.user_id = u.id order by md5(u.email) limit 1`,
      );
      const email = `desk-${Date.now()}@staff.alda.fo`;
      const enrolment = await app.staffAccounts.create(
        { email, name: 'Desk', role: 'support', password: 'Desk-Password-1' },
        { actor: 'test', staffUserId: null },
      );
      const signIn = await app.inject({
        method: 'POST',
        url: '/api/staff/auth/sign-in',
        payload: {
          email,
          password: 'Desk-Password-1',
          totpCode: await generate({
            secret: enrolment.totpSecret,
            epoch: Math.floor(Date.now() / 1000),
          }),
        },
      });
      expect(signIn.statusCode, signIn.body).toBe(200);
      const authorization = `Bearer ${signIn.json<{ data: { token: string } }>().data.token}`;
      path = 'desk';
      // The exact keys find the person; the broad ones (a family name, a start) find many.
      const exact = [person!.msisdn!, person!.email!, person!.id!];
      for (const q of [
        ...exact,
        `${person!.firstname} ${person!.lastname}`,
        person!.lastname!,
        person!.msisdn!.slice(0, 3),
        person!.email!.split('@')[0]!.slice(0, 6),
      ]) {
        const res = await app.inject({
          method: 'GET',
          url: `/api/staff/customers?q=${encodeURIComponent(q)}`,
          headers: { authorization },
        });
        expect(res.statusCode, res.body).toBe(200);
        const found = res.json<{ data: { items: { id: string }[] } }>().data.items;
        if (exact.includes(q)) expect(found.map((c) => c.id)).toContain(person!.id);
        else expect(found.length).toBeGreaterThan(0);
      }
      // The console's long lists, first and older pages (keyset: `before`), filtered and searched.
      const page = async (url: string) => {
        const res = await app.inject({ method: 'GET', url, headers: { authorization } });
        expect(res.statusCode, res.body).toBe(200);
        return res.json<{ data: { items: unknown[]; nextBefore: string | null } }>().data;
      };
      for (const list of ['/api/staff/payments', '/api/staff/orders?state=all']) {
        const first = await page(list);
        expect(first.nextBefore).not.toBeNull();
        await page(`${list}${list.includes('?') ? '&' : '?'}before=${first.nextBefore}`);
      }
      const name = encodeURIComponent(`${person!.firstname} ${person!.lastname}`);
      for (const url of [
        '/api/staff/payments?state=paid',
        `/api/staff/payments?q=${person!.msisdn}`,
        `/api/staff/payments?q=${encodeURIComponent(person!.email!)}`,
        `/api/staff/payments?q=${name}`,
        `/api/staff/payments?q=${encodeURIComponent(person!.lastname!)}`,
        '/api/staff/orders?state=failed',
        `/api/staff/orders?state=all&q=${person!.msisdn}`,
        `/api/staff/orders?state=all&q=${name}`,
        `/api/staff/orders?state=all&q=${encodeURIComponent(person!.lastname!)}`,
      ])
        await page(url);
      path = 'idle';
      expect(await scansOf('desk')).toEqual([]);
    }, 120_000);

    it("a customer's day: sign-in, the home screen's requests and the poll", async () => {
      const [person] = await sample(
        `select u.email from users u join phone_lines l on l.user_id = u.id
        where l.status = 'active' order by md5(u.email) limit 1`,
      );
      path = 'customer';
      const login = await app.inject({
        method: 'POST',
        url: '/api/auth/email-login',
        payload: { email: person!.email, password: SCALE_PASSWORD },
      });
      expect(login.statusCode, login.body).toBe(200);
      const authorization = `Bearer ${login.json<{ data: { accessToken: string } }>().data.accessToken}`;
      for (const url of [
        '/api/subscriptions',
        '/api/notifications?page=0&perPage=15',
        '/api/data-transfers',
        '/api/usage/history',
        '/api/receipts',
      ]) {
        const res = await app.inject({ method: 'GET', url, headers: { authorization } });
        expect([200, 404], `${url}: ${res.body}`).toContain(res.statusCode);
      }
      path = 'idle';
      expect(await scansOf('customer')).toEqual([]);
    }, 120_000);

    it('the month end: the balances of last month moved, in batches', async () => {
      // All but some 2,000 balances are already in next month, as on the night a month end ends:
      // the statements and the planner's statistics are those of a full run, in a few seconds.
      const next = new Date();
      next.setUTCMonth(next.getUTCMonth() + 1, 2);
      await explain.query(
        `update line_balances set period_start = date_trunc('month', $1::timestamptz)
        where md5(line_id::text) > '02'`,
        [next.toISOString()],
      );
      await explain.query('analyze line_balances');
      const monthEnd = createMonthEndService({ db: app.db, now: () => new Date(), log: app.log });
      path = 'month-end';
      const result = await monthEnd.run(next);
      path = 'idle';
      expect(result.moved).toBeGreaterThan(100);
      expect(await scansOf('month-end')).toEqual([]);
    }, 300_000);
  },
);
