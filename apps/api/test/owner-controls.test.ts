import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope } from '@alda/contract/envelope';
import {
  lineControls,
  packageRequest,
  packageRequestsResponse,
} from '@alda/contract/schemas/controls';
import { notificationsResponse } from '@alda/contract/schemas/notifications';
import { orderPlacedResponse } from '@alda/contract/schemas/orders';
import {
  subscriptionDetailResponse,
  subscriptionsResponse,
} from '@alda/contract/schemas/subscriptions';
import type { NetworkAdapter } from '../src/adapters/network/network';
import type { NetworkSimulator } from '../src/adapters/network/simulator';
import { lineBalances } from '../src/db/schema/balances';
import { notifications } from '../src/db/schema/data-transfers';
import { phoneLines } from '../src/db/schema/phone-lines';
import { pushDeliveries, pushDevices } from '../src/db/schema/push';
import { seedDemoData } from '../src/seed/seed';
import { LINES, NOW, signIn, type DemoName } from './demo-accounts';
import { createTestApp, parse, type TestApp } from './helper';
import { CARDS, createPaymentsApp, submitCard, type PaymentsTestApp } from './payments-fixture';
import { expectError } from './purchases-fixtures';

/*
 * Owner controls per member (issue 16.3, docs/decisions/0068-owner-controls.md). Demo: Jóannes
 * owns the family account; Sunneva (214456) is a member with a login of her own; Jóannes's own
 * number is 214455; Rói is a customer outside the family.
 */

type Auth = { authorization: string };

function patchControls(
  app: FastifyInstance,
  auth: Auth,
  lineId: string,
  body: unknown,
  lang = 'fo',
) {
  return app.inject({
    method: 'PATCH',
    url: `/api/subscriptions/${lineId}/controls`,
    headers: { ...auth, 'accept-language': lang },
    payload: body as Record<string, unknown>,
  });
}

async function notificationsOf(app: FastifyInstance, auth: Auth, lang = 'fo') {
  const res = await app.inject({
    method: 'GET',
    url: '/api/notifications?perPage=100',
    headers: { ...auth, 'accept-language': lang },
  });
  expect(res.statusCode).toBe(200);
  return parse(dataEnvelope(notificationsResponse), res).data.items;
}

