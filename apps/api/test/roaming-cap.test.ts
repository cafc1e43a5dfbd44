import { eq, inArray } from 'drizzle-orm';
import fc from 'fast-check';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope, errorEnvelope } from '@alda/contract/envelope';
import { notificationsResponse } from '@alda/contract/schemas/notifications';
import { roamingCap } from '@alda/contract/schemas/roaming';
import { subscriptionDetailResponse } from '@alda/contract/schemas/subscriptions';
import { usageHistoryResponse, type UsageRecord } from '@alda/contract/schemas/usage';
import type { NetworkSimulator } from '../src/adapters/network/simulator';
import { lineBalances, roamingCapAlerts, usageRecords } from '../src/db/schema/balances';
import { outboxMessages } from '../src/db/schema/outbox';
import { phoneLines } from '../src/db/schema/phone-lines';
import { users } from '../src/db/schema/users';
import { createMonthEndService } from '../src/modules/month-end/service';
import { createDemoApp, LINES, sendUsage, USAGE_FEED_TOKEN, type DemoName } from './demo-accounts';
import { usingPostgres } from './helper';

/*
 * The roaming spend cap (issue 33 §2, ADR 0078), through the real app on a real database: the
 * usage feed rates EU use beyond the EU package and the domestic data at ROAMING_PRICE_PER_MB
 * (10 øre) against the number's cap (ROAMING_CAP_DEFAULT 37,300 øre), tells 80 % and 100 % in the
 * app, by SMS and by e-mail when chosen, stops roaming data at 100 % and the owner raises the cap.
 * Sunneva (214456) is a member of Jóannes's family; Jóannes owns it.
 */

const CAP = 37_300;
const PRICE = 10;
let counter = 0;
const eu = (usedMb: number, patch: Partial<UsageRecord> = {}): UsageRecord => ({
  recordId: `roam-${String((counter += 1)).padStart(6, '0')}`,
  phoneNumber: '214456',
  usedMb,
  kind: 'eu',
  occurredAt: new Date(Date.UTC(2026, 5, 15, 8, 0, counter)).toISOString(),
  ...patch,
});

