import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope, errorEnvelope } from '@alda/contract/envelope';
import {
  usageHistoryResponse,
  type UsageHistoryResponse,
  type UsageRecord,
} from '@alda/contract/schemas/usage';
import { accounts } from '../src/db/schema/accounts';
import { lineBalances, usageDaily, usageRecords } from '../src/db/schema/balances';
import { phoneLines } from '../src/db/schema/phone-lines';
import { historyCalendar } from '../src/modules/usage/history-service';
import { DEMO_ACCOUNT_IDS } from '../src/seed/demo-accounts';
import { demoUsageDaily } from '../src/seed/demo-usage';
import { seedDemoData } from '../src/seed/seed';
import { createDemoApp, LINES, NOW, sendUsage, signIn, USAGE_FEED_TOKEN } from './demo-accounts';
import { createTestApp } from './helper';

/*
 * Issue 16 item 2, ADR 0066: GET /api/subscriptions/{id}/usage-history answers a line's data use
 * from the daily aggregates the usage feed writes (usage_daily), on Faroese calendar days. NOW is
 * 2026-06-15 12:00 UTC: summer time, 13:00 in Tórshavn, so today is 2026-06-15.
 */

const history = dataEnvelope(usageHistoryResponse);

let counter = 0;
const record = (patch: Partial<UsageRecord>): UsageRecord => ({
  recordId: `hist-${(counter += 1)}`,
  phoneNumber: '214466',
  usedMb: 10,
  kind: 'domestic',
  occurredAt: NOW.toISOString(),
  ...patch,
});

/** Who reads each demo line with a balance: its account's owner. */
const READER: Record<string, 'Jóannes' | 'Guðrun' | 'Rói'> = {
  [LINES.joannes]: 'Jóannes',
  [LINES.sunneva]: 'Jóannes',
  [LINES.joannesWork]: 'Jóannes',
  [LINES.gudrun]: 'Guðrun',
  [LINES.roi]: 'Rói',
};

/** The days of an answer that are not 0, as `{ date: [domestic, eu] }`. */
const usedDays = (answer: UsageHistoryResponse) =>
  Object.fromEntries(
    answer.days
      .filter((d) => d.domesticMb + d.euMb > 0)
      .map((d) => [d.date, [d.domesticMb, d.euMb]]),
  );

