import { and, asc, eq, gte, lt } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope } from '@alda/contract/envelope';
import { isValidPaymentReference, periodBounds } from '@alda/contract/rules/bills';
import { monthlyPriceResponse } from '@alda/contract/schemas/billing';
import {
  billResponse,
  billsResponse,
  billUsageResponse,
  emailBillResponse,
} from '@alda/contract/schemas/bills';
import type { EmailMessage } from '../src/adapters/email/email-sender';
import { lineBalances, roamingCharges, usageRecords } from '../src/db/schema/balances';
import { billItems, billRuns, bills } from '../src/db/schema/bills';
import { notifications } from '../src/db/schema/data-transfers';
import { pushDeliveries, pushDevices } from '../src/db/schema/push';
import { sessions } from '../src/db/schema/sessions';
import { orders } from '../src/db/schema/orders';
import { receipts } from '../src/db/schema/payments';
import { createBillService } from '../src/modules/bills/service';
import { createReceiptLinks } from '../src/modules/receipts/pdf-links';
import { createMonthEndService } from '../src/modules/month-end/service';
import { seedDemoData } from '../src/seed/seed';
import { LINES, sendUsage, signIn, USAGE_FEED_TOKEN } from './demo-accounts';
import { createTestApp, demoUser, parse, testClock, type TestApp } from './helper';
import { expectError, paidOrder } from './purchases-fixtures';

const log = pino({ level: 'silent' });
const JOANNES = demoUser('Jóannes');
const SUNNEVA = demoUser('Sunneva');
const GUDRUN = demoUser('Guðrun');
const ISSUER = {
  name: 'Alda P/F',
  address: 'Smiðjugøta 12, FO-100 Tórshavn',
  vatNumber: '612 345',
  bankAccount: '6460 1234567',
  iban: 'FO12 6460 0001 2345 67',
};

/*
 * The monthly bill (docs/decisions/0098-monthly-bill.md): the demo's history from the seed, a
 * month of payments, purchases and use, and the month-end job billing it — twice at once, as two
 * instances would — with the customer's view of it (SPEC §9: VAT shown separately).
 */
