import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope, errorEnvelope } from '@alda/contract/envelope';
import { ordersResponse } from '@alda/contract/schemas/orders';
import {
  familyAccountExistsResponse,
  subscriptionDetailResponse,
  subscriptionsResponse,
} from '@alda/contract/schemas/subscriptions';
import { familyMembers, familyMembersInProcessing } from '@alda/contract/rules/family';
import { backupMainOrder } from '@alda/contract/rules/orders';
import { createDemoApp, LINES, NOW, type DemoName } from './demo-accounts';

const overviewAnswer = dataEnvelope(subscriptionsResponse);
const detailAnswer = dataEnvelope(subscriptionDetailResponse);

describe('GET /api/subscriptions (SPEC §3 "Subscription state", §6)', () => {
  let t: Awaited<ReturnType<typeof createDemoApp>>;
  beforeAll(async () => {
    t = await createDemoApp();
  });
  afterAll(() => t.close());

  const get = (who: DemoName, url = '/api/subscriptions', language = 'fo') =>
    t.app.inject({ method: 'GET', url, headers: { ...t.as[who], 'accept-language': language } });
  const overview = async (who: DemoName, query = '') =>
    parse200(await get(who, `/api/subscriptions${query}`));
  const parse200 = (res: Awaited<ReturnType<typeof get>>) => {
    expect(res.statusCode, res.body).toBe(200);
    return overviewAnswer.parse(res.json()).data;
  };

  it('shows the family owner his line, data, gifts and EU allowance as currentAccount (SPEC §3)', async () => {
    const data = await overview('Jóannes');
    expect(data.isOwner).toBe(true);
    const account = data.currentAccount;
    expect(account).toMatchObject({
      type: 'family_plan',
      planId: 'family-20',
      planTypeId: 'family',
      euPackage: true,
    });
    expect(account?.currentMember).toMatchObject({
      id: LINES.joannes,
      phoneNumber: '214455',
      user: { firstname: 'Jóannes', lastname: 'Joensen' },
      planId: 'family-20',
      givenData: { current: 1024, max: 5120 },
      dataRemaining: { domestic: 22_528 - 8_400, eu: 25_600 - 1_200 },
      dataTotal: { domestic: 22_528, eu: 25_600 },
      dataUsed: { domestic: 8_400, eu: 1_200 },
      rolloverMb: 2048,
      status: 'active',
      simType: 'ESIM',
      expiresAt: null,
      prepaidBalance: null,
      dataUpdatedAt: new Date(NOW.getTime() - 7 * 60_000).toISOString(),
    });
  });

  it('lists the members in service; a member being added is a processing order, not a member (SPEC §3 Derived)', async () => {
    const data = await overview('Jóannes');
    const account = data.currentAccount;
    expect(account?.members.map((m) => m.phoneNumber)).toEqual(['214455', '214456']);
    expect(account?.otherMembers.map((m) => m.user.firstname)).toEqual(['Sunneva']);
    // The contract rules, applied to the API's answers, give the home screen's lists.
    expect(familyMembers(data.otherAccounts, account ?? null).map((m) => m.phoneNumber)).toEqual([
      '214456',
    ]);
    const orders = ordersResponse.parse(
      (await get('Jóannes', '/api/orders')).json<{ data: unknown }>().data,
    );
    expect(familyMembersInProcessing(orders).map((o) => [o.phoneNumber, o.memberName])).toEqual([
      ['214457', 'Bárður Joensen'],
    ]);
  });

  it('computes family capacity and the next member price with the contract rules (SPEC §4)', async () => {
    const { currentAccount } = await overview('Jóannes');
    // maxMembers 5 > 2 members + 1 processing; next price memberPrices[2] = 79 kr.
    expect(currentAccount?.family).toEqual({
      canAddMember: true,
      nextMemberPrice: 7_900,
      processingMembers: 1,
      maxMembers: 5,
    });
  });

  it("lists the owner's other accounts and the individual accounts he pays for (SPEC §3)", async () => {
    const data = await overview('Jóannes');
    expect(data.otherAccounts.map((a) => [a.type, a.currentMember.phoneNumber])).toEqual([
      ['individual_plan', '214466'],
    ]);
    expect(data.individuals.map((a) => a.currentMember.phoneNumber)).toEqual(['214466']);
    expect(data.otherAccounts[0]?.family).toBeNull();
  });

  it('switches the current line with ?line= among the caller’s own numbers (ADR 0030)', async () => {
    const data = await overview('Jóannes', '?line=214466');
    expect(data.currentAccount).toMatchObject({ type: 'individual_plan', planId: 'individual-5' });
    expect(data.currentAccount?.currentMember.phoneNumber).toBe('214466');
    expect(data.currentAccount?.otherMembers).toEqual([]);
    expect(data.otherAccounts.map((a) => a.type)).toEqual(['family_plan']);
    expect(data.isOwner).toBe(true);
    // SPEC §5 normalisation applies to the query as to every number typed.
    const prefixed = await overview('Jóannes', `?line=${encodeURIComponent('+298 214466')}`);
    expect(prefixed.currentAccount?.currentMember.phoneNumber).toBe('214466');
  });

  it('refuses a line that is not the caller’s own: 404 NOT_FOUND, 400 for a malformed one', async () => {
    for (const line of ['557812', '214456']) {
      const res = await get('Jóannes', `/api/subscriptions?line=${line}`);
      expect(res.statusCode).toBe(404);
      expect(errorEnvelope.parse(res.json()).error).toMatchObject({
        code: 'NOT_FOUND',
        field: 'line',
      });
    }
    const bad = await get('Jóannes', '/api/subscriptions?line=12');
    expect(bad.statusCode).toBe(400);
    expect(errorEnvelope.parse(bad.json()).error.code).toBe('VALIDATION_FAILED');
  });

  it('shows a family member the family with isOwner false (SPEC §3, §6)', async () => {
    const data = await overview('Sunneva');
    expect(data.isOwner).toBe(false);
    expect(data.currentAccount?.currentMember).toMatchObject({
      phoneNumber: '214456',
      simType: 'PHYSICAL',
      dataRemaining: { domestic: 21_504 - 17_800, eu: 25_600 },
      givenData: { current: 0, max: 5120 },
    });
    expect(data.currentAccount?.otherMembers.map((m) => m.phoneNumber)).toEqual(['214455']);
    expect(data.individuals).toEqual([]);
    expect(data.otherAccounts).toEqual([]);
  });

  it('shows an individual customer her plan; her number still being set up is only an order (SPEC §3, §4)', async () => {
    const data = await overview('Guðrun');
    expect(data.isOwner).toBe(true);
    expect(data.currentAccount).toMatchObject({
      type: 'individual_plan',
      planId: 'individual-20',
      family: null,
    });
    expect(data.currentAccount?.currentMember.dataRemaining).toEqual({
      domestic: 25_600 - 11_000,
      eu: 25_600 - 3_400,
    });
    expect(data.otherAccounts).toEqual([]);
    expect(data.individuals.map((a) => a.id)).toEqual([data.currentAccount?.id]);
    const orders = ordersResponse.parse(
      (await get('Guðrun', '/api/orders')).json<{ data: unknown }>().data,
    );
    // SPEC §3: the first incomplete main-subscription order is kept as a backup.
    expect(backupMainOrder(orders)).toMatchObject({ phoneNumber: '557813', isComplete: false });
  });

  it('shows a prepaid (talutíð) number with its credit (SPEC §4)', async () => {
    const data = await overview('Rói');
    expect(data.currentAccount).toMatchObject({
      type: 'prepaid',
      planId: 'prepaid-talutid',
      planTypeId: 'prepaid',
    });
    expect(data.currentAccount?.currentMember).toMatchObject({
      prepaidBalance: 8_550,
      dataRemaining: { domestic: 2048 - 700, eu: null },
      dataTotal: { domestic: 2048, eu: null },
    });
  });

  it('answers no current account for a new customer, who then has no orders either (SPEC §2 welcome guard)', async () => {
    expect(await overview('Ása')).toEqual({
      currentAccount: null,
      otherAccounts: [],
      isOwner: true,
      individuals: [],
    });
    const orders = await get('Ása', '/api/orders');
    expect(dataEnvelope(ordersResponse).parse(orders.json()).data).toEqual([]);
  });
});

