import { eq } from 'drizzle-orm';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { dataEnvelope } from '@alda/contract/envelope';
import { subscriptionsResponse } from '@alda/contract/schemas/subscriptions';
import type { Db } from '../src/db/client';
import { accounts } from '../src/db/schema/accounts';
import { lineBalances } from '../src/db/schema/balances';
import { phoneLines } from '../src/db/schema/phone-lines';
import { seedDemoData } from '../src/seed/seed';
import { createMonthEndService } from '../src/modules/month-end/service';
import { readUserVersion } from '../src/modules/versions/change-versions';
import { LINES, signIn, type DemoName } from './demo-accounts';
import {
  createTestApp,
  createTestApps,
  demoUser,
  parse,
  testClock,
  usingPostgres,
  waitFor,
} from './helper';
import { paidOrder } from './purchases-fixtures';
import { DEMO_ACCOUNT_IDS } from '../src/seed/demo-accounts';

const GB = 1024;
const log = pino({ level: 'silent' });
/** Guðrun's individual account (seed/demo-accounts.ts). */
const GUDRUN_ACCOUNT = DEMO_ACCOUNT_IDS.gudrun;
/** The balances the demo seeds (Jóannes ×2, Sunneva, Guðrun, Rói). */
const DEMO_BALANCES = 5;

/** A demo app whose clock the test moves; the job's timer is off, rounds are run by hand. */
async function monthApp(start: string, env: Record<string, string> = {}) {
  const clock = testClock(start);
  const t = await createTestApp({ MONTH_END_INTERVAL_S: '0', ...env }, { now: clock.now });
  await seedDemoData(t.app.db, clock.now());
  const monthEnd = createMonthEndService({ db: t.app.db, now: clock.now, log });
  const balance = async (lineId: string) => {
    const [row] = await t.app.db.select().from(lineBalances).where(eq(lineBalances.lineId, lineId));
    return row;
  };
  /** The caller's current member in GET /api/subscriptions (signed in at the clock's time). */
  const current = async (who: DemoName) => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/subscriptions',
      headers: await signIn(t.app, who),
    });
    expect(res.statusCode).toBe(200);
    return parse(dataEnvelope(subscriptionsResponse), res).data.currentAccount?.currentMember;
  };
  return { ...t, clock, monthEnd, balance, current };
}

/** Jóannes buys 5 GB for Sunneva's number (SPEC §1), at the clock's time. */
async function buyFiveGbForSunneva(app: Awaited<ReturnType<typeof monthApp>>) {
  await paidOrder(
    app.app,
    {
      userId: demoUser('Jóannes').id,
      kind: 'extra_package',
      lineId: LINES.sunneva,
      accountId: DEMO_ACCOUNT_IDS.joensenFamily,
      msisdn: '214456',
      packageId: 'data-5',
      priceOere: 9_900,
    },
    app.clock.now(),
  );
}

async function allBalances(db: Db) {
  return db.select().from(lineBalances).orderBy(lineBalances.lineId);
}

