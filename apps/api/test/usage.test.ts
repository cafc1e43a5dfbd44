import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope, errorEnvelope } from '@alda/contract/envelope';
import { subscriptionsResponse } from '@alda/contract/schemas/subscriptions';
import { usageRecordsResponse, type UsageRecord } from '@alda/contract/schemas/usage';
import { lineBalances, usageRecords } from '../src/db/schema/balances';
import { createDemoApp, LINES, NOW, type DemoName } from './demo-accounts';
import { createTestApp } from './helper';

const TOKEN = 'usage-feed-token-for-tests-0123456789';
const feedAnswer = dataEnvelope(usageRecordsResponse);

let counter = 0;
/** A record with a fresh id unless one is given. */
const record = (patch: Partial<UsageRecord> = {}): UsageRecord => ({
  recordId: `cdr-${(counter += 1)}-${Math.random().toString(36).slice(2)}`,
  phoneNumber: '214455',
  usedMb: 100,
  kind: 'domestic',
  occurredAt: '2026-06-15T11:00:00.000Z',
  ...patch,
});

describe('usage feed: POST /api/usage/records', () => {
  let t: Awaited<ReturnType<typeof createDemoApp>>;
  beforeAll(async () => {
    t = await createDemoApp({ USAGE_FEED_TOKEN: TOKEN });
  });
  afterAll(() => t.close());

  const post = (records: unknown[], token: string | null = TOKEN) =>
    t.app.inject({
      method: 'POST',
      url: '/api/usage/records',
      headers: token === null ? {} : { authorization: `Bearer ${token}` },
      payload: { records },
    });
  const send = async (records: UsageRecord[]) => {
    const res = await post(records);
    expect(res.statusCode, res.body).toBe(200);
    return feedAnswer.parse(res.json()).data;
  };
  const balance = async (lineId: string) => {
    const [row] = await t.app.db.select().from(lineBalances).where(eq(lineBalances.lineId, lineId));
    if (!row) throw new Error(`no balance for ${lineId}`);
    return row;
  };
  const currentMember = async (who: DemoName) => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/subscriptions',
      headers: t.as[who],
    });
    return dataEnvelope(subscriptionsResponse).parse(res.json()).data.currentAccount?.currentMember;
  };

  it('refuses callers without the service token (401), including customers’ access tokens', async () => {
    for (const token of [
      null,
      'wrong-token-wrong-token-wrong',
      t.as.Jóannes.authorization.slice(7),
    ]) {
      const res = await post([record()], token);
      expect(res.statusCode).toBe(401);
      expect(errorEnvelope.parse(res.json()).error.code).toBe('UNAUTHORIZED');
    }
    // The token is checked before the body is read.
    expect((await post([{ nonsense: true }], null)).statusCode).toBe(401);
  });

  it('changes what GET /api/subscriptions shows: remaining, used and "updated at"', async () => {
    const before = await currentMember('Jóannes');
    expect(await send([record({ usedMb: 500 })])).toEqual({
      accepted: 1,
      duplicates: 0,
      rejected: [],
    });
    const after = await currentMember('Jóannes');
    expect(after?.dataRemaining.domestic).toBe((before?.dataRemaining.domestic ?? 0) - 500);
    expect(after?.dataUsed?.domestic).toBe((before?.dataUsed?.domestic ?? 0) + 500);
    expect(after?.dataUpdatedAt).toBe(NOW.toISOString());
    expect(before?.dataUpdatedAt).not.toBe(NOW.toISOString());
  });

  it('moves the balance once when the same recordId arrives twice (idempotent)', async () => {
    const once = record({ usedMb: 250 });
    const start = (await balance(LINES.joannes)).domesticRemainingMb;
    expect(await send([once])).toMatchObject({ accepted: 1, duplicates: 0 });
    expect(await send([once])).toMatchObject({ accepted: 0, duplicates: 1 });
    // Also within one batch, and with the number written differently.
    const twin = record({ usedMb: 40 });
    expect(await send([twin, { ...twin, phoneNumber: '298214455' }])).toMatchObject({
      accepted: 1,
      duplicates: 0,
    });
    expect((await balance(LINES.joannes)).domesticRemainingMb).toBe(start - 250 - 40);
  });

  it('books concurrent posts of the same records exactly once', async () => {
    const shared = Array.from({ length: 5 }, () => record({ phoneNumber: '214456', usedMb: 10 }));
    const start = (await balance(LINES.sunneva)).domesticRemainingMb;
    const answers = await Promise.all(Array.from({ length: 8 }, () => send([...shared].reverse())));
    expect(answers.reduce((sum, a) => sum + a.accepted, 0)).toBe(5);
    expect(answers.reduce((sum, a) => sum + a.duplicates, 0)).toBe(8 * 5 - 5);
    expect((await balance(LINES.sunneva)).domesticRemainingMb).toBe(start - 50);
  });

  it('loses no update when different records for one line arrive at once', async () => {
    const start = await balance(LINES.gudrun);
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => send([record({ phoneNumber: '557812', usedMb: 7 })])),
    );
    expect(answers.every((a) => a.accepted === 1)).toBe(true);
    const end = await balance(LINES.gudrun);
    expect(end.domesticRemainingMb).toBe(start.domesticRemainingMb - 12 * 7);
    expect(end.domesticUsedMb).toBe(start.domesticUsedMb + 12 * 7);
  });

  it('takes EU use from the EU package first, then from domestic data', async () => {
    const start = await balance(LINES.gudrun);
    const room = (start.euAllowanceMb ?? 0) - start.euUsedMb;
    await send([record({ phoneNumber: '557812', kind: 'eu', usedMb: room + 300 })]);
    const end = await balance(LINES.gudrun);
    expect(end.euUsedMb).toBe(end.euAllowanceMb);
    expect(end.domesticRemainingMb).toBe(start.domesticRemainingMb - 300);
    const member = await currentMember('Guðrun');
    expect(member?.dataRemaining.eu).toBe(0);
  });

  it('never takes domestic data below zero', async () => {
    const start = await balance(LINES.roi);
    await send([record({ phoneNumber: '779031', usedMb: start.domesticRemainingMb + 5_000 })]);
    expect((await balance(LINES.roi)).domesticRemainingMb).toBe(0);
    expect((await currentMember('Rói'))?.dataRemaining.domestic).toBe(0);
  });

  it('rejects records for numbers without a live line and stores nothing for them', async () => {
    const stray = record({ phoneNumber: '299999' });
    const ok = record({ phoneNumber: '214466' });
    expect(await send([stray, ok])).toEqual({
      accepted: 1,
      duplicates: 0,
      rejected: [{ recordId: stray.recordId, reason: 'UNKNOWN_NUMBER' }],
    });
    const stored = await t.app.db
      .select()
      .from(usageRecords)
      .where(eq(usageRecords.recordId, stray.recordId));
    expect(stored).toEqual([]);
  });

  it('opens a balance from the plan for a line that has none yet', async () => {
    await send([record({ phoneNumber: '214457', usedMb: 24 })]);
    expect(await balance(LINES.bardur)).toMatchObject({
      domesticTotalMb: 20 * 1024,
      domesticRemainingMb: 20 * 1024 - 24,
      euAllowanceMb: 25 * 1024,
      updatedAt: NOW,
    });
  });

  it('validates the batch (400): whole MB, known kinds, 6-digit numbers, 1–1000 records', async () => {
    for (const records of [
      [],
      [{ ...record(), usedMb: 1.5 }],
      [{ ...record(), kind: 'roaming' }],
      [{ ...record(), phoneNumber: '12' }],
      [{ ...record(), occurredAt: 'yesterday' }],
    ]) {
      const res = await post(records);
      expect(res.statusCode, JSON.stringify(records)).toBe(400);
      expect(errorEnvelope.parse(res.json()).error.code).toBe('VALIDATION_FAILED');
    }
  });
});

describe('usage feed without USAGE_FEED_TOKEN', () => {
  it('is closed: every call is 401', async () => {
    const t = await createTestApp();
    try {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/usage/records',
        headers: { authorization: 'Bearer anything-at-all-anything-at-all' },
        payload: { records: [record()] },
      });
      expect(res.statusCode).toBe(401);
    } finally {
      await t.close();
    }
  });
});
