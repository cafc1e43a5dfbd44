import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VAT_PERCENT } from '@alda/contract/constants';
import { splitVat } from '@alda/contract/format/money';
import { billNumber, paymentReference } from '@alda/contract/rules/bills';
import { billItems, bills, type NewBillItemRow, type NewBillRow } from '../src/db/schema/bills';
import { DEMO_USERS } from '../src/seed/demo-users';
import { seedDemoData } from '../src/seed/seed';
import {
  tmfAppliedRate,
  tmfBillState,
  tmfCustomerBill,
  type TmfAppliedRate,
  type TmfCustomerBill,
} from '../src/modules/bills/tmf678';
import { tmfError } from '@alda/contract/schemas/usage-tmf635';
import { expectAnswer, expectValid, operation, tmf678 } from './bills-tmf678-document';
import { NOW, signIn } from './demo-accounts';
import { createTestApp, type TestApp, usingPostgres } from './helper';
import { fixedCases, operationsOf, requestFor } from './openapi-fuzz';

/*
 * The monthly bills on TMF678 Customer Bill Management v4 for the operator's finance system
 * (docs/decisions/0098-monthly-bill.md), through the real app on a real database. The bills are
 * written straight into the tables, as the month-end job writes them. Every answer is checked
 * against the document TM Forum publishes (contracts/tmf678/, vendored unedited): the operation's
 * status, its schema (`CustomerBill`, `AppliedCustomerBillingRate`, `Error`) and its headers.
 */

const BASE = '/tmf-api/customerBillManagement/v4';
const HREF = `http://localhost:3000${BASE}`;
const BILLING_FEED_TOKEN = 'billing-feed-token-for-tests-0123456789';
const auth = { authorization: `Bearer ${BILLING_FEED_TOKEN}` };

const person = (firstname: string) => {
  const user = DEMO_USERS.find((u) => u.firstname === firstname);
  if (!user) throw new Error(`no demo user ${firstname}`);
  return user;
};
const joannes = person('Jóannes');
const sunneva = person('Sunneva');
const gudrun = person('Guðrun');
/** The customer number of a customer who deleted their user: the bill keeps only this. */
const DELETED_CUSTOMER = '6f1d2c3a-00ff-4a6e-9b1a-0a1f000000ff';

/** A bill item of `gross` øre, its VAT split as the receipts split it. */
function item(
  billId: string,
  position: number,
  gross: number,
  patch: Partial<NewBillItemRow> & Pick<NewBillItemRow, 'kind' | 'descriptionFo' | 'descriptionEn'>,
): NewBillItemRow {
  const { net, vat } = splitVat(gross);
  return { billId, position, netOere: net, vatOere: vat, grossOere: gross, msisdn: null, ...patch };
}

/** A bill whose totals are its items'. */
function bill(
  serial: number,
  items: NewBillItemRow[],
  patch: Omit<
    NewBillRow,
    | 'serial'
    | 'number'
    | 'paymentReference'
    | 'vatRate'
    | 'netOere'
    | 'vatOere'
    | 'grossOere'
    | 'locale'
  > &
    Partial<Pick<NewBillRow, 'locale'>>,
): NewBillRow {
  const sum = (key: 'netOere' | 'vatOere' | 'grossOere') =>
    items.reduce((total, i) => total + i[key], 0);
  return {
    serial,
    number: billNumber(serial),
    paymentReference: paymentReference(serial),
    locale: 'fo',
    vatRate: VAT_PERCENT,
    netOere: sum('netOere'),
    vatOere: sum('vatOere'),
    grossOere: sum('grossOere'),
    ...patch,
  };
}

const ids = {
  april: '0b111111-0000-4000-8000-000000000001',
  may: '0b111111-0000-4000-8000-000000000002',
  gudrun: '0b111111-0000-4000-8000-000000000003',
  deleted: '0b111111-0000-4000-8000-000000000004',
};
const PAID_APRIL = new Date('2026-05-01T02:00:05.000Z');

