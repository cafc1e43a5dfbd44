import { inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { orders } from '../src/db/schema/orders';
import { provisioningSteps } from '../src/db/schema/provisioning';
import { DEMO_ACCOUNT_IDS } from '../src/seed/demo-accounts';
import { LINES, signIn } from './demo-accounts';
import {
  accountRow,
  balanceRow,
  changePlan,
  lineRow,
  monthEndOf,
  placedOrder,
  send,
} from './lifecycle-a-fixtures';
import { createLifecycleApp, overview } from './lifecycle-b-fixtures';

const GB = 1024;

describe('SPEC §4 Subscription lifecycle: the month end (ADR 0053, 0056)', () => {
  it('SPEC §4: month-end orders are carried out once, also when the job runs twice and on two instances at the same time', async () => {
    const t = await createLifecycleApp();
    try {
      const { app } = t;
      const down = placedOrder(await changePlan(app, t.as.Guðrun, LINES.gudrun, 'individual-5'));
      const off = placedOrder(
        await send(
          app,
          'DELETE',
          `/api/subscriptions/deactivate-plan/${LINES.joannesWork}`,
          t.as.Jóannes,
        ),
      );
      t.clock.set('2026-07-01T00:01:00.000Z');
      const a = monthEndOf(app.db, t.clock);
      const b = monthEndOf(app.db, t.clock);
      const results = await Promise.all([a.run(), b.run(), a.run()]);
      expect(results.reduce((sum, r) => sum + r.applied, 0)).toBe(2);
      expect((await b.run()).applied).toBe(0);
      const steps = await app.db
        .select()
        .from(provisioningSteps)
        .where(inArray(provisioningSteps.orderId, [down.id, off.id]));
      expect(steps.filter((s) => s.step === 'active')).toHaveLength(2);
      const done = await app.db
        .select()
        .from(orders)
        .where(inArray(orders.id, [down.id, off.id]));
      expect(done.every((o) => o.isComplete && o.provisioningWaitingFor === 'none')).toBe(true);
      // The work line became talutíð once: one prepaid account.
      const work = await lineRow(app.db, LINES.joannesWork);
      expect(work?.isPrepaid).toBe(true);
      expect((await accountRow(app.db, work?.accountId ?? ''))?.type).toBe('prepaid');
      expect((await accountRow(app.db, DEMO_ACCOUNT_IDS.joannesWork))?.status).toBe('cancelled');
      // Balances moved once, into July.
      expect((await balanceRow(app.db, LINES.gudrun))?.periodStart.toISOString()).toBe(
        '2026-06-30T23:00:00.000Z',
      );
    } finally {
      await t.close();
    }
  });

  it('SPEC §4: what was left rolls over into the next month (at most the plan, shown as rolloverMb); a smaller plan deletes it; unlimited and talutíð carry none', async () => {
    const t = await createLifecycleApp();
    try {
      const { app } = t;
      // Guðrun goes to a smaller plan at month end; Jóannes's work line stays on its plan.
      placedOrder(await changePlan(app, t.as.Guðrun, LINES.gudrun, 'individual-5'));
      const gudrunLeft = (await balanceRow(app.db, LINES.gudrun))?.domesticRemainingMb ?? 0;
      const workLeft = (await balanceRow(app.db, LINES.joannesWork))?.domesticRemainingMb ?? 0;
      expect(gudrunLeft).toBeGreaterThan(0);
      expect(workLeft).toBeGreaterThan(0);
      expect(workLeft).toBeLessThanOrEqual(5 * GB);

      t.clock.set('2026-07-01T00:01:00.000Z');
      const result = await monthEndOf(app.db, t.clock).run();
      expect(result.applied).toBe(1);
      const work = (await overview(app, await signIn(app, 'Jóannes'), '214466')).currentAccount
        ?.currentMember;
      expect(work?.rolloverMb).toBe(workLeft);
      expect(work?.dataTotal.domestic).toBe(5 * GB + workLeft);
      expect(work?.dataRemaining.domestic).toBe(5 * GB + workLeft);
      const gudrun = (await overview(app, await signIn(app, 'Guðrun'), '557812')).currentAccount
        ?.currentMember;
      expect(gudrun).toMatchObject({ planId: 'individual-5', rolloverMb: 0 });
      expect(gudrun?.dataTotal.domestic).toBe(5 * GB);
      expect((await balanceRow(app.db, LINES.roi))?.rolloverMb).toBe(0);

      // A second month: Guðrun carries again (at most her new plan's 5 GB).
      t.clock.set('2026-08-01T00:01:00.000Z');
      const leftInJuly = (await balanceRow(app.db, LINES.gudrun))?.domesticRemainingMb ?? 0;
      expect((await monthEndOf(app.db, t.clock).run()).applied).toBe(0);
      expect((await balanceRow(app.db, LINES.gudrun))?.rolloverMb).toBe(
        Math.min(leftInJuly, 5 * GB),
      );
      // The work line's rollover is not carried on top of itself: at most one plan's data.
      expect((await balanceRow(app.db, LINES.joannesWork))?.rolloverMb).toBe(5 * GB);
    } finally {
      await t.close();
    }
  });

  it('SPEC §4: an upgrade to unlimited leaves nothing to roll over', async () => {
    const t = await createLifecycleApp();
    try {
      const { app } = t;
      placedOrder(await changePlan(app, t.as.Guðrun, LINES.gudrun, 'individual-unlimited'));
      await t.provision();
      const june = await balanceRow(app.db, LINES.gudrun);
      expect(june?.domesticTotalMb).toBeGreaterThanOrEqual(1_024_000);
      t.clock.set('2026-07-01T00:01:00.000Z');
      await monthEndOf(app.db, t.clock).run();
      const july = await balanceRow(app.db, LINES.gudrun);
      expect(july).toMatchObject({ domesticTotalMb: 1_024_000, rolloverMb: 0 });
    } finally {
      await t.close();
    }
  });

  it('SPEC §4: in demo mode POST /dev/month-end runs a month end as of the 1st of next month (or `at`), so a demo sees it; otherwise it does not exist', async () => {
    const demo = await createLifecycleApp(undefined, { DEMO_MODE: 'true' });
    try {
      const { app } = demo;
      placedOrder(await changePlan(app, demo.as.Guðrun, LINES.gudrun, 'individual-5'));
      const res = await app.inject({ method: 'POST', url: '/dev/month-end' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        data: { at: '2026-06-30T23:01:00.000Z', applied: 1 },
      });
      const gudrun = (await overview(app, await signIn(app, 'Guðrun'), '557812')).currentAccount
        ?.currentMember;
      expect(gudrun).toMatchObject({ planId: 'individual-5', rolloverMb: 0 });
      // The real clock has not moved: the next real round changes nothing.
      expect((await monthEndOf(app.db, demo.clock).run()).applied).toBe(0);
    } finally {
      await demo.close();
    }
    const t = await createLifecycleApp(undefined, { DEMO_MODE: 'false' });
    try {
      const res = await t.app.inject({ method: 'POST', url: '/dev/month-end' });
      expect(res.statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});
