import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope } from '@alda/contract/envelope';
import { reservedNumbersResponse } from '@alda/contract/schemas/auth-register';
import { auditPage } from '@alda/contract/schemas/staff';
import {
  staffNumberRelease,
  staffNumbersPage,
  type StaffNumbersPage,
} from '@alda/contract/schemas/staff-numbers';
import { phoneLines } from '../src/db/schema/phone-lines';
import { numberReleases } from '../src/db/schema/staff';
import { createDemoApp, NOW } from './demo-accounts';
import { parse } from './helper';
import { signInStaff, type TestStaff } from './staff-helper';

/*
 * The number inventory of the staff console (issue 31 "Number inventory: free / reserved /
 * quarantined numbers, release from quarantine with a reason"; ADR 0056 quarantine, ADR 0024
 * reservations) on the real app and database with the demo data. Numbers 2199xx are nobody's in
 * the demo: the tests give them lines and reservations of their own.
 */

const DAY_S = 86_400;
let clock = NOW;
const now = () => clock;
let t: Awaited<ReturnType<typeof createDemoApp>>;
let support: TestStaff;
let provisioning: TestStaff;
let admin: TestStaff;
let searches = 0;

/** A cancelled line of `msisdn`, cancelled `daysAgo` days before the clock. */
async function cancelledLine(msisdn: string, daysAgo: number) {
  await t.app.db.insert(phoneLines).values({
    msisdn,
    status: 'cancelled',
    createdAt: new Date(clock.getTime() - (daysAgo + 400) * DAY_S * 1000),
    statusChangedAt: new Date(clock.getTime() - daysAgo * DAY_S * 1000),
  });
}

const inventory = (query: string, headers = support.headers) =>
  t.app.inject({ url: `/api/staff/numbers?${query}`, headers });
const page = async (query: string, headers = support.headers): Promise<StaffNumbersPage> => {
  const res = await inventory(query, headers);
  expect(res.statusCode, res.body).toBe(200);
  return parse(dataEnvelope(staffNumbersPage), res).data;
};
const release = (msisdn: string, payload: unknown, headers = support.headers) =>
  t.app.inject({
    method: 'POST',
    url: `/api/staff/numbers/${msisdn}/release`,
    headers,
    payload: payload as Record<string, unknown>,
  });
/** The customer's number search (POST /api/auth/reserved-numbers), as Jóannes. */
const customerSearch = async (phoneNumber: string) => {
  searches += 1;
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/reserved-numbers',
    remoteAddress: `10.31.0.${searches}`,
    headers: t.as.Jóannes,
    payload: { phoneNumber },
  });
  expect(res.statusCode, res.body).toBe(200);
  return parse(dataEnvelope(reservedNumbersResponse), res).data;
};
const expectError = (res: Awaited<ReturnType<typeof inventory>>, status: number, code: string) => {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json().error.code).toBe(code);
};