describe('issue 16.3: pausing a member’s mobile data', () => {
  let t: TestApp;
  let as: Record<'Jóannes' | 'Sunneva' | 'Rói' | 'Guðrun', Auth>;
  /** When set, the network refuses every data bar (as a real HLR that is down would). */
  const refusing = { on: false };
  /** Every data bar the network carried out, in order: true bars, false lifts. */
  const carriedOut: boolean[] = [];
  beforeAll(async () => {
    t = await createTestApp(
      {},
      {
        now: () => NOW,
        wrapNetwork: (inner: NetworkAdapter) => ({
          ...inner,
          async setDataBarred(msisdn, barred, call) {
            if (refusing.on) throw new Error('HLR timeout');
            await inner.setDataBarred(msisdn, barred, call);
            carriedOut.push(barred);
          },
        }),
      },
    );
    await seedDemoData(t.app.db, NOW);
    const names: DemoName[] = ['Jóannes', 'Sunneva', 'Rói', 'Guðrun'];
    as = Object.fromEntries(
      await Promise.all(names.map(async (n) => [n, await signIn(t.app, n)])),
    ) as typeof as;
  });
  afterAll(() => t.close());

  const simulator = () => t.app.network as NetworkSimulator;
  const sunnevaLine = async () => {
    const [row] = await t.app.db.select().from(phoneLines).where(eq(phoneLines.id, LINES.sunneva));
    return row;
  };
  const homeOf = async (auth: Auth) =>
    parse(
      dataEnvelope(subscriptionsResponse),
      await t.app.inject({ method: 'GET', url: '/api/subscriptions', headers: auth }),
    ).data;

  it('issue 16.3: the owner pauses a member’s data — the network bars it, the line says so, the member is told in their language, the home answer shows it at once', async () => {
    // Read once, so the instance keeps the answer in memory (ADR 0057) and must drop it.
    expect((await homeOf(as.Sunneva)).currentAccount?.currentMember.controls).toEqual({
      dataPaused: false,
      dataPausedAt: null,
      purchaseApproval: false,
    });

    const res = await patchControls(t.app, as.Jóannes, LINES.sunneva, { dataPaused: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(parse(dataEnvelope(lineControls), res).data).toEqual({
      dataPaused: true,
      dataPausedAt: NOW.toISOString(),
      purchaseApproval: false,
    });
    expect(simulator().isDataBarred('214456')).toBe(true);
    expect((await sunnevaLine())?.dataPausedAt?.toISOString()).toBe(NOW.toISOString());

    const home = await homeOf(as.Sunneva);
    expect(home.currentAccount?.currentMember.controls?.dataPaused).toBe(true);
    // The owner's view of the member shows it too.
    const detail = parse(
      dataEnvelope(subscriptionDetailResponse),
      await t.app.inject({
        method: 'GET',
        url: `/api/subscriptions/${LINES.sunneva}`,
        headers: as.Jóannes,
      }),
    ).data;
    expect(detail.member.controls?.dataPaused).toBe(true);

    const fo = (await notificationsOf(t.app, as.Sunneva)).find((n) => n.type === 'data_paused');
    expect(fo).toMatchObject({
      type: 'data_paused',
      title: 'Mobildatað er steðgað',
      body: 'Eigarin av kontuni hevur steðgað mobildatanum á 21 44 56. Tú kanst framvegis ringja og senda SMS.',
      readAt: null,
    });
    const en = (await notificationsOf(t.app, as.Sunneva, 'en')).find(
      (n) => n.type === 'data_paused',
    );
    expect(en).toMatchObject({ type: 'data_paused', title: 'Mobile data paused' });
  });

  it('issue 16.3: pausing again (a double tap) changes nothing and tells no one again', async () => {
    const before = (await notificationsOf(t.app, as.Sunneva)).length;
    const res = await patchControls(t.app, as.Jóannes, LINES.sunneva, { dataPaused: true });
    expect(res.statusCode).toBe(200);
    expect(parse(dataEnvelope(lineControls), res).data.dataPausedAt).toBe(NOW.toISOString());
    expect(await notificationsOf(t.app, as.Sunneva)).toHaveLength(before);
  });

  it('issue 16.3: a paused line still receives data — a gift to it moves as always', async () => {
    const [before] = await t.app.db
      .select()
      .from(lineBalances)
      .where(eq(lineBalances.lineId, LINES.sunneva));
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/data-transfers',
      headers: { ...as.Guðrun, 'idempotency-key': randomUUID() },
      payload: { kind: 'gift', fromPhoneNumber: '557812', phoneNumber: '214456', dataAmount: 100 },
    });
    expect(res.statusCode, res.body).toBe(201);
    const [after] = await t.app.db
      .select()
      .from(lineBalances)
      .where(eq(lineBalances.lineId, LINES.sunneva));
    expect(after?.domesticRemainingMb).toBe((before?.domesticRemainingMb ?? 0) + 100);
  });

  it('issue 16.3: the network refuses the resume — 503 NETWORK_UNAVAILABLE, nothing is written, the member is not told', async () => {
    const before = (await notificationsOf(t.app, as.Sunneva)).length;
    refusing.on = true;
    try {
      expectError(
        await patchControls(t.app, as.Jóannes, LINES.sunneva, { dataPaused: false }, 'en'),
        503,
        'NETWORK_UNAVAILABLE',
        'The network did not answer. Nothing was changed; try again in a moment.',
      );
    } finally {
      refusing.on = false;
    }
    expect((await sunnevaLine())?.dataPausedAt).not.toBeNull();
    expect(simulator().isDataBarred('214456')).toBe(true);
    expect(await notificationsOf(t.app, as.Sunneva)).toHaveLength(before);
    expect((await homeOf(as.Sunneva)).currentAccount?.currentMember.controls?.dataPaused).toBe(
      true,
    );
  });

  it('issue 16.3: the owner resumes — the bar is lifted and the member is told', async () => {
    const res = await patchControls(t.app, as.Jóannes, LINES.sunneva, { dataPaused: false });
    expect(res.statusCode, res.body).toBe(200);
    expect(parse(dataEnvelope(lineControls), res).data).toMatchObject({
      dataPaused: false,
      dataPausedAt: null,
    });
    expect(simulator().isDataBarred('214456')).toBe(false);
    // The clock is pinned: find it by its type, not by its place.
    const latest = (await notificationsOf(t.app, as.Sunneva)).find(
      (n) => n.type === 'data_resumed',
    );
    expect(latest).toMatchObject({
      type: 'data_resumed',
      body: 'Eigarin av kontuni hevur sett mobildatað á 21 44 56 í gongd aftur.',
    });
  });

  it('issue 16.3: the commit fails after the network took the pause — the network is set back, nothing is written, the member is not told', async () => {
    // A deferred trigger refuses the commit, after the network has barred the number (as when
    // the database goes away between the network call and the commit).
    const db = t.app.db;
    await db.execute(sql`create table test_refuse_commit (refuse boolean not null)`);
    await db.execute(
      sql.raw(`create function test_refuse_commit() returns trigger language plpgsql as $$
        begin
          if exists (select 1 from test_refuse_commit) then
            raise exception 'commit refused by the test';
          end if;
          return null;
        end $$`),
    );
    await db.execute(
      sql.raw(`create constraint trigger test_refuse_commit after update on phone_lines
        deferrable initially deferred for each row execute function test_refuse_commit()`),
    );
    await db.execute(sql`insert into test_refuse_commit values (true)`);
    const barredBefore = simulator().isDataBarred('214456');
    const calls = carriedOut.length;
    const before = (await notificationsOf(t.app, as.Sunneva)).length;
    try {
      const res = await patchControls(t.app, as.Jóannes, LINES.sunneva, { dataPaused: true });
      expect(res.statusCode, res.body).toBe(500);
    } finally {
      await db.execute(sql`drop trigger test_refuse_commit on phone_lines`);
      await db.execute(sql`drop function test_refuse_commit()`);
      await db.execute(sql`drop table test_refuse_commit`);
    }
    // The network was told to bar the number, then to lift the bar again.
    expect(barredBefore).toBe(false);
    expect(carriedOut.slice(calls)).toEqual([true, false]);
    expect(simulator().isDataBarred('214456')).toBe(false);
    expect((await sunnevaLine())?.dataPausedAt).toBeNull();
    expect(await notificationsOf(t.app, as.Sunneva)).toHaveLength(before);
    expect((await homeOf(as.Sunneva)).currentAccount?.currentMember.controls?.dataPaused).toBe(
      false,
    );
  });

  it('issue 16.3: only the owner sets controls — the member 403 OWNER_ONLY, a stranger and unknown ids 404', async () => {
    expectError(
      await patchControls(t.app, as.Sunneva, LINES.sunneva, { dataPaused: true }),
      403,
      'OWNER_ONLY',
    );
    expectError(
      await patchControls(t.app, as.Rói, LINES.sunneva, { dataPaused: true }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await patchControls(t.app, as.Jóannes, randomUUID(), { dataPaused: true }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await patchControls(t.app, as.Jóannes, 'not-a-line', { dataPaused: true }),
      404,
      'NOT_FOUND',
    );
    expect((await sunnevaLine())?.dataPausedAt).toBeNull();
    expect(simulator().isDataBarred('214456')).toBe(false);
  });

  it("issue 16.3: controls on the owner's own number are refused with 422 CONTROLS_OWN_LINE, in the reader's language", async () => {
    expectError(
      await patchControls(t.app, as.Jóannes, LINES.joannes, { dataPaused: true }),
      422,
      'CONTROLS_OWN_LINE',
      'Hetta kanst tú bara gera við nummur hjá limunum, ikki við títt egna.',
    );
    expectError(
      await patchControls(t.app, as.Jóannes, LINES.joannes, { purchaseApproval: true }, 'en'),
      422,
      'CONTROLS_OWN_LINE',
      "You can only do this for your members' numbers, not your own.",
    );
    expect(simulator().isDataBarred('214455')).toBe(false);
    // Only members' numbers carry controls in the answers, so no app offers them on one's own.
    const home = await homeOf(as.Jóannes);
    expect(home.currentAccount?.currentMember.controls).toBeUndefined();
    const sunneva = home.currentAccount?.members.find((m) => m.phoneNumber === '214456');
    expect(sunneva?.controls).toEqual({
      dataPaused: false,
      dataPausedAt: null,
      purchaseApproval: false,
    });
  });

  it('issue 16.3: bad input is 400 VALIDATION_FAILED — an empty body, a wrong type, an unknown field', async () => {
    for (const body of [{}, { dataPaused: 'yes' }, { dataPaused: true, speed: 'slow' }]) {
      expectError(
        await patchControls(t.app, as.Jóannes, LINES.sunneva, body),
        400,
        'VALIDATION_FAILED',
      );
    }
    expect((await sunnevaLine())?.dataPausedAt).toBeNull();
  });

  it('issue 16.3: a paused line is left out by the demo’s usage simulator (data use does not happen)', async () => {
    await patchControls(t.app, as.Jóannes, LINES.sunneva, { dataPaused: true });
    const { findActiveMeteredLines } = await import('../src/modules/usage/repo');
    const metered = (await findActiveMeteredLines(t.app.db)).map((l) => l.msisdn);
    expect(metered).toContain('214455');
    expect(metered).not.toContain('214456');
    await patchControls(t.app, as.Jóannes, LINES.sunneva, { dataPaused: false });
    expect((await findActiveMeteredLines(t.app.db)).map((l) => l.msisdn)).toContain('214456');
  });
});

describe('issue 16.3: approval of a member’s extra-package purchases', () => {
  let t: PaymentsTestApp;
  let sunneva: Auth;
  let rói: Auth;
  beforeAll(async () => {
    t = await createPaymentsApp();
    sunneva = await signIn(t.app, 'Sunneva');
    rói = await signIn(t.app, 'Rói');
  });
  afterAll(() => t.close());

  const post = (
    auth: Auth,
    url: string,
    payload: unknown,
    key: string = randomUUID(),
    lang = 'fo',
  ) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { ...auth, 'idempotency-key': key, 'accept-language': lang },
      payload: payload as Record<string, unknown>,
    });
  const ask = (packageId = 'data-1', key?: string) =>
    post(sunneva, '/api/package-requests', { packageId, phoneNumber: '214456' }, key);
  const requestsOf = async (auth: Auth) =>
    parse(
      dataEnvelope(packageRequestsResponse),
      await t.app.inject({ method: 'GET', url: '/api/package-requests', headers: auth }),
    ).data;
  const sunnevaTotal = async () => {
    const [row] = await t.app.db
      .select()
      .from(lineBalances)
      .where(eq(lineBalances.lineId, LINES.sunneva));
    return row?.domesticTotalMb ?? 0;
  };

  it('issue 16.3: with approval off, a member’s request is refused (409 CONFLICT: buy it instead)', async () => {
    expectError(await ask(), 409, 'CONFLICT');
  });

  it('issue 16.3: with approval on, the member’s purchase does not pay — 409 APPROVAL_REQUIRED with a clear message; the owner’s purchase for the member is never blocked', async () => {
    const on = await patchControls(t.app, t.auth, LINES.sunneva, { purchaseApproval: true });
    expect(on.statusCode, on.body).toBe(200);
    expect(parse(dataEnvelope(lineControls), on).data.purchaseApproval).toBe(true);

    expectError(
      await post(sunneva, '/api/packages', { packageId: 'data-1', phoneNumber: '214456' }),
      409,
      'APPROVAL_REQUIRED',
      'Eigarin av kontuni skal góðkenna keyp á hesum nummarinum. Send eina umbøn til eigaran.',
    );
    const owners = await post(t.auth, '/api/packages', {
      packageId: 'data-1',
      phoneNumber: '214456',
    });
    expect(owners.statusCode, owners.body).toBe(201);
  });

  it('issue 16.3: the member asks — a pending request both see; the owner is told who asks for what; a double tap is one request', async () => {
    const key = randomUUID();
    const res = await ask('data-5', key);
    expect(res.statusCode, res.body).toBe(201);
    const created = parse(dataEnvelope(packageRequest), res).data;
    expect(created).toMatchObject({
      status: 'pending',
      phoneNumber: '214456',
      lineId: LINES.sunneva,
      requester: { firstname: 'Sunneva' },
      package: { id: 'data-5', dataMb: 5 * 1024 },
      isApprover: false,
      orderId: null,
    });
    // The same key again, and the same package with a new key: the same request.
    expect(parse(dataEnvelope(packageRequest), await ask('data-5', key)).data.id).toBe(created.id);
    expect(parse(dataEnvelope(packageRequest), await ask('data-5')).data.id).toBe(created.id);

    expect((await requestsOf(sunneva)).map((r) => r.id)).toEqual([created.id]);
    const [forOwner] = await requestsOf(t.auth);
    expect(forOwner).toMatchObject({ id: created.id, isApprover: true });
    expect(await requestsOf(rói)).toEqual([]);

    const told = (await notificationsOf(t.app, t.auth)).filter((n) => n.type === 'package_request');
    expect(told).toHaveLength(1);
    expect(told[0]?.body).toMatch(
      /^Sunneva Joensen biður teg um at keypa eykapakkan .+ til 21 44 56\.$/,
    );
    const [en] = (await notificationsOf(t.app, t.auth, 'en')).filter(
      (n) => n.type === 'package_request',
    );
    expect(en?.title).toBe('Extra package request');
  });

  it('issue 16.3: only the owner approves — the member 403, a stranger 404', async () => {
    const [request] = await requestsOf(sunneva);
    if (!request) throw new Error('no request');
    expectError(
      await post(sunneva, `/api/package-requests/${request.id}/approve`, {}),
      403,
      'FORBIDDEN',
    );
    expectError(
      await post(rói, `/api/package-requests/${request.id}/approve`, {}),
      404,
      'NOT_FOUND',
    );
    expectError(
      await t.app.inject({
        method: 'DELETE',
        url: `/api/package-requests/${request.id}`,
        headers: rói,
      }),
      404,
      'NOT_FOUND',
    );
  });

  it('issue 16.3: the owner approves by paying with a card — one order for two taps, the request approved when paid, the data on the member’s line, the member told', async () => {
    const [request] = await requestsOf(t.auth);
    if (!request) throw new Error('no request');
    const before = await sunnevaTotal();
    // Both have a browser that takes pushes (issue 64): the answer is pushed to the member only.
    for (const [who, id] of [
      [t.auth, 'owner'],
      [sunneva, 'member'],
    ] as const) {
      const registered = await t.app.inject({
        method: 'PUT',
        url: '/api/push/device',
        headers: who,
        payload: {
          platform: 'web',
          endpoint: `https://push.example/${id}`,
          keys: { p256dh: `B${'A'.repeat(86)}`, auth: 'A'.repeat(22) },
        },
      });
      expect(registered.statusCode, registered.body).toBe(200);
    }
    const first = await post(t.auth, `/api/package-requests/${request.id}/approve`, {});
    expect(first.statusCode, first.body).toBe(201);
    const placed = parse(dataEnvelope(orderPlacedResponse), first).data;
    expect(placed.order).toMatchObject({ kind: 'extra_package', phoneNumber: '214456' });
    expect(placed.paymentUrl).toMatch(/\/test-provider\/checkout\//);
    // Another tap (another key, e.g. another device) answers the same order.
    const second = parse(
      dataEnvelope(orderPlacedResponse),
      await post(t.auth, `/api/package-requests/${request.id}/approve`, {}),
    ).data;
    expect(second.order.id).toBe(placed.order.id);
    // While the owner pays, the request is still pending, with the order; the member cannot
    // withdraw it from under the payment.
    const [paying] = await requestsOf(sunneva);
    expect(paying).toMatchObject({ status: 'pending', orderId: placed.order.id });
    expectError(
      await t.app.inject({
        method: 'DELETE',
        url: `/api/package-requests/${request.id}`,
        headers: sunneva,
      }),
      409,
      'CONFLICT',
    );

    expect((await submitCard(t.app, placed, CARDS.succeed)).statusCode).toBe(303);
    if (!t.app.testProvider) throw new Error('no test provider');
    await t.app.testProvider.tick();

    const done = parse(
      dataEnvelope(packageRequest),
      await t.app.inject({
        method: 'GET',
        url: `/api/package-requests/${request.id}`,
        headers: sunneva,
      }),
    ).data;
    expect(done.status).toBe('approved');
    expect(done.decidedAt).not.toBeNull();
    expect(await sunnevaTotal()).toBe(before + 5 * 1024);
    expect(await requestsOf(sunneva)).toEqual([]);
    const [told] = (await notificationsOf(t.app, sunneva)).filter((n) => n.type === 'package');
    expect(told?.body).toContain('21 44 56');
    const pushed = await t.app.db
      .select({ endpoint: pushDevices.address })
      .from(pushDeliveries)
      .innerJoin(pushDevices, eq(pushDevices.id, pushDeliveries.deviceId))
      .innerJoin(notifications, eq(notifications.id, pushDeliveries.notificationId))
      .where(eq(notifications.type, 'package'));
    expect(pushed).toEqual([{ endpoint: 'https://push.example/member' }]);
    // Approved is final.
    expectError(
      await post(t.auth, `/api/package-requests/${request.id}/approve`, {}),
      409,
      'CONFLICT',
    );
  });

  it('issue 16.3: the owner declines — the member is told in their language; declining again is 409', async () => {
    const created = parse(dataEnvelope(packageRequest), await ask('data-1')).data;
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/package-requests/${created.id}`,
      headers: t.auth,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(parse(dataEnvelope(packageRequest), res).data.status).toBe('declined');
    const [fo] = (await notificationsOf(t.app, sunneva)).filter(
      (n) => n.type === 'package_request_declined',
    );
    expect(fo?.title).toBe('Umbønin um eykapakka er avvíst');
    expect(fo?.body).toMatch(/^Eigarin av kontuni keypti ikki eykapakkan .+ til 21 44 56\.$/);
    const [en] = (await notificationsOf(t.app, sunneva, 'en')).filter(
      (n) => n.type === 'package_request_declined',
    );
    expect(en?.title).toBe('Extra package request declined');
    expectError(
      await t.app.inject({
        method: 'DELETE',
        url: `/api/package-requests/${created.id}`,
        headers: t.auth,
      }),
      409,
      'CONFLICT',
    );
  });

  it('issue 16.3: the member withdraws a pending request; the owner no longer sees it and is not charged', async () => {
    const created = parse(dataEnvelope(packageRequest), await ask('data-1')).data;
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/package-requests/${created.id}`,
      headers: sunneva,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(parse(dataEnvelope(packageRequest), res).data.status).toBe('withdrawn');
    expect(await requestsOf(t.auth)).toEqual([]);
    expectError(
      await post(t.auth, `/api/package-requests/${created.id}/approve`, {}),
      409,
      'CONFLICT',
    );
  });

  it('issue 16.3: when the owner turns approval off, the member buys again as before', async () => {
    await patchControls(t.app, t.auth, LINES.sunneva, { purchaseApproval: false });
    const res = await post(sunneva, '/api/packages', {
      packageId: 'data-1',
      phoneNumber: '214456',
    });
    expect(res.statusCode, res.body).toBe(201);
    // Nothing about approval reached the member's notifications beyond what was asked.
    const rows = await t.app.db
      .select()
      .from(notifications)
      .where(eq(notifications.type, 'data_paused'));
    expect(rows).toEqual([]);
  });
});