/** Jóannes's April bill, paid by his agreement: his plan and Sunneva's line. */
const aprilItems = [
  item(ids.april, 1, 24_900, {
    kind: 'plan',
    msisdn: '214455',
    lineUserId: joannes.id,
    descriptionFo: 'Familjuáskrift 20 GB',
    descriptionEn: 'Family plan 20 GB',
    paidAt: PAID_APRIL,
    paymentMethod: 'agreement',
  }),
  item(ids.april, 2, 12_000, {
    kind: 'member',
    msisdn: '214456',
    lineUserId: sunneva.id,
    holder: sunneva.firstname,
    descriptionFo: 'Limur á familjuáskrift',
    descriptionEn: 'Family member',
    paidAt: PAID_APRIL,
    paymentMethod: 'agreement',
  }),
];
/** Jóannes's May bill: a package paid by card, the plan owed, a 1 øre charge abroad. */
const mayItems = [
  item(ids.may, 1, 14_950, {
    kind: 'plan',
    msisdn: '214455',
    descriptionFo: 'Familjuáskrift 20 GB',
    descriptionEn: 'Family plan 20 GB',
  }),
  item(ids.may, 2, 10_000, {
    kind: 'package',
    msisdn: '214455',
    descriptionFo: 'Eyka 5 GB',
    descriptionEn: 'Extra 5 GB',
    paidAt: new Date('2026-05-20T16:45:00.000Z'),
    paymentMethod: 'card',
    cardBrand: 'visa',
    cardLast4: '4242',
  }),
  item(ids.may, 3, 1, {
    kind: 'roaming',
    msisdn: '214456',
    holder: sunneva.firstname,
    descriptionFo: 'Dáta uttanlands',
    descriptionEn: 'Data abroad',
  }),
];
/** Guðrun's April bill (in English), nothing paid and overdue. */
const gudrunItems = [
  item(ids.gudrun, 1, 19_900, {
    kind: 'plan',
    msisdn: '557812',
    descriptionFo: 'Áskrift 20 GB',
    descriptionEn: 'Plan 20 GB',
  }),
  item(ids.gudrun, 2, 4_500, {
    kind: 'eu_package',
    msisdn: '557812',
    descriptionFo: 'ES-pakki',
    descriptionEn: 'EU package',
  }),
];
/** The March bill of a customer since deleted: anonymised, on no number. */
const deletedItems = [
  item(ids.deleted, 1, 12_345, {
    kind: 'other',
    descriptionFo: 'Nýtt SIM-kort',
    descriptionEn: 'New SIM card',
    paidAt: new Date('2026-03-10T09:00:00.000Z'),
    paymentMethod: 'mobilepay',
  }),
];

const rows = {
  april: bill(2, aprilItems, {
    id: ids.april,
    payerUserId: joannes.id,
    customerNumber: joannes.id,
    period: '2026-04',
    issuedAt: new Date('2026-05-01T02:00:00.000Z'),
    dueDate: '2026-05-15',
    customerName: `${joannes.firstname} ${joannes.lastname}`,
    customerAddress: `${joannes.address}, FO-${joannes.postCode} ${joannes.city}`,
    customerEmail: joannes.email,
    paidOere: 36_900,
  }),
  may: bill(4, mayItems, {
    id: ids.may,
    payerUserId: joannes.id,
    customerNumber: joannes.id,
    period: '2026-05',
    issuedAt: new Date('2026-06-01T02:00:00.000Z'),
    dueDate: '2026-06-15',
    customerName: `${joannes.firstname} ${joannes.lastname}`,
    customerAddress: `${joannes.address}, FO-${joannes.postCode} ${joannes.city}`,
    customerEmail: joannes.email,
    paidOere: 10_000,
  }),
  gudrun: bill(3, gudrunItems, {
    id: ids.gudrun,
    payerUserId: gudrun.id,
    customerNumber: gudrun.id,
    period: '2026-04',
    issuedAt: new Date('2026-05-01T02:00:00.000Z'),
    dueDate: '2026-05-15',
    locale: 'en',
    customerName: `${gudrun.firstname} ${gudrun.lastname}`,
    customerAddress: `${gudrun.address}, FO-${gudrun.postCode} ${gudrun.city}`,
    customerEmail: gudrun.email,
    paidOere: 0,
  }),
  deleted: bill(1, deletedItems, {
    id: ids.deleted,
    payerUserId: null,
    customerNumber: DELETED_CUSTOMER,
    period: '2026-03',
    issuedAt: new Date('2026-04-01T01:00:00.000Z'),
    dueDate: '2026-04-15',
    anonymisedAt: new Date('2026-05-20T08:00:00.000Z'),
    customerName: null,
    customerAddress: null,
    customerEmail: null,
    paidOere: 12_345,
  }),
};
/** The list's order: by issue, then id (April's two bills were issued at the same instant). */
const ORDER = [ids.deleted, ids.april, ids.gudrun, ids.may];
const itemsOf: Record<string, NewBillItemRow[]> = {
  [ids.april]: aprilItems,
  [ids.may]: mayItems,
  [ids.gudrun]: gudrunItems,
  [ids.deleted]: deletedItems,
};
const billRows = Object.values(rows);
const byId = (id: string) => billRows.find((b) => b.id === id)!;