beforeAll(async () => {
  t = await createDemoApp({}, { now });
  support = await signInStaff(t.app, 'support', now);
  provisioning = await signInStaff(t.app, 'provisioning', now);
  admin = await signInStaff(t.app, 'admin', now);
  // 219950: cancelled 10 days ago (rests until day 90); 219951: cancelled 100 days ago (free).
  await cancelledLine('219950', 10);
  await cancelledLine('219951', 100);
  // 219952: held by Rói's sign-up for 30 minutes.
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/reserved-numbers',
    remoteAddress: '10.31.1.1',
    headers: t.as.Rói,
    payload: { phoneNumber: '219952' },
  });
  expect(parse(dataEnvelope(reservedNumbersResponse), res).data.status).toBe('free');
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/staff/numbers: the inventory by state', () => {
  it('lists quarantined numbers with the cancellation and the end of the quarantine (ADR 0056: NUMBER_QUARANTINE_DAYS after)', async () => {
    const data = await page('state=quarantined&q=2199');
    expect(data.quarantineDays).toBe(90);
    expect(data.items).toEqual([
      {
        state: 'quarantined',
        msisdn: '219950',
        cancelledAt: new Date(clock.getTime() - 10 * DAY_S * 1000).toISOString(),
        quarantineEndsAt: new Date(clock.getTime() + 80 * DAY_S * 1000).toISOString(),
        customerNumber: false,
      },
    ]);
  });

  it('lists reservations with their expiry and the customer id only — not the name (personal data)', async () => {
    const data = await page('state=reserved&q=2199');
    expect(data.items).toHaveLength(1);
    const [item] = data.items;
    expect(item).toEqual({
      state: 'reserved',
      msisdn: '219952',
      reservedUntil: new Date(clock.getTime() + 30 * 60_000).toISOString(),
      customerId: expect.any(String),
    });
    expect(JSON.stringify(data)).not.toMatch(/Rói|Joensen|@/);
  });

  it('lists numbers in use with their line status (the demo: active lines and one being set up)', async () => {
    const data = await page('state=in-use&q=2144');
    expect(data.items.map((i) => i.msisdn)).toEqual(['214455', '214456', '214457', '214466']);
    expect(data.items.find((i) => i.msisdn === '214457')).toMatchObject({
      state: 'in-use',
      lineStatus: 'processing',
    });
    expect(data.items.find((i) => i.msisdn === '214455')).toMatchObject({ lineStatus: 'active' });
  });

  it("counts a customer's own number without a line of ours as in use (the number search answers it as `customer`); quarantined, it cannot be released", async () => {
    // Ása's 286311 has no line with us (still with another operator).
    const data = await page('state=in-use&q=286311');
    expect(data.items).toEqual([
      { state: 'in-use', msisdn: '286311', lineStatus: null, since: null },
    ]);
    expect(data.counts).toEqual({ free: 0, reserved: 0, quarantined: 0, 'in-use': 1 });
    // Had it a line of ours that was cancelled lately, it rests — and stays hers after that.
    await cancelledLine('286311', 5);
    const resting = await page('state=quarantined&q=286311');
    expect(resting.items).toEqual([expect.objectContaining({ customerNumber: true })]);
    expect(resting.counts).toEqual({ free: 0, reserved: 0, quarantined: 1, 'in-use': 0 });
    expectError(await release('286311', { reason: 'Ticket 9' }), 409, 'STAFF_ACTION_NOT_ALLOWED');
    expect((await page('state=quarantined&q=2199')).items[0]).toMatchObject({
      msisdn: '219950',
      customerNumber: false,
    });
  });

  it('lists free numbers of the number plan matching q — not those in use, reserved or resting — and counts each state', async () => {
    // Containing 21995: 219950–219959 and 221995, 521995, 721995, 921995 (14 in the plan).
    const data = await page('state=free&q=21995');
    const free = data.items.map((i) => i.msisdn);
    expect(free).toEqual([
      '219951', // its quarantine is over
      '219953',
      '219954',
      '219955',
      '219956',
      '219957',
      '219958',
      '219959',
      '221995',
      '521995',
      '721995',
      '921995',
    ]);
    expect(data.counts).toEqual({ free: 12, reserved: 1, quarantined: 1, 'in-use': 0 });
    expect(data.nextAfter).toBeNull();
  });

  it('pages free numbers with after / nextAfter, in number order, and takes +298 and spaces in q', async () => {
    const first = await page('state=free&q=%2B298%2021%2099%205&limit=5');
    expect(first.items.map((i) => i.msisdn)).toEqual([
      '219951',
      '219953',
      '219954',
      '219955',
      '219956',
    ]);
    expect(first.nextAfter).toBe('219956');
    const second = await page(`state=free&q=21995&limit=5&after=${first.nextAfter}`);
    expect(second.items.map((i) => i.msisdn)).toEqual([
      '219957',
      '219958',
      '219959',
      '221995',
      '521995',
    ]);
    // Without q: the plan starts at 200000, and the states share the whole plan (400 000
    // numbers; every number of the demo is in the plan).
    const all = await page('state=free&limit=3');
    expect(all.items.map((i) => i.msisdn)).toEqual(['200000', '200001', '200002']);
    const total =
      all.counts.free + all.counts.reserved + all.counts.quarantined + all.counts['in-use'];
    expect(total).toBe(400_000);
  });

  it('answers 304 to a poll with the ETag of an unchanged inventory', async () => {
    const first = await inventory('state=quarantined');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\//);
    const again = await t.app.inject({
      url: '/api/staff/numbers?state=quarantined',
      headers: { ...support.headers, 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.headers['cache-control']).toBe('no-store');
  });

  it('refuses a bad state, q or limit with 400', async () => {
    expectError(await inventory('state=lost'), 400, 'VALIDATION_FAILED');
    expectError(await inventory('q=abc'), 400, 'VALIDATION_FAILED');
    expectError(await inventory('limit=5000'), 400, 'VALIDATION_FAILED');
    expectError(await inventory('after=12'), 400, 'VALIDATION_FAILED');
  });
});