describe('GET /api/subscriptions/{id} (SPEC §2 owner screens, §6)', () => {
  let t: Awaited<ReturnType<typeof createDemoApp>>;
  beforeAll(async () => {
    t = await createDemoApp();
  });
  afterAll(() => t.close());

  const get = (who: DemoName, id: string, language = 'fo') =>
    t.app.inject({
      method: 'GET',
      url: `/api/subscriptions/${id}`,
      headers: { ...t.as[who], 'accept-language': language },
    });

  it("lets the owner read a member's details with plan and price at her position (SPEC §4, §6)", async () => {
    const res = await get('Jóannes', LINES.sunneva, 'en');
    expect(res.statusCode, res.body).toBe(200);
    const { data } = detailAnswer.parse(res.json());
    expect(data).toMatchObject({
      isOwner: true,
      accountType: 'family_plan',
      euPackage: true,
      member: { phoneNumber: '214456', user: { firstname: 'Sunneva' } },
      plan: { planId: 'family-20', name: 'Family 20 GB', planTypeName: 'Family', maxMembers: 5 },
      monthlyPrice: { net: 7_920, vat: 1_980, gross: 9_900 },
    });
  });

  it('prices the owner’s own line at the plan price and a member in processing at the next price', async () => {
    const own = detailAnswer.parse((await get('Jóannes', LINES.joannes)).json()).data;
    expect(own.monthlyPrice?.gross).toBe(24_900);
    expect(own.plan?.name).toBe('Familja 20 GB');
    const processing = detailAnswer.parse((await get('Jóannes', LINES.bardur)).json()).data;
    expect(processing.member).toMatchObject({
      phoneNumber: '214457',
      status: 'processing',
      // No login of his own: the account holder is the user (ADR 0030).
      user: { firstname: 'Jóannes' },
      dataRemaining: { domestic: 0, eu: null },
    });
    expect(processing.monthlyPrice?.gross).toBe(7_900);
  });

  it('lets a member read her own number', async () => {
    const res = await get('Sunneva', LINES.sunneva);
    expect(res.statusCode).toBe(200);
    expect(detailAnswer.parse(res.json()).data.isOwner).toBe(false);
  });

  it("refuses another member's details to a non-owner with 403 OWNER_ONLY (SPEC §6)", async () => {
    for (const id of [LINES.joannes, LINES.bardur]) {
      const res = await get('Sunneva', id, 'en');
      expect(res.statusCode).toBe(403);
      const { error } = errorEnvelope.parse(res.json());
      expect(error.code).toBe('OWNER_ONLY');
      expect(error.message.length).toBeGreaterThan(0);
    }
  });

  it('answers 404 NOT_FOUND for strangers’ numbers and unknown ids (no hint that they exist)', async () => {
    for (const [who, id] of [
      ['Guðrun', LINES.joannes],
      ['Ása', LINES.sunneva],
      ['Jóannes', '00000000-0000-4000-8000-000000000000'],
      ['Jóannes', 'not-a-uuid'],
      ['Jóannes', LINES.gudrun],
    ] as const) {
      const res = await get(who, id);
      expect(res.statusCode, `${who} ${id}`).toBe(404);
      expect(errorEnvelope.parse(res.json()).error.code).toBe('NOT_FOUND');
    }
  });
});

