import { and, desc, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope, errorEnvelope } from '@alda/contract/envelope';
import { orderPlacedResponse } from '@alda/contract/schemas/orders';
import {
  staffPaymentDetail,
  staffPaymentsPage,
  staffRefund,
  type StaffPaymentDetail,
} from '@alda/contract/schemas/staff-payments';
import { PaymentProviderError } from '../src/adapters/payments/provider';
import { actions } from '../src/db/schema/actions';
import { notifications } from '../src/db/schema/data-transfers';
import { paymentRefunds, payments } from '../src/db/schema/payments';
import { operatorActions } from '../src/db/schema/provisioning';
import { users } from '../src/db/schema/users';
import { parse } from './helper';
import {
  CARDS,
  JOANNES,
  PACKAGE,
  createPaymentsApp,
  packagePurchase,
  paymentOfOrder,
  submitCard,
  type PaymentsTestApp,
} from './payments-fixture';
import { signInStaff, type TestStaff } from './staff-helper';

/*
 * The staff console's payments area (issue 31, docs/decisions/0075-staff-console.md): the list and
 * search, one payment with the provider's events and the reconciliation verdict, refunds in full
 * and in part through the refund job (ADR 0050 "Refunds"), the refusals per role and per bad
 * input, and the audit log. On the real app and database (PGlite, or PostgreSQL with
 * DATABASE_URL), the test provider driven by hand.
 */

let t: PaymentsTestApp;
let support: TestStaff;
/** Makes the provider's `getPayment` fail (the provider unreachable). */
let providerDown = false;

beforeAll(async () => {
  t = await createPaymentsApp(
    {},
    {
      wrapProvider: (provider) => ({
        ...provider,
        name: provider.name,
        verifyWebhook: (raw, headers, url) => provider.verifyWebhook(raw, headers, url),
        createCheckout: (input) => provider.createCheckout(input),
        chargeAgreement: (input) => provider.chargeAgreement(input),
        refund: (input) => provider.refund(input),
        getPayment: async (id) => {
          if (providerDown) throw new PaymentProviderError('connect ECONNREFUSED');
          return provider.getPayment(id);
        },
      }),
    },
  );
  support = await signInStaff(t.app, 'support', t.clock.now);
});
afterAll(async () => {
  await t?.close();
});

const tick = async () => {
  if (!t.app.testProvider) throw new Error('no test provider');
  await t.app.testProvider.tick();
};

/** A 39 kr. package bought by card: paid (`card` succeed), failed (decline) or left open. */
async function payment(card: keyof typeof CARDS | 'open' = 'succeed') {
  const placed = orderPlacedResponse.parse(await t.app.payments.placePaidOrder(packagePurchase()));
  if (card !== 'open') {
    const submitted = await submitCard(t.app, placed, CARDS[card]);
    expect(submitted.statusCode).toBe(303);
    await tick();
  }
  return paymentOfOrder(t.app, placed.order.id);
}

const expectError = (res: LightMyRequestResponse, status: number, code: string) => {
  expect(res.statusCode, res.body).toBe(status);
  expect(errorEnvelope.parse(res.json()).error.code).toBe(code);
};

function list(query: Record<string, string>, headers: object = support.headers) {
  return t.app.inject({ url: '/api/staff/payments', query, headers: { ...headers } });
}

async function detail(id: string): Promise<StaffPaymentDetail> {
  const res = await t.app.inject({ url: `/api/staff/payments/${id}`, headers: support.headers });
  expect(res.statusCode, res.body).toBe(200);
  return parse(dataEnvelope(staffPaymentDetail), res).data;
}

function refund(id: string, body: object, headers: object = support.headers) {
  return t.app.inject({
    method: 'POST',
    url: `/api/staff/payments/${id}/refunds`,
    headers: { ...headers },
    payload: body,
  });
}

const auditOf = (paymentId: string, verb: string) =>
  t.app.db
    .select()
    .from(operatorActions)
    .where(and(eq(operatorActions.target, paymentId), eq(operatorActions.verb, verb)));