describe('POST /api/staff/numbers/:msisdn/release', () => {
  it('issue 31: a quarantined number is refused to a customer; staff release it with a reason; the customer can then reserve it', async () => {
    await cancelledLine('219960', 5);
    const before = await customerSearch('219960');
    expect(before).toMatchObject({ status: 'reserved', reservationId: null });
    // Nor is it suggested next to a taken neighbour.
    expect((await customerSearch('214455')).suggestions).not.toContain('219960');

    const res = await release('219960', { reason: 'Ticket 5123: the holder asks for it back' });
    expect(res.statusCode, res.body).toBe(201);
    const done = parse(dataEnvelope(staffNumberRelease), res).data;
    expect(done).toMatchObject({
      msisdn: '219960',
      releasedAt: clock.toISOString(),
      releasedBy: `staff:${support.email}`,
      reason: 'Ticket 5123: the holder asks for it back',
      cancelledAt: new Date(clock.getTime() - 5 * DAY_S * 1000).toISOString(),
    });

    const after = await customerSearch('219960');
    expect(after.status).toBe('free');
    expect(after.reservationId).toEqual(expect.any(String));
    // The inventory agrees: now reserved by the customer, no longer quarantined.
    const reserved = await page('state=reserved&q=219960');
    expect(reserved.items).toEqual([
      expect.objectContaining({ msisdn: '219960', customerId: expect.any(String) }),
    ]);
    expect((await page('state=quarantined&q=219960')).items).toEqual([]);
  });

  it('a release ends only the quarantine of cancellations before it: a later cancellation rests again', async () => {
    await cancelledLine('219961', 20);
    expect((await release('219961', { reason: 'Call 88' })).statusCode).toBe(201);
    expect((await page('state=free&q=219961')).items.map((i) => i.msisdn)).toEqual(['219961']);
    clock = new Date(clock.getTime() + 60_000);
    await cancelledLine('219961', 0);
    expect((await page('state=quarantined&q=219961')).items.map((i) => i.msisdn)).toEqual([
      '219961',
    ]);
    expect((await customerSearch('219961')).status).toBe('reserved');
  });

  it('releases a line whose end was recorded ahead of the clock (the demo month end) as of that end', async () => {
    await cancelledLine('219966', -2);
    expect((await page('state=quarantined&q=219966')).items).toHaveLength(1);
    const res = await release('219966', { reason: 'Ticket 66' });
    expect(res.statusCode).toBe(201);
    expect(parse(dataEnvelope(staffNumberRelease), res).data.releasedAt).toBe(
      new Date(clock.getTime() + 2 * DAY_S * 1000).toISOString(),
    );
    expect((await page('state=quarantined&q=219966')).items).toEqual([]);
    expect((await customerSearch('219966')).status).toBe('free');
  });

  it('writes the audit entry number.release with who, why and the cancellation, in the release transaction', async () => {
    await cancelledLine('219962', 3);
    const res = await release('219962', { reason: 'Ticket 77' }, provisioning.headers);
    expect(res.statusCode).toBe(201);
    const { id } = parse(dataEnvelope(staffNumberRelease), res).data;
    const audit = parse(
      dataEnvelope(auditPage),
      await t.app.inject({
        url: '/api/staff/audit?action=number.release&targetId=219962',
        headers: admin.headers,
      }),
    ).data.items;
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      kind: 'change',
      actor: `staff:${provisioning.email}`,
      action: 'number.release',
      targetType: 'number',
      targetId: '219962',
      reason: 'Ticket 77',
      details: { releaseId: id },
    });
    const rows = await t.app.db
      .select()
      .from(numberReleases)
      .where(eq(numberReleases.msisdn, '219962'));
    expect(rows).toHaveLength(1);
  });

  it('refuses to release a number that is not in quarantine now (409 STAFF_ACTION_NOT_ALLOWED), and writes nothing', async () => {
    // Its quarantine is over; free; reserved; in use; and a second release of the same number.
    for (const msisdn of ['219951', '219959', '219952', '214455']) {
      expectError(await release(msisdn, { reason: 'Ticket 1' }), 409, 'STAFF_ACTION_NOT_ALLOWED');
    }
    await cancelledLine('219963', 1);
    const [one, two] = await Promise.all([
      release('219963', { reason: 'Desk A' }),
      release('219963', { reason: 'Desk B' }),
    ]);
    expect([one.statusCode, two.statusCode].sort()).toEqual([201, 409]);
    const rows = await t.app.db
      .select()
      .from(numberReleases)
      .where(eq(numberReleases.msisdn, '219963'));
    expect(rows).toHaveLength(1);
    // Outside the number plan (fixed-line range): no such number.
    expectError(await release('319950', { reason: 'Ticket 1' }), 404, 'NOT_FOUND');
  });

  it('requires a reason (400 STAFF_REASON_REQUIRED) and a 6-digit number (400)', async () => {
    await cancelledLine('219964', 2);
    expectError(await release('219964', {}), 400, 'STAFF_REASON_REQUIRED');
    expectError(await release('219964', { reason: '  ' }), 400, 'STAFF_REASON_REQUIRED');
    const short = await release('219964', { reason: 'ab' });
    expectError(short, 400, 'STAFF_REASON_REQUIRED');
    expect(short.json().error.field).toBe('reason');
    expect(short.json().error.message).toMatch(/reason|orsøk/i);
    expectError(await release('21996', { reason: 'Ticket 2' }), 400, 'VALIDATION_FAILED');
    // Still quarantined: nothing was released.
    expect((await page('state=quarantined&q=219964')).items).toHaveLength(1);
  });
});