describe('GET /api/subscriptions/family-account-exists (SPEC §7)', () => {
  let t: Awaited<ReturnType<typeof createDemoApp>>;
  beforeAll(async () => {
    t = await createDemoApp();
  });
  afterAll(() => t.close());

  it('is true with the id for the owner of a family account, false for members and others', async () => {
    const answer = dataEnvelope(familyAccountExistsResponse);
    const ask = async (who: DemoName) =>
      answer.parse(
        (
          await t.app.inject({
            method: 'GET',
            url: '/api/subscriptions/family-account-exists',
            headers: t.as[who],
          })
        ).json(),
      ).data;
    const joannes = await ask('Jóannes');
    expect(joannes.exists).toBe(true);
    const overview = overviewAnswer.parse(
      (
        await t.app.inject({ method: 'GET', url: '/api/subscriptions', headers: t.as.Jóannes })
      ).json(),
    ).data;
    expect(joannes.accountId).toBe(overview.currentAccount?.id);
    for (const who of ['Sunneva', 'Guðrun', 'Rói', 'Ása'] as const) {
      expect(await ask(who)).toEqual({ exists: false, accountId: null });
    }
  });

  it('requires a signed-in customer on every subscriptions endpoint (401)', async () => {
    for (const url of [
      '/api/subscriptions',
      '/api/subscriptions/family-account-exists',
      `/api/subscriptions/${LINES.joannes}`,
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(401);
      expect(errorEnvelope.parse(res.json()).error.code).toBe('UNAUTHORIZED');
    }
    // Authentication comes before validation: a guest learns nothing from a 400.
    const malformed = await t.app.inject({ method: 'GET', url: '/api/subscriptions?line=12' });
    expect(malformed.statusCode).toBe(401);
  });
});
