import { and, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope } from '@alda/contract/envelope';
import { luhnCheckDigit } from '@alda/contract/rules/iccid';
import { portOutCodeResponse } from '@alda/contract/schemas/number-protection';
import {
  staffCustomerAccess,
  staffCustomerSearchResult,
  staffCustomerView,
  staffResendResult,
  staffSignOutEverywhereResult,
  type StaffCustomerView,
} from '@alda/contract/schemas/staff-customers';
import { portOutRequests } from '../src/db/schema/number-protection';
import { orders } from '../src/db/schema/orders';
import { outboxMessages } from '../src/db/schema/outbox';
import { paymentRefunds, payments } from '../src/db/schema/payments';
import { phoneLines } from '../src/db/schema/phone-lines';
import { operatorActions, provisioningSteps } from '../src/db/schema/provisioning';
import { issueReceipt } from '../src/modules/receipts/issue';
import { demoOrderId } from '../src/seed/demo-accounts';
import { createDemoApp, LINES, NOW, signIn } from './demo-accounts';
import { demoUser, parse } from './helper';
import { signInStaff, STAFF_TEST_PASSWORD, type TestStaff } from './staff-helper';

/*
 * The customers area of the staff console (issue 31, docs/decisions/0075-staff-console.md): search
 * by each key, the reasoned opening of personal data (the audit entry is the access grant, per
 * staff session), the customer view with its ETag, and the support actions — on the real app and
 * database, with the refusals of every role that must be refused.
 */

const GUDRUN = demoUser('Guðrun');
const JOANNES = demoUser('Jóannes');
/** Guðrun's second number, ported on an eSIM; the port date is set (seed/demo-provisioning.ts). */
const GUDRUN_ORDER = demoOrderId(8);
/** Bárður's number on the Joensen family plan: the SIM card was sent home (Jóannes placed it). */
const BARDUR_ORDER = demoOrderId(5);

type DemoApp = Awaited<ReturnType<typeof createDemoApp>>;
let t: DemoApp;
let support: TestStaff;
let provisioning: TestStaff;
let content: TestStaff;
let admin: TestStaff;

beforeAll(async () => {
  // The worker stays off: the tests move orders themselves, on the demo's fixed clock.
  t = await createDemoApp({ PROVISIONING_POLL_MS: '0' });
  support = await signInStaff(t.app, 'support', () => NOW);
  provisioning = await signInStaff(t.app, 'provisioning', () => NOW);
  content = await signInStaff(t.app, 'content', () => NOW);
  admin = await signInStaff(t.app, 'admin', () => NOW);
});
afterAll(async () => {
  await t?.close();
});

function search(q: string, staff: TestStaff = support) {
  return t.app.inject({
    url: `/api/staff/customers?q=${encodeURIComponent(q)}`,
    headers: staff.headers,
  });
}

async function found(q: string) {
  const res = await search(q);
  expect(res.statusCode, res.body).toBe(200);
  return parse(dataEnvelope(staffCustomerSearchResult), res).data;
}

function open(customerId: string, staff: TestStaff, reason = 'Ticket #4411 / call 10:05') {
  return t.app.inject({
    method: 'POST',
    url: `/api/staff/customers/${customerId}/access`,
    headers: staff.headers,
    payload: { reason },
  });
}

function view(customerId: string, staff: TestStaff, headers: Record<string, string> = {}) {
  return t.app.inject({
    url: `/api/staff/customers/${customerId}`,
    headers: { ...staff.headers, 'accept-language': 'en', ...headers },
  });
}

async function viewed(customerId: string, staff: TestStaff): Promise<StaffCustomerView> {
  const res = await view(customerId, staff);
  expect(res.statusCode, res.body).toBe(200);
  return parse(dataEnvelope(staffCustomerView), res).data;
}

async function auditOf(staff: TestStaff, verb: string) {
  return t.app.db
    .select()
    .from(operatorActions)
    .where(and(eq(operatorActions.staffUserId, staff.id), eq(operatorActions.verb, verb)));
}

/** A second session of the same staff member (a recovery code: the TOTP code of NOW is spent). */
async function newSessionOf(staff: TestStaff): Promise<TestStaff> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/staff/auth/sign-in',
    payload: {
      email: staff.email,
      password: STAFF_TEST_PASSWORD,
      totpCode: staff.recoveryCodes.pop(),
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  const token = (res.json() as { data: { token: string } }).data.token;
  return { ...staff, token, headers: { authorization: `Bearer ${token}` } };
}