describe('the list and search (issue 31 "Payments")', () => {
  it('lists recent payments newest first with customer, amount in øre, DKK, method, state, card and refunds so far', async () => {
    const paid = await payment('succeed');
    const res = await list({});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const page = parse(dataEnvelope(staffPaymentsPage), res).data;
    expect(page.items[0]).toEqual({
      id: paid.id,
      orderId: paid.orderId,
      createdAt: paid.createdAt.toISOString(),
      customer: { id: JOANNES, name: 'Jóannes Joensen' },
      amountOere: PACKAGE.priceOere,
      currency: 'DKK',
      method: 'card',
      state: 'paid',
      card: { brand: 'Visa', last4: '4242' },
      refundedOere: 0,
      refundingOere: 0,
    });
  });

  it('finds a payment by its id, its order id, the provider id, the phone number (any spacing, +298) and the e-mail; filters by state', async () => {
    const paid = await payment('succeed');
    const declined = await payment('decline');
    const [joannes] = await t.app.db.select().from(users).where(eq(users.id, JOANNES));
    if (!joannes?.phoneNumber) throw new Error('no phone number');
    const phone = joannes.phoneNumber;
    const ids = async (q: string, extra: Record<string, string> = {}) =>
      parse(
        dataEnvelope(staffPaymentsPage),
        await list({ q, limit: '200', ...extra }),
      ).data.items.map((row) => row.id);
    expect(await ids(paid.id)).toEqual([paid.id]);
    expect(await ids(paid.orderId)).toEqual([paid.id]);
    expect(await ids(paid.providerPaymentId ?? '')).toEqual([paid.id]);
    for (const q of [
      phone,
      `${phone.slice(0, 2)} ${phone.slice(2, 4)} ${phone.slice(4)}`,
      `+298 ${phone}`,
      joannes.email.toUpperCase(),
    ]) {
      const found = await ids(q);
      expect(found, q).toContain(paid.id);
      expect(found, q).toContain(declined.id);
    }
    expect(await ids(joannes.email, { state: 'failed' })).toContain(declined.id);
    expect(await ids(joannes.email, { state: 'failed' })).not.toContain(paid.id);
    expect(await ids('nobody-at-all@example.com')).toEqual([]);
    expect(await ids('00000000-0000-4000-8000-000000000000')).toEqual([]);
  });

  it('a search is a read of personal data: audited once per staff session (payment.search, kind read)', async () => {
    const q = `+298 ${'214455'}`;
    await list({ q });
    await list({ q });
    const entries = await t.app.db
      .select()
      .from(operatorActions)
      .where(and(eq(operatorActions.verb, 'payment.search'), eq(operatorActions.target, q)));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      kind: 'read',
      operator: `staff:${support.email}`,
      staffUserId: support.id,
    });
  });

  it('refuses bad queries with 400', async () => {
    expectError(await list({ state: 'lost' }), 400, 'VALIDATION_FAILED');
    expectError(await list({ limit: '0' }), 400, 'VALIDATION_FAILED');
    expectError(await list({ limit: '201' }), 400, 'VALIDATION_FAILED');
  });

  it('answers an ETag, and 304 to If-None-Match while nothing changed (the console polls every 5 s)', async () => {
    const first = await list({});
    const etag = first.headers.etag;
    expect(etag).toMatch(/^W\/"/);
    const again = await list({}, { ...support.headers, 'if-none-match': String(etag) });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers['cache-control']).toBe('no-store');
    await payment('succeed');
    const changed = await list({}, { ...support.headers, 'if-none-match': String(etag) });
    expect(changed.statusCode).toBe(200);
  });
});