/** What identifies the customers: none of it may be in an answer. */
const PERSONAL = [joannes, sunneva, gudrun].flatMap((u) => [
  u.firstname,
  u.lastname,
  u.email,
  u.address,
]);

describe(`monthly bills on TMF678 (${usingPostgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  let t: TestApp;
  /** Every answer of the finance system's routes, for the privacy check at the end. */
  const bodies: string[] = [];

  /** The answers about the bills the demo seed issued through the month-end job's own path. */
  const seeded: { path: string; res: Awaited<ReturnType<typeof get>> }[] = [];

  beforeAll(async () => {
    t = await createTestApp({ BILLING_FEED_TOKEN }, { now: () => NOW });
    await seedDemoData(t.app.db, NOW, undefined, { bills: true });
    // What the month-end job issued for the demo: read now, checked below, then replaced by the
    // bills of this test, whose every figure it knows.
    const list = await get('/customerBill');
    seeded.push({ path: '/customerBill', res: list });
    seeded.push({
      path: '/appliedCustomerBillingRate',
      res: await get('/appliedCustomerBillingRate'),
    });
    for (const { id } of list.json() as { id: string }[])
      seeded.push({ path: '/customerBill/{id}', res: await get(`/customerBill/${id}`) });
    await t.app.db.delete(bills);
    await t.app.db.insert(bills).values(billRows);
    await t.app.db.insert(billItems).values(Object.values(itemsOf).flat());
  }, 60_000);
  afterAll(() => t.close());

  async function get(url: string, headers: Record<string, string> = auth) {
    const res = await t.app.inject({ method: 'GET', url: `${BASE}${url}`, headers });
    bodies.push(res.body);
    return res;
  }
  const listBills = async (query = '') => {
    const res = await get(`/customerBill${query}`);
    expect(res.statusCode, res.body).toBe(200);
    expectAnswer('GET', '/customerBill', res);
    return { res, list: tmfCustomerBill.array().parse(res.json()) };
  };
  const rates = async (query = '') => {
    const res = await get(`/appliedCustomerBillingRate${query}`);
    expect(res.statusCode, res.body).toBe(200);
    expectAnswer('GET', '/appliedCustomerBillingRate', res);
    return { res, list: tmfAppliedRate.array().parse(res.json()) };
  };
  const counts = (res: { headers: Record<string, unknown> }) => ({
    total: Number(res.headers['x-total-count']),
    result: Number(res.headers['x-result-count']),
  });
  /** A Money as øre, asserting it is DKK and has at most two decimals. */
  const oere = (money: { unit: string; value: number }) => {
    expect(money.unit).toBe('DKK');
    expect(Math.abs(money.value * 100 - Math.round(money.value * 100))).toBeLessThan(1e-9);
    return Math.round(money.value * 100);
  };

  it('is the published v4.0.0 document, its Error, bill and rate as we read them', () => {
    expect(tmf678.info.version).toBe('4.0.0');
    expect(tmf678.basePath).toBe(`${BASE}/`);
    expect(tmf678.definitions.stateValue?.enum).toEqual([
      'new',
      'onHold',
      'validated',
      'sent',
      'partiallyPaid',
      'settled',
    ]);
    expect(tmf678.definitions.Error?.required).toEqual(['code', 'reason']);
    expect(tmf678.definitions.AppliedCustomerBillingRate?.required).toEqual(['id']);
  });

  it('answers the bills the month-end job issued for the demo customers as the document has them', () => {
    const [list] = seeded;
    expect((list?.res.json() as unknown[]).length).toBeGreaterThan(0);
    for (const { path, res } of seeded) {
      expect(res.statusCode, `${path} ${res.body}`).toBe(200);
      expectAnswer('GET', path, res);
    }
    for (const answer of list?.res.json() as TmfCustomerBill[]) {
      expect(oere(answer.taxIncludedAmount)).toBe(
        oere(answer.taxExcludedAmount) + oere(answer.taxItem[0]!.taxAmount),
      );
      expect(answer.billingAccount.id).toMatch(/^1\d{5}$/);
    }
  });

  it('refuses a caller without the billing feed token with 401 and the document’s Error, on every route', async () => {
    const customer = await signIn(t.app, 'Jóannes');
    const paths = [
      ['/customerBill', '/customerBill'],
      [`/customerBill/${ids.april}`, '/customerBill/{id}'],
      ['/appliedCustomerBillingRate', '/appliedCustomerBillingRate'],
      [`/appliedCustomerBillingRate/${ids.april}`, '/appliedCustomerBillingRate/{id}'],
      ['/customerBill/no/such', '/customerBill/{id}'],
    ] as const;
    for (const [url, path] of paths) {
      for (const headers of [
        {},
        { authorization: 'Bearer wrong-token-wrong-token-wrong-token' },
        { authorization: `Bearer ${BILLING_FEED_TOKEN}x` },
        { authorization: BILLING_FEED_TOKEN },
        customer,
      ]) {
        const res = await get(url, headers);
        expect(res.statusCode, `${url} ${JSON.stringify(headers)}`).toBe(401);
        expect(res.headers['www-authenticate']).toBe('Bearer realm="alda-billing-feed"');
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
        expectAnswer('GET', path, res);
        expect(tmfError.parse(res.json())).toMatchObject({ code: 'UNAUTHORIZED', status: '401' });
      }
    }
  });

  it('refuses every caller with 401 when no BILLING_FEED_TOKEN is configured', async () => {
    const closed = await createTestApp({}, { now: () => NOW });
    try {
      for (const url of [
        '/customerBill',
        '/appliedCustomerBillingRate',
        `/customerBill/${ids.may}`,
      ]) {
        for (const headers of [{}, auth, { authorization: 'Bearer ' }]) {
          const res = await closed.app.inject({ method: 'GET', url: `${BASE}${url}`, headers });
          expect(res.statusCode).toBe(401);
          expectValid('Error', res.json());
          expect(res.json()).toMatchObject({ code: 'UNAUTHORIZED', status: '401' });
        }
      }
    } finally {
      await closed.close();
    }
  });

  it('lists every bill oldest first as a CustomerBill valid against the document, amounts equal to the rows to the øre', async () => {
    const { res, list } = await listBills();
    expect(counts(res)).toEqual({ total: 4, result: 4 });
    expect(list.map((b) => b.id)).toEqual(ORDER);
    for (const answer of list) {
      const row = byId(answer.id);
      expect(answer.href).toBe(`${HREF}/customerBill/${row.id}`);
      expect(answer.billNo).toBe(row.number);
      expect(new Date(answer.billDate).getTime()).toBe(row.issuedAt.getTime());
      expect(oere(answer.amountDue)).toBe(row.grossOere);
      expect(oere(answer.taxIncludedAmount)).toBe(row.grossOere);
      expect(oere(answer.taxExcludedAmount)).toBe(row.netOere);
      expect(oere(answer.remainingAmount)).toBe(row.grossOere - row.paidOere);
      expect(answer.taxItem).toHaveLength(1);
      expect(answer.taxItem[0]).toMatchObject({ taxCategory: 'VAT', taxRate: 0.25 });
      expect(oere(answer.taxItem[0]!.taxAmount)).toBe(row.vatOere);
      expect(answer.billingAccount).toEqual({
        id: row.customerNumber,
        '@referredType': 'BillingAccount',
      });
      expect(answer.relatedParty).toEqual([
        { id: row.customerNumber, role: 'customer', '@referredType': 'Customer' },
      ]);
      expect(answer).toMatchObject({
        category: 'normal',
        runType: 'onCycle',
        '@type': 'CustomerBill',
      });
    }
  });

  it('gives each bill its Faroese month, due date and state', async () => {
    const { list } = await listBills();
    const of = (id: string) => list.find((b) => b.id === id)!;
    // April and May are summer time (UTC+1); March starts in winter time and ends in summer.
    expect(of(ids.april)).toMatchObject({
      billDate: '2026-05-01T03:00:00.000+01:00',
      billingPeriod: {
        startDateTime: '2026-04-01T00:00:00.000+01:00',
        endDateTime: '2026-04-30T23:59:59.999+01:00',
      },
      paymentDueDate: '2026-05-15T23:59:59.999+01:00',
      state: 'settled',
    });
    expect(of(ids.deleted)).toMatchObject({
      billingPeriod: {
        startDateTime: '2026-03-01T00:00:00.000+00:00',
        endDateTime: '2026-03-31T23:59:59.999+01:00',
      },
      state: 'settled',
    });
    // Some paid, not yet due (NOW is its due date).
    expect(of(ids.may)).toMatchObject({
      paymentDueDate: '2026-06-15T23:59:59.999+01:00',
      state: 'partiallyPaid',
    });
    // Nothing paid and overdue: the document has no overdue state.
    expect(of(ids.gudrun).state).toBe('sent');
    expect(new Date(of(ids.gudrun).billingPeriod.startDateTime).toISOString()).toBe(
      '2026-03-31T23:00:00.000Z',
    );
  });

  it('maps the bill states of ADR 0098 onto the document’s', () => {
    const bill = { ...rows.may, grossOere: 10_000, dueDate: '2026-06-15' } as Parameters<
      typeof tmfBillState
    >[0];
    expect(tmfBillState({ ...bill, paidOere: 10_000 }, '2026-07-01')).toBe('settled');
    expect(tmfBillState({ ...bill, paidOere: 4_000 }, '2026-06-15')).toBe('partiallyPaid');
    expect(tmfBillState({ ...bill, paidOere: 4_000 }, '2026-06-16')).toBe('partiallyPaid');
    expect(tmfBillState({ ...bill, paidOere: 0 }, '2026-06-15')).toBe('sent');
    expect(tmfBillState({ ...bill, paidOere: 0 }, '2026-06-16')).toBe('sent');
    expect(tmfBillState({ ...bill, grossOere: 0, paidOere: 0 }, '2026-06-16')).toBe('settled');
  });

  it('pages with offset and limit and tells the counts in X-Total-Count and X-Result-Count', async () => {
    const page = await listBills('?offset=1&limit=2');
    expect(counts(page.res)).toEqual({ total: 4, result: 2 });
    expect(page.list.map((b) => b.id)).toEqual(ORDER.slice(1, 3));

    const last = await listBills('?offset=3&limit=2');
    expect(counts(last.res)).toEqual({ total: 4, result: 1 });
    expect(last.list.map((b) => b.id)).toEqual(ORDER.slice(3));

    const beyond = await listBills('?offset=10');
    expect(counts(beyond.res)).toEqual({ total: 4, result: 0 });
    expect(beyond.list).toEqual([]);

    // Only the count.
    const none = await listBills('?limit=0');
    expect(counts(none.res)).toEqual({ total: 4, result: 0 });

    // More than 1000 is answered as 1000 (there are fewer here); `fields` is taken, not applied.
    const many = await listBills('?limit=5000&fields=id,billNo');
    expect(counts(many.res)).toEqual({ total: 4, result: 4 });
    expect(Object.keys(many.list[0]!)).toContain('amountDue');
  });

  it('filters by billingAccount.id and billDate (TMF630)', async () => {
    const own = await listBills(`?billingAccount.id=${joannes.id}`);
    expect(own.list.map((b) => b.id)).toEqual([ids.april, ids.may]);
    expect(counts(own.res)).toEqual({ total: 2, result: 2 });

    const none = await listBills('?billingAccount.id=nobody');
    expect(counts(none.res)).toEqual({ total: 0, result: 0 });

    // May 1, 02:00 UTC (03:00 in Tórshavn) is when April's bills were issued.
    const after = await listBills('?billDate.gt=2026-05-01T03:00:00%2B01:00');
    expect(after.list.map((b) => b.id)).toEqual([ids.may]);
    const from = await listBills('?billDate.gte=2026-05-01T02:00:00Z');
    expect(from.list.map((b) => b.id)).toEqual([ids.april, ids.gudrun, ids.may]);
    const before = await listBills('?billDate.lt=2026-05-01T02:00:00Z');
    expect(before.list.map((b) => b.id)).toEqual([ids.deleted]);
    const upTo = await listBills('?billDate.lte=2026-05-01T02:00:00Z&offset=1&limit=1');
    expect(upTo.list.map((b) => b.id)).toEqual([ids.april]);
    expect(counts(upTo.res)).toEqual({ total: 3, result: 1 });
    const month = await listBills(
      `?billingAccount.id=${joannes.id}&billDate.gte=2026-06-01T00:00:00%2B01:00&billDate.lt=2026-07-01T00:00:00%2B01:00`,
    );
    expect(month.list.map((b) => b.id)).toEqual([ids.may]);
  });

  it('refuses a filter it does not apply, and bad paging, with 400 and the document’s Error', async () => {
    for (const [query, field] of [
      ['?state=settled', 'state'],
      ['?billNo=R-000002', 'billNo'],
      ['?limit=-1', 'limit'],
      ['?limit=abc', 'limit'],
      ['?offset=1.5', 'offset'],
      ['?billDate.gt=yesterday', 'billDate.gt'],
      ['?billDate.gt=2026-05-01', 'billDate.gt'],
    ] as const) {
      const res = await get(`/customerBill${query}`);
      expect(res.statusCode, query).toBe(400);
      expectAnswer('GET', '/customerBill', res);
      expect(tmfError.parse(res.json())).toMatchObject({
        code: 'VALIDATION_FAILED',
        message: field,
        status: '400',
      });
    }
    const rate = await get('/appliedCustomerBillingRate?billingAccount.id=x');
    expect(rate.statusCode).toBe(400);
    expectAnswer('GET', '/appliedCustomerBillingRate', rate);
  });

  it('answers one bill as the list does, and 404 with the document’s Error for an unknown or malformed id', async () => {
    const { list } = await listBills();
    for (const listed of list) {
      const res = await get(`/customerBill/${listed.id}`);
      expect(res.statusCode).toBe(200);
      expectAnswer('GET', '/customerBill/{id}', res);
      expect(res.json()).toEqual(listed);
    }
    const withFields = await get(`/customerBill/${ids.may}?fields=billNo`);
    expect(withFields.json()).toEqual(list.find((b) => b.id === ids.may));

    for (const id of [
      '0b111111-0000-4000-8000-0000000000ff',
      'R-000002',
      'not-a-bill',
      '%20',
      'a/b',
      'x'.repeat(200),
      ids.april.replace('0b', 'zz'),
    ]) {
      const res = await get(`/customerBill/${id}`);
      expect(res.statusCode, id).toBe(404);
      expectAnswer('GET', '/customerBill/{id}', res);
      expect(tmfError.parse(res.json())).toEqual({
        code: 'NOT_FOUND',
        reason: expect.any(String),
        message: 'id',
        status: '404',
      });
    }
  });

  it('serves the bill of a deleted customer, anonymised, by its customer number only', async () => {
    const res = await get(`/customerBill/${ids.deleted}`);
    expect(res.statusCode).toBe(200);
    expectAnswer('GET', '/customerBill/{id}', res);
    const answer = tmfCustomerBill.parse(res.json()) satisfies TmfCustomerBill;
    expect(answer).toMatchObject({
      billNo: 'R-000001',
      billingAccount: { id: DELETED_CUSTOMER },
      relatedParty: [{ id: DELETED_CUSTOMER, role: 'customer' }],
      amountDue: { unit: 'DKK', value: 123.45 },
      remainingAmount: { unit: 'DKK', value: 0 },
    });
    const items = await rates(`?bill.id=${ids.deleted}`);
    expect(items.list).toHaveLength(1);
    expect(items.list[0]?.characteristic).toEqual([
      { name: 'kind', valueType: 'string', value: 'other' },
    ]);
  });

  it('lists every bill item as an AppliedCustomerBillingRate valid against the document, amounts to the øre', async () => {
    const { res, list } = await rates();
    const all = ORDER.flatMap((id) => itemsOf[id] ?? []);
    expect(counts(res)).toEqual({ total: all.length, result: all.length });
    expect(list.map((r) => [r.bill.id, r.name])).toEqual(
      all.map((i) => [i.billId, i.descriptionEn]),
    );
    const stored = await t.app.db.select().from(billItems);
    for (const rate of list) {
      const row = stored.find((i) => i.id === rate.id)!;
      const ofBill = byId(row.billId);
      expect(rate).toMatchObject({
        href: `${HREF}/appliedCustomerBillingRate/${row.id}`,
        name: row.descriptionEn,
        description: ofBill.locale === 'en' ? row.descriptionEn : row.descriptionFo,
        type: 'appliedBillingCharge',
        isBilled: true,
        bill: {
          id: row.billId,
          href: `${HREF}/customerBill/${row.billId}`,
          '@referredType': 'CustomerBill',
        },
        '@type': 'AppliedCustomerBillingRate',
      });
      expect(new Date(rate.date).getTime()).toBe((row.paidAt ?? ofBill.issuedAt).getTime());
      expect(oere(rate.taxIncludedAmount)).toBe(row.grossOere);
      expect(oere(rate.taxExcludedAmount)).toBe(row.netOere);
      expect(rate.appliedTax).toHaveLength(1);
      expect(rate.appliedTax[0]).toMatchObject({ taxCategory: 'VAT', taxRate: 0.25 });
      expect(oere(rate.appliedTax[0]!.taxAmount)).toBe(row.vatOere);
      expect(rate.characteristic).toEqual([
        { name: 'kind', valueType: 'string', value: row.kind },
        ...(row.msisdn ? [{ name: 'msisdn', valueType: 'string', value: `298${row.msisdn}` }] : []),
      ]);
    }
    // The 1 øre charge abroad.
    expect(list.find((r) => r.name === 'Data abroad')?.taxIncludedAmount).toEqual({
      unit: 'DKK',
      value: 0.01,
    });
    // The rates of a bill add up to it.
    for (const id of ORDER) {
      const sum = list
        .filter((r) => r.bill.id === id)
        .reduce((total, r) => total + oere(r.taxIncludedAmount), 0);
      expect(sum).toBe(byId(id).grossOere);
    }
  });

  it('lists one bill’s items with bill.id, in their order, paged', async () => {
    const may = await rates(`?bill.id=${ids.may}`);
    expect(may.list.map((r) => r.name)).toEqual(['Family plan 20 GB', 'Extra 5 GB', 'Data abroad']);
    expect(counts(may.res)).toEqual({ total: 3, result: 3 });
    const page = await rates(`?bill.id=${ids.may}&offset=1&limit=1`);
    expect(page.list.map((r) => r.name)).toEqual(['Extra 5 GB']);
    expect(counts(page.res)).toEqual({ total: 3, result: 1 });
    const all = await rates('?offset=2&limit=3');
    expect(counts(all.res)).toEqual({ total: 8, result: 3 });
    expect(all.list.map((r) => r.name)).toEqual(['Family member', 'Plan 20 GB', 'EU package']);
    for (const billId of ['0b111111-0000-4000-8000-0000000000ff', 'R-000002', 'nope']) {
      const none = await rates(`?bill.id=${encodeURIComponent(billId)}`);
      expect(none.list).toEqual([]);
      expect(counts(none.res)).toEqual({ total: 0, result: 0 });
    }
  });

  it('answers one item as the list does, and 404 with the document’s Error for an unknown or malformed id', async () => {
    const { list } = await rates();
    for (const listed of list) {
      const res = await get(`/appliedCustomerBillingRate/${listed.id}`);
      expect(res.statusCode).toBe(200);
      expectAnswer('GET', '/appliedCustomerBillingRate/{id}', res);
      expect(tmfAppliedRate.parse(res.json()) satisfies TmfAppliedRate).toEqual(listed);
    }
    // A bill's id is no item's.
    for (const id of [ids.may, 'not-an-item', 'a/b', 'x'.repeat(200)]) {
      const res = await get(`/appliedCustomerBillingRate/${id}`);
      expect(res.statusCode, id).toBe(404);
      expectAnswer('GET', '/appliedCustomerBillingRate/{id}', res);
      expect(res.json()).toMatchObject({ code: 'NOT_FOUND', status: '404' });
    }
  });

  it('answers hostile requests with the token with a 2xx or the document’s Error, never a 5xx', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const operations = operationsOf(doc).filter((op) => op.path.startsWith(BASE));
    expect(operations.map((op) => `${op.method} ${op.path.slice(BASE.length)}`).sort()).toEqual([
      'GET /appliedCustomerBillingRate',
      'GET /appliedCustomerBillingRate/{id}',
      'GET /customerBill',
      'GET /customerBill/{id}',
    ]);
    const findings: string[] = [];
    for (const op of operations) {
      const path = op.path.slice(BASE.length);
      const generated = fc.sample(requestFor(op), { numRuns: 40, seed: 678 });
      for (const request of [...fixedCases(op), ...generated]) {
        const res = await t.app.inject({
          method: request.method as 'GET',
          url: request.url,
          headers: { ...request.headers, ...auth },
          ...(request.payload === undefined ? {} : { payload: request.payload }),
        });
        bodies.push(res.body);
        const what = `${request.method} ${request.url.slice(0, 120)} → ${res.statusCode} ${res.body.slice(0, 160)}`;
        if (res.statusCode >= 500) findings.push(what);
        else if (res.statusCode >= 400) {
          const body = JSON.parse(res.body) as { code?: unknown; reason?: unknown };
          if (typeof body.code !== 'string' || typeof body.reason !== 'string') findings.push(what);
          // The document lists its statuses; a framework's 415 or 413 is not among them.
          else if (operation('GET', path).responses[String(res.statusCode)])
            expectAnswer('GET', path, res);
          else expectValid('Error', res.json());
        }
      }
    }
    expect(findings).toEqual([]);
  });

  it('names no customer, holder or address and no e-mail in any answer, the demo’s bills included', () => {
    expect(bodies.length).toBeGreaterThan(40);
    for (const body of bodies) {
      const text = JSON.stringify(JSON.parse(body) as unknown);
      for (const value of PERSONAL) {
        expect(body).not.toContain(value);
        expect(text).not.toContain(value);
      }
      expect(body).not.toContain('@demo.alda.fo');
      // Nor how a card paid.
      expect(body.toLowerCase()).not.toMatch(/visa|mastercard/);
    }
  });

  // Last: it uses up the minute's budget of the token.
  it('counts the requests per token, whatever the address, and answers 429 with Retry-After beyond the limit', async () => {
    const send = (i: number, headers: Record<string, string>) =>
      t.app.inject({
        method: 'GET',
        url: `${BASE}/customerBill/not-a-bill`,
        headers,
        remoteAddress: `10.0.${Math.floor(i / 250)}.${i % 250}`,
      });
    // Without the token: 401, and not counted.
    for (let i = 0; i < 20; i += 1) expect((await send(i, {})).statusCode).toBe(401);
    const statuses: number[] = [];
    for (let i = 0; i < 601; i += 1) statuses.push((await send(i, auth)).statusCode);
    // The requests of the tests above came first, in the same minute.
    expect(statuses.filter((status) => status === 404).length).toBeLessThan(600);
    expect(statuses.at(-1)).toBe(429);
    const limited = await send(0, auth);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // The document lists no 429; the answer is its Error all the same.
    expectValid('Error', limited.json());
    expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED', status: '429' });
  });
});