describe('who may use the inventory (support, provisioning, admin)', () => {
  it('lets support, provisioning and admin read it', async () => {
    for (const who of [support, provisioning, admin]) {
      expect((await inventory('state=in-use&limit=1', who.headers)).statusCode).toBe(200);
    }
  });

  it('refuses the content role (403 FORBIDDEN) to read or release', async () => {
    const content = await signInStaff(t.app, 'content', now);
    await cancelledLine('219965', 2);
    expectError(await inventory('state=quarantined', content.headers), 403, 'FORBIDDEN');
    expectError(await release('219965', { reason: 'Ticket 3' }, content.headers), 403, 'FORBIDDEN');
    expect((await page('state=quarantined&q=219965')).items).toHaveLength(1);
  });

  it("refuses a customer's token and no token (401)", async () => {
    expectError(await inventory('state=quarantined', t.as.Jóannes), 401, 'STAFF_SESSION_EXPIRED');
    expectError(
      await release('219965', { reason: 'Ticket 3' }, t.as.Jóannes),
      401,
      'STAFF_SESSION_EXPIRED',
    );
    const anonymous = await t.app.inject({ url: '/api/staff/numbers' });
    expectError(anonymous, 401, 'UNAUTHORIZED');
    const anonymousRelease = await t.app.inject({
      method: 'POST',
      url: '/api/staff/numbers/219965/release',
      payload: { reason: 'Ticket 3' },
    });
    expectError(anonymousRelease, 401, 'UNAUTHORIZED');
  });
});