describe('one payment (issue 31: events from the provider, the reconciliation result)', () => {
  it('shows the order, the provider events, the provider view, the receipt and "in agreement"; opening it is audited once per session', async () => {
    const paid = await payment('succeed');
    const view = await detail(paid.id);
    expect(view).toMatchObject({
      id: paid.id,
      state: 'paid',
      provider: 'test',
      providerPaymentId: paid.providerPaymentId,
      order: { id: paid.orderId, kind: 'extra_package' },
      providerCheck: {
        status: 'known',
        view: { state: 'succeeded', card: { brand: 'Visa', last4: '4242', expiry: '12/30' } },
        reconciliation: { verdict: 'agree', ours: 'paid', provider: 'paid', next: null },
      },
      refunds: [],
      receipt: { grossOere: PACKAGE.priceOere },
      refundableOere: PACKAGE.priceOere,
    });
    expect(view.receipt?.number).toMatch(/^K-\d{4}-\d{6}$/);
    expect(view.events.map((e) => e.type)).toEqual(['payment.pending', 'payment.succeeded']);
    expect(view.events.every((e) => e.eventId.startsWith('evt_'))).toBe(true);

    await detail(paid.id);
    const reads = await auditOf(paid.id, 'payment.view');
    expect(reads).toHaveLength(1);
    expect(reads[0]).toMatchObject({ kind: 'read', targetType: 'payment' });
    expect(reads[0]?.details).toMatchObject({ customerId: JOANNES });
  });

  it('"differs: ours pending, provider paid" when a webhook is still on its way; in agreement once reconciliation ran', async () => {
    const placed = orderPlacedResponse.parse(
      await t.app.payments.placePaidOrder(packagePurchase()),
    );
    await submitCard(t.app, placed, CARDS.succeed);
    t.delivery.down = true; // the provider charged; its webhooks do not reach us
    try {
      await tick();
    } finally {
      t.delivery.down = false;
    }
    const open = await paymentOfOrder(t.app, placed.order.id);
    expect(open.state).toBe('created');
    expect((await detail(open.id)).providerCheck).toMatchObject({
      status: 'known',
      reconciliation: { verdict: 'differs', ours: 'created', provider: 'paid', next: 'advance' },
    });
    t.clock.advance(120);
    await t.app.payments.reconcile({ afterS: 60 });
    expect((await detail(open.id)).providerCheck).toMatchObject({
      reconciliation: { verdict: 'agree', ours: 'paid', provider: 'paid' },
    });
  });

  it('an unreachable provider does not fail the page: "unreachable", everything else shown', async () => {
    const paid = await payment('succeed');
    providerDown = true;
    try {
      const view = await detail(paid.id);
      expect(view.providerCheck).toEqual({ status: 'unreachable' });
      expect(view.events).toHaveLength(2);
      expect(view.refundableOere).toBe(PACKAGE.priceOere);
    } finally {
      providerDown = false;
    }
  });

  it('404 for an unknown payment, 400 for an id that is not one', async () => {
    const unknown = await t.app.inject({
      url: '/api/staff/payments/00000000-0000-4000-8000-000000000000',
      headers: support.headers,
    });
    expectError(unknown, 404, 'NOT_FOUND');
    const bad = await t.app.inject({ url: '/api/staff/payments/nope', headers: support.headers });
    expectError(bad, 400, 'VALIDATION_FAILED');
  });
});

