import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq, exists, gte, lt, ne, or, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billNumber, periodBounds, previousPeriod } from '@alda/contract/rules/bills';
import { openDatabase, type Database, type Db } from '../src/db/client';
import { accounts } from '../src/db/schema/accounts';
import { billItems, billPeriods, billRuns, bills } from '../src/db/schema/bills';
import { receipts } from '../src/db/schema/payments';
import { phoneLines } from '../src/db/schema/phone-lines';
import { users } from '../src/db/schema/users';
import { usingPostgres } from './helper';
import {
  killAllStarted,
  postgresDatabases,
  startApi,
  withClient,
  type ApiProcess,
} from './support/api-process';
import { armKillPoint, atKillPoint, disarmKillPoint, type KillPoint } from './support/kill-points';
import { until } from './support/http-json';

/*
 * The month-end bills through a kill -9 and a second instance (docs/decisions/0098-monthly-bill.md):
 * the real API as a process bills 400 customers for last month, one customer per transaction
 * (MONTH_END_BILL_BATCH=1), and is killed with SIGKILL in the middle of the run. After a restart
 * the month must end with exactly one bill per customer, the numbers of all bills 1…N without a
 * gap or a repeat, every bill whole (its items add up to it), exactly one run marker per customer
 * looked at, and no run without its bill or bill without its run.
 *
 * PostgreSQL: a second instance bills the same month on the same database at the same time, and
 * the first dies inside a bill's transaction with its number taken (a kill point,
 * support/kill-points.ts: the other instance waits for the number meanwhile, and must get the
 * one given back). The restarted first instance and the second then finish the month together.
 *
 * PGlite: one process owns the data folder, so there is no second instance (bills.test.ts runs
 * two bill services at once on one PGlite in one process), and the test reads the folder only
 * while no process has it open. PGlite answers in microtasks, so a process busy with a long run
 * of queries is slow to log or answer (the job gives the event loop a turn between
 * transactions, but a log line may still come late). So the test watches the bills arrive in
 * PGlite's write-ahead log on disk (a bill's number is written there when it commits) and kills the
 * process once the 20th is in; where in its loop it dies is left to chance.
 */

const CUSTOMERS = 400;
/** The process runs on the real clock: it bills the Faroese month before this one. */
const PERIOD = previousPeriod(new Date());
/** Two years back: long active, charged every month. */
const LONG_AGO = new Date(Date.now() - 2 * 365 * 86_400_000);
const PLAN = 'individual-5';

/** The month end runs once at start (and not again within the test), a customer at a time. */
const BILLING = {
  MONTH_END_INTERVAL_S: '3600',
  MONTH_END_BILL_BATCH: '1',
  // The service logs each batch at debug level ('month end: bill batch').
  LOG_LEVEL: 'debug',
  // Not the month's charge on agreements: only last month's bills are looked at.
  MONTH_END_CHARGE: 'false',
};