describe(`roaming spend cap (issue 33 §2, ${usingPostgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  let t: Awaited<ReturnType<typeof createDemoApp>>;
  let network: NetworkSimulator;
  beforeAll(async () => {
    t = await createDemoApp({ USAGE_FEED_TOKEN });
    network = t.app.network as NetworkSimulator;
  });
  afterAll(() => t.close());

  const send = (records: UsageRecord[]) => sendUsage(t.app, records);
  const balance = async (lineId = LINES.sunneva) => {
    const [row] = await t.app.db.select().from(lineBalances).where(eq(lineBalances.lineId, lineId));
    if (!row) throw new Error('no balance');
    return row;
  };
  /** Sunneva's month with nothing included left: every MB abroad is charged. */
  const nothingIncluded = async (patch: Partial<typeof lineBalances.$inferInsert> = {}) => {
    await t.app.db
      .update(lineBalances)
      .set({
        domesticRemainingMb: 0,
        euUsedMb: 25 * 1024,
        roamingChargedOere: 0,
        roamingChargedMb: 0,
        roamingWrittenOffMb: 0,
        roamingStoppedAt: null,
        ...patch,
      })
      .where(eq(lineBalances.lineId, LINES.sunneva));
    await t.app.db
      .update(phoneLines)
      .set({ roamingCapOere: null, roamingCapOff: false })
      .where(eq(phoneLines.id, LINES.sunneva));
    await t.app.db.delete(roamingCapAlerts).where(eq(roamingCapAlerts.lineId, LINES.sunneva));
    await network.setRoamingDataBarred('214456', false, { key: 'test:reset' });
  };
  const capNotes = async (who: DemoName, language = 'fo') => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/notifications?perPage=100',
      headers: { ...t.as[who], 'accept-language': language },
    });
    expect(res.statusCode).toBe(200);
    return dataEnvelope(notificationsResponse)
      .parse(res.json())
      .data.items.filter((n) => n.type === 'roaming_cap');
  };
  const setCap = (who: DemoName, payload: unknown, language = 'fo') =>
    t.app.inject({
      method: 'PATCH',
      url: `/api/subscriptions/${LINES.sunneva}/roaming-cap`,
      headers: { ...t.as[who], 'accept-language': language },
      payload: payload as Record<string, unknown>,
    });
  const detail = async (who: DemoName) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/subscriptions/${LINES.sunneva}`,
      headers: t.as[who],
    });
    expect(res.statusCode).toBe(200);
    return dataEnvelope(subscriptionDetailResponse).parse(res.json()).data.member.roaming;
  };

  it('issue 33 §2: charges only EU use beyond the EU package and the domestic data left, per record and on the balance', async () => {
    await nothingIncluded({ domesticRemainingMb: 100, euUsedMb: 25 * 1024 - 50 });
    const records = [eu(30), eu(200), eu(10, { kind: 'domestic' })];
    await send(records);
    // 30 from the EU package; 20 more from it, 100 from home, 80 charged; domestic use never.
    const rows = await t.app.db
      .select()
      .from(usageRecords)
      .where(
        inArray(
          usageRecords.recordId,
          records.map((r) => r.recordId),
        ),
      );
    const byId = new Map(rows.map((r) => [r.recordId, r]));
    expect(records.map((r) => byId.get(r.recordId)?.chargeOere)).toEqual([0, 80 * PRICE, 0]);
    expect(await balance()).toMatchObject({
      roamingChargedOere: 800,
      roamingChargedMb: 80,
      roamingStoppedAt: null,
    });
    expect(await detail('Sunneva')).toEqual({
      capOere: CAP,
      defaultCapOere: CAP,
      chargedOere: 800,
      chargedMb: 80,
      pricePerMbOere: PRICE,
      stopped: false,
      stoppedAt: null,
    });
  });

  it('issue 33 §2: tells 80 % and 100 % once each to the user and the owner (each in their language), by SMS to the number and e-mail when chosen; stops roaming at 100 % and writes off what follows', async () => {
    await nothingIncluded();
    await t.app.db
      .update(users)
      .set({ usageAlertEmail: true, locale: 'en' })
      .where(eq(users.email, 'joannes@demo.alda.fo'));
    // 2,984 MB = 298.40 kr = 80 % of 373 kr.
    await send([eu(2_000), eu(984)]);
    await t.app.background.idle();
    const [own] = await capNotes('Sunneva');
    expect(own).toMatchObject({
      title: '80 % av útreiðsluloftinum uttanlands',
      body: '21 44 56: data uttanlands hevur kostað 298,40 kr. av 373 kr. í hesum mánaði. Við 373 kr. steðgar data uttanlands.',
      link: '/',
    });
    const [owners] = await capNotes('Jóannes', 'en');
    expect(owners).toMatchObject({
      title: '80% of your roaming spend cap',
      body: 'Sunneva Joensen (21 44 56): data abroad has cost 298.40 kr. of 373 kr. this month. At 373 kr. data abroad stops.',
      link: `/utreidsluloft/${LINES.sunneva}`,
    });
    expect(network.isRoamingDataBarred('214456')).toBe(false);

    // More use below the cap tells nothing new.
    await send([eu(100)]);
    expect(await capNotes('Sunneva')).toHaveLength(1);

    // 700 MB more: 378.40 kr — the record that reaches the cap is charged, then roaming stops.
    await send([eu(700)]);
    await t.app.background.idle();
    expect(await balance()).toMatchObject({ roamingChargedOere: 37_840, roamingWrittenOffMb: 0 });
    expect((await balance()).roamingStoppedAt).not.toBeNull();
    expect(network.isRoamingDataBarred('214456')).toBe(true);
    const stopped = await capNotes('Sunneva');
    expect(stopped.map((n) => n.title)).toContain('Data uttanlands er steðgað');
    expect(stopped.find((n) => n.title === 'Data uttanlands er steðgað')?.body).toBe(
      '21 44 56: útreiðsluloftið uttanlands á 373 kr. er nátt, og data uttanlands er steðgað. Bið eigaran av kontuni hækka loftið. Heima virkar alt sum vant.',
    );
    expect(
      (await capNotes('Jóannes', 'en')).find((n) => n.title === 'Data abroad stopped')?.body,
    ).toBe(
      'Sunneva Joensen (21 44 56): the roaming spend cap of 373 kr. is reached and data abroad has stopped. Raise the cap in the app to go on. At home everything works as usual.',
    );
    expect(await detail('Sunneva')).toMatchObject({ stopped: true, chargedOere: 37_840 });

    // Use booked while stopped is written off, and tells nothing again.
    await send([eu(250)]);
    expect(await balance()).toMatchObject({ roamingChargedOere: 37_840, roamingWrittenOffMb: 250 });
    expect(await capNotes('Sunneva')).toHaveLength(2);

    // SMS to the number itself (Faroese, Sunneva's language), e-mail only to Jóannes who chose it.
    const sms = await t.app.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.recipient, '298214456'));
    const capSms = sms.filter((m) => m.text.includes('uttanlands'));
    expect(capSms.map((m) => m.text.split('.')[0])).toEqual([
      '80 % av útreiðsluloftinum uttanlands',
      'Data uttanlands er steðgað',
    ]);
    const mails = await t.app.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.recipient, 'joannes@demo.alda.fo'));
    expect(
      mails.filter((m) => m.subject?.includes('roaming') || m.subject?.includes('abroad')),
    ).toHaveLength(2);
    const sunnevaMails = await t.app.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.recipient, 'sunneva@demo.alda.fo'));
    expect(sunnevaMails.filter((m) => m.subject?.includes('uttanlands'))).toEqual([]);
  });

  it('issue 33 §2: only the owner sets the cap; raising it needs the confirmation, and lets a stopped number roam again', async () => {
    // Continues from the stop above.
    const member = await setCap('Sunneva', { capOere: 100_000, confirmed: true });
    expect(member.statusCode).toBe(403);
    expect(errorEnvelope.parse(member.json()).error.code).toBe('OWNER_ONLY');

    const unconfirmed = await setCap('Jóannes', { capOere: 100_000 }, 'en');
    expect(unconfirmed.statusCode).toBe(422);
    expect(errorEnvelope.parse(unconfirmed.json()).error).toMatchObject({
      code: 'ROAMING_CAP_CONFIRMATION_REQUIRED',
      message: 'Raising the roaming cap or turning it off can cost more abroad. Confirm it first.',
    });
    expect(network.isRoamingDataBarred('214456')).toBe(true);

    const raised = await setCap('Jóannes', { capOere: 100_000, confirmed: true });
    expect(raised.statusCode, raised.body).toBe(200);
    expect(dataEnvelope(roamingCap).parse(raised.json()).data).toMatchObject({
      capOere: 100_000,
      stopped: false,
      chargedOere: 37_840,
    });
    expect(network.isRoamingDataBarred('214456')).toBe(false);
    // Roaming goes on, charged again.
    await send([eu(10)]);
    expect(await balance()).toMatchObject({ roamingChargedOere: 37_940, roamingStoppedAt: null });

    // Lowering needs no confirmation; to what is charged already, it stops at once.
    const lowered = await setCap('Jóannes', { capOere: 30_000 });
    expect(lowered.statusCode).toBe(200);
    expect(dataEnvelope(roamingCap).parse(lowered.json()).data.stopped).toBe(true);
    expect(network.isRoamingDataBarred('214456')).toBe(true);

    // Off: only confirmed; then nothing stops.
    expect((await setCap('Jóannes', { capOere: null })).statusCode).toBe(422);
    const off = await setCap('Jóannes', { capOere: null, confirmed: true });
    expect(dataEnvelope(roamingCap).parse(off.json()).data).toMatchObject({
      capOere: null,
      stopped: false,
    });
    await send([eu(5_000)]);
    expect(await balance()).toMatchObject({
      roamingChargedOere: 37_940 + 50_000,
      roamingStoppedAt: null,
    });
  });

  it('issue 33 §2: refuses a bad cap with 400 VALIDATION_FAILED and unknown numbers with 404, never a 500', async () => {
    for (const payload of [
      { capOere: 12_345, confirmed: true },
      { capOere: 0 },
      { capOere: 2_000_000, confirmed: true },
      { capOere: 'lots' },
      {},
      { capOere: 10_000, extra: 1 },
    ]) {
      const res = await setCap('Jóannes', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(errorEnvelope.parse(res.json()).error.code).toBe('VALIDATION_FAILED');
    }
    const unknown = await t.app.inject({
      method: 'PATCH',
      url: '/api/subscriptions/not-a-line/roaming-cap',
      headers: t.as.Jóannes,
      payload: { capOere: 10_000 },
    });
    expect(unknown.statusCode).toBe(404);
    const stranger = await t.app.inject({
      method: 'PATCH',
      url: `/api/subscriptions/${LINES.sunneva}/roaming-cap`,
      headers: t.as.Guðrun,
      payload: { capOere: 10_000 },
    });
    expect(stranger.statusCode).toBe(404);
  });

  it('issue 33 §2: nothing is charged twice — a retried batch, duplicates in a batch, the same batch from two senders at once', async () => {
    await nothingIncluded();
    const batch = [eu(100), eu(200), eu(300)];
    await send(batch);
    const once = await balance();
    expect(once.roamingChargedOere).toBe(600 * PRICE);
    await send(batch);
    await send([batch[0]!, batch[0]!, batch[2]!]);
    await Promise.all([send(batch), send([...batch].reverse())]);
    expect(await balance()).toMatchObject({
      roamingChargedOere: once.roamingChargedOere,
      roamingChargedMb: 600,
    });
  });

  it('issue 33 §2: property — concurrent batches against the database never pass the cap by more than one record, and charge each record once', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 900 }), { minLength: 1, maxLength: 16 }),
        fc.nat(16),
        async (sizes, cut) => {
          await nothingIncluded();
          await t.app.db
            .update(phoneLines)
            .set({ roamingCapOere: 10_000 })
            .where(eq(phoneLines.id, LINES.sunneva));
          const records = sizes.map((mb) => eu(mb));
          const first = records.slice(0, cut);
          const second = records.slice(cut);
          // Two senders at once, and one of them sends its batch twice.
          const sendSome = (batch: UsageRecord[]) => (batch.length > 0 ? send(batch) : null);
          await Promise.all([sendSome(first), sendSome(second), sendSome(second)]);
          const after = await balance();
          const rows = await t.app.db
            .select()
            .from(usageRecords)
            .where(
              inArray(
                usageRecords.recordId,
                records.map((r) => r.recordId),
              ),
            );
          const charged = rows.reduce((s, r) => s + r.chargeOere, 0);
          expect(after.roamingChargedOere).toBe(charged);
          // Every MB is charged or written off once: all of it is beyond the allowance here.
          const mb = rows.reduce((s, r) => s + r.chargedMb + r.writtenOffMb, 0);
          expect(mb).toBe(sizes.reduce((a, b) => a + b, 0));
          expect(after.roamingChargedMb + after.roamingWrittenOffMb).toBe(mb);
          const largest = Math.max(0, ...rows.map((r) => r.chargeOere));
          expect(after.roamingChargedOere).toBeLessThan(10_000 + Math.max(largest, 1));
          expect(after.roamingStoppedAt !== null).toBe(after.roamingChargedOere >= 10_000);
        },
      ),
      { numRuns: usingPostgres ? 25 : 12 },
    );
  });

  it('issue 33 §2: the usage history shows the month’s charges and the cap; month end starts the charges over and lets the number roam again', async () => {
    await nothingIncluded();
    await send([eu(4_000, { occurredAt: '2026-06-14T10:00:00.000Z' })]);
    await t.app.background.idle();
    expect(network.isRoamingDataBarred('214456')).toBe(true);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/subscriptions/${LINES.sunneva}/usage-history`,
      headers: t.as.Sunneva,
    });
    const history = dataEnvelope(usageHistoryResponse).parse(res.json()).data;
    expect(history.roaming).toMatchObject({ chargedOere: 40_000, capOere: CAP, stopped: true });
    const june = history.months.at(-1)?.roamingChargedOere ?? 0;
    expect(june).toBeGreaterThanOrEqual(40_000);

    const monthEnd = createMonthEndService({
      db: t.app.db,
      now: () => new Date('2026-07-01T00:05:00.000Z'),
      log: pino({ level: 'silent' }),
      network,
    });
    await monthEnd.run();
    expect(await balance()).toMatchObject({
      roamingChargedOere: 0,
      roamingChargedMb: 0,
      roamingWrittenOffMb: 0,
      roamingStoppedAt: null,
    });
    expect(network.isRoamingDataBarred('214456')).toBe(false);
  });
});