describe('refunds (issue 31, ADR 0050 "Refunds", ADR 0075)', () => {
  it('a full refund is pending, then the refund job pays it back through the provider: refunded, the customer told and the activity log shows it', async () => {
    const paid = await payment('succeed');
    const res = await refund(paid.id, { amountOere: PACKAGE.priceOere, reason: 'Ticket 4711' });
    expect(res.statusCode, res.body).toBe(201);
    const made = parse(dataEnvelope(staffRefund), res).data;
    expect(made).toMatchObject({
      amountOere: PACKAGE.priceOere,
      state: 'pending',
      requestedBy: `staff:${support.email}`,
      reason: 'Ticket 4711',
      attempts: 0,
      refundedAt: null,
    });
    expect(await detail(paid.id)).toMatchObject({
      refundingOere: PACKAGE.priceOere,
      refundedOere: 0,
      refundableOere: 0,
      refunds: [{ id: made.id, state: 'pending' }],
    });

    t.clock.advance(60);
    expect(await t.app.payments.refundDue()).toMatchObject({ refunded: 1 });
    const after = await detail(paid.id);
    expect(after).toMatchObject({
      refundedOere: PACKAGE.priceOere,
      refundingOere: 0,
      refundableOere: 0,
      refunds: [{ id: made.id, state: 'refunded', attempts: 1, lastError: null }],
    });
    expect(after.refunds[0]?.refundedAt).not.toBeNull();
    // The payment itself stays paid: a refund is money back, not a state of the payment.
    expect(after.state).toBe('paid');

    const told = await t.app.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, JOANNES), eq(notifications.type, 'payment')));
    expect(told.map((n) => n.params.body?.fo)).toContain(
      'Vit hava goldið 39,00 kr. aftur á kortið hjá tær.',
    );
    const logged = await t.app.db
      .select()
      .from(actions)
      .where(and(eq(actions.userId, JOANNES), eq(actions.amountOere, -PACKAGE.priceOere)));
    expect(logged).toHaveLength(1);
    const activity = await t.app.inject({
      url: '/api/actions',
      headers: { ...t.auth, 'accept-language': 'en' },
    });
    expect(activity.json().data[0]).toMatchObject({
      type: 'payment',
      amount: -PACKAGE.priceOere,
      text: 'Refunded: 39.00 kr.',
    });
  });

  it('partial refunds up to the paid amount, then refused with 409 REFUND_TOO_LARGE; each refund has its audit entry', async () => {
    const paid = await payment('succeed');
    expect((await refund(paid.id, { amountOere: 1_000, reason: 'Call 1' })).statusCode).toBe(201);
    t.clock.advance(1);
    expect((await refund(paid.id, { amountOere: 2_000, reason: 'Call 2' })).statusCode).toBe(201);
    t.clock.advance(1);
    expectError(
      await refund(paid.id, { amountOere: 901, reason: 'Call 3' }),
      409,
      'REFUND_TOO_LARGE',
    );
    expect((await detail(paid.id)).refundableOere).toBe(900);
    // Paid back in between: what is done counts as much as what is pending.
    await t.app.payments.refundDue();
    expectError(
      await refund(paid.id, { amountOere: 901, reason: 'Call 3' }),
      409,
      'REFUND_TOO_LARGE',
    );
    expect((await refund(paid.id, { amountOere: 900, reason: 'Call 3' })).statusCode).toBe(201);
    expectError(
      await refund(paid.id, { amountOere: 1, reason: 'Call 4' }),
      409,
      'REFUND_TOO_LARGE',
    );
    await t.app.payments.refundDue();

    const view = await detail(paid.id);
    expect(view.refunds.map((r) => [r.amountOere, r.state])).toEqual([
      [1_000, 'refunded'],
      [2_000, 'refunded'],
      [900, 'refunded'],
    ]);
    expect(view).toMatchObject({ refundedOere: PACKAGE.priceOere, refundableOere: 0 });

    const audit = (await auditOf(paid.id, 'payment.refund')).sort(
      (a, b) => a.at.getTime() - b.at.getTime(),
    );
    expect(audit).toHaveLength(3);
    expect(audit.map((a) => [a.reason, a.details?.amountOere])).toEqual([
      ['Call 1', 1_000],
      ['Call 2', 2_000],
      ['Call 3', 900],
    ]);
    expect(audit[0]).toMatchObject({
      kind: 'change',
      operator: `staff:${support.email}`,
      staffUserId: support.id,
      targetType: 'payment',
    });
    const refundIds = view.refunds.map((r) => r.id);
    expect(audit.map((a) => a.details?.refundId)).toEqual(refundIds);
  });

  it('a refund that failed for good no longer counts: the amount may be refunded again', async () => {
    const paid = await payment('succeed');
    const made = parse(
      dataEnvelope(staffRefund),
      await refund(paid.id, { amountOere: PACKAGE.priceOere, reason: 'Ticket 1' }),
    ).data;
    await t.app.db
      .update(paymentRefunds)
      .set({ state: 'failed', lastError: 'refund: payment already refunded' })
      .where(eq(paymentRefunds.id, made.id));
    expect((await detail(paid.id)).refundableOere).toBe(PACKAGE.priceOere);
    expect(
      (await refund(paid.id, { amountOere: PACKAGE.priceOere, reason: 'Ticket 1, again' }))
        .statusCode,
    ).toBe(201);
  });

  it('refuses a payment that is not paid (409 STAFF_ACTION_NOT_ALLOWED), and an unknown one (404)', async () => {
    const declined = await payment('decline');
    expectError(
      await refund(declined.id, { amountOere: 100, reason: 'Ticket 2' }),
      409,
      'STAFF_ACTION_NOT_ALLOWED',
    );
    const open = await payment('open');
    expectError(
      await refund(open.id, { amountOere: 100, reason: 'Ticket 2' }),
      409,
      'STAFF_ACTION_NOT_ALLOWED',
    );
    expectError(
      await refund('00000000-0000-4000-8000-000000000000', { amountOere: 100, reason: 'Ticket 2' }),
      404,
      'NOT_FOUND',
    );
    expect(await auditOf(declined.id, 'payment.refund')).toHaveLength(0);
  });

  it('refuses 0, negative, fractional and over-the-payment amounts, and a missing or too short reason', async () => {
    const paid = await payment('succeed');
    for (const amountOere of [0, -100, 10.5, '100']) {
      expectError(
        await refund(paid.id, { amountOere, reason: 'Ticket 3' }),
        400,
        'VALIDATION_FAILED',
      );
    }
    expectError(
      await refund(paid.id, { amountOere: PACKAGE.priceOere + 1, reason: 'Ticket 3' }),
      409,
      'REFUND_TOO_LARGE',
    );
    const noReason = await refund(paid.id, { amountOere: 100 });
    expectError(noReason, 400, 'VALIDATION_FAILED');
    expect(errorEnvelope.parse(noReason.json()).error.field).toBe('reason');
    expectError(await refund(paid.id, { amountOere: 100, reason: '  ' }), 400, 'VALIDATION_FAILED');
    expect((await detail(paid.id)).refunds).toEqual([]);
    expect(await auditOf(paid.id, 'payment.refund')).toHaveLength(0);
  });

  it('two refunds of the full amount at once: exactly one is made (the payment row is locked)', async () => {
    for (let round = 0; round < 3; round += 1) {
      const paid = await payment('succeed');
      const both = await Promise.all([
        refund(paid.id, { amountOere: PACKAGE.priceOere, reason: 'Desk A' }),
        refund(paid.id, { amountOere: PACKAGE.priceOere, reason: 'Desk B' }),
      ]);
      expect(both.map((r) => r.statusCode).sort()).toEqual([201, 409]);
      const rows = await t.app.db
        .select()
        .from(paymentRefunds)
        .where(eq(paymentRefunds.paymentId, paid.id));
      expect(rows).toHaveLength(1);
      expect(await auditOf(paid.id, 'payment.refund')).toHaveLength(1);
    }
  });
});

