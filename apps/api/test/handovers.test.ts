import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope } from '@alda/contract/envelope';
import { orderPlacedResponse } from '@alda/contract/schemas/orders';
import { lineHandover, lineHandoversResponse } from '@alda/contract/schemas/subscriptions';
import { accounts } from '../src/db/schema/accounts';
import { paymentAgreements } from '../src/db/schema/agreements';
import { notifications } from '../src/db/schema/data-transfers';
import { lineHandovers } from '../src/db/schema/lifecycle';
import { orders } from '../src/db/schema/orders';
import { phoneLines } from '../src/db/schema/phone-lines';
import { DEMO_ACCOUNT_IDS } from '../src/seed/demo-accounts';
import { LINES, type DemoName } from './demo-accounts';
import { demoUser, parse } from './helper';
import {
  createLifecycleApp,
  expectError,
  overview,
  patchWithKey,
  type LifecycleApp,
} from './lifecycle-b-fixtures';

const OFFER = '/api/subscriptions/transfer-subscription-to-user-customer';
const one = dataEnvelope(lineHandover);
const placed = dataEnvelope(orderPlacedResponse);

describe('hand a number to another person (SPEC §7 transfer-subscription-to-user-customer, §2 /yvirtaka/:id; ADR 0056)', () => {
  let t: LifecycleApp;
  let handoverId = '';

  beforeAll(async () => {
    t = await createLifecycleApp();
  });
  afterAll(() => t.close());

  const email = (name: DemoName) => demoUser(name).email;
  const offer = (who: DemoName, subscriptionId: string, to: string, planId = 'individual-5') =>
    patchWithKey(t.app, t.as[who], OFFER, { subscriptionId, email: to, planId });
  const get = (who: DemoName, url: string) =>
    t.app.inject({ method: 'GET', url, headers: { ...t.as[who], 'accept-language': 'en' } });
  const accept = (who: DemoName, id: string, key: string = randomUUID()) =>
    t.app.inject({
      method: 'POST',
      url: `/api/line-handovers/${id}/accept`,
      headers: { ...t.as[who], 'idempotency-key': key },
    });
  const decline = (who: DemoName, id: string) =>
    t.app.inject({ method: 'DELETE', url: `/api/line-handovers/${id}`, headers: t.as[who] });
  const notesOf = async (name: DemoName) =>
    t.app.db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, demoUser(name).id));

  it('SPEC §7 hand-over: offering checks the people and the plan: RECIPIENT_NOT_FOUND, HANDOVER_TO_SELF, PLAN_NOT_AVAILABLE; NOT_FOUND for a stranger, OWNER_ONLY for another member', async () => {
    expectError(
      await offer('Guðrun', LINES.gudrun, 'nobody@example.fo'),
      404,
      'RECIPIENT_NOT_FOUND',
    );
    expectError(await offer('Guðrun', LINES.gudrun, email('Guðrun')), 422, 'HANDOVER_TO_SELF');
    expectError(
      await offer('Guðrun', LINES.gudrun, email('Sunneva'), 'family-20'),
      422,
      'PLAN_NOT_AVAILABLE',
    );
    expectError(await offer('Rói', LINES.gudrun, email('Sunneva')), 404, 'NOT_FOUND');
    expectError(await offer('Sunneva', LINES.joannes, email('Rói')), 403, 'OWNER_ONLY');
    expect(await t.app.db.$count(lineHandovers)).toBe(0);
  });

  it('SPEC §7 hand-over: the giver offers; nothing moves; the receiver is told with a link to /yvirtaka/:id and sees it; a second offer of the number is CONFLICT; strangers get NOT_FOUND', async () => {
    const res = await offer('Guðrun', LINES.gudrun, email('Sunneva').toUpperCase());
    expect(res.statusCode, res.body).toBe(201);
    const offered = parse(one, res).data;
    handoverId = offered.id;
    expect(offered).toMatchObject({
      phoneNumber: '557812',
      status: 'pending',
      from: { firstname: 'Guðrun' },
      to: { firstname: 'Sunneva' },
      planId: 'individual-5',
      planName: '5 GB',
      monthlyPrice: { gross: 14_900 },
      isReceiver: false,
      decidedAt: null,
      orderId: null,
    });
    expect(
      (await t.app.db.select().from(phoneLines).where(eq(phoneLines.id, LINES.gudrun)))[0],
    ).toMatchObject({ accountId: DEMO_ACCOUNT_IDS.gudrun, userId: demoUser('Guðrun').id });
    const note = (await notesOf('Sunneva')).find((n) => n.link === `/yvirtaka/${offered.id}`);
    expect(note?.type).toBe('subscription');
    expect(note?.params.title).toMatchObject({ fo: expect.any(String), en: expect.any(String) });

    const list = parse(
      dataEnvelope(lineHandoversResponse),
      await get('Sunneva', '/api/line-handovers'),
    ).data;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ id: offered.id, isReceiver: true });
    const mine = parse(
      dataEnvelope(lineHandoversResponse),
      await get('Guðrun', '/api/line-handovers'),
    ).data;
    expect(mine.map((h) => [h.id, h.isReceiver])).toEqual([[offered.id, false]]);
    expect(
      parse(one, await get('Sunneva', `/api/line-handovers/${offered.id}`)).data.isReceiver,
    ).toBe(true);
    expectError(await get('Rói', `/api/line-handovers/${offered.id}`), 404, 'NOT_FOUND');
    expectError(await get('Rói', `/api/line-handovers/${randomUUID()}`), 404, 'NOT_FOUND');
    expect(
      parse(dataEnvelope(lineHandoversResponse), await get('Rói', '/api/line-handovers')).data,
    ).toEqual([]);

    expectError(await offer('Guðrun', LINES.gudrun, email('Rói')), 409, 'CONFLICT');
  });

  it('SPEC §7 hand-over: only the receiver accepts (FORBIDDEN for the giver, NOT_FOUND for strangers) and needs a card on file (AGREEMENT_REQUIRED)', async () => {
    expectError(await accept('Guðrun', handoverId), 403, 'FORBIDDEN');
    expectError(await accept('Rói', handoverId), 404, 'NOT_FOUND');
    expectError(await accept('Sunneva', handoverId), 409, 'AGREEMENT_REQUIRED');
  });

  it("SPEC §7 hand-over: accepting places a hand_over order at once; after provisioning the number has the receiver as its user on a new individual account of theirs, and the giver's account is closed", async () => {
    await t.app.db.insert(paymentAgreements).values({
      userId: demoUser('Sunneva').id,
      status: 'active',
      cardBrand: 'Visa',
      cardLast4: '4242',
      cardExpiry: '12/30',
      providerReference: 'card-sunneva',
    });
    const key = randomUUID();
    const res = await accept('Sunneva', handoverId, key);
    expect(res.statusCode, res.body).toBe(201);
    const { order, paymentUrl } = parse(placed, res).data;
    expect(paymentUrl).toBeNull();
    expect(order).toMatchObject({ kind: 'transfer', planId: 'individual-5', lineId: LINES.gudrun });
    expect(order.lifecycle?.action).toBe('hand_over');
    // A retry answers the same order; a new request finds it decided.
    expect(parse(placed, await accept('Sunneva', handoverId, key)).data.order.id).toBe(order.id);
    expectError(await accept('Sunneva', handoverId), 409, 'CONFLICT');
    const decided = parse(one, await get('Guðrun', `/api/line-handovers/${handoverId}`)).data;
    expect(decided).toMatchObject({ status: 'accepted', orderId: order.id });
    expect((await notesOf('Guðrun')).some((n) => n.params.title?.en === 'Number accepted')).toBe(
      true,
    );

    await t.provision();
    const [done] = await t.app.db.select().from(orders).where(eq(orders.id, order.id));
    expect(done?.isComplete).toBe(true);
    const [moved] = await t.app.db.select().from(phoneLines).where(eq(phoneLines.id, LINES.gudrun));
    expect(moved).toMatchObject({ userId: demoUser('Sunneva').id, planId: 'individual-5' });
    const [own] = await t.app.db
      .select()
      .from(accounts)
      .where(eq(accounts.id, moved?.accountId ?? ''));
    expect(own).toMatchObject({
      ownerUserId: demoUser('Sunneva').id,
      type: 'individual_plan',
      planId: 'individual-5',
      status: 'active',
    });
    expect(
      (await t.app.db.select().from(accounts).where(eq(accounts.id, DEMO_ACCOUNT_IDS.gudrun)))[0]
        ?.status,
    ).toBe('cancelled');
    const sunneva = await overview(t.app, t.as.Sunneva, '557812');
    expect(sunneva.isOwner).toBe(true);
    expect(sunneva.currentAccount?.currentMember).toMatchObject({
      phoneNumber: '557812',
      user: { firstname: 'Sunneva' },
    });
    const gudrun = await overview(t.app, t.as.Guðrun);
    const numbers = [gudrun.currentAccount, ...gudrun.otherAccounts].flatMap(
      (a) => a?.members.map((m) => m.phoneNumber) ?? [],
    );
    expect(numbers).not.toContain('557812');
  });

  it('SPEC §7 hand-over: the receiver declines: nothing moves, the giver is told; deciding again is CONFLICT', async () => {
    const res = await offer('Jóannes', LINES.joannesWork, email('Rói'));
    expect(res.statusCode, res.body).toBe(201);
    const { id } = parse(one, res).data;
    const declined = await decline('Rói', id);
    expect(declined.statusCode, declined.body).toBe(200);
    expect(parse(one, declined).data).toMatchObject({ status: 'declined', isReceiver: true });
    expect(declined.json().data.decidedAt).not.toBeNull();
    expect(
      (await notesOf('Jóannes')).some((n) => n.params.title?.en === 'Number not accepted'),
    ).toBe(true);
    expectError(await decline('Rói', id), 409, 'CONFLICT');
    expectError(await decline('Jóannes', id), 409, 'CONFLICT');
    expectError(await accept('Rói', id), 409, 'CONFLICT');
    const [line] = await t.app.db
      .select()
      .from(phoneLines)
      .where(eq(phoneLines.id, LINES.joannesWork));
    expect(line?.accountId).toBe(DEMO_ACCOUNT_IDS.joannesWork);
  });

  it('SPEC §7 hand-over: the giver withdraws: the receiver is told; strangers cannot withdraw (NOT_FOUND); a new offer may follow', async () => {
    const res = await offer('Jóannes', LINES.joannesWork, email('Guðrun'));
    expect(res.statusCode, res.body).toBe(201);
    const { id } = parse(one, res).data;
    expectError(await decline('Rói', id), 404, 'NOT_FOUND');
    const withdrawn = await decline('Jóannes', id);
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expect(parse(one, withdrawn).data).toMatchObject({ status: 'withdrawn', isReceiver: false });
    expect((await notesOf('Guðrun')).some((n) => n.params.title?.en === 'Offer withdrawn')).toBe(
      true,
    );
    expect(
      parse(dataEnvelope(lineHandoversResponse), await get('Guðrun', '/api/line-handovers')).data,
    ).toEqual([]);
    const again = await offer('Jóannes', LINES.joannesWork, email('Guðrun'));
    expect(again.statusCode, again.body).toBe(201);
    expect(
      await t.app.db.$count(
        lineHandovers,
        and(eq(lineHandovers.lineId, LINES.joannesWork), eq(lineHandovers.status, 'pending')),
      ),
    ).toBe(1);
  });
});
