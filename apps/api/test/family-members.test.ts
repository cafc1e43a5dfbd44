import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope } from '@alda/contract/envelope';
import { nextMemberPrice } from '@alda/contract/rules/family';
import { ordersResponse } from '@alda/contract/schemas/orders';
import { addMembersResponse } from '@alda/contract/schemas/family-members';
import { accounts } from '../src/db/schema/accounts';
import { actions } from '../src/db/schema/actions';
import { notifications } from '../src/db/schema/data-transfers';
import { orders } from '../src/db/schema/orders';
import { numberReservations, phoneLines } from '../src/db/schema/phone-lines';
import { DEMO_ACCOUNT_IDS, DEMO_PLANS } from '../src/seed/demo-accounts';
import { demoUser, parse } from './helper';
import {
  addMembers,
  createLifecycleApp,
  expectError,
  memberWithCard,
  overview,
  type LifecycleApp,
} from './lifecycle-b-fixtures';
import { newCustomer, postSignup, reserve, signupBody } from './provisioning-fixtures';

const answer = dataEnvelope(addMembersResponse);
const FAMILY_20 = DEMO_PLANS.find((p) => p.id === 'family-20');
if (!FAMILY_20) throw new Error('no family-20 in the demo');

describe('PATCH /api/subscriptions { addMembers } — adding family members (SPEC §2 /stovna-familju-lim, §4 Family capacity, ADR 0056)', () => {
  let t: LifecycleApp;
  let seq = 0;
  /** A number no one has: 2198xx, one per call. */
  const fresh = () => `2198${String((seq += 1)).padStart(2, '0')}`;
  const reserveFor = (who: 'Jóannes' | 'Guðrun' | 'Sunneva') => reserve(t.app, t.as[who], fresh());

  beforeAll(async () => {
    t = await createLifecycleApp();
  });
  afterAll(() => t.close());

  it('SPEC §4 Family capacity: the owner adds a member; the order is processing until the worker completes it, then the member is on the account and the next member price moves', async () => {
    const before = await overview(t.app, t.as.Jóannes);
    const family = before.currentAccount;
    expect(family?.id).toBe(DEMO_ACCOUNT_IDS.joensenFamily);
    // Jóannes and Sunneva are members, Bárður is being set up: 2 of 5 seats left.
    expect(family?.family).toMatchObject({
      canAddMember: true,
      processingMembers: 1,
      maxMembers: 5,
    });
    expect(family?.family?.nextMemberPrice).toBe(nextMemberPrice(FAMILY_20.memberPrices, 2));

    const person = memberWithCard('Turið', await reserveFor('Jóannes'));
    const res = await addMembers(t.app, t.as.Jóannes, [person]);
    expect(res.statusCode, res.body).toBe(201);
    const [order] = parse(answer, res).data.orders;
    expect(order).toMatchObject({
      kind: 'add_member',
      isComplete: false,
      planId: 'family-20',
      memberName: 'Turið Joensen',
      paymentStatus: 'not_required',
      price: null,
    });
    expect(order?.provisioning?.steps.map((s) => s.step)).toEqual(['received']);
    expect(order?.provisioning?.delivery).toBe('own_card');

    // The line exists, being set up, without a user of its own; the number is used up.
    const [line] = await t.app.db
      .select()
      .from(phoneLines)
      .where(eq(phoneLines.id, order?.lineId ?? ''));
    expect(line).toMatchObject({ status: 'processing', userId: null, accountId: family?.id });
    expect(
      await t.app.db.$count(
        numberReservations,
        eq(numberReservations.id, person.phoneNumberReservationId ?? ''),
      ),
    ).toBe(0);
    // While it runs it counts as a member being added (SPEC §3 family members in processing).
    const during = await overview(t.app, t.as.Jóannes);
    expect(during.currentAccount?.family).toMatchObject({
      processingMembers: 2,
      canAddMember: true,
    });
    expect(during.currentAccount?.members).toHaveLength(2);
    // The owner's orders, the log and a notification say so.
    const listed = parse(
      dataEnvelope(ordersResponse),
      await t.app.inject({ method: 'GET', url: '/api/orders', headers: t.as.Jóannes }),
    ).data;
    expect(listed.find((o) => o.id === order?.id)?.memberName).toBe('Turið Joensen');
    const owner = demoUser('Jóannes').id;
    expect(
      await t.app.db.$count(
        actions,
        and(
          eq(actions.userId, owner),
          eq(actions.type, 'member_added'),
          eq(actions.lineId, line?.id ?? ''),
        ),
      ),
    ).toBe(1);
    expect(
      await t.app.db.$count(
        notifications,
        and(
          eq(notifications.userId, owner),
          eq(notifications.link, `/menu/bilegingar/${order?.id}`),
        ),
      ),
    ).toBe(1);

    await t.provision();
    const [done] = await t.app.db
      .select()
      .from(orders)
      .where(eq(orders.id, order?.id ?? ''));
    expect(done?.isComplete).toBe(true);
    const after = await overview(t.app, t.as.Jóannes);
    const members = after.currentAccount?.members ?? [];
    expect(members).toHaveLength(3);
    expect(members.map((m) => m.phoneNumber)).toContain(line?.msisdn);
    // The new number has no login of its own: it carries the name the owner gave (ADR 0056).
    expect(members.find((m) => m.phoneNumber === line?.msisdn)?.user).toMatchObject({
      firstname: 'Turið',
      lastname: 'Joensen',
    });
    expect(after.currentAccount?.family).toMatchObject({
      processingMembers: 1,
      canAddMember: true,
    });
    expect(after.currentAccount?.family?.nextMemberPrice).toBe(
      nextMemberPrice(FAMILY_20.memberPrices, 3),
    );
  });

  it('SPEC §4 Family capacity: FAMILY_FULL once members + members being added reach maxMembers; a request for more seats than are left adds nobody', async () => {
    // 3 members + Bárður: one seat left. Two people at once do not fit.
    const two = [
      memberWithCard('Anna', await reserveFor('Jóannes')),
      memberWithCard('Beinta', await reserveFor('Jóannes')),
    ];
    const ordersBefore = await t.app.db.$count(orders, eq(orders.kind, 'add_member'));
    expectError(await addMembers(t.app, t.as.Jóannes, two), 409, 'FAMILY_FULL');
    expect(await t.app.db.$count(orders, eq(orders.kind, 'add_member'))).toBe(ordersBefore);
    // The reservations were not used up by the refused request.
    expect(
      await t.app.db.$count(
        numberReservations,
        eq(numberReservations.id, two[0]?.phoneNumberReservationId ?? ''),
      ),
    ).toBe(1);
    // One fits; the next is full.
    const res = await addMembers(t.app, t.as.Jóannes, [two[0] as NonNullable<(typeof two)[0]>]);
    expect(res.statusCode, res.body).toBe(201);
    const full = await overview(t.app, t.as.Jóannes);
    expect(full.currentAccount?.family).toMatchObject({
      canAddMember: false,
      processingMembers: 2,
    });
    expectError(
      await addMembers(t.app, t.as.Jóannes, [two[1] as NonNullable<(typeof two)[1]>]),
      409,
      'FAMILY_FULL',
    );
  });

  it('SPEC §6: only the owner adds members (OWNER_ONLY for Sunneva, a member of the family)', async () => {
    const person = memberWithCard('Eyð', await reserveFor('Sunneva'));
    expectError(await addMembers(t.app, t.as.Sunneva, [person]), 403, 'OWNER_ONLY');
  });

  it('SPEC §4: refused on an individual plan, a prepaid number, and while the family is still being set up', async () => {
    const person = memberWithCard('Eyð', await reserveFor('Guðrun'));
    expectError(await addMembers(t.app, t.as.Guðrun, [person]), 422, 'PLAN_NOT_AVAILABLE');
    const rói = memberWithCard('Eyð', await reserve(t.app, t.as.Rói, fresh()));
    expectError(await addMembers(t.app, t.as.Rói, [rói]), 422, 'PLAN_NOT_AVAILABLE');

    // A new family sign-up: the account is processing until its main order completes.
    const customer = await newCustomer(t.app);
    const signup = await postSignup(
      t.app,
      customer.headers,
      signupBody({
        planId: 'family-20',
        sameAddressConfirmed: true,
        phoneNumberReservationId: await reserve(t.app, customer.headers, fresh()),
      }),
      randomUUID(),
    );
    expect(signup.statusCode, signup.body).toBe(201);
    const member = memberWithCard('Eyð', await reserve(t.app, customer.headers, fresh()));
    expectError(await addMembers(t.app, customer.headers, [member]), 409, 'ORDER_PROCESSING');
    const [family] = await t.app.db
      .select()
      .from(accounts)
      .where(eq(accounts.ownerUserId, customer.userId));
    expect(family?.status).toBe('processing');
  });

  it('ADR 0050: the same Idempotency-Key answers the orders of the first request and adds nobody twice; another body with it is IDEMPOTENCY_KEY_REUSED; no key is 400', async () => {
    const customer = await newCustomer(t.app);
    const signup = await postSignup(
      t.app,
      customer.headers,
      signupBody({
        planId: 'family-20',
        sameAddressConfirmed: true,
        phoneNumberReservationId: await reserve(t.app, customer.headers, fresh()),
      }),
      randomUUID(),
    );
    expect(signup.statusCode, signup.body).toBe(201);
    // The eSIM sign-up: received → esim_ready → (confirm) active.
    await t.provision();
    const orderId = (signup.json() as { data: { order: { id: string } } }).data.order.id;
    const confirmed = await t.app.inject({
      method: 'POST',
      url: `/api/orders/${orderId}/confirm-sim`,
      headers: customer.headers,
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);

    const people = [
      memberWithCard('Rakul', await reserve(t.app, customer.headers, fresh())),
      memberWithCard('Símun', await reserve(t.app, customer.headers, fresh()), {
        simcardNumber: null,
        eSim: true,
      }),
    ];
    const key = randomUUID();
    const first = await addMembers(t.app, customer.headers, people, key);
    expect(first.statusCode, first.body).toBe(201);
    const again = await addMembers(t.app, customer.headers, people, key);
    expect(again.statusCode, again.body).toBe(201);
    const a = parse(answer, first).data.orders;
    const b = parse(answer, again).data.orders;
    expect(a.map((o) => o.memberName)).toEqual(['Rakul Joensen', 'Símun Joensen']);
    expect(b.map((o) => o.id)).toEqual(a.map((o) => o.id));
    expect(
      await t.app.db.$count(
        orders,
        and(eq(orders.userId, customer.userId), eq(orders.kind, 'add_member')),
      ),
    ).toBe(2);
    expectError(
      await addMembers(
        t.app,
        customer.headers,
        [people[0] as NonNullable<(typeof people)[0]>],
        key,
      ),
      422,
      'IDEMPOTENCY_KEY_REUSED',
    );
    expectError(
      await addMembers(t.app, customer.headers, people, null),
      400,
      'IDEMPOTENCY_KEY_REQUIRED',
    );
  });

  it('SPEC §3 Signup payload: number and SIM as in sign-up — a used or foreign reservation is RESERVATION_EXPIRED, a number already ours NUMBER_ALREADY_OURS, a city not of its postal code VALIDATION_FAILED, an unknown shop PICKUP_LOCATION_NOT_FOUND, both or neither number 400', async () => {
    const customer = await newCustomer(t.app);
    const foreign = await reserve(t.app, customer.headers, fresh());
    const base = memberWithCard('Ói', foreign);
    // Guðrun's reservation is not Jóannes'; but first the family must have room: Guðrun has none.
    // (Jóannes' family is full by now; the checks below run on a family with room.)
    const signup = await postSignup(
      t.app,
      customer.headers,
      signupBody({
        planId: 'family-20',
        sameAddressConfirmed: true,
        eSim: false,
        simcardNumber: base.simcardNumber ?? null,
        phoneNumberReservationId: await reserve(t.app, customer.headers, fresh()),
      }),
      randomUUID(),
    );
    expect(signup.statusCode, signup.body).toBe(201);
    await t.provision();
    const other = await newCustomer(t.app);
    const notMine = await reserve(t.app, other.headers, fresh());
    expectError(
      await addMembers(t.app, customer.headers, [memberWithCard('Ói', notMine)]),
      409,
      'RESERVATION_EXPIRED',
    );
    expectError(
      await addMembers(t.app, customer.headers, [
        memberWithCard('Ói', foreign, {
          phoneNumberReservationId: null,
          porting: { phoneNumber: '214455', simcardNumber: base.simcardNumber ?? '' },
        }),
      ]),
      409,
      'NUMBER_ALREADY_OURS',
    );
    const badCity = await addMembers(t.app, customer.headers, [
      memberWithCard('Ói', foreign, {
        simcardNumber: null,
        simShippingAddress: { address: 'Gøta 1', postCode: '100', city: 'Klaksvík' },
      }),
    ]);
    expectError(badCity, 400, 'VALIDATION_FAILED');
    expect((badCity.json() as { error: { field?: string } }).error.field).toBe(
      'addMembers.0.simShippingAddress.city',
    );
    expectError(
      await addMembers(t.app, customer.headers, [
        memberWithCard('Ói', foreign, { simcardNumber: null, simPickupLocationId: 'nowhere' }),
      ]),
      422,
      'PICKUP_LOCATION_NOT_FOUND',
    );
    expectError(
      await addMembers(t.app, customer.headers, [
        memberWithCard('Ói', foreign, {
          porting: { phoneNumber: '299999', simcardNumber: base.simcardNumber ?? '' },
        }),
      ]),
      400,
      'VALIDATION_FAILED',
    );
    // The one reservation for two people: the second finds it used up.
    expectError(
      await addMembers(t.app, customer.headers, [
        memberWithCard('Ói', foreign),
        memberWithCard('Ári', foreign),
      ]),
      409,
      'RESERVATION_EXPIRED',
    );
    // Nothing was added by the refused requests, and the reservation is still there.
    expect(
      await t.app.db.$count(
        orders,
        and(eq(orders.userId, customer.userId), eq(orders.kind, 'add_member')),
      ),
    ).toBe(0);
    const ok = await addMembers(t.app, customer.headers, [memberWithCard('Ói', foreign)]);
    expect(ok.statusCode, ok.body).toBe(201);
  });
});