describe('usage history: GET /api/subscriptions/{id}/usage-history (issue 16, ADR 0066)', () => {
  let t: Awaited<ReturnType<typeof createDemoApp>>;
  beforeAll(async () => {
    t = await createDemoApp({ USAGE_FEED_TOKEN });
  });
  afterAll(() => t.close());

  const get = (lineId: string, headers: Record<string, string>) =>
    t.app.inject({ method: 'GET', url: `/api/subscriptions/${lineId}/usage-history`, headers });
  const read = async (lineId: string, who: keyof typeof t.as = 'Jóannes') => {
    const res = await get(lineId, t.as[who]);
    expect(res.statusCode, res.body).toBe(200);
    return history.parse(res.json()).data;
  };
  const send = (records: UsageRecord[]) => sendUsage(t.app, records);
  /** Starts a line's history from nothing (the demo seed gave it six months). */
  const forget = (lineId: string) =>
    t.app.db.delete(usageDaily).where(eq(usageDaily.lineId, lineId));

  it('shows the demo seed: this month adds up to the balance, six months, all days so far (issue 16)', async () => {
    const balances = await t.app.db.select().from(lineBalances);
    expect(balances.length).toBeGreaterThan(0);
    for (const balance of balances) {
      const answer = await read(balance.lineId, READER[balance.lineId]);
      expect(answer.month).toBe('2026-06');
      expect(answer.days.map((d) => d.date)).toEqual(historyCalendar('2026-06-15').days);
      const sum = (key: 'domesticMb' | 'euMb') => answer.days.reduce((s, d) => s + d[key], 0);
      // EU use beyond an EU package (or without one) is counted in the balance's domestic use;
      // the days keep it as EU use (the work number's trip, issue 33 §2).
      const beyond = sum('euMb') - balance.euUsedMb;
      expect(beyond).toBeGreaterThanOrEqual(0);
      expect(sum('domesticMb')).toBe(balance.domesticUsedMb - beyond);
      expect(answer.months.at(-1)).toEqual({
        month: '2026-06',
        domesticMb: balance.domesticUsedMb - beyond,
        euMb: balance.euUsedMb + beyond,
        roamingChargedOere: balance.roamingChargedOere,
      });
      // Earlier months are not empty: the chart has something to show on a fresh demo.
      for (const month of answer.months.slice(0, -1)) expect(month.domesticMb).toBeGreaterThan(0);
    }
    // Deterministic: the same moment seeds the same rows.
    expect(demoUsageDaily(NOW, balances)).toEqual(demoUsageDaily(NOW, balances));
  });

  it('books records of the feed on their Faroese day: 23:30 UTC in summer is the next day, and a retry counts once (issue 16)', async () => {
    await forget(LINES.joannesWork);
    const late = record({ occurredAt: '2026-06-14T23:30:00.000Z', usedMb: 100 });
    expect(
      await send([
        late,
        record({ occurredAt: '2026-06-15T08:00:00.000Z', usedMb: 50 }),
        record({ occurredAt: '2026-06-15T09:00:00.000Z', usedMb: 30, kind: 'eu' }),
        // 23:59 in Tórshavn on the 14th.
        record({ occurredAt: '2026-06-14T22:59:00.000Z', usedMb: 7 }),
        // 00:30 on 1 June in Tórshavn, 23:30 on 31 May in UTC: June's first day.
        record({ occurredAt: '2026-05-31T23:30:00.000Z', usedMb: 40 }),
        // 23:30 on 31 May in Tórshavn: May.
        record({ occurredAt: '2026-05-31T22:30:00.000Z', usedMb: 60 }),
      ]),
    ).toMatchObject({ accepted: 6, duplicates: 0 });
    // The charging system sends the first record again, alone and within a batch.
    expect(await send([late])).toMatchObject({ accepted: 0, duplicates: 1 });
    expect(await send([late, late])).toMatchObject({ accepted: 0 });

    const answer = await read(LINES.joannesWork);
    expect(answer.phoneNumber).toBe('214466');
    expect(usedDays(answer)).toEqual({
      '2026-06-01': [40, 0],
      '2026-06-14': [7, 0],
      '2026-06-15': [150, 30],
    });
    // Every day of the month up to today, days without use as 0.
    expect(answer.days).toHaveLength(15);
    expect(answer.days[0]?.date).toBe('2026-06-01');
    expect(answer.days.at(-1)?.date).toBe('2026-06-15');
    expect(answer.days[1]).toEqual({ date: '2026-06-02', domesticMb: 0, euMb: 0 });
    expect(answer.months.slice(-2)).toEqual([
      { month: '2026-05', domesticMb: 60, euMb: 0, roamingChargedOere: 0 },
      { month: '2026-06', domesticMb: 197, euMb: 30, roamingChargedOere: 0 },
    ]);
    expect(answer.updatedAt).toBe(NOW.toISOString());
  });

  it('sums six Faroese months, oldest first, the current one included (issue 16)', async () => {
    await forget(LINES.roi);
    await send([
      // Winter: Tórshavn is on UTC, so the last minute of 2025 is not in the six months...
      record({ phoneNumber: '779031', occurredAt: '2025-12-31T23:59:00.000Z', usedMb: 999 }),
      // ...and the first of 2026 is.
      record({ phoneNumber: '779031', occurredAt: '2026-01-01T00:00:00.000Z', usedMb: 11 }),
      record({ phoneNumber: '779031', occurredAt: '2026-01-31T12:00:00.000Z', usedMb: 4 }),
      record({ phoneNumber: '779031', occurredAt: '2026-02-14T12:00:00.000Z', usedMb: 22 }),
      // After the clocks went forward (29 March): 00:30 on 1 April in Tórshavn.
      record({ phoneNumber: '779031', occurredAt: '2026-03-31T23:30:00.000Z', usedMb: 44 }),
      record({ phoneNumber: '779031', occurredAt: '2026-05-10T12:00:00.000Z', usedMb: 55 }),
      record({
        phoneNumber: '779031',
        occurredAt: '2026-05-11T12:00:00.000Z',
        usedMb: 5,
        kind: 'eu',
      }),
      record({ phoneNumber: '779031', occurredAt: '2026-06-02T12:00:00.000Z', usedMb: 66 }),
    ]);
    const answer = await read(LINES.roi, 'Rói');
    expect(answer.months).toEqual([
      { month: '2026-01', domesticMb: 15, euMb: 0, roamingChargedOere: 0 },
      { month: '2026-02', domesticMb: 22, euMb: 0, roamingChargedOere: 0 },
      { month: '2026-03', domesticMb: 0, euMb: 0, roamingChargedOere: 0 },
      { month: '2026-04', domesticMb: 44, euMb: 0, roamingChargedOere: 0 },
      { month: '2026-05', domesticMb: 55, euMb: 5, roamingChargedOere: 0 },
      { month: '2026-06', domesticMb: 66, euMb: 0, roamingChargedOere: 0 },
    ]);
    expect(usedDays(answer)).toEqual({ '2026-06-02': [66, 0] });
  });

  it('reads the daily aggregates, never the raw records (ADR 0066)', async () => {
    const before = await read(LINES.joannesWork);
    const deleted = await t.app.db
      .delete(usageRecords)
      .where(eq(usageRecords.lineId, LINES.joannesWork))
      .returning({ id: usageRecords.recordId });
    expect(deleted.length).toBeGreaterThan(0);
    expect(await read(LINES.joannesWork)).toEqual(before);
  });

  it('draws in the plan of today: none on talutíð or an unlimited plan, the EU package only with it (issue 16)', async () => {
    expect(await read(LINES.joannes)).toMatchObject({
      allowanceMb: 20 * 1024,
      euAllowanceMb: 25 * 1024,
    });
    expect(await read(LINES.joannesWork)).toMatchObject({
      allowanceMb: 5 * 1024,
      euAllowanceMb: null,
    });
    expect(await read(LINES.roi, 'Rói')).toMatchObject({ allowanceMb: null, euAllowanceMb: null });
    await t.app.db
      .update(accounts)
      .set({ planId: 'individual-unlimited' })
      .where(eq(accounts.id, DEMO_ACCOUNT_IDS.gudrun));
    await t.app.db
      .update(phoneLines)
      .set({ planId: 'individual-unlimited' })
      .where(eq(phoneLines.id, LINES.gudrun));
    expect(await read(LINES.gudrun, 'Guðrun')).toMatchObject({
      allowanceMb: null,
      euAllowanceMb: 50 * 1024,
    });
  });

  it('is for the number’s own user and the account owner: a member 403, anyone else 404 (SPEC §6)', async () => {
    expect((await read(LINES.sunneva, 'Jóannes')).phoneNumber).toBe('214456');
    expect((await read(LINES.sunneva, 'Sunneva')).phoneNumber).toBe('214456');

    const member = await get(LINES.joannes, t.as.Sunneva);
    expect(member.statusCode).toBe(403);
    expect(errorEnvelope.parse(member.json()).error.code).toBe('OWNER_ONLY');
    for (const [lineId, who] of [
      [LINES.joannes, 'Guðrun'],
      [LINES.gudrun, 'Jóannes'],
      ['00000000-0000-4000-8000-000000000000', 'Jóannes'],
      ['not-a-line', 'Jóannes'],
    ] as const) {
      const res = await get(lineId, t.as[who]);
      expect(res.statusCode, `${who} → ${lineId}`).toBe(404);
      expect(errorEnvelope.parse(res.json()).error.code).toBe('NOT_FOUND');
    }
    expect((await get(LINES.joannes, {})).statusCode).toBe(401);
  });
});

describe('usage history across a month end (issue 16, ADR 0066)', () => {
  it('starts the new Faroese month at midnight in Tórshavn, not in UTC', async () => {
    // 23:30 UTC on 30 June is 00:30 on 1 July in Tórshavn (summer time).
    const at = new Date('2026-06-30T23:30:00.000Z');
    const t = await createTestApp({}, { now: () => at });
    try {
      await seedDemoData(t.app.db, at);
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/subscriptions/${LINES.roi}/usage-history`,
        headers: await signIn(t.app, 'Rói'),
      });
      expect(res.statusCode, res.body).toBe(200);
      const answer = history.parse(res.json()).data;
      expect(answer.month).toBe('2026-07');
      expect(answer.days.map((d) => d.date)).toEqual(['2026-07-01']);
      expect(answer.months.map((m) => m.month)).toEqual([
        '2026-02',
        '2026-03',
        '2026-04',
        '2026-05',
        '2026-06',
        '2026-07',
      ]);
    } finally {
      await t.close();
    }
  });
});
