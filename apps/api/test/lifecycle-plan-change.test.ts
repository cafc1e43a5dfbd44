import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { dataEnvelope } from '@alda/contract/envelope';
import { subscriptionDetailResponse } from '@alda/contract/schemas/subscriptions';
import { accounts } from '../src/db/schema/accounts';
import { orders } from '../src/db/schema/orders';
import { phoneLines } from '../src/db/schema/phone-lines';
import { DEMO_ACCOUNT_IDS } from '../src/seed/demo-accounts';
import { demoOrderId } from '../src/seed/demo-accounts';
import { LINES, signIn } from './demo-accounts';
import { parse } from './helper';
import {
  accountRow,
  balanceRow,
  changePlan,
  getOrder,
  monthEndOf,
  placedOrder,
  send,
} from './lifecycle-a-fixtures';
import { createLifecycleApp, expectError, overview } from './lifecycle-b-fixtures';

const GB = 1024;
/** The first instant of July 2026 in the Faroes (summer time, UTC+1). */
const JULY = '2026-06-30T23:00:00.000Z';

describe('SPEC §4 Subscription lifecycle: plan change (PATCH /api/subscriptions/{id}, ADR 0056)', () => {
  it('SPEC §4: a bigger plan takes effect at once — the order is processing, provisioning completes it in one step, the account has the new plan and this month grows by the difference', async () => {
    const t = await createLifecycleApp();
    try {
      const { app } = t;
      const before = await balanceRow(app.db, LINES.joannesWork);
      // The demo's work number: the 5 GB plan and a 3 GB extra package bought this month.
      expect(before?.domesticTotalMb).toBe(8 * GB);
      const order = placedOrder(
        await changePlan(app, t.as.Jóannes, LINES.joannesWork, 'individual-20'),
      );
      expect(order).toMatchObject({
        kind: 'plan_change',
        isComplete: false,
        planId: 'individual-20',
        phoneNumber: '214466',
        lifecycle: {
          action: 'plan_upgrade',
          effectiveAt: '2026-06-15T12:00:00.000Z',
          fromPlanId: 'individual-5',
          canWithdraw: false,
        },
        provisioning: { waitingFor: 'network', upcoming: ['active'] },
      });
      expect(order.provisioning?.steps.map((s) => s.step)).toEqual(['received']);
      // SPEC §4 "Subscription processing": the number shows processing while it runs.
      const during = await overview(app, t.as.Jóannes, '214466');
      expect(during.currentAccount?.currentMember.status).toBe('processing');
      // In-app notification naming the number and the day, linking to the order screen.
      const notes = await app.inject({
        method: 'GET',
        url: '/api/notifications',
        headers: { ...t.as.Jóannes, 'accept-language': 'fo' },
      });
      const newest = (notes.json() as { data: { items: { body: string; link: string }[] } }).data
        .items[0];
      expect(newest?.link).toBe(`/menu/bilegingar/${order.id}`);
      expect(newest?.body).toContain('21 44 66');
      expect(newest?.body).toContain('15.06.2026');

      await t.provision();
      const done = await getOrder(app, t.as.Jóannes, order.id);
      expect(done.isComplete).toBe(true);
      expect(done.provisioning?.steps.map((s) => s.step)).toEqual(['received', 'active']);
      expect(done.provisioning?.waitingFor).toBe('none');
      expect((await accountRow(app.db, DEMO_ACCOUNT_IDS.joannesWork))?.planId).toBe(
        'individual-20',
      );
      const after = await balanceRow(app.db, LINES.joannesWork);
      expect(after?.domesticTotalMb).toBe(23 * GB);
      expect(after?.domesticRemainingMb).toBe((before?.domesticRemainingMb ?? 0) + 15 * GB);
      expect(after?.domesticUsedMb).toBe(before?.domesticUsedMb);
      const member = (await overview(app, t.as.Jóannes, '214466')).currentAccount?.currentMember;
      expect(member).toMatchObject({ status: 'active', planId: 'individual-20' });
      expect(member?.pendingChange).toBeNull();
      // The activity log says so.
      const log = await app.inject({
        method: 'GET',
        url: '/api/actions',
        headers: { ...t.as.Jóannes, 'accept-language': 'en' },
      });
      expect(log.body).toContain('Plan changed to 20 GB');
    } finally {
      await t.close();
    }
  });

  it('SPEC §4: a smaller plan waits for the month end, can be withdrawn until then, and the month end carries it out once (no rollover into the new month)', async () => {
    const t = await createLifecycleApp();
    try {
      const { app } = t;
      const order = placedOrder(await changePlan(app, t.as.Guðrun, LINES.gudrun, 'individual-5'));
      expect(order.lifecycle).toEqual({
        action: 'plan_downgrade',
        effectiveAt: JULY,
        fromPlanId: 'individual-20',
        canWithdraw: true,
      });
      expect(order.provisioning).toMatchObject({ waitingFor: 'month_end', expectedAt: JULY });
      const member = (await overview(app, t.as.Guðrun, '557812')).currentAccount?.currentMember;
      // A change waiting for its time is pending, not processing.
      expect(member?.status).toBe('active');
      expect(member?.pendingChange).toEqual({
        orderId: order.id,
        action: 'plan_downgrade',
        effectiveAt: JULY,
        planId: 'individual-5',
      });
      // The worker leaves it alone; nothing changes before July.
      await t.provision();
      expect((await getOrder(app, t.as.Guðrun, order.id)).isComplete).toBe(false);
      expect((await accountRow(app.db, DEMO_ACCOUNT_IDS.gudrun))?.planId).toBe('individual-20');

      t.clock.set('2026-06-30T23:05:00.000Z');
      const monthEnd = monthEndOf(app.db, t.clock);
      expect((await monthEnd.run()).applied).toBe(1);
      expect((await monthEnd.run()).applied).toBe(0);
      const guðrun = await signIn(app, 'Guðrun');
      const done = await getOrder(app, guðrun, order.id);
      expect(done).toMatchObject({ isComplete: true, lifecycle: { canWithdraw: false } });
      expect(done.provisioning?.steps.map((s) => s.step)).toEqual(['received', 'active']);
      expect((await accountRow(app.db, DEMO_ACCOUNT_IDS.gudrun))?.planId).toBe('individual-5');
      const july = await balanceRow(app.db, LINES.gudrun);
      expect(july).toMatchObject({ domesticTotalMb: 5 * GB, domesticRemainingMb: 5 * GB });
      expect(july?.rolloverMb).toBe(0);
      expect(july?.periodStart.toISOString()).toBe(JULY);
      const withdraw = await send(app, 'POST', `/api/orders/${order.id}/withdraw`, guðrun);
      expectError(withdraw, 409, 'ORDER_NOT_WAITING');
    } finally {
      await t.close();
    }
  });

  it('SPEC §4: plan changes are blocked while any order of the account is open — also a change waiting for its month end (withdraw it first)', async () => {
    const t = await createLifecycleApp();
    try {
      const { app } = t;
      // The Joensen family: Bárður's number is still being set up.
      expectError(
        await changePlan(app, t.as.Jóannes, LINES.joannes, 'family-unlimited'),
        409,
        'PLAN_CHANGE_BLOCKED',
      );
      const first = placedOrder(
        await changePlan(app, t.as.Guðrun, LINES.gudrun, 'individual-unlimited'),
      );
      expectError(
        await changePlan(app, t.as.Guðrun, LINES.gudrun, 'individual-5'),
        409,
        'PLAN_CHANGE_BLOCKED',
      );
      await t.provision();
      expect((await getOrder(app, t.as.Guðrun, first.id)).isComplete).toBe(true);
      const down = placedOrder(await changePlan(app, t.as.Guðrun, LINES.gudrun, 'individual-5'));
      expectError(
        await changePlan(app, t.as.Guðrun, LINES.gudrun, 'individual-20'),
        409,
        'PLAN_CHANGE_BLOCKED',
      );
      const withdrawn = await send(app, 'POST', `/api/orders/${down.id}/withdraw`, t.as.Guðrun);
      expect(withdrawn.statusCode, withdrawn.body).toBe(200);
      expect(withdrawn.json()).toMatchObject({
        data: { id: down.id, isCancelled: true, lifecycle: { canWithdraw: false } },
      });
      placedOrder(await changePlan(app, t.as.Guðrun, LINES.gudrun, 'individual-20'));
    } finally {
      await t.close();
    }
  });

  it('SPEC §6: only the owner changes the plan — a member gets OWNER_ONLY, anyone else NOT_FOUND; the rules are checked on the server', async () => {
    const t = await createLifecycleApp();
    try {
      const { app } = t;
      expectError(
        await changePlan(app, t.as.Sunneva, LINES.sunneva, 'family-unlimited'),
        403,
        'OWNER_ONLY',
      );
      expectError(await changePlan(app, t.as.Ása, LINES.gudrun, 'individual-5'), 404, 'NOT_FOUND');
      expectError(
        await changePlan(app, t.as.Guðrun, randomUUID(), 'individual-5'),
        404,
        'NOT_FOUND',
      );
      expectError(
        await changePlan(app, t.as.Guðrun, LINES.gudrun, 'individual-20'),
        409,
        'PLAN_UNCHANGED',
      );
      expectError(
        await changePlan(app, t.as.Guðrun, LINES.gudrun, 'family-20'),
        422,
        'PLAN_NOT_AVAILABLE',
      );
      expectError(
        await changePlan(app, t.as.Guðrun, LINES.gudrun, 'no-such-plan'),
        422,
        'PLAN_NOT_AVAILABLE',
      );
      // Talutíð has no plan to change.
      expectError(
        await changePlan(app, t.as.Rói, LINES.roi, 'individual-5'),
        409,
        'PLAN_CHANGE_BLOCKED',
      );
      // Without an Idempotency-Key, and with a bad body.
      expectError(
        await changePlan(app, t.as.Guðrun, LINES.gudrun, 'individual-5', null),
        400,
        'IDEMPOTENCY_KEY_REQUIRED',
      );
      const bad = await send(app, 'PATCH', `/api/subscriptions/${LINES.gudrun}`, t.as.Guðrun, {
        planId: 'individual-5',
        extra: true,
      });
      expectError(bad, 400, 'VALIDATION_FAILED');
    } finally {
      await t.close();
    }
  });

  it('SPEC §4 Family capacity: a family plan with fewer seats than the family has members is FAMILY_FULL', async () => {
    const t = await createLifecycleApp();
    try {
      const { app } = t;
      const family = DEMO_ACCOUNT_IDS.joensenFamily;
      // Bárður's order is done with; the family is on 6 seats and has 6 members.
      await app.db
        .update(orders)
        .set({ isCancelled: true, cancelledAt: t.clock.now() })
        .where(eq(orders.id, demoOrderId(5)));
      await app.db
        .update(phoneLines)
        .set({ status: 'cancelled' })
        .where(eq(phoneLines.id, LINES.bardur));
      await app.db
        .update(accounts)
        .set({ planId: 'family-unlimited' })
        .where(eq(accounts.id, family));
      await app.db.insert(phoneLines).values(
        ['214471', '214472', '214473', '214474'].map((msisdn) => ({
          msisdn,
          status: 'active' as const,
          accountId: family,
          planId: 'family-unlimited',
        })),
      );
      expectError(
        await changePlan(app, t.as.Jóannes, LINES.joannes, 'family-20'),
        409,
        'FAMILY_FULL',
      );
    } finally {
      await t.close();
    }
  });

  it('SPEC §4: a retry with the same Idempotency-Key answers the same order, also after it completed; the key with another body is refused', async () => {
    const t = await createLifecycleApp();
    try {
      const { app } = t;
      const key = randomUUID();
      const first = placedOrder(
        await changePlan(app, t.as.Jóannes, LINES.joannesWork, 'individual-20', key),
      );
      const again = placedOrder(
        await changePlan(app, t.as.Jóannes, LINES.joannesWork, 'individual-20', key),
      );
      expect(again.id).toBe(first.id);
      await t.provision();
      const later = placedOrder(
        await changePlan(app, t.as.Jóannes, LINES.joannesWork, 'individual-20', key),
      );
      expect(later).toMatchObject({ id: first.id, isComplete: true });
      expectError(
        await changePlan(app, t.as.Jóannes, LINES.joannesWork, 'individual-unlimited', key),
        422,
        'IDEMPOTENCY_KEY_REUSED',
      );
      const mine = await app.db.select().from(orders).where(eq(orders.idempotencyKey, key));
      expect(mine).toHaveLength(1);
    } finally {
      await t.close();
    }
  });

  it('SPEC §2: GET /api/subscriptions/{id} answers a talutíð number too, with its credit and no commitment', async () => {
    const t = await createLifecycleApp();
    try {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/subscriptions/${LINES.roi}`,
        headers: t.as.Rói,
      });
      expect(res.statusCode, res.body).toBe(200);
      const detail = parse(dataEnvelope(subscriptionDetailResponse), res).data;
      expect(detail.accountType).toBe('prepaid');
      expect(detail.member.prepaidBalance).not.toBeNull();
      expect(detail.member.commitmentEndsAt).toBeNull();
      expect(detail.member.pendingChange).toBeNull();
    } finally {
      await t.close();
    }
  });
});