describe('GET /api/staff/customers?q= (search)', () => {
  it('finds a customer by phone number, with or without +298 and spaces', async () => {
    for (const q of ['557812', '+298 55 78 12', '55 78 12', '298557812']) {
      const { items } = await found(q);
      expect(items, q).toEqual([
        expect.objectContaining({ id: GUDRUN.id, matchedOn: 'phone', name: 'Guðrun Poulsen' }),
      ]);
    }
    // The number being set up is hers too; both numbers are listed.
    const { items } = await found('557813');
    expect(items[0]).toMatchObject({ id: GUDRUN.id, email: GUDRUN.email });
    expect(items[0]?.numbers).toEqual(expect.arrayContaining(['557812', '557813']));
  });

  it('finds a family line by its number: the member and the owner who pays', async () => {
    const { items } = await found('214456');
    expect(items.map((i) => i.id)).toEqual(
      expect.arrayContaining([demoUser('Sunneva').id, JOANNES.id]),
    );
  });

  it('finds by e-mail address, whole or in part', async () => {
    expect((await found('gudrun@demo.alda.fo')).items).toEqual([
      expect.objectContaining({ id: GUDRUN.id, matchedOn: 'email' }),
    ]);
    expect((await found('GUDRUN@DEMO')).items.map((i) => i.id)).toEqual([GUDRUN.id]);
  });

  it('finds by name, case and Faroese letters folded ("gudrun" finds Guðrun)', async () => {
    for (const q of ['Guðrun', 'gudrun', 'GUDRUN poul', 'Poulsen']) {
      const { items } = await found(q);
      expect(items[0], q).toMatchObject({ id: GUDRUN.id, matchedOn: 'name' });
    }
    const hansens = await found('hansen');
    expect(hansens.items.map((i) => i.name).sort()).toEqual(['Rói Hansen', 'Ása Hansen'].sort());
    expect((await found('asa hansen')).items.map((i) => i.name)).toEqual(['Ása Hansen']);
  });

  it("finds by ICCID: a line's SIM, or the card a port names (its start is enough)", async () => {
    const [line] = await t.app.db
      .select({ iccid: phoneLines.iccid, userId: phoneLines.userId })
      .from(phoneLines)
      .where(and(isNotNull(phoneLines.iccid), isNotNull(phoneLines.userId)))
      .limit(1);
    expect(line?.iccid).toBeTruthy();
    // The line's user (and, for a family line, the owner who pays for it).
    expect((await found(line!.iccid!)).items).toContainEqual(
      expect.objectContaining({ id: line!.userId, matchedOn: 'iccid' }),
    );
    expect((await found(line!.iccid!.slice(0, 15))).items.map((i) => i.id)).toContain(line!.userId);
    // The SIM card at the other provider of Guðrun's port (seed/demo-provisioning.ts).
    expect((await found('8929802990017421')).items.map((i) => i.id)).toEqual([GUDRUN.id]);
  });

  it('finds by order id and by customer id', async () => {
    expect((await found(GUDRUN_ORDER)).items).toEqual([
      expect.objectContaining({ id: GUDRUN.id, matchedOn: 'order' }),
    ]);
    expect((await found(BARDUR_ORDER)).items[0]).toMatchObject({ id: JOANNES.id });
    expect((await found(GUDRUN.id)).items).toEqual([
      expect.objectContaining({ id: GUDRUN.id, matchedOn: 'customer' }),
    ]);
    expect((await found('00000000-0000-4000-8000-000000000000')).items).toEqual([]);
  });

  it('answers minimal data only: no address, birth date or sessions', async () => {
    const { items } = await found('gudrun');
    expect(Object.keys(items[0]!).sort()).toEqual(['email', 'id', 'matchedOn', 'name', 'numbers']);
  });

  it('refuses an empty or one-letter query (400)', async () => {
    for (const q of ['', '   ', 'x']) {
      const res = await search(q);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_FAILED');
    }
    const none = await t.app.inject({ url: '/api/staff/customers', headers: support.headers });
    expect(none.statusCode).toBe(400);
  });

  it('records every search in the audit log (customer.search, kind read, the query)', async () => {
    const staff = await signInStaff(t.app, 'support', () => NOW);
    await t.app.inject({
      url: `/api/staff/customers?q=${encodeURIComponent('Poulsen')}`,
      headers: staff.headers,
    });
    const entries = await auditOf(staff, 'customer.search');
    expect(entries).toEqual([
      expect.objectContaining({
        kind: 'read',
        operator: `staff:${staff.email}`,
        details: { q: 'Poulsen', results: 1 },
      }),
    ]);
  });
});

