import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope } from '@alda/contract/envelope';
import { monthlyPriceResponse } from '@alda/contract/schemas/billing';
import { orderPlacedResponse } from '@alda/contract/schemas/orders';
import { phoneLines } from '../src/db/schema/phone-lines';
import { monthlyPriceLines } from '../src/modules/billing/price';
import { loadBilledAccounts } from '../src/modules/billing/service';
import { seedDemoData, seedReferenceData } from '../src/seed/seed';
import { createTestApp, parse, testClock, type TestApp } from './helper';
import { newCustomer, postSignup, reserve, signupBody } from './provisioning-fixtures';

describe('billing: the month a line becomes active is free (SPEC §4 "Subscription processing can take days", ADR 0055 first charge)', () => {
  let t: TestApp;
  // 20 March 2026: the line becomes active in March; April is its first charged month.
  const clock = testClock('2026-03-20T10:00:00.000Z');

  beforeAll(async () => {
    t = await createTestApp(
      { ACCESS_TOKEN_TTL_S: '86400', RATE_LIMIT_MAX: '0' },
      { now: clock.now },
    );
    await seedReferenceData(t.app.db);
    await seedDemoData(t.app.db, clock.now());
  });
  afterAll(() => t.close());

  it('SPEC §1 "view and pay for subscriptions": a new line is left out of the month it became active in and charged from the next', async () => {
    const c = await newCustomer(t.app);
    const res = await postSignup(
      t.app,
      c.headers,
      signupBody({
        planId: 'individual-20',
        phoneNumberReservationId: await reserve(t.app, c.headers, '219501'),
      }),
      randomUUID(),
    );
    expect(res.statusCode, res.body).toBe(201);
    const orderId = parse(dataEnvelope(orderPlacedResponse), res).data.order.id;
    // The eSIM is prepared; the customer installs it and confirms it works.
    clock.advance(30);
    await t.app.provisioning.runDue();
    clock.advance(60);
    const confirmed = await t.app.inject({
      method: 'POST',
      url: `/api/orders/${orderId}/confirm-sim`,
      headers: c.headers,
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const [line] = await t.app.db.select().from(phoneLines).where(eq(phoneLines.msisdn, '219501'));
    expect(line).toMatchObject({ status: 'active', activatedAt: clock.now() });

    const price = await t.app.inject({
      method: 'GET',
      url: '/api/billing/monthly-price',
      headers: c.headers,
    });
    expect(price.statusCode).toBe(200);
    const march = parse(dataEnvelope(monthlyPriceResponse), price).data;
    expect(march.period).toBe('2026-03');
    expect(march.lines.map((l) => l.phoneNumber)).not.toContain('219501');
    expect(march.total.gross).toBe(0);

    const april = monthlyPriceLines(
      await loadBilledAccounts(t.app.db, c.userId, new Date('2026-04-01T00:30:00.000Z')),
      'fo',
    );
    expect(april.lines.map((l) => l.phoneNumber)).toEqual(['219501']);
    expect(april.total.gross).toBeGreaterThan(0);
  });
});
