import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope } from '@alda/contract/envelope';
import { orderPlacedResponse } from '@alda/contract/schemas/orders';
import { familyAccountExistsResponse } from '@alda/contract/schemas/subscriptions';
import { accounts } from '../src/db/schema/accounts';
import { paymentAgreements } from '../src/db/schema/agreements';
import { lineBalances } from '../src/db/schema/balances';
import { plans } from '../src/db/schema/catalog';
import { orders } from '../src/db/schema/orders';
import { phoneLines } from '../src/db/schema/phone-lines';
import { DEMO_ACCOUNT_IDS, demoOrderId } from '../src/seed/demo-accounts';
import { LINES } from './demo-accounts';
import { demoUser, parse } from './helper';
import {
  createLifecycleApp,
  expectError,
  overview,
  patchWithKey,
  type Headers,
  type LifecycleApp,
} from './lifecycle-b-fixtures';
import { iccidEndingIn, postSignup, reserve, signupBody } from './provisioning-fixtures';

const placed = dataEnvelope(orderPlacedResponse);
const GB = 1024;
const toOwn = (id: string) => `/api/subscriptions/transfer-subscription-to-new-account/${id}`;
const toFamily = (id: string) => `/api/subscriptions/transfer-subscription-to-family-account/${id}`;

describe('transfers between accounts (SPEC §2 flyt-*/broyt-*, §4, §6, §7; ADR 0056 "Family members")', () => {
  let t: LifecycleApp;

  beforeAll(async () => {
    t = await createLifecycleApp();
  });
  afterAll(() => t.close());

  const line = async (id: string) => {
    const [row] = await t.app.db.select().from(phoneLines).where(eq(phoneLines.id, id));
    if (!row) throw new Error(`no line ${id}`);
    return row;
  };
  const account = async (id: string) => {
    const [row] = await t.app.db.select().from(accounts).where(eq(accounts.id, id));
    if (!row) throw new Error(`no account ${id}`);
    return row;
  };
  const balance = async (lineId: string) => {
    const [row] = await t.app.db.select().from(lineBalances).where(eq(lineBalances.lineId, lineId));
    return row;
  };
  const giveCard = (firstname: string) =>
    t.app.db.insert(paymentAgreements).values({
      userId: demoUser(firstname).id,
      status: 'active',
      cardBrand: 'Visa',
      cardLast4: '4242',
      cardExpiry: '12/30',
      providerReference: `card-${firstname}`,
    });
  const familyExists = async (headers: Headers) =>
    parse(
      dataEnvelope(familyAccountExistsResponse),
      await t.app.inject({
        method: 'GET',
        url: '/api/subscriptions/family-account-exists',
        headers,
      }),
    ).data;

  it('SPEC §4: a member cannot move their number while an order of the family is processing (PLAN_CHANGE_BLOCKED); strangers get NOT_FOUND, another member OWNER_ONLY, a family plan PLAN_NOT_AVAILABLE, no card AGREEMENT_REQUIRED', async () => {
    expectError(
      await patchWithKey(t.app, t.as.Sunneva, toOwn(LINES.sunneva), { planId: 'individual-5' }),
      409,
      'PLAN_CHANGE_BLOCKED',
    );
    // Bárður's SIM works: his number is a member now, nothing of the family is open.
    const confirm = await t.app.inject({
      method: 'POST',
      url: `/api/orders/${demoOrderId(5)}/confirm-sim`,
      headers: t.as.Jóannes,
    });
    expect(confirm.statusCode, confirm.body).toBe(200);
    expectError(
      await patchWithKey(t.app, t.as.Guðrun, toOwn(LINES.sunneva), { planId: 'individual-5' }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await patchWithKey(t.app, t.as.Sunneva, toOwn(LINES.joannes), { planId: 'individual-5' }),
      403,
      'OWNER_ONLY',
    );
    expectError(
      await patchWithKey(t.app, t.as.Sunneva, toOwn(LINES.sunneva), { planId: 'family-20' }),
      422,
      'PLAN_NOT_AVAILABLE',
    );
    expectError(
      await patchWithKey(t.app, t.as.Sunneva, toOwn(LINES.sunneva), { planId: 'individual-5' }),
      409,
      'AGREEMENT_REQUIRED',
    );
    expectError(
      await patchWithKey(t.app, t.as.Sunneva, toOwn(randomUUID()), { planId: 'individual-5' }),
      404,
      'NOT_FOUND',
    );
  });

  it('SPEC §6 /flyt-til-einstaklingahald: a member moves their own number onto an individual plan of theirs — processing at once, exactly one of two simultaneous requests wins, and after provisioning the number is on their own account with the month kept on the new plan', async () => {
    await giveCard('Sunneva');
    const before = await balance(LINES.sunneva);
    const key = randomUUID();
    const [a, b] = await Promise.all([
      patchWithKey(t.app, t.as.Sunneva, toOwn(LINES.sunneva), { planId: 'individual-5' }, key),
      patchWithKey(t.app, t.as.Sunneva, toOwn(LINES.sunneva), { planId: 'individual-20' }),
    ]);
    const answers = [a, b].map((r) => r.statusCode).sort();
    expect(answers).toEqual([200, 409]);
    const won = a.statusCode === 200 ? a : b;
    const { order, paymentUrl } = parse(placed, won).data;
    expect(paymentUrl).toBeNull();
    expect(order).toMatchObject({ kind: 'transfer', isComplete: false, lineId: LINES.sunneva });
    expect(order.lifecycle).toMatchObject({
      action: 'move_to_own_account',
      fromPlanId: 'family-20',
    });
    const planId = order.planId;
    // The same key again answers the same order.
    if (won === a) {
      const again = await patchWithKey(
        t.app,
        t.as.Sunneva,
        toOwn(LINES.sunneva),
        { planId: 'individual-5' },
        key,
      );
      expect(parse(placed, again).data.order.id).toBe(order.id);
    }
    const during = await overview(t.app, t.as.Sunneva);
    expect(during.currentAccount?.currentMember.status).toBe('processing');

    await t.provision();
    const [done] = await t.app.db.select().from(orders).where(eq(orders.id, order.id));
    expect(done?.isComplete).toBe(true);
    const moved = await line(LINES.sunneva);
    expect(moved.accountId).not.toBe(DEMO_ACCOUNT_IDS.joensenFamily);
    expect(moved.planId).toBe(planId);
    expect(moved.userId).toBe(demoUser('Sunneva').id);
    const own = await account(moved.accountId ?? '');
    expect(own).toMatchObject({
      ownerUserId: demoUser('Sunneva').id,
      type: 'individual_plan',
      planId,
      status: 'active',
    });
    const after = await overview(t.app, t.as.Sunneva);
    expect(after.isOwner).toBe(true);
    expect(after.currentAccount).toMatchObject({ type: 'individual_plan', planId });
    expect(after.currentAccount?.currentMember.phoneNumber).toBe('214456');
    // This month's data follows the new plan: what was used stays used.
    const now = await balance(LINES.sunneva);
    const newData = planId === 'individual-5' ? 5 * GB : 20 * GB;
    expect(now?.domesticUsedMb).toBe(before?.domesticUsedMb);
    expect(now?.domesticTotalMb).toBe((before?.domesticTotalMb ?? 0) - 20 * GB + newData);
    // The family keeps Jóannes and Bárður.
    const family = await overview(t.app, t.as.Jóannes);
    expect(family.currentAccount?.members.map((m) => m.phoneNumber).sort()).toEqual([
      '214455',
      '214457',
    ]);
  });

  it('SPEC §2 /broyt-til-familjuhald: the owner of an individual account moves its number into their family (join), the individual account is closed; FAMILY_FULL when the family has no seat', async () => {
    const res = await patchWithKey(t.app, t.as.Jóannes, toFamily(LINES.joannesWork), {});
    expect(res.statusCode, res.body).toBe(200);
    const { order } = parse(placed, res).data;
    expect(order).toMatchObject({ kind: 'transfer', planId: 'family-20' });
    expect(order.lifecycle?.action).toBe('move_to_family_account');
    // The seat is taken while it runs (SPEC §3 family members in processing).
    const during = await overview(t.app, t.as.Jóannes);
    const family = [during.currentAccount, ...during.otherAccounts].find(
      (a) => a?.id === DEMO_ACCOUNT_IDS.joensenFamily,
    );
    expect(family?.members).toHaveLength(2);
    expect(family?.family?.processingMembers).toBe(1);
    await t.provision();
    expect(await line(LINES.joannesWork)).toMatchObject({
      accountId: DEMO_ACCOUNT_IDS.joensenFamily,
      planId: 'family-20',
      status: 'active',
    });
    expect((await account(DEMO_ACCOUNT_IDS.joannesWork)).status).toBe('cancelled');
    const after = await overview(t.app, t.as.Jóannes);
    expect(after.currentAccount?.members).toHaveLength(3);
    expect(after.individuals).toHaveLength(0);

    // A family of three seats is full: another number of Jóannes cannot join it.
    const signup = await postSignup(
      t.app,
      t.as.Jóannes,
      signupBody({
        eSim: false,
        simcardNumber: iccidEndingIn('7001'),
        phoneNumberReservationId: await reserve(t.app, t.as.Jóannes, '219901'),
      }),
      randomUUID(),
    );
    expect(signup.statusCode, signup.body).toBe(201);
    await t.provision();
    const extra = parse(placed, signup).data.order.lineId ?? '';
    expect((await line(extra)).status).toBe('active');
    await t.app.db.update(plans).set({ maxMembers: 3 }).where(eq(plans.id, 'family-20'));
    try {
      expectError(await patchWithKey(t.app, t.as.Jóannes, toFamily(extra), {}), 409, 'FAMILY_FULL');
    } finally {
      await t.app.db.update(plans).set({ maxMembers: 5 }).where(eq(plans.id, 'family-20'));
    }
  });

  it('SPEC §6: the owner cannot take their own number off a family that keeps members without it (FAMILY_HAS_MEMBERS); another number of theirs may leave, and they move members onto own plans of theirs', async () => {
    // Jóannes' work number leaves (his own main number stays on the family).
    const work = await patchWithKey(t.app, t.as.Jóannes, toOwn(LINES.joannesWork), {
      planId: 'individual-5',
    });
    expect(work.statusCode, work.body).toBe(200);
    // One change at a time: the family's next move waits for it.
    expectError(
      await patchWithKey(t.app, t.as.Jóannes, toOwn(LINES.bardur), { planId: 'individual-5' }),
      409,
      'PLAN_CHANGE_BLOCKED',
    );
    await t.provision();
    expect(await account((await line(LINES.joannesWork)).accountId ?? '')).toMatchObject({
      ownerUserId: demoUser('Jóannes').id,
      type: 'individual_plan',
      planId: 'individual-5',
    });
    // Bárður would stay on a family without Jóannes' number.
    expectError(
      await patchWithKey(t.app, t.as.Jóannes, toOwn(LINES.joannes), { planId: 'individual-20' }),
      409,
      'FAMILY_HAS_MEMBERS',
    );
    // Bárður's number (no user of its own) onto an individual plan Jóannes pays for.
    const res = await patchWithKey(t.app, t.as.Jóannes, toOwn(LINES.bardur), {
      planId: 'individual-5',
    });
    expect(res.statusCode, res.body).toBe(200);
    await t.provision();
    const bardur = await line(LINES.bardur);
    expect(bardur.userId).toBeNull();
    expect(await account(bardur.accountId ?? '')).toMatchObject({
      ownerUserId: demoUser('Jóannes').id,
      type: 'individual_plan',
      planId: 'individual-5',
    });
  });

  it('SPEC §2 /broyt-til-einstaklingahald: family → individual with one member left: the last number moves onto an individual plan and the family is closed', async () => {
    const lines = await t.app.db
      .select()
      .from(phoneLines)
      .where(eq(phoneLines.accountId, DEMO_ACCOUNT_IDS.joensenFamily));
    expect(lines.filter((l) => l.status !== 'cancelled').map((l) => l.id)).toEqual([LINES.joannes]);
    const res = await patchWithKey(t.app, t.as.Jóannes, toOwn(LINES.joannes), {
      planId: 'individual-20',
    });
    expect(res.statusCode, res.body).toBe(200);
    await t.provision();
    expect((await account(DEMO_ACCOUNT_IDS.joensenFamily)).status).toBe('cancelled');
    expect(await familyExists(t.as.Jóannes)).toEqual({ exists: false, accountId: null });
    const after = await overview(t.app, t.as.Jóannes);
    expect(after.currentAccount).toMatchObject({
      type: 'individual_plan',
      planId: 'individual-20',
    });
    expect(after.currentAccount?.currentMember.phoneNumber).toBe('214455');
  });

  it('SPEC §7 planInfo: without a family of their own the caller makes one — VALIDATION_FAILED planInfo without it, PLAN_NOT_AVAILABLE for an individual plan; the family is made at once (one per owner) and active once the number is on it', async () => {
    expect(await familyExists(t.as.Guðrun)).toEqual({ exists: false, accountId: null });
    const missing = await patchWithKey(t.app, t.as.Guðrun, toFamily(LINES.gudrun), {});
    expectError(missing, 400, 'VALIDATION_FAILED');
    expect((missing.json() as { error: { field?: string } }).error.field).toBe('planInfo');
    expectError(
      await patchWithKey(t.app, t.as.Guðrun, toFamily(LINES.gudrun), {
        planInfo: { planId: 'individual-20' },
      }),
      422,
      'PLAN_NOT_AVAILABLE',
    );
    const [a, b] = await Promise.all([
      patchWithKey(t.app, t.as.Guðrun, toFamily(LINES.gudrun), {
        planInfo: { planId: 'family-unlimited', euPackage: true },
      }),
      patchWithKey(t.app, t.as.Guðrun, toFamily(LINES.gudrun), {
        planInfo: { planId: 'family-unlimited', euPackage: true },
      }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const exists = await familyExists(t.as.Guðrun);
    expect(exists.exists).toBe(true);
    expect((await account(exists.accountId ?? '')).status).toBe('processing');
    const owned = await t.app.db
      .select()
      .from(accounts)
      .where(
        and(eq(accounts.ownerUserId, demoUser('Guðrun').id), eq(accounts.type, 'family_plan')),
      );
    expect(owned).toHaveLength(1);
    await t.provision();
    expect(await account(exists.accountId ?? '')).toMatchObject({
      status: 'active',
      planId: 'family-unlimited',
      euPackage: true,
    });
    expect(await line(LINES.gudrun)).toMatchObject({
      accountId: exists.accountId,
      planId: 'family-unlimited',
    });
    expect((await account(DEMO_ACCOUNT_IDS.gudrun)).status).toBe('cancelled');
    const after = await overview(t.app, t.as.Guðrun);
    expect(after.currentAccount).toMatchObject({ type: 'family_plan', planId: 'family-unlimited' });
    expect(after.currentAccount?.family?.maxMembers).toBe(6);
    // Unlimited now: the month's data follows the plan.
    expect((await balance(LINES.gudrun))?.domesticTotalMb).toBeGreaterThanOrEqual(1_024_000);
    // Moving it into the family it is on is a CONFLICT.
    expectError(
      await patchWithKey(t.app, t.as.Guðrun, toFamily(LINES.gudrun), {}),
      409,
      'CONFLICT',
    );
  });
});