describe('opening a customer asks for a reason (the audit entry is the access grant)', () => {
  it('refuses the view without an access entry: 403 STAFF_REASON_REQUIRED', async () => {
    const staff = await signInStaff(t.app, 'support', () => NOW);
    const res = await view(GUDRUN.id, staff);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatchObject({
      code: 'STAFF_REASON_REQUIRED',
      message: 'Give a reason (ticket or call reference).',
    });
  });

  it('refuses an access without a reason or with a blank one (400), and an unknown customer (404)', async () => {
    for (const payload of [{}, { reason: '' }, { reason: '  ' }, { reason: 'ab' }]) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/staff/customers/${GUDRUN.id}/access`,
        headers: support.headers,
        payload,
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    const unknown = await open('00000000-0000-4000-8000-000000000000', support);
    expect(unknown.statusCode).toBe(404);
    const notAnId = await open('not-an-id', support);
    expect(notAnId.statusCode).toBe(400);
  });

  it('opens after access with a reason, records customer.open with the session, and the view answers', async () => {
    const staff = await signInStaff(t.app, 'support', () => NOW);
    const res = await open(GUDRUN.id, staff, '  Ticket #4411 / call 10:05  ');
    expect(res.statusCode, res.body).toBe(201);
    const access = parse(dataEnvelope(staffCustomerAccess), res).data;
    expect(access).toMatchObject({ customerId: GUDRUN.id, openedAt: NOW.toISOString() });
    const entries = await auditOf(staff, 'customer.open');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      id: access.auditId,
      kind: 'read',
      targetType: 'customer',
      target: GUDRUN.id,
      reason: 'Ticket #4411 / call 10:05',
    });
    expect(entries[0]?.details).toEqual({ sessionId: expect.any(String) });
    expect((await viewed(GUDRUN.id, staff)).profile.email).toBe(GUDRUN.email);
    // Polling the view is not recorded again.
    await viewed(GUDRUN.id, staff);
    expect(await auditOf(staff, 'customer.open')).toHaveLength(1);
  });

  it('asks again in a new session of the same staff member, and for another customer', async () => {
    const staff = await signInStaff(t.app, 'support', () => NOW);
    expect((await open(GUDRUN.id, staff)).statusCode).toBe(201);
    expect((await view(GUDRUN.id, staff)).statusCode).toBe(200);
    expect((await view(JOANNES.id, staff)).statusCode).toBe(403);
    const again = await newSessionOf(staff);
    const refused = await view(GUDRUN.id, again);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('STAFF_REASON_REQUIRED');
    expect((await open(GUDRUN.id, again, 'Call 10:40, follow-up')).statusCode).toBe(201);
    expect((await view(GUDRUN.id, again)).statusCode).toBe(200);
  });

  it("does not let one staff member use another's grant", async () => {
    const first = await signInStaff(t.app, 'support', () => NOW);
    const second = await signInStaff(t.app, 'support', () => NOW);
    expect((await open(GUDRUN.id, first)).statusCode).toBe(201);
    expect((await view(GUDRUN.id, second)).statusCode).toBe(403);
  });
});

describe('who may use the customers area', () => {
  it('lets provisioning search, open and view (reading), and admin too', async () => {
    for (const staff of [provisioning, admin]) {
      expect((await search('gudrun', staff)).statusCode).toBe(200);
      expect((await open(GUDRUN.id, staff)).statusCode).toBe(201);
      expect((await view(GUDRUN.id, staff)).statusCode).toBe(200);
    }
  });

  it('refuses the content role on search, access, view and the actions (403 FORBIDDEN)', async () => {
    const calls = [
      search('gudrun', content),
      open(GUDRUN.id, content),
      view(GUDRUN.id, content),
      t.app.inject({
        method: 'POST',
        url: `/api/staff/customers/${GUDRUN.id}/sign-out-everywhere`,
        headers: content.headers,
        payload: { reason: 'Ticket #1' },
      }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json().error.code).toBe('FORBIDDEN');
    }
    expect(await auditOf(content, 'customer.open')).toEqual([]);
  });

  it('refuses the provisioning role on the support actions (403 FORBIDDEN)', async () => {
    const signOut = await t.app.inject({
      method: 'POST',
      url: `/api/staff/customers/${GUDRUN.id}/sign-out-everywhere`,
      headers: provisioning.headers,
      payload: { reason: 'Ticket #1' },
    });
    expect(signOut.statusCode).toBe(403);
    const resend = await t.app.inject({
      method: 'POST',
      url: `/api/staff/customers/${GUDRUN.id}/messages/00000000-0000-4000-8000-000000000000/resend`,
      headers: provisioning.headers,
      payload: { reason: 'Ticket #1' },
    });
    expect(resend.statusCode).toBe(403);
    expect(resend.json().error.code).toBe('FORBIDDEN');
  });

  it('refuses a customer token and no token (401)', async () => {
    for (const headers of [t.as.Guðrun, {}]) {
      for (const res of [
        await t.app.inject({ url: '/api/staff/customers?q=gudrun', headers }),
        await t.app.inject({ url: `/api/staff/customers/${GUDRUN.id}`, headers }),
        await t.app.inject({
          method: 'POST',
          url: `/api/staff/customers/${GUDRUN.id}/access`,
          headers,
          payload: { reason: 'Ticket #1' },
        }),
      ]) {
        expect(res.statusCode).toBe(401);
      }
    }
  });
});

describe('GET /api/staff/customers/:id (the customer view)', () => {
  let staff: TestStaff;

  beforeAll(async () => {
    staff = await signInStaff(t.app, 'support', () => NOW);
    // A paid package with a receipt and a partial refund, as the payments core leaves them.
    await t.app.db.transaction(async (tx) => {
      const [order] = await tx
        .insert(orders)
        .values({
          userId: GUDRUN.id,
          kind: 'extra_package',
          msisdn: '557812',
          priceOere: 3_900,
          paymentStatus: 'paid',
          isComplete: true,
          packageId: 'data-1',
          createdAt: new Date(NOW.getTime() - 3_600_000),
          completedAt: new Date(NOW.getTime() - 3_500_000),
        })
        .returning();
      const [payment] = await tx
        .insert(payments)
        .values({
          orderId: order!.id,
          userId: GUDRUN.id,
          amountOere: 3_900,
          method: 'card',
          state: 'paid',
          provider: 'test',
          providerPaymentId: 'tp_staff_customers_1',
          cardBrand: 'visa',
          cardLast4: '4242',
          cardExpiry: '12/30',
          createdAt: new Date(NOW.getTime() - 3_600_000),
        })
        .returning();
      await issueReceipt(tx, {
        order: order!,
        payment: payment!,
        text: { fo: 'Eykapakki 1 GB', en: 'Extra package 1 GB' },
        now: new Date(NOW.getTime() - 3_500_000),
      });
      await tx.insert(paymentRefunds).values({
        paymentId: payment!.id,
        userId: GUDRUN.id,
        providerPaymentId: 'tp_staff_customers_1',
        amountOere: 1_000,
        requestedBy: 'staff:someone@staff.alda.fo',
        reason: 'Ticket #12: double charge',
        createdAt: NOW,
      });
    });
    expect((await open(GUDRUN.id, staff)).statusCode).toBe(201);
  });

  it('answers profile, lines with plan, SIM and family role, and the family account', async () => {
    const data = await viewed(GUDRUN.id, staff);
    expect(data.profile).toMatchObject({
      id: GUDRUN.id,
      firstname: 'Guðrun',
      lastname: 'Poulsen',
      email: GUDRUN.email,
      phoneNumber: '557812',
      hasPassword: true,
    });
    expect(data.lines.map((l) => [l.msisdn, l.status])).toEqual(
      expect.arrayContaining([
        ['557812', 'active'],
        ['557813', 'processing'],
      ]),
    );
    const own = data.lines.find((l) => l.msisdn === '557812');
    expect(own).toMatchObject({ usedByCustomer: true, userName: 'Guðrun Poulsen' });
    expect(own?.planName).toBeTruthy();

    const joannes = await signInStaff(t.app, 'support', () => NOW);
    expect((await open(JOANNES.id, joannes)).statusCode).toBe(201);
    const family = (await viewed(JOANNES.id, joannes)).family;
    expect(family).toMatchObject({ customerRole: 'owner', owner: { id: JOANNES.id } });
    expect(family?.members.map((m) => m.msisdn)).toEqual(
      expect.arrayContaining(['214455', '214456', '214457']),
    );
    const lines = (await viewed(JOANNES.id, joannes)).lines;
    expect(lines.find((l) => l.msisdn === '214457')).toMatchObject({
      familyRole: 'owner',
      usedByCustomer: false,
      status: 'processing',
    });
  });

  it('answers orders with their steps, who did each, and what comes next', async () => {
    const data = await viewed(GUDRUN.id, staff);
    const order = data.orders.find((o) => o.id === GUDRUN_ORDER);
    expect(order?.provisioning?.steps.map((s) => [s.step, s.actor])).toEqual([
      ['received', 'customer'],
      ['esim_ready', 'network'],
      ['port_requested', 'network'],
      ['port_date_set', 'network'],
    ]);
    expect(order?.provisioning).toMatchObject({
      waitingFor: 'network',
      isPorting: true,
      upcoming: ['number_moved', 'active'],
      porting: { rejection: null, correction: null },
    });
  });

  it('answers payments (card brand and last four only) with refunds, and receipts', async () => {
    const data = await viewed(GUDRUN.id, staff);
    expect(data.payments).toEqual([
      expect.objectContaining({
        amountOere: 3_900,
        state: 'paid',
        orderKind: 'extra_package',
        card: { brand: 'visa', last4: '4242' },
        refunds: [
          expect.objectContaining({
            amountOere: 1_000,
            state: 'pending',
            reason: 'Ticket #12: double charge',
          }),
        ],
      }),
    ]);
    expect(JSON.stringify(data.payments)).not.toContain('12/30');
    expect(data.receipts).toEqual([
      expect.objectContaining({ grossOere: 3_900, orderKind: 'extra_package' }),
    ]);
    expect(data.receipts[0]?.number).toMatch(/^K-2026-\d{6}$/);
  });

  it("answers sessions with the device, notifications and the activity log in the staff member's language", async () => {
    const data = await viewed(GUDRUN.id, staff);
    expect(data.sessions.length).toBeGreaterThan(0);
    expect(data.sessions[0]).toMatchObject({ revokedAt: null });
    expect(Array.isArray(data.notifications)).toBe(true);
    const fo = await view(GUDRUN.id, staff, { 'accept-language': 'fo' });
    const foData = parse(dataEnvelope(staffCustomerView), fo).data;
    // The activity log and plan names follow the staff member's language.
    if (data.activity.length > 0) expect(foData.activity[0]?.text).not.toBe(data.activity[0]?.text);
    const planEn = data.lines.find((l) => l.msisdn === '557812')?.planName;
    const planFo = foData.lines.find((l) => l.msisdn === '557812')?.planName;
    expect(planEn && planFo).toBeTruthy();
  });

  it('answers 304 on an unchanged ETag, and a new body after an order moves', async () => {
    const joannes = await signInStaff(t.app, 'support', () => NOW);
    expect((await open(JOANNES.id, joannes)).statusCode).toBe(201);
    const first = await view(JOANNES.id, joannes);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"/);
    expect(first.headers['cache-control']).toBe('no-store');
    const same = await view(JOANNES.id, joannes, { 'if-none-match': etag });
    expect(same.statusCode).toBe(304);
    expect(same.body).toBe('');

    // The SIM card reached Bárður: the order moves on (as the shop or the worker would).
    await t.app.provisioning.advance(BARDUR_ORDER, 'operator:staff-customers-test', 'Card works');
    const moved = await view(JOANNES.id, joannes, { 'if-none-match': etag });
    expect(moved.statusCode).toBe(200);
    expect(moved.headers.etag).not.toBe(etag);
    const order = parse(dataEnvelope(staffCustomerView), moved).data.orders.find(
      (o) => o.id === BARDUR_ORDER,
    );
    expect(order?.isComplete).toBe(true);
    expect(order?.provisioning?.steps.at(-1)).toMatchObject({
      step: 'active',
      actor: 'operator:staff-customers-test',
      reason: 'Card works',
    });
  });

  it("shows a rejected port's reason, then the customer's correction (SPEC §4 porting)", async () => {
    // The other provider rejected the port (as the network simulator does for a wrong card).
    await t.app.db.insert(provisioningSteps).values({
      orderId: GUDRUN_ORDER,
      step: 'port_rejected',
      at: NOW,
      actor: 'network',
      reasonCode: 'PORT_SIMCARD_MISMATCH',
    });
    await t.app.db
      .update(orders)
      .set({ provisioningWaitingFor: 'customer_correction', provisioningNextAt: null })
      .where(eq(orders.id, GUDRUN_ORDER));
    const rejected = (await viewed(GUDRUN.id, staff)).orders.find((o) => o.id === GUDRUN_ORDER);
    expect(rejected?.provisioning).toMatchObject({
      waitingFor: 'customer_correction',
      porting: {
        rejection: {
          at: NOW.toISOString(),
          reason: "The SIM card number does not match your current provider's records.",
        },
        correction: 'waiting',
      },
    });

    // Guðrun corrects the SIM card number in the app.
    const corrected = `892980299001742200${luhnCheckDigit('892980299001742200')}`;
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/orders/${GUDRUN_ORDER}/porting`,
      headers: t.as.Guðrun,
      payload: { simcardNumber: corrected },
    });
    expect(res.statusCode, res.body).toBe(200);
    const after = (await viewed(GUDRUN.id, staff)).orders.find((o) => o.id === GUDRUN_ORDER);
    expect(after?.provisioning).toMatchObject({
      waitingFor: 'network',
      porting: { simcardNumber: corrected, correction: 'corrected' },
    });
  });
});