describe('who may use the payments area (ADR 0075 "Roles")', () => {
  let paidId: string;
  beforeAll(async () => {
    paidId = (await payment('succeed')).id;
  });

  for (const role of ['content', 'provisioning'] as const) {
    it(`refuses role ${role} (403 FORBIDDEN) on the list, a payment and a refund`, async () => {
      const staff = await signInStaff(t.app, role, t.clock.now);
      expectError(await list({}, staff.headers), 403, 'FORBIDDEN');
      const one = await t.app.inject({
        url: `/api/staff/payments/${paidId}`,
        headers: staff.headers,
      });
      expectError(one, 403, 'FORBIDDEN');
      expectError(
        await refund(paidId, { amountOere: 100, reason: 'Ticket 5' }, staff.headers),
        403,
        'FORBIDDEN',
      );
    });
  }

  it('lets admin refund', async () => {
    const admin = await signInStaff(t.app, 'admin', t.clock.now);
    const res = await refund(paidId, { amountOere: 100, reason: 'Ticket 6' }, admin.headers);
    expect(res.statusCode, res.body).toBe(201);
  });

  it("refuses a customer's token (401) and no token (401)", async () => {
    expectError(await list({}, t.auth), 401, 'STAFF_SESSION_EXPIRED');
    expectError(
      await refund(paidId, { amountOere: 100, reason: 'Ticket 7' }, t.auth),
      401,
      'STAFF_SESSION_EXPIRED',
    );
    expectError(await list({}, {}), 401, 'UNAUTHORIZED');
  });
});