const BATCH = '"msg":"month end: bill batch"';
const ISSUED = '"msg":"month end: bills issued"';
const FAILED = 'month-end bills failed';
const batchesOf = (api: ApiProcess) => api.output().split(BATCH).length - 1;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A PostgreSQL URL whose sessions carry `name` (pg_stat_activity, the kill point's WHEN). */
function withAppName(url: string, name: string): string {
  const u = new URL(url);
  u.searchParams.set('application_name', name);
  return u.toString();
}

/**
 * True once `text` is in PGlite's write-ahead log in `dataDir`. The test's folder holds no bill
 * numbers but the demo seed's before the run, so a later number is there once its bill committed.
 */
function walHolds(dataDir: string, text: string): boolean {
  const wal = path.join(dataDir, 'pg_wal');
  return readdirSync(wal)
    .filter((name) => /^[0-9A-F]{24}$/.test(name))
    .some((name) => readFileSync(path.join(wal, name)).includes(text));
}

/** Whether the process has exited: a wait on it then fails at once instead of timing out. */
function watch(api: ApiProcess) {
  let gone = false;
  void api.exited.then(() => (gone = true));
  return () => {
    if (gone) throw new Error(`the API exited:\n${api.output().slice(-4_000)}`);
  };
}

describe('month-end bills through a kill -9 mid-run, with a second instance (ADR 0098)', () => {
  let dir = '';
  const databases = usingPostgres ? postgresDatabases(process.env.DATABASE_URL ?? '') : null;
  let database: { name: string; url: string } | null = null;
  /** PostgreSQL: the test's own pool for all its reads. */
  let pool: Database | null = null;
  const dataDir = () => path.join(dir, 'data');
  /** The customers added here: each owes last month's plan. */
  const added = new Set<string>();

  /** The database from the test (PGlite: only while no process has the folder open). */
  async function withDb<T>(work: (db: Db) => Promise<T>): Promise<T> {
    if (database) {
      pool ??= await openDatabase({ databaseUrl: database.url, dataDir: dataDir() });
      return work(pool.db);
    }
    const opened = await openDatabase({ dataDir: dataDir() });
    try {
      return await work(opened.db);
    } finally {
      await opened.close();
    }
  }

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'alda-bills-crash-'));
    database = databases ? await databases.create() : null;
    // Migrated and seeded with the demo (and its bills of the last two months), the job off.
    const first = await startApi({
      databaseUrl: database?.url,
      dataDir: dataDir(),
      env: { MONTH_END_INTERVAL_S: '0' },
      readyTimeoutMs: 90_000,
    });
    expect(await first.stop()).toBe(0);
    // The customers: each owns an individual account with one number, active for two years.
    const rows = Array.from({ length: CUSTOMERS }, (_, i) => ({
      user: randomUUID(),
      account: randomUUID(),
      i,
    }));
    for (const row of rows) added.add(row.user);
    await withDb(async (db) => {
      await db.insert(users).values(
        rows.map(({ user, i }) => ({
          id: user,
          firstname: 'Kunda',
          lastname: `Nr. ${i + 1}`,
          email: `bill-crash-${i + 1}@example.fo`,
          locale: i % 3 === 0 ? ('en' as const) : ('fo' as const),
          address: `Gøta ${i + 1}`,
          postCode: '100',
          city: 'Tórshavn',
          createdAt: LONG_AGO,
        })),
      );
      await db.insert(accounts).values(
        rows.map(({ user, account }) => ({
          id: account,
          ownerUserId: user,
          type: 'individual_plan' as const,
          planId: PLAN,
          status: 'active' as const,
          createdAt: LONG_AGO,
          statusChangedAt: LONG_AGO,
        })),
      );
      await db.insert(phoneLines).values(
        rows.map(({ user, account, i }) => ({
          msisdn: String(760_000 + i),
          userId: user,
          status: 'active' as const,
          accountId: account,
          planId: PLAN,
          createdAt: LONG_AGO,
          statusChangedAt: LONG_AGO,
          activatedAt: LONG_AGO,
        })),
      );
    });
  }, 120_000);
  afterAll(async () => {
    await killAllStarted();
    await pool?.close();
    await databases?.dropAll();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /**
   * Who the month end must look at for the month (ADR 0098): an owner of an account that is not
   * talutíð (not cancelled before the month, opened before its end), or anyone with a receipt of
   * the month. The demo customers the seed billed already are among them (their run is there).
   */
  async function candidates(db: Db): Promise<string[]> {
    const { start, next } = periodBounds(PERIOD);
    const owner = db
      .select({ one: sql`1` })
      .from(accounts)
      .where(
        and(
          eq(accounts.ownerUserId, users.id),
          ne(accounts.type, 'prepaid'),
          or(ne(accounts.status, 'cancelled'), gte(accounts.statusChangedAt, start)),
          lt(accounts.createdAt, next),
        ),
      );
    const paid = db
      .select({ one: sql`1` })
      .from(receipts)
      .where(
        and(
          eq(receipts.userId, users.id),
          gte(receipts.issuedAt, start),
          lt(receipts.issuedAt, next),
        ),
      );
    const rows = await db
      .select({ id: users.id })
      .from(users)
      .where(or(exists(owner), exists(paid)));
    return rows.map((r) => r.id).sort();
  }

  /** The bills so far: the month's, its payers, the last number, and whether it is done. */
  async function progress(db: Db) {
    const all = await db.select({ serial: bills.serial }).from(bills);
    const ofMonth = await db
      .select({ payer: bills.payerUserId })
      .from(bills)
      .where(eq(bills.period, PERIOD));
    const serials = all.map((r) => r.serial).sort((x, y) => x - y);
    return {
      ofMonth: ofMonth.length,
      payers: ofMonth.map((r) => r.payer ?? ''),
      lastSerial: serials.at(-1) ?? 0,
      unbroken: serials.every((s, i) => s === i + 1),
      complete: (await db.$count(billPeriods, eq(billPeriods.period, PERIOD))) === 1,
    };
  }

  /** Everything the month end promises, read from the database once the month is complete. */
  async function checkMonth(db: Db, expected: { looked: string[]; billed: string[] }) {
    expect(await db.$count(billPeriods, eq(billPeriods.period, PERIOD))).toBe(1);

    // Exactly one run per customer looked at, and none for anyone else.
    const runs = await db.select().from(billRuns).where(eq(billRuns.period, PERIOD));
    expect(runs.map((r) => r.userId).sort()).toEqual(expected.looked);

    // Exactly one bill each for the 400 and for those the demo seed billed; each of the 400 owes
    // the month's plan.
    const ofMonth = await db.select().from(bills).where(eq(bills.period, PERIOD));
    expect(ofMonth.map((b) => b.payerUserId ?? '').sort()).toEqual(expected.billed);
    const mine = ofMonth.filter((b) => added.has(b.payerUserId ?? ''));
    const price = mine[0]?.grossOere ?? 0;
    expect(price).toBeGreaterThan(0);
    expect(mine.filter((b) => b.grossOere !== price || b.paidOere !== 0)).toEqual([]);

    // Runs and bills point at each other: no bill without its run, no run at a missing bill.
    const allBills = await db.select().from(bills);
    const byId = new Map(allBills.map((b) => [b.id, b]));
    const billedRuns = runs.filter((r) => r.billId !== null);
    expect(billedRuns).toHaveLength(ofMonth.length);
    for (const run of billedRuns) {
      const bill = byId.get(run.billId ?? '');
      expect([bill?.payerUserId, bill?.period]).toEqual([run.userId, PERIOD]);
    }
    const dangling = (await db.select({ billId: billRuns.billId }).from(billRuns)).filter(
      (r) => r.billId !== null && !byId.has(r.billId),
    );
    expect(dangling).toEqual([]);

    // The numbers of all bills (the demo's months too): 1…N, no gap, no repeat.
    const serials = allBills.map((b) => b.serial).sort((x, y) => x - y);
    expect(serials).toEqual(allBills.map((_, i) => i + 1));
    expect(allBills.filter((b) => b.number !== billNumber(b.serial))).toEqual([]);

    // Every bill whole: items that add up to its totals, net + VAT = gross.
    const sums = new Map<string, { net: number; vat: number; gross: number }>();
    for (const item of await db.select().from(billItems)) {
      const s = sums.get(item.billId) ?? { net: 0, vat: 0, gross: 0 };
      sums.set(item.billId, {
        net: s.net + item.netOere,
        vat: s.vat + item.vatOere,
        gross: s.gross + item.grossOere,
      });
    }
    const broken = allBills.filter((b) => {
      const s = sums.get(b.id);
      return (
        !s ||
        b.netOere + b.vatOere !== b.grossOere ||
        s.net !== b.netOere ||
        s.vat !== b.vatOere ||
        s.gross !== b.grossOere
      );
    });
    expect(broken.map((b) => b.number)).toEqual([]);
  }

  it('makes exactly one bill per customer, numbered without a gap, though an instance died mid-run', async () => {
    const looked = await withDb(candidates);
    const before = await withDb(progress);
    // Only the demo seed's bills of the month so far; each of the 400 is to be looked at.
    expect(before.complete).toBe(false);
    expect(looked.filter((id) => added.has(id))).toHaveLength(CUSTOMERS);
    const expected = { looked, billed: [...before.payers, ...added].sort() };

    if (databases && database) {
      const { name, url } = database;
      // Connections opened from now on notice a dead client within 0.1 s (kill-points.ts).
      await withClient(url, (c) =>
        c.query(`alter database ${name} set client_connection_check_interval = 100`),
      );
      const [a, b] = await Promise.all(
        ['bill-crash-a', 'bill-crash-b'].map((app) =>
          startApi({ databaseUrl: withAppName(url, app), env: BILLING, readyTimeoutMs: 90_000 }),
        ),
      );
      if (!a || !b) throw new Error('two instances');
      const aAlive = watch(a);
      const bAlive = watch(b);
      // Both bill at the same time; then A dies inside its next bill, B waiting on the number.
      await until(
        'both instances billing',
        async () => {
          aAlive();
          bAlive();
          return batchesOf(a) >= 20 && batchesOf(b) >= 20 ? true : undefined;
        },
        60_000,
      );
      const point: KillPoint = {
        label: "A's next bill written, its number taken, not committed",
        table: 'bills',
        event: 'insert',
        when: `current_setting('application_name') = 'bill-crash-a'`,
      };
      await withClient(url, async (c) => {
        await armKillPoint(c, name, point);
        await until('A inside a bill', async () =>
          (await atKillPoint(c, name)) ? true : undefined,
        );
        // Mid-run: A holds the next number, so the month cannot be done.
        const mid = await withDb(progress);
        expect(mid.complete).toBe(false);
        expect(mid.ofMonth).toBeLessThan(expected.billed.length);
        expect(mid.unbroken).toBe(true);
        await a.kill();
        await until('the killed instance’s sessions gone', async () => {
          const { rows } = await c.query<{ n: number }>(
            `select count(*)::int as n from pg_stat_activity where datname = $1 and application_name = 'bill-crash-a'`,
            [name],
          );
          return rows[0]?.n === 0 ? true : undefined;
        });
        await disarmKillPoint(c, point);
      });

      // A again, next to B, which carried on; whichever ends a pass with nobody left marks
      // the month done.
      const again = await a.restart();
      const againAlive = watch(again);
      await until(
        'the month complete',
        async () => {
          againAlive();
          bAlive();
          return (await withDb(progress)).complete ? true : undefined;
        },
        90_000,
      );
      expect(await again.stop()).toBe(0);
      expect(await b.stop()).toBe(0);
      for (const api of [a, b, again]) expect(api.output()).not.toContain(FAILED);
    } else {
      const target = billNumber(before.lastSerial + 20);
      const a = await startApi({ dataDir: dataDir(), env: BILLING, waitReady: false });
      const aAlive = watch(a);
      await until(
        `bill ${target} committed`,
        async () => {
          aAlive();
          await sleep(100);
          return walHolds(dataDir(), target) ? true : undefined;
        },
        90_000,
      );
      await a.kill();
      // Died mid-run: some bills, not all, the numbers so far unbroken.
      const mid = await withDb(progress);
      expect(mid.complete).toBe(false);
      expect(mid.ofMonth).toBeGreaterThanOrEqual(before.ofMonth + 20);
      expect(mid.ofMonth).toBeLessThan(expected.billed.length);
      expect(mid.unbroken).toBe(true);

      const again = await a.restart();
      const againAlive = watch(again);
      await until(
        'the bills issued',
        async () => {
          againAlive();
          return again.output().includes(ISSUED) ? true : undefined;
        },
        90_000,
      );
      // The month is marked done before that line. Killed, not stopped: SIGTERM would wait
      // for the e-mails of all the bills (see above).
      await again.kill();
      for (const api of [a, again]) expect(api.output()).not.toContain(FAILED);
    }

    await withDb((db) => checkMonth(db, expected));
  }, 180_000);
});
