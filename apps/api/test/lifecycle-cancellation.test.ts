import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { dataEnvelope } from '@alda/contract/envelope';
import { reservedNumbersResponse } from '@alda/contract/schemas/auth-register';
import { tokens } from '@alda/contract/schemas/auth';
import { orders } from '../src/db/schema/orders';
import { phoneLines } from '../src/db/schema/phone-lines';
import { receipts } from '../src/db/schema/payments';
import { users } from '../src/db/schema/users';
import { DEMO_ACCOUNT_IDS, demoOrderId } from '../src/seed/demo-accounts';
import { LINES, signIn } from './demo-accounts';
import { demoUser, parse } from './helper';
import {
  accountRow,
  balanceRow,
  getOrder,
  lineRow,
  monthEndOf,
  placedOrder,
  send,
} from './lifecycle-a-fixtures';
import {
  addMembers,
  createLifecycleApp,
  expectError,
  memberWithCard,
  overview,
  type Headers,
} from './lifecycle-b-fixtures';
import {
  iccidEndingIn,
  newCustomer,
  postSignup,
  reserve,
  signupBody,
} from './provisioning-fixtures';
import type { FastifyInstance } from 'fastify';

const GB = 1024;
/** The first instant of July 2026 in the Faroes (summer time, UTC+1). */
const JULY = '2026-06-30T23:00:00.000Z';

/** Bárður's number is no longer being set up (his order is out of the way). */
async function withoutBardur(app: FastifyInstance, at: Date) {
  await app.db
    .update(orders)
    .set({ isCancelled: true, cancelledAt: at })
    .where(eq(orders.id, demoOrderId(5)));
  await app.db
    .update(phoneLines)
    .set({ status: 'cancelled' })
    .where(eq(phoneLines.id, LINES.bardur));
}