describe('monthly bill: month end, the customer, the family member', () => {
  let t: TestApp;
  const clock = testClock('2026-03-10T10:00:00.000Z');
  const sent: EmailMessage[] = [];
  const service = (batchSize = 1) =>
    createBillService({
      db: t.app.db,
      now: clock.now,
      log,
      email: {
        kind: 'outbox',
        send: async (m) => {
          sent.push(m);
        },
        close: async () => {},
      },
      issuer: ISSUER,
      links: createReceiptLinks(Buffer.from('bill-links-test-key')),
      appUrl: 'https://minsida.alda.test',
      batchSize,
    });
  const as = async (who: 'Jóannes' | 'Sunneva' | 'Guðrun') => signIn(t.app, who);
  const get = async (who: 'Jóannes' | 'Sunneva' | 'Guðrun', url: string) =>
    t.app.inject({ method: 'GET', url, headers: await as(who) });

  beforeAll(async () => {
    t = await createTestApp(
      { MONTH_END_INTERVAL_S: '0', USAGE_FEED_TOKEN, PAYMENT_RECONCILE_INTERVAL_S: '0' },
      {
        now: clock.now,
        messaging: {
          email: {
            kind: 'outbox',
            send: async (m) => {
              sent.push(m);
            },
            close: async () => {},
          },
        },
      },
    );
    await seedDemoData(t.app.db, clock.now(), undefined, { bills: true });
  });
  afterAll(() => t?.close());

  it('the demo seed brings two months of bills, numbered 1 to 4 without a gap', async () => {
    const rows = await t.app.db.select().from(bills).orderBy(asc(bills.serial));
    expect(rows.map((b) => b.serial)).toEqual([1, 2, 3, 4]);
    expect(rows.map((b) => [b.payerUserId, b.period])).toEqual([
      [JOANNES.id, '2026-01'],
      [GUDRUN.id, '2026-01'],
      [JOANNES.id, '2026-02'],
      [GUDRUN.id, '2026-02'],
    ]);
    const list = parse(dataEnvelope(billsResponse), await get('Jóannes', '/api/bills')).data;
    expect(list.items.map((b) => [b.period, b.state, b.scope])).toEqual([
      ['2026-02', 'paid', 'payer'],
      ['2026-01', 'paid', 'payer'],
    ]);
    // Guðrun paid January by card; February is owed by bank transfer, due 14 days after issue.
    const hers = parse(dataEnvelope(billsResponse), await get('Guðrun', '/api/bills')).data;
    expect(hers.items.map((b) => [b.period, b.state])).toEqual([
      ['2026-02', 'open'],
      ['2026-01', 'paid'],
    ]);
    const feb = parse(
      dataEnvelope(billResponse),
      await get('Guðrun', `/api/bills/${hers.items[0]?.id}`),
    ).data;
    expect(feb.dueDate).toBe('2026-03-15');
    expect(feb.bankTransfer?.amountOere).toBe(feb.total.gross);
    expect(isValidPaymentReference(feb.bankTransfer?.reference ?? '')).toBe(true);
  });

  it('month end bills each customer once, also with two instances at once, and sums what was paid to the øre', async () => {
    const jo = await as('Jóannes');
    // March: Jóannes pays the month, buys Sunneva a package, and his work phone roams.
    const price = parse(
      dataEnvelope(monthlyPriceResponse),
      await t.app.inject({ method: 'GET', url: '/api/billing/monthly-price', headers: jo }),
    ).data;
    await paidOrder(
      t.app,
      {
        userId: JOANNES.id,
        kind: 'subscription_payment',
        billingPeriod: '2026-03',
        priceOere: price.total.gross,
      },
      clock.now(),
    );
    await paidOrder(
      t.app,
      {
        userId: JOANNES.id,
        lineId: LINES.sunneva,
        msisdn: SUNNEVA.phoneNumber ?? '214456',
        kind: 'extra_package',
        packageId: 'data-1',
        priceOere: 3_900,
      },
      new Date('2026-03-12T15:00:00.000Z'),
    );
    // The demo's balance starts March with a trip charged already (no records behind it).
    const [before] = await t.app.db
      .select({ oere: lineBalances.roamingChargedOere })
      .from(lineBalances)
      .where(eq(lineBalances.lineId, LINES.joannesWork));
    await sendUsage(t.app, [
      {
        recordId: 'bill-test-roaming-1',
        phoneNumber: '214466',
        usedMb: 9_000,
        kind: 'eu',
        occurredAt: '2026-03-20T12:00:00.000Z',
      },
    ]);
    await t.app.db.insert(usageRecords).values(
      ['317245', '289931', '555120'].map((other, i) => ({
        recordId: `bill-test-call-${i}`,
        lineId: LINES.joannes,
        msisdn: '214455',
        usageType: 'voice',
        quantity: 60 * (i + 1),
        unit: 's' as const,
        otherParty: other,
        usedMb: 0,
        kind: 'domestic' as const,
        occurredAt: new Date(`2026-03-2${i}T09:00:00.000Z`),
      })),
    );

    // His phone takes pushes (ADR 0096).
    const [session] = await t.app.db
      .select({ id: sessions.id })
      .from(sessions)
      .where(eq(sessions.userId, JOANNES.id))
      .limit(1);
    const [device] = await t.app.db
      .insert(pushDevices)
      .values({
        userId: JOANNES.id,
        sessionId: session?.id ?? '',
        platform: 'apns',
        address: 'b111'.padEnd(64, '0'),
      })
      .returning();

    // The month turns; the month end moves the balances, then two instances bill at once.
    clock.set('2026-04-01T00:30:00.000Z');
    await createMonthEndService({ db: t.app.db, now: clock.now, log }).run();
    const [a, b] = await Promise.all([service().runMonthEnd(), service().runMonthEnd()]);
    expect(a.period).toBe('2026-03');
    const march = await t.app.db.select().from(bills).where(eq(bills.period, '2026-03'));
    expect(a.issued + b.issued).toBe(march.length);
    // One bill per customer, numbers 5… without a gap.
    expect(new Set(march.map((r) => r.payerUserId)).size).toBe(march.length);
    const serials = (await t.app.db.select({ s: bills.serial }).from(bills)).map((r) => r.s);
    expect(serials.sort((x, y) => x - y)).toEqual(serials.map((_, i) => i + 1));
    // Every customer looked at has one run for the month.
    const runs = await t.app.db.select().from(billRuns).where(eq(billRuns.period, '2026-03'));
    expect(runs.filter((r) => r.billId !== null)).toHaveLength(march.length);

    // Jóannes's bill is what his March receipts say, item by item.
    const his = march.find((r) => r.payerUserId === JOANNES.id);
    const { start, next } = periodBounds('2026-03');
    const paidInMarch = await t.app.db
      .select({ gross: receipts.grossOere })
      .from(receipts)
      .innerJoin(orders, eq(orders.id, receipts.orderId))
      .where(
        and(
          eq(receipts.userId, JOANNES.id),
          gte(receipts.issuedAt, start),
          lt(receipts.issuedAt, next),
        ),
      );
    expect(his?.grossOere).toBe(paidInMarch.reduce((s, r) => s + r.gross, 0));
    expect(his?.grossOere).toBe(price.total.gross + 3_900);
    expect(his?.paidOere).toBe(his?.grossOere);
    const items = await t.app.db
      .select()
      .from(billItems)
      .where(eq(billItems.billId, his?.id ?? ''));
    expect(items.reduce((s, i) => s + i.netOere + i.vatOere, 0)).toBe(his?.grossOere);
    // Guðrun did not pay March: her plan is owed, and nothing else.
    const hers = march.find((r) => r.payerUserId === GUDRUN.id);
    expect(hers?.paidOere).toBe(0);
    expect(hers?.grossOere).toBeGreaterThan(0);

    // A later round reads the month's mark and makes nothing.
    const again = await service().runMonthEnd();
    expect(again.issued + again.empty).toBe(0);
    expect(await t.app.db.$count(bills, eq(bills.period, '2026-03'))).toBe(march.length);

    // Told in the app, pushed to his phone once, and by e-mail once, with a link to the bill in the app (the PDF is there).
    const mails = sent.filter((m) => m.to === JOANNES.email && m.subject.includes('mars 2026'));
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toContain(`https://minsida.alda.test/menu/rokningar/${his?.id}`);
    expect(mails[0]?.attachments ?? []).toHaveLength(0);
    const told = await t.app.db
      .select()
      .from(notifications)
      .where(
        and(
          eq(notifications.userId, JOANNES.id),
          eq(notifications.link, `/menu/rokningar/${his?.id}`),
        ),
      );
    expect(told).toHaveLength(1);
    expect(
      await t.app.db.$count(
        pushDeliveries,
        and(
          eq(pushDeliveries.deviceId, device?.id ?? ''),
          eq(pushDeliveries.notificationId, told[0]?.id ?? ''),
        ),
      ),
    ).toBe(1);

    // The bill as Jóannes sees it: his numbers first, then Sunneva's with her package.
    const view = parse(
      dataEnvelope(billResponse),
      await get('Jóannes', `/api/bills/${his?.id}`),
    ).data;
    expect(view.state).toBe('paid');
    expect(view.bankTransfer).toBeNull();
    expect(view.sections.map((s) => [s.phoneNumber, s.holder, s.own])).toEqual([
      ['214455', null, true],
      ['214466', null, true],
      ['214456', 'Sunneva', false],
    ]);
    const sunnevas = view.sections[2];
    expect(sunnevas?.items.map((i) => i.kind)).toEqual(['member', 'package']);
    expect(view.total.net + view.total.vat).toBe(view.total.gross);

    // The roaming use: itemised with its charge, which the month end kept owed to the øre.
    const work = parse(
      dataEnvelope(billUsageResponse),
      await get('Jóannes', `/api/bills/${his?.id}/usage?phoneNumber=214466&type=data`),
    ).data;
    const [owed] = await t.app.db
      .select()
      .from(roamingCharges)
      .where(
        and(eq(roamingCharges.lineId, LINES.joannesWork), eq(roamingCharges.month, '2026-03')),
      );
    const itemised = work.items.reduce((s, i) => s + i.chargeOere, 0);
    expect(itemised).toBeGreaterThan(0);
    expect(itemised).toBe((owed?.chargeOere ?? 0) - (before?.oere ?? 0));

    // Calls: masked unless he asks for his own number in full.
    const calls = async (full: boolean) =>
      parse(
        dataEnvelope(billUsageResponse),
        await get(
          'Jóannes',
          `/api/bills/${his?.id}/usage?phoneNumber=214455&type=voice&fullNumbers=${full}`,
        ),
      ).data;
    expect((await calls(false)).items.map((i) => i.otherParty)).toEqual([
      '317•••',
      '289•••',
      '555•••',
    ]);
    expect((await calls(true)).items.map((i) => i.otherParty)).toEqual([
      '317245',
      '289931',
      '555120',
    ]);
    expect((await calls(false)).items.every((i) => i.included)).toBe(true);
  });

  it("a family member sees only her own number's part, and never the owner's PDF", async () => {
    const list = parse(dataEnvelope(billsResponse), await get('Sunneva', '/api/bills')).data;
    const march = list.items.find((b) => b.period === '2026-03');
    expect(march?.scope).toBe('member');
    const view = parse(
      dataEnvelope(billResponse),
      await get('Sunneva', `/api/bills/${march?.id}`),
    ).data;
    expect(view.sections.map((s) => s.phoneNumber)).toEqual(['214456']);
    expect(view.sections[0]?.own).toBe(true);
    expect(view.total.gross).toBe(view.sections[0]?.subtotal.gross);
    expect(view.bankTransfer).toBeNull();
    expectError(await get('Sunneva', `/api/bills/${march?.id}/pdf`), 403, 'FORBIDDEN');
    expectError(
      await get('Sunneva', `/api/bills/${march?.id}/usage?phoneNumber=214455`),
      404,
      'NOT_FOUND',
    );
    // The owner never sees a member's numbers in full.
    const owner = parse(
      dataEnvelope(billUsageResponse),
      await get('Jóannes', `/api/bills/${march?.id}/usage?phoneNumber=214456&fullNumbers=true`),
    ).data;
    expect(owner.fullNumbers).toBe(false);
    // Another customer's bill is not found.
    expectError(await get('Guðrun', `/api/bills/${march?.id}`), 404, 'NOT_FOUND');
  });

  it('the payer downloads the PDF and e-mails it to himself', async () => {
    const list = parse(dataEnvelope(billsResponse), await get('Jóannes', '/api/bills')).data;
    const id = list.items[0]?.id;
    const pdf = await get('Jóannes', `/api/bills/${id}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const mailed = await t.app.inject({
      method: 'POST',
      url: `/api/bills/${id}/email`,
      headers: await as('Jóannes'),
    });
    expect(parse(dataEnvelope(emailBillResponse), mailed).data.sentTo).toBe(JOANNES.email);

    // The native shell's link: the PDF without the token, until the link is altered.
    const link = await t.app.inject({
      method: 'POST',
      url: `/api/bills/${id}/pdf-link`,
      headers: await as('Jóannes'),
    });
    const path = (JSON.parse(link.body) as { data: { path: string } }).data.path;
    const byLink = await t.app.inject({ method: 'GET', url: `/api${path}` });
    expect(byLink.statusCode).toBe(200);
    expect(byLink.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const forged = await t.app.inject({ method: 'GET', url: `/api${path.replace(/.$/, 'A')}` });
    expectError(forged, 404, 'NOT_FOUND');
  });

  it('itemised use older than six months is no longer kept: expired, no items', async () => {
    const list = parse(dataEnvelope(billsResponse), await get('Jóannes', '/api/bills')).data;
    const january = list.items.find((b) => b.period === '2026-01');
    const usage = (at: string) => {
      clock.set(at);
      return get('Jóannes', `/api/bills/${january?.id}/usage?phoneNumber=214455`);
    };
    try {
      expect(
        parse(dataEnvelope(billUsageResponse), await usage('2026-07-15T12:00:00.000Z')).data
          .expired,
      ).toBe(false);
      const old = parse(
        dataEnvelope(billUsageResponse),
        await usage('2026-08-15T12:00:00.000Z'),
      ).data;
      expect(old).toMatchObject({ expired: true, items: [], total: 0 });
    } finally {
      clock.set('2026-04-01T00:30:00.000Z');
    }
  });

  it('deleting a user keeps their bills for the books, without their name, address or e-mail', async () => {
    const ASA = demoUser('Ása');
    const [bill] = await t.app.db
      .insert(bills)
      .values({
        serial: 900,
        number: 'R-000900',
        payerUserId: ASA.id,
        customerNumber: ASA.id,
        period: '2026-02',
        issuedAt: clock.now(),
        dueDate: '2026-04-15',
        locale: 'fo',
        customerName: 'Ása Hansen',
        customerAddress: 'Fjarðavegur 3, 620 Runavík',
        customerEmail: ASA.email,
        vatRate: 25,
        netOere: 800,
        vatOere: 200,
        grossOere: 1_000,
        paidOere: 0,
        paymentReference: '000009008',
      })
      .returning();
    await t.app.db.insert(billItems).values({
      billId: bill?.id ?? '',
      position: 0,
      msisdn: '286311',
      kind: 'other',
      descriptionFo: 'Roynd',
      descriptionEn: 'Test',
      netOere: 800,
      vatOere: 200,
      grossOere: 1_000,
    });
    const res = await t.app.inject({
      method: 'DELETE',
      url: '/api/auth/me',
      headers: await signIn(t.app, 'Ása'),
    });
    expect(res.statusCode, res.body).toBeLessThan(300);
    const [kept] = await t.app.db
      .select()
      .from(bills)
      .where(eq(bills.id, bill?.id ?? ''));
    expect(kept).toMatchObject({
      payerUserId: null,
      customerName: null,
      customerAddress: null,
      customerEmail: null,
      grossOere: 1_000,
      number: 'R-000900',
    });
    expect(kept?.anonymisedAt).toBeInstanceOf(Date);
    expect(await t.app.db.$count(billItems, eq(billItems.billId, bill?.id ?? ''))).toBe(1);
  });
});