describe('older payments page by page (`before`, keyset as the audit log)', () => {
  /** Every payment in the list's order (newest first, ties by id), read from the table. */
  const allPayments = () =>
    t.app.db
      .select({ id: payments.id, state: payments.state, userId: payments.userId })
      .from(payments)
      .orderBy(desc(payments.createdAt), desc(payments.id));

  /** Walks every page of the list with `before`; each page's ids and `nextBefore`. */
  async function walk(query: Record<string, string>) {
    const pages: { ids: string[]; nextBefore: string | null }[] = [];
    let before: string | null = null;
    do {
      const res = await list({ ...query, ...(before ? { before } : {}) });
      expect(res.statusCode, res.body).toBe(200);
      const page = parse(dataEnvelope(staffPaymentsPage), res).data;
      pages.push({ ids: page.items.map((row) => row.id), nextBefore: page.nextBefore });
      if (page.nextBefore !== null) expect(page.nextBefore).toBe(page.items.at(-1)?.id);
      before = page.nextBefore;
      expect(pages.length).toBeLessThan(100);
    } while (before !== null);
    return pages;
  }

  beforeAll(async () => {
    // Paid and declined payments, several at the same instant (the pinned clock: ties broken by
    // id), several a second apart.
    for (let i = 0; i < 9; i += 1) {
      await payment(i % 3 === 0 ? 'decline' : 'succeed');
      if (i % 2 === 0) t.clock.advance(1);
    }
  });

  it('walks every payment exactly once, newest first, and the last page says nextBefore null', async () => {
    const expected = (await allPayments()).map((p) => p.id);
    expect(expected.length).toBeGreaterThan(9);
    const pages = await walk({ limit: '4' });
    expect(pages.length).toBe(Math.ceil(expected.length / 4));
    expect(pages.slice(0, -1).every((page) => page.ids.length === 4)).toBe(true);
    expect(pages.at(-1)?.nextBefore).toBeNull();
    expect(pages.flatMap((page) => page.ids)).toEqual(expected);
  });

  it('keeps the state filter and the search on every page', async () => {
    const [joannes] = await t.app.db.select().from(users).where(eq(users.id, JOANNES));
    if (!joannes) throw new Error('no Jóannes');
    const rows = await allPayments();
    const paid = rows.filter((p) => p.state === 'paid').map((p) => p.id);
    const failedOfJoannes = rows
      .filter((p) => p.state === 'failed' && p.userId === JOANNES)
      .map((p) => p.id);
    expect(paid.length).toBeGreaterThan(3);
    expect(failedOfJoannes.length).toBeGreaterThan(2);

    const paidPages = await walk({ state: 'paid', limit: '3' });
    expect(paidPages.flatMap((page) => page.ids)).toEqual(paid);
    expect(paidPages.at(-1)?.nextBefore).toBeNull();

    const searched = await walk({ q: joannes.email, state: 'failed', limit: '2' });
    expect(searched.length).toBeGreaterThan(1);
    expect(searched.flatMap((page) => page.ids)).toEqual(failedOfJoannes);
    expect(searched.at(-1)?.nextBefore).toBeNull();
  });

  it('a payment made between two pages does not shift them: it is on the first page, not the next', async () => {
    const before = (await allPayments()).map((p) => p.id);
    const first = parse(dataEnvelope(staffPaymentsPage), await list({ limit: '3' })).data;
    expect(first.items.map((row) => row.id)).toEqual(before.slice(0, 3));
    t.clock.advance(1);
    const newer = await payment('succeed');
    const rest = parse(
      dataEnvelope(staffPaymentsPage),
      await list({ limit: '200', before: first.nextBefore ?? '' }),
    ).data;
    expect(rest.items.map((row) => row.id)).toEqual(before.slice(3));
    expect(rest.items.map((row) => row.id)).not.toContain(newer.id);
    expect(rest.nextBefore).toBeNull();
  });

  it('a `before` that is no payment is left out (the newest page, as the audit log); a malformed one is 400', async () => {
    const newest = parse(dataEnvelope(staffPaymentsPage), await list({ limit: '2' })).data;
    const unknown = parse(
      dataEnvelope(staffPaymentsPage),
      await list({ limit: '2', before: '00000000-0000-4000-8000-000000000000' }),
    ).data;
    expect(unknown).toEqual(newest);
    expectError(await list({ before: 'not-an-id' }), 400, 'VALIDATION_FAILED');
  });

  it('an older page has its own ETag: 304 while unchanged, 200 once a payment on it changed', async () => {
    const first = parse(dataEnvelope(staffPaymentsPage), await list({ limit: '2' })).data;
    const query = { limit: '2', before: first.nextBefore ?? '' };
    const older = await list(query);
    expect(older.statusCode).toBe(200);
    const etag = String(older.headers.etag);
    expect(etag).not.toBe(String((await list({ limit: '2' })).headers.etag));
    const again = await list(query, { ...support.headers, 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    // A refund on a payment of that page changes it.
    const onPage = parse(dataEnvelope(staffPaymentsPage), older).data.items.find(
      (row) => row.state === 'paid',
    );
    if (!onPage) throw new Error('no paid payment on the page');
    expect((await refund(onPage.id, { amountOere: 100, reason: 'Ticket 9' })).statusCode).toBe(201);
    const changed = await list(query, { ...support.headers, 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    // The refund job pays the refunds back: none is left pending.
    t.clock.advance(60);
    await t.app.payments.refundDue();
  });
});