describe('month end (SPEC §1 extra packages valid until month end; ADR 0053)', () => {
  it('SPEC §1: an extra package is valid only until month end — counted on 30 November 23:59, gone on 1 December 00:00 Faroese time (UTC+0 in winter)', async () => {
    const t = await monthApp('2026-11-20T12:00:00.000Z');
    try {
      await buyFiveGbForSunneva(t);
      // Seeded: 20 GB plan + 1 GB gift; now + 5 GB package.
      expect((await t.current('Sunneva'))?.dataTotal.domestic).toBe(26 * GB);

      t.clock.set('2026-11-30T23:59:00.000Z');
      expect(await t.monthEnd.run()).toEqual({ applied: 0, moved: 0, removed: 0 });
      const lastMinute = await t.current('Sunneva');
      expect(lastMinute?.dataTotal.domestic).toBe(26 * GB);
      expect((await t.balance(LINES.sunneva))?.periodStart.toISOString()).toBe(
        '2026-11-01T00:00:00.000Z',
      );

      t.clock.set('2026-12-01T00:00:00.000Z');
      expect(await t.monthEnd.run()).toEqual({ applied: 0, moved: DEMO_BALANCES, removed: 0 });
      const december = await t.current('Sunneva');
      // SPEC §3: the family plan's 20 GB, untouched, plus the rollover (ADR 0056: what was left
      // on 30 November, at most the plan's 20 GB); the package itself is gone. EU package of
      // the plan (25 GB), unused.
      const left = lastMinute?.dataRemaining.domestic ?? 0;
      expect(left).toBeLessThan(20 * GB);
      expect(december?.rolloverMb).toBe(left);
      expect(december?.dataTotal).toEqual({ domestic: 20 * GB + left, eu: 25 * GB });
      expect(december?.dataRemaining).toEqual({ domestic: 20 * GB + left, eu: 25 * GB });
      expect(december?.dataUsed).toEqual({ domestic: 0, eu: 0 });
      expect(december?.dataUpdatedAt).toBe('2026-12-01T00:00:00.000Z');
      const row = await t.balance(LINES.sunneva);
      expect(row?.periodStart.toISOString()).toBe('2026-12-01T00:00:00.000Z');
    } finally {
      await t.close();
    }
  });

  it('SPEC §1: a summer month ends at 23:00 UTC — 31 July 22:59 UTC is still July, 23:30 UTC is already 1 August in the Faroes (UTC+1)', async () => {
    const t = await monthApp('2026-07-10T09:00:00.000Z');
    try {
      await buyFiveGbForSunneva(t);
      t.clock.set('2026-07-31T22:59:00.000Z');
      expect(await t.monthEnd.run()).toEqual({ applied: 0, moved: 0, removed: 0 });
      const july = await t.balance(LINES.sunneva);
      expect(july?.domesticTotalMb).toBe(26 * GB);
      const left = july?.domesticRemainingMb ?? 0;

      t.clock.set('2026-07-31T23:30:00.000Z');
      expect(await t.monthEnd.run()).toEqual({ applied: 0, moved: DEMO_BALANCES, removed: 0 });
      const row = await t.balance(LINES.sunneva);
      expect(row?.periodStart.toISOString()).toBe('2026-07-31T23:00:00.000Z');
      // The plan's 20 GB and what was left of July (ADR 0056 rollover); the package is gone.
      expect(row?.domesticTotalMb).toBe(20 * GB + left);
      expect(row?.rolloverMb).toBe(left);
      expect((await t.current('Sunneva'))?.dataTotal.domestic).toBe(20 * GB + left);
    } finally {
      await t.close();
    }
  });

  it('SPEC §3, §4: the new month follows the plan and the EU package — EU allowance only with the package, what was left rolls over (at most the plan), EU data packages gone too', async () => {
    const t = await monthApp('2026-11-20T12:00:00.000Z');
    try {
      // Guðrun bought an EU data package in November and then drops the EU package.
      await paidOrder(
        t.app,
        {
          userId: demoUser('Guðrun').id,
          kind: 'extra_package',
          lineId: LINES.gudrun,
          msisdn: '557812',
          packageId: 'eu-5',
          priceOere: 6_900,
        },
        t.clock.now(),
      );
      expect((await t.balance(LINES.gudrun))?.euAllowanceMb).toBe(30 * GB);
      await t.app.db
        .update(accounts)
        .set({ euPackage: false })
        .where(eq(accounts.id, GUDRUN_ACCOUNT));
      // Jóannes carries 2 GB rollover in the demo; the family account keeps its EU package.
      expect((await t.balance(LINES.joannes))?.rolloverMb).toBe(2 * GB);
      // What each line has left on 30 November becomes its rollover (ADR 0056).
      const leftGudrun = (await t.balance(LINES.gudrun))?.domesticRemainingMb ?? -1;
      const leftJoannes = (await t.balance(LINES.joannes))?.domesticRemainingMb ?? -1;
      const leftWork = (await t.balance(LINES.joannesWork))?.domesticRemainingMb ?? -1;
      expect(leftGudrun).toBe(25 * GB - 11_000);
      expect(leftJoannes).toBe(22 * GB - 8_400);
      // The work number's trip took its plan's data; 3 GB bought afterwards is left (issue 33 §2).
      expect(leftWork).toBe(3 * GB);

      t.clock.set('2026-12-01T08:00:00.000Z');
      await t.monthEnd.run();
      const gudrun = await t.current('Guðrun');
      expect(gudrun?.dataTotal).toEqual({ domestic: 20 * GB + leftGudrun, eu: null });
      expect(gudrun?.dataRemaining).toEqual({ domestic: 20 * GB + leftGudrun, eu: null });
      expect(gudrun?.rolloverMb).toBe(leftGudrun);
      const joannes = await t.current('Jóannes');
      expect(joannes?.dataTotal).toEqual({ domestic: 20 * GB + leftJoannes, eu: 25 * GB });
      expect(joannes?.dataUsed).toEqual({ domestic: 0, eu: 0 });
      // Last month's rollover is not carried on top: at most one month of the plan's data.
      expect(joannes?.rolloverMb).toBe(leftJoannes);
      // Jóannes's work line: individual 5 GB, account without EU package.
      expect(await t.balance(LINES.joannesWork)).toMatchObject({
        domesticTotalMb: 5 * GB + leftWork,
        domesticRemainingMb: 5 * GB + leftWork,
        euAllowanceMb: null,
        rolloverMb: leftWork,
      });
      // Rói's talutíð number carries nothing (prepaid).
      expect((await t.balance(LINES.roi))?.rolloverMb).toBe(0);
    } finally {
      await t.close();
    }
  });

  it('SPEC §5: given-data counters start again in the new month (GET /api/subscriptions givenData)', async () => {
    const t = await monthApp('2026-11-20T12:00:00.000Z');
    try {
      // The demo: Jóannes gave Sunneva 1 GB this month.
      expect((await t.current('Jóannes'))?.givenData.current).toBe(1 * GB);
      t.clock.set('2026-12-01T00:00:00.000Z');
      await t.monthEnd.run();
      const given = (await t.current('Jóannes'))?.givenData;
      expect(given?.current).toBe(0);
      expect(given?.max).toBeGreaterThan(0);
    } finally {
      await t.close();
    }
  });

  it('SPEC §4: a cancelled line expires at month end — its balance is removed; the run bumps the customers’ change versions', async () => {
    const t = await monthApp('2026-11-20T12:00:00.000Z');
    try {
      await t.app.db
        .update(phoneLines)
        .set({ status: 'cancelled', expiresAt: new Date('2026-11-30T23:59:59.999Z') })
        .where(eq(phoneLines.id, LINES.joannesWork));
      const guðrun = demoUser('Guðrun').id;
      const before = await readUserVersion(t.app.db, guðrun);

      t.clock.set('2026-12-01T00:00:00.000Z');
      expect(await t.monthEnd.run()).toEqual({ applied: 0, moved: DEMO_BALANCES - 1, removed: 1 });
      expect(await t.balance(LINES.joannesWork)).toBeUndefined();
      expect(await readUserVersion(t.app.db, guðrun)).toBe(before + 1);
    } finally {
      await t.close();
    }
  });

  it('SPEC §1: running month end twice changes nothing the second time (figures, use since, versions)', async () => {
    const t = await monthApp('2026-11-20T12:00:00.000Z');
    try {
      t.clock.set('2026-12-01T00:00:00.000Z');
      expect((await t.monthEnd.run()).moved).toBe(DEMO_BALANCES);
      // December use booked after the move must survive a second round.
      await t.app.db
        .update(lineBalances)
        .set({ domesticRemainingMb: 19 * GB, domesticUsedMb: 1 * GB })
        .where(eq(lineBalances.lineId, LINES.sunneva));
      const rows = await allBalances(t.app.db);
      const version = await readUserVersion(t.app.db, demoUser('Sunneva').id);

      t.clock.set('2026-12-01T00:05:00.000Z');
      expect(await t.monthEnd.run()).toEqual({ applied: 0, moved: 0, removed: 0 });
      expect(await allBalances(t.app.db)).toEqual(rows);
      expect(await readUserVersion(t.app.db, demoUser('Sunneva').id)).toBe(version);
      expect((await t.current('Sunneva'))?.dataRemaining.domestic).toBe(19 * GB);
    } finally {
      await t.close();
    }
  });

  it('runs once when the app starts (MONTH_END_INTERVAL_S > 0) and not at all with 0', async () => {
    for (const [interval, moves] of [
      ['300', true],
      ['0', false],
    ] as const) {
      const clock = testClock('2026-11-20T12:00:00.000Z');
      const t = await createTestApp({ MONTH_END_INTERVAL_S: interval }, { now: clock.now });
      try {
        await seedDemoData(t.app.db, clock.now());
        clock.set('2026-12-01T00:00:00.000Z');
        await t.app.ready();
        const december = async () => {
          const [row] = await t.app.db
            .select()
            .from(lineBalances)
            .where(eq(lineBalances.lineId, LINES.sunneva));
          return row?.periodStart.toISOString() === '2026-12-01T00:00:00.000Z' ? true : undefined;
        };
        if (moves) {
          await waitFor(december);
        } else {
          await new Promise((resolve) => setTimeout(resolve, 200));
          expect(await december()).toBeUndefined();
        }
      } finally {
        await t.close();
      }
    }
  });

  it.skipIf(!usingPostgres)(
    'two app instances running month end at once on PostgreSQL move each line once (SKIP LOCKED)',
    async () => {
      const clock = testClock('2026-11-20T12:00:00.000Z');
      const t = await createTestApps(2, { MONTH_END_INTERVAL_S: '0' }, { now: clock.now });
      try {
        const [a, b] = t.apps;
        if (!a || !b) throw new Error('two apps');
        await seedDemoData(a.db, clock.now());
        clock.set('2026-12-01T00:00:00.000Z');
        const jobs = [a, b].map((app) =>
          createMonthEndService({ db: app.db, now: clock.now, log, batchSize: 1 }),
        );
        const sunneva = demoUser('Sunneva').id;
        const before = await readUserVersion(a.db, sunneva);
        const results = await Promise.all(jobs.flatMap((job) => [job.run(), job.run()]));
        expect(results.reduce((sum, r) => sum + r.moved, 0)).toBe(DEMO_BALANCES);
        // Sunneva's only balance is her line: one move, one bump.
        expect(await readUserVersion(a.db, sunneva)).toBe(before + 1);
        for (const row of await allBalances(b.db)) {
          expect(row.periodStart.toISOString()).toBe('2026-12-01T00:00:00.000Z');
        }
      } finally {
        await t.close();
      }
    },
  );
});