describe('support actions in the customer view', () => {
  it('resends what the platform can resend, and refuses codes and reset links (409)', async () => {
    const staff = await signInStaff(t.app, 'support', () => NOW);
    // An SMS code, a reset link, a receipt and an order e-mail reach Guðrun's outbox.
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/auth/request-pin',
          payload: { phoneNumber: '557812' },
        })
      ).statusCode,
    ).toBe(200);
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/forgot-password',
      payload: { email: GUDRUN.email },
    });
    expect((await open(GUDRUN.id, staff)).statusCode).toBe(201);
    const receiptId = (await viewed(GUDRUN.id, staff)).receipts[0]?.id;
    const emailed = await t.app.inject({
      method: 'POST',
      url: `/api/receipts/${receiptId}/email`,
      headers: t.as.Guðrun,
    });
    expect(emailed.statusCode, emailed.body).toBe(200);
    await t.app.provisioning.advance(GUDRUN_ORDER, 'operator:staff-customers-test');
    await t.app.background.idle();

    const { messages } = await viewed(GUDRUN.id, staff);
    expect(messages.kept).toEqual({ sms: true, email: true });
    const byKind = (kind: string) => messages.items.find((m) => m.kind === kind);
    expect(byKind('one_time_code')).toMatchObject({
      channel: 'sms',
      to: '298557812',
      text: null,
      resendable: false,
    });
    expect(byKind('password_reset')).toMatchObject({ text: null, resendable: false });
    expect(byKind('receipt')).toMatchObject({ resendable: true });
    expect(byKind('message')).toMatchObject({ channel: 'email', resendable: true });
    expect(JSON.stringify(messages)).not.toContain('token=');

    const resend = (messageId: string, who: TestStaff = staff) =>
      t.app.inject({
        method: 'POST',
        url: `/api/staff/customers/${GUDRUN.id}/messages/${messageId}/resend`,
        headers: who.headers,
        payload: { reason: 'Call 11:20: customer lost the e-mail' },
      });
    for (const kind of ['one_time_code', 'password_reset']) {
      const refused = await resend(byKind(kind)!.id);
      expect(refused.statusCode, kind).toBe(409);
      expect(refused.json().error.code).toBe('STAFF_ACTION_NOT_ALLOWED');
    }

    const before = await t.app.db.select().from(outboxMessages);
    const receipt = await resend(byKind('receipt')!.id);
    expect(receipt.statusCode, receipt.body).toBe(200);
    expect(parse(dataEnvelope(staffResendResult), receipt).data).toEqual({
      channel: 'email',
      to: GUDRUN.email,
      kind: 'receipt',
    });
    const message = byKind('message')!;
    expect((await resend(message.id)).statusCode).toBe(200);
    const after = await t.app.db.select().from(outboxMessages);
    expect(after.length - before.length).toBe(2);
    const newest = after.filter((m) => !before.some((b) => b.id === m.id));
    // The receipt is made anew in the customer's own language, with its PDF.
    const number = /K-\d{4}-\d{6}/.exec(byKind('receipt')!.subject ?? '')?.[0];
    const again = newest.find((m) => m.subject !== message.subject);
    expect(again?.subject).toContain(number);
    expect(again?.text).toMatch(/application\/pdf/);
    expect(newest.find((m) => m.subject === message.subject)?.text).toBe(message.text);

    const entries = await auditOf(staff, 'customer.message-resend');
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({
      kind: 'change',
      target: GUDRUN.id,
      reason: 'Call 11:20: customer lost the e-mail',
    });

    // Another customer's message, an unknown one, and no reason.
    const joannesMail = await t.app.db
      .select({ id: outboxMessages.id })
      .from(outboxMessages)
      .where(eq(outboxMessages.recipient, JOANNES.email));
    if (joannesMail[0]) expect((await resend(joannesMail[0].id)).statusCode).toBe(404);
    expect((await resend('00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    const noReason = await t.app.inject({
      method: 'POST',
      url: `/api/staff/customers/${GUDRUN.id}/messages/${message.id}/resend`,
      headers: staff.headers,
      payload: {},
    });
    expect(noReason.statusCode).toBe(400);
  });

  it('signs the customer out everywhere, with a reason, in one step with the audit entry', async () => {
    const guest = await signIn(t.app, 'Rói');
    expect((await t.app.inject({ url: '/api/auth/me', headers: guest })).statusCode).toBe(200);
    const roi = demoUser('Rói').id;
    const noReason = await t.app.inject({
      method: 'POST',
      url: `/api/staff/customers/${roi}/sign-out-everywhere`,
      headers: support.headers,
      payload: { reason: ' ' },
    });
    expect(noReason.statusCode).toBe(400);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/staff/customers/${roi}/sign-out-everywhere`,
      headers: support.headers,
      payload: { reason: 'Call 12:02: phone stolen' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { ended } = parse(dataEnvelope(staffSignOutEverywhereResult), res).data;
    expect(ended).toBeGreaterThanOrEqual(2);
    // The customer's access tokens stop working at once.
    expect((await t.app.inject({ url: '/api/auth/me', headers: guest })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/auth/me', headers: t.as.Rói })).statusCode).toBe(401);
    expect(await auditOf(support, 'customer.sign-out-everywhere')).toEqual([
      expect.objectContaining({
        kind: 'change',
        targetType: 'customer',
        target: roi,
        reason: 'Call 12:02: phone stolen',
        details: { sessionsEnded: ended },
      }),
    ]);
    // The view shows them ended.
    expect((await open(roi, support)).statusCode).toBe(201);
    const sessions = (await viewed(roi, support)).sessions;
    expect(sessions.every((s) => s.revokedAt !== null)).toBe(true);
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/staff/customers/00000000-0000-4000-8000-000000000000/sign-out-everywhere',
      headers: support.headers,
      payload: { reason: 'Ticket #1' },
    });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('number protection in the customer view (issue 32, ADR 0076)', () => {
  const HOUR = 3_600_000;
  const at = (ms: number) => new Date(NOW.getTime() + ms);
  const setLock = (lineId: string, columns: Partial<typeof phoneLines.$inferInsert>) =>
    t.app.db.update(phoneLines).set(columns).where(eq(phoneLines.id, lineId));

  it("shows each line's lock at the server's now (locked, unlocking with its time, unlocked), the SIM change and the latest port-out attempts", async () => {
    const staff = await signInStaff(t.app, 'support', () => NOW);
    expect((await open(GUDRUN.id, staff)).statusCode).toBe(201);
    await setLock(LINES.gudrun, {
      numberLocked: true,
      unlockAt: null,
      unlockRequestedAt: null,
      simChangedAt: at(-3 * 24 * HOUR),
    });
    await setLock(LINES.gudrunSecond, {
      numberLocked: true,
      unlockRequestedAt: at(-22 * HOUR),
      unlockAt: at(2 * HOUR),
    });
    // Six attempts on her number, the newest refused because it is locked; one for the same
    // number on no line of hers (not shown), and none on the second number.
    await t.app.db.insert(portOutRequests).values([
      ...[6, 5, 4, 3, 2].map((hoursAgo) => ({
        msisdn: '557812',
        lineId: LINES.gudrun,
        provider: 'Føroya Tele',
        outcome: 'refused' as const,
        reason: 'PORT_OUT_CODE_INVALID',
        createdAt: at(-hoursAgo * HOUR),
      })),
      {
        msisdn: '557812',
        lineId: LINES.gudrun,
        provider: 'Hey',
        outcome: 'refused' as const,
        reason: 'NUMBER_LOCKED',
        createdAt: at(-10 * 60_000),
      },
      {
        msisdn: '557812',
        lineId: null,
        provider: 'Nema',
        outcome: 'refused' as const,
        reason: 'PORT_OUT_CODE_INVALID',
        createdAt: at(-60_000),
      },
    ]);

    const lines = (await viewed(GUDRUN.id, staff)).lines;
    const own = lines.find((l) => l.id === LINES.gudrun);
    const second = lines.find((l) => l.id === LINES.gudrunSecond);
    expect(own?.lock).toEqual({ state: 'locked', unlockAt: null });
    expect(own?.simChangedAt).toBe(at(-3 * 24 * HOUR).toISOString());
    expect(own?.portOutAttempts).toHaveLength(5);
    expect(own?.portOutAttempts[0]).toEqual({
      at: at(-10 * 60_000).toISOString(),
      provider: 'Hey',
      outcome: 'refused',
      reason: 'NUMBER_LOCKED',
    });
    expect(own?.portOutAttempts.map((a) => a.at)).toEqual(
      [10 / 60, 2, 3, 4, 5].map((h) => at(-h * HOUR).toISOString()),
    );
    expect(second?.lock).toEqual({ state: 'unlocking', unlockAt: at(2 * HOUR).toISOString() });
    expect(second?.simChangedAt).toBeNull();
    expect(second?.portOutAttempts).toEqual([]);

    // An unlock whose time has come is open, even before the job writes it.
    await setLock(LINES.gudrunSecond, { unlockRequestedAt: at(-25 * HOUR), unlockAt: at(-HOUR) });
    const due = (await viewed(GUDRUN.id, staff)).lines.find((l) => l.id === LINES.gudrunSecond);
    expect(due?.lock).toEqual({ state: 'unlocked', unlockAt: null });

    // Jóannes's number was in service before the lock: unlocked (the demo's other state).
    const joannes = await signInStaff(t.app, 'support', () => NOW);
    expect((await open(JOANNES.id, joannes)).statusCode).toBe(201);
    const his = (await viewed(JOANNES.id, joannes)).lines.find((l) => l.id === LINES.joannes);
    expect(his?.lock).toEqual({ state: 'unlocked', unlockAt: null });
  });

  it('shows a refused port-out as the number-protection service records it (a real code, but locked)', async () => {
    // Guðrun makes a code and gives it to Tosa; her number is locked, so the port is refused.
    const guest = await signIn(t.app, 'Guðrun');
    const made = await t.app.inject({
      method: 'POST',
      url: `/api/subscriptions/${LINES.gudrun}/port-out-code`,
      headers: guest,
    });
    expect(made.statusCode, made.body).toBe(201);
    const { code } = parse(dataEnvelope(portOutCodeResponse), made).data;
    await expect(
      t.app.numberProtection.requestPortOut({ phoneNumber: '557812', code, provider: 'Tosa' }),
    ).rejects.toMatchObject({ code: 'NUMBER_LOCKED' });

    const staff = await signInStaff(t.app, 'support', () => NOW);
    expect((await open(GUDRUN.id, staff)).statusCode).toBe(201);
    const own = (await viewed(GUDRUN.id, staff)).lines.find((l) => l.id === LINES.gudrun);
    expect(own?.lock.state).toBe('locked');
    expect(own?.portOutAttempts[0]).toEqual({
      at: NOW.toISOString(),
      provider: 'Tosa',
      outcome: 'refused',
      reason: 'NUMBER_LOCKED',
    });
    expect(own?.portOutAttempts).toHaveLength(5);
  });
});