/** POST /api/auth/reserved-numbers of a signed-in caller. */
async function search(app: FastifyInstance, headers: Headers, phoneNumber: string) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/reserved-numbers',
    remoteAddress: `10.66.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
    headers,
    payload: { phoneNumber },
  });
  expect(res.statusCode, res.body).toBe(200);
  return parse(dataEnvelope(reservedNumbersResponse), res).data;
}

describe('SPEC §4 Subscription lifecycle: cancellation (DELETE /api/subscriptions…, ADR 0056)', () => {
  it('SPEC §4: a cancelled subscription shows cancelled and expires at month end; then the number is talutíð (GET /api/subscriptions shows prepaid) and the old account is closed', async () => {
    const t = await createLifecycleApp();
    try {
      const { app } = t;
      const order = placedOrder(
        await send(app, 'DELETE', '/api/subscriptions?line=557812', t.as.Guðrun),
      );
      expect(order).toMatchObject({
        kind: 'cancellation',
        isComplete: false,
        lifecycle: { action: 'cancel_subscription', effectiveAt: JULY, canWithdraw: true },
        provisioning: { waitingFor: 'month_end' },
      });
      const member = (await overview(app, t.as.Guðrun, '557812')).currentAccount?.currentMember;
      expect(member).toMatchObject({ status: 'cancelled', expiresAt: JULY });
      expect(member?.pendingChange).toMatchObject({
        orderId: order.id,
        action: 'cancel_subscription',
      });
      // Once is enough.
      expectError(
        await send(app, 'DELETE', '/api/subscriptions?line=557812', t.as.Guðrun),
        409,
        'ALREADY_CANCELLED',
      );
      expectError(
        await send(
          app,
          'DELETE',
          `/api/subscriptions/deactivate-plan/${LINES.gudrun}`,
          t.as.Guðrun,
        ),
        409,
        'ALREADY_CANCELLED',
      );

      t.clock.set('2026-07-01T06:00:00.000Z');
      expect((await monthEndOf(app.db, t.clock).run()).applied).toBe(1);
      const guðrun = await signIn(app, 'Guðrun');
      const after = await overview(app, guðrun, '557812');
      expect(after.currentAccount).toMatchObject({ type: 'prepaid', planId: 'prepaid-talutid' });
      expect(after.currentAccount?.currentMember).toMatchObject({
        phoneNumber: '557812',
        status: 'active',
        expiresAt: null,
        prepaidBalance: 0,
        planId: 'prepaid-talutid',
        rolloverMb: 0,
      });
      expect(after.currentAccount?.currentMember.dataTotal.domestic).toBe(2 * GB);
      expect((await accountRow(app.db, DEMO_ACCOUNT_IDS.gudrun))?.status).toBe('cancelled');
      const line = await lineRow(app.db, LINES.gudrun);
      expect(line).toMatchObject({ isPrepaid: true, status: 'active', expiresAt: null });
      expect((await getOrder(app, guðrun, order.id)).isComplete).toBe(true);
      // The month-end step told her.
      const notes = await app.inject({
        method: 'GET',
        url: '/api/notifications',
        headers: { ...guðrun, 'accept-language': 'en' },
      });
      expect(notes.body).toContain('The number is now prepaid');
      // Talutíð has no plan to cancel.
      expectError(
        await send(app, 'DELETE', `/api/subscriptions/deactivate-plan/${LINES.gudrun}`, guðrun),
        409,
        'LINE_IS_PREPAID',
      );
    } finally {
      await t.close();
    }
  });

  it('SPEC §6: the owner cancels an account by `?line=` of a number on it that has no login of its own (a child moved to its own plan); a stranger naming it gets NOT_FOUND', async () => {
    const t = await createLifecycleApp();
    try {
      const { app } = t;
      // Guðrun's own plan, used by someone without a login of their own.
      await app.db
        .update(phoneLines)
        .set({ userId: null, holderFirstname: 'Turið', holderLastname: 'Hansen' })
        .where(eq(phoneLines.id, LINES.gudrun));
      const stranger = await send(app, 'DELETE', '/api/subscriptions?line=557812', t.as.Rói);
      expectError(stranger, 404, 'NOT_FOUND');
      const order = placedOrder(
        await send(app, 'DELETE', '/api/subscriptions?line=557812', t.as.Guðrun),
      );
      expect(order).toMatchObject({
        kind: 'cancellation',
        phoneNumber: '557812',
        lifecycle: { action: 'cancel_subscription', canWithdraw: true },
      });
      expect((await lineRow(app.db, LINES.gudrun))?.expiresAt).not.toBeNull();
    } finally {
      await t.close();
    }
  });

  it('SPEC §4, §9: the commitment is respected — a cancellation in it ends with its last month; members show commitmentEndsAt', async () => {
    const t = await createLifecycleApp();
    try {
      const { app } = t;
      await app.db
        .update(phoneLines)
        .set({ activatedAt: new Date('2026-05-10T10:00:00.000Z') })
        .where(eq(phoneLines.id, LINES.gudrun));
      const member = (await overview(app, t.as.Guðrun, '557812')).currentAccount?.currentMember;
      // Activated in May (free), charged June … November: the commitment ends on 1 December.
      expect(member?.commitmentEndsAt).toBe('2026-12-01T00:00:00.000Z');
      const order = placedOrder(
        await send(app, 'DELETE', '/api/subscriptions?line=557812', t.as.Guðrun),
      );
      expect(order.lifecycle?.effectiveAt).toBe('2026-12-01T00:00:00.000Z');
      t.clock.set('2026-07-01T06:00:00.000Z');
      expect((await monthEndOf(app.db, t.clock).run()).applied).toBe(0);
      expect((await lineRow(app.db, LINES.gudrun))?.isPrepaid).toBe(false);
      t.clock.set('2026-12-01T00:30:00.000Z');
      expect((await monthEndOf(app.db, t.clock).run()).applied).toBe(1);
      expect((await lineRow(app.db, LINES.gudrun))?.isPrepaid).toBe(true);
    } finally {
      await t.close();
    }
  });

  it('SPEC §4 Family capacity: a family that is cancelled takes no new member — canAddMember is false and adding one is ALREADY_CANCELLED', async () => {
    const t = await createLifecycleApp();
    try {
      const { app } = t;
      await withoutBardur(app, t.clock.now());
      const before = await overview(app, t.as.Jóannes, '214455');
      expect(before.currentAccount?.family?.canAddMember).toBe(true);
      placedOrder(await send(app, 'DELETE', '/api/subscriptions?line=214455', t.as.Jóannes));
      const after = await overview(app, t.as.Jóannes, '214455');
      expect(after.currentAccount?.family?.canAddMember).toBe(false);
      const reservation = await reserve(app, t.as.Jóannes, '299871');
      expectError(
        await addMembers(app, t.as.Jóannes, [memberWithCard('Turið', reservation)]),
        409,
        'ALREADY_CANCELLED',
      );
    } finally {
      await t.close();
    }
  });

  it('SPEC §6: the owner takes a member off the family plan — the member keeps the number as talutíð on their own; a member cannot do it', async () => {
    const t = await createLifecycleApp();
    try {
      const { app } = t;
      await withoutBardur(app, t.clock.now());
      expectError(
        await send(
          app,
          'DELETE',
          `/api/subscriptions/deactivate-plan/${LINES.sunneva}`,
          t.as.Sunneva,
        ),
        403,
        'OWNER_ONLY',
      );
      const order = placedOrder(
        await send(
          app,
          'DELETE',
          `/api/subscriptions/deactivate-plan/${LINES.sunneva}`,
          t.as.Jóannes,
        ),
      );
      expect(order.lifecycle).toMatchObject({ action: 'deactivate_plan', effectiveAt: JULY });
      const family = (await overview(app, t.as.Jóannes, '214455')).currentAccount;
      expect(family?.members.find((m) => m.id === LINES.sunneva)).toMatchObject({
        status: 'cancelled',
        expiresAt: JULY,
      });
      // The family may not change its plan while the removal waits.
      expectError(
        await send(app, 'PATCH', `/api/subscriptions/${LINES.joannes}`, t.as.Jóannes, {
          planId: 'family-unlimited',
        }),
        409,
        'PLAN_CHANGE_BLOCKED',
      );

      t.clock.set('2026-07-01T06:00:00.000Z');
      expect((await monthEndOf(app.db, t.clock).run()).applied).toBe(1);
      const sunneva = await overview(app, await signIn(app, 'Sunneva'));
      expect(sunneva.currentAccount).toMatchObject({ type: 'prepaid' });
      expect(sunneva.currentAccount?.currentMember.phoneNumber).toBe('214456');
      expect(sunneva.isOwner).toBe(true);
      const joannes = await overview(app, await signIn(app, 'Jóannes'), '214455');
      expect(joannes.currentAccount?.members.map((m) => m.phoneNumber)).toEqual(['214455']);
      expect((await accountRow(app.db, DEMO_ACCOUNT_IDS.joensenFamily))?.status).toBe('active');
    } finally {
      await t.close();
    }
  });

  it('ADR 0056: a change waiting for its month end is withdrawn by its customer (POST /api/orders/{id}/withdraw); someone else gets NOT_FOUND, a second withdraw ORDER_NOT_WAITING', async () => {
    const t = await createLifecycleApp();
    try {
      const { app } = t;
      const order = placedOrder(
        await send(
          app,
          'DELETE',
          `/api/subscriptions/deactivate-plan/${LINES.joannesWork}`,
          t.as.Jóannes,
        ),
      );
      expect((await lineRow(app.db, LINES.joannesWork))?.expiresAt?.toISOString()).toBe(JULY);
      expectError(
        await send(app, 'POST', `/api/orders/${order.id}/withdraw`, t.as.Ása),
        404,
        'NOT_FOUND',
      );
      expectError(
        await send(app, 'POST', '/api/orders/not-a-uuid/withdraw', t.as.Jóannes),
        404,
        'NOT_FOUND',
      );
      const res = await send(app, 'POST', `/api/orders/${order.id}/withdraw`, t.as.Jóannes);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        data: { id: order.id, isCancelled: true, lifecycle: { canWithdraw: false } },
      });
      expect((await lineRow(app.db, LINES.joannesWork))?.expiresAt).toBeNull();
      const member = (await overview(app, t.as.Jóannes, '214466')).currentAccount?.currentMember;
      expect(member).toMatchObject({ status: 'active', expiresAt: null, pendingChange: null });
      expectError(
        await send(app, 'POST', `/api/orders/${order.id}/withdraw`, t.as.Jóannes),
        409,
        'ORDER_NOT_WAITING',
      );
      // Nothing happens at month end.
      t.clock.set('2026-07-01T06:00:00.000Z');
      expect((await monthEndOf(app.db, t.clock).run()).applied).toBe(0);
      expect((await lineRow(app.db, LINES.joannesWork))?.isPrepaid).toBe(false);
      // An at-once change cannot be withdrawn.
      const jo = await signIn(app, 'Jóannes');
      const upgrade = placedOrder(
        await send(app, 'PATCH', `/api/subscriptions/${LINES.joannesWork}`, jo, {
          planId: 'individual-20',
        }),
      );
      expectError(
        await send(app, 'POST', `/api/orders/${upgrade.id}/withdraw`, jo),
        409,
        'ORDER_NOT_WAITING',
      );
    } finally {
      await t.close();
    }
  });

  it('ADR 0056: a deleted number leaves at month end and rests in quarantine — the number search answers it as reserved for NUMBER_QUARANTINE_DAYS, then offers it again', async () => {
    const t = await createLifecycleApp();
    try {
      const { app } = t;
      const order = placedOrder(
        await send(
          app,
          'DELETE',
          `/api/subscriptions/delete-number/${LINES.joannesWork}`,
          t.as.Jóannes,
        ),
      );
      expect(order.lifecycle).toMatchObject({ action: 'delete_number', effectiveAt: JULY });
      t.clock.set('2026-07-01T06:00:00.000Z');
      expect((await monthEndOf(app.db, t.clock).run()).applied).toBe(1);
      const line = await lineRow(app.db, LINES.joannesWork);
      expect(line?.status).toBe('cancelled');
      expect(line?.statusChangedAt.toISOString()).toBe('2026-07-01T06:00:00.000Z');
      expect((await accountRow(app.db, DEMO_ACCOUNT_IDS.joannesWork))?.status).toBe('cancelled');
      // Gone from Jóannes's overview.
      const jo = await overview(app, await signIn(app, 'Jóannes'));
      expect(
        [jo.currentAccount, ...jo.otherAccounts].some(
          (a) => a?.id === DEMO_ACCOUNT_IDS.joannesWork,
        ),
      ).toBe(false);

      const asa = await signIn(app, 'Ása');
      const resting = await search(app, asa, '214466');
      expect(resting).toMatchObject({ status: 'reserved', reservationId: null });
      // Not offered as a suggestion either.
      const guðrun = await signIn(app, 'Guðrun');
      const taken = await search(app, guðrun, '214465');
      expect(taken.status).toBe('free');
      const near = await search(app, asa, '214465');
      expect(near.status).toBe('reserved');
      expect(near.suggestions).not.toContain('214466');
      expect(near.suggestions.length).toBeGreaterThan(0);

      // 89 days later it still rests; after 90 days it is offered and can be reserved.
      t.clock.set('2026-09-28T06:00:00.000Z');
      expect((await search(app, await signIn(app, 'Ása'), '214466')).status).toBe('reserved');
      t.clock.set('2026-09-29T06:00:01.000Z');
      const free = await search(app, await signIn(app, 'Ása'), '214466');
      expect(free.status).toBe('free');
      expect(free.reservationId).not.toBeNull();
    } finally {
      await t.close();
    }
  });

  it('ADR 0056: a talutíð number is deleted at once by its own user; the owner of a subscription deletes a number only at its end', async () => {
    const t = await createLifecycleApp();
    try {
      const { app } = t;
      const order = placedOrder(
        await send(app, 'DELETE', `/api/subscriptions/delete-number/${LINES.roi}`, t.as.Rói),
      );
      expect(order.lifecycle).toMatchObject({
        action: 'delete_number',
        effectiveAt: '2026-06-15T12:00:00.000Z',
        canWithdraw: false,
      });
      expect(order.provisioning?.waitingFor).toBe('network');
      await t.provision();
      expect((await lineRow(app.db, LINES.roi))?.status).toBe('cancelled');
      expect((await accountRow(app.db, DEMO_ACCOUNT_IDS.roi))?.status).toBe('cancelled');
      // A member cannot end the family's subscription of their number.
      expectError(
        await send(
          app,
          'DELETE',
          `/api/subscriptions/delete-number/${LINES.sunneva}`,
          t.as.Sunneva,
        ),
        403,
        'OWNER_ONLY',
      );
      // The owner of another's account: NOT_FOUND.
      expectError(
        await send(app, 'DELETE', `/api/subscriptions/delete-number/${LINES.gudrun}`, t.as.Jóannes),
        404,
        'NOT_FOUND',
      );
      // A member cannot cancel the account either.
      expectError(await send(app, 'DELETE', '/api/subscriptions', t.as.Sunneva), 403, 'OWNER_ONLY');
    } finally {
      await t.close();
    }
  });
});

describe('SPEC §6 Delete user (DELETE /api/auth/me, ADR 0056)', () => {
  it('SPEC §6: a user is deleted only after the cancellation took effect; the talutíð number is kept without a user', async () => {
    const t = await createLifecycleApp();
    try {
      const { app } = t;
      const customer = await newCustomer(app);
      const reservationId = await reserve(app, customer.headers, '297731');
      const signup = await postSignup(
        app,
        customer.headers,
        signupBody({
          eSim: false,
          simcardNumber: iccidEndingIn('7731'),
          phoneNumberReservationId: reservationId,
        }),
        'signup-1',
      );
      expect(signup.statusCode, signup.body).toBe(201);
      await t.provision();
      const mine = await overview(app, customer.headers);
      const member = mine.currentAccount?.currentMember;
      expect(member?.status).toBe('active');
      // Activated in June 2026 (free month), charged July … December.
      expect(member?.commitmentEndsAt).toBe('2027-01-01T00:00:00.000Z');
      const del = () =>
        app.inject({ method: 'DELETE', url: '/api/auth/me', headers: customer.headers });
      expectError(await del(), 409, 'HAS_ACTIVE_SUBSCRIPTION');

      const order = placedOrder(await send(app, 'DELETE', '/api/subscriptions', customer.headers));
      expect(order.lifecycle?.effectiveAt).toBe('2027-01-01T00:00:00.000Z');
      // A pending cancellation is not enough.
      expectError(await del(), 409, 'HAS_ACTIVE_SUBSCRIPTION');

      t.clock.set('2027-01-01T00:10:00.000Z');
      expect((await monthEndOf(app.db, t.clock).run()).applied).toBe(1);
      const [user] = await app.db.select().from(users).where(eq(users.id, customer.userId));
      const login = await app.inject({
        method: 'POST',
        url: '/api/auth/email-login',
        payload: { email: user?.email, password: 'Sterkt1234!' },
      });
      expect(login.statusCode, login.body).toBe(200);
      const headers = {
        authorization: `Bearer ${parse(dataEnvelope(tokens), login).data.accessToken}`,
      };
      const deleted = await app.inject({ method: 'DELETE', url: '/api/auth/me', headers });
      expect(deleted.statusCode, deleted.body).toBe(204);
      expect(await app.db.select().from(users).where(eq(users.id, customer.userId))).toEqual([]);
      const [line] = await app.db.select().from(phoneLines).where(eq(phoneLines.msisdn, '297731'));
      expect(line).toMatchObject({ userId: null, isPrepaid: true, status: 'active' });
      expect((await balanceRow(app.db, line?.id ?? ''))?.domesticTotalMb).toBe(2 * GB);
    } finally {
      await t.close();
    }
  });

  it('SPEC §6: a user with only a talutíð number may delete their user; a family owner may not', async () => {
    const t = await createLifecycleApp();
    try {
      const { app } = t;
      expectError(
        await app.inject({ method: 'DELETE', url: '/api/auth/me', headers: t.as.Jóannes }),
        409,
        'HAS_ACTIVE_SUBSCRIPTION',
      );
      // Sunneva uses a line of Jóannes's family plan: a subscription line of hers.
      expectError(
        await app.inject({ method: 'DELETE', url: '/api/auth/me', headers: t.as.Sunneva }),
        409,
        'HAS_ACTIVE_SUBSCRIPTION',
      );
      // A receipt of Rói's: bookkeeping keeps it after the user is gone (ADR 0056).
      const [receipt] = await app.db
        .insert(receipts)
        .values({
          number: 'K-2026-990001',
          userId: demoUser('Rói').id,
          lines: [],
          vatRate: 25,
          netOere: 8_000,
          vatOere: 2_000,
          grossOere: 10_000,
          customerName: 'Rói Olsen',
        })
        .returning();
      const res = await app.inject({ method: 'DELETE', url: '/api/auth/me', headers: t.as.Rói });
      expect(res.statusCode, res.body).toBe(204);
      expect(await lineRow(app.db, LINES.roi)).toMatchObject({
        userId: null,
        isPrepaid: true,
        status: 'active',
        msisdn: '779031',
      });
      const [kept] = await app.db
        .select()
        .from(receipts)
        .where(eq(receipts.id, receipt?.id ?? ''));
      expect(kept).toMatchObject({ userId: null, customerName: 'Rói Olsen', grossOere: 10_000 });
      expect(
        await app.db.$count(users, eq(users.id, demoUser('Rói').id)),
        'the user row is gone',
      ).toBe(0);
    } finally {
      await t.close();
    }
  });
});
