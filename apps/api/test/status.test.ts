import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope, errorEnvelope } from '@alda/contract/envelope';
import { statusResponse } from '@alda/contract/schemas/status';
import { statusMessages } from '../src/db/schema/status-messages';
import { insertMissing } from '../src/seed/insert';
import { createTestApp, parse, waitFor, type TestApp } from './helper';

const NOW = new Date('2026-06-15T12:00:00.000Z');
const at = (offsetMs: number) => new Date(NOW.getTime() + offsetMs);
const HOUR = 3_600_000;

const deviceMeta = {
  name: 'Rói',
  platform: 'android',
  osVersion: '14',
  model: 'Pixel 8',
  isVirtual: false,
};
const statusAnswer = dataEnvelope(statusResponse);

/** Messages around NOW, one per case of the window rule; titles say whether they should show. */
const MESSAGES = [
  {
    id: '00000000-0000-4000-8000-000000000001',
    from: null,
    to: null,
    title: 'open both ends: active',
  },
  {
    id: '00000000-0000-4000-8000-000000000002',
    from: at(-HOUR),
    to: at(HOUR),
    title: 'inside window: active',
  },
  {
    id: '00000000-0000-4000-8000-000000000003',
    from: NOW,
    to: at(HOUR),
    title: 'starts exactly now: active',
  },
  {
    id: '00000000-0000-4000-8000-000000000004',
    from: at(-HOUR),
    to: NOW,
    title: 'ends exactly now: inactive',
  },
  {
    id: '00000000-0000-4000-8000-000000000005',
    from: at(HOUR),
    to: null,
    title: 'not started: inactive',
  },
  {
    id: '00000000-0000-4000-8000-000000000006',
    from: null,
    to: at(-HOUR),
    title: 'ended: inactive',
  },
  {
    id: '00000000-0000-4000-8000-000000000007',
    from: at(-2 * HOUR),
    to: null,
    title: 'started, open end: active',
  },
  // What SPEC §4's literal (now <= from and now > to) would select: an inverted window.
  {
    id: '00000000-0000-4000-8000-000000000008',
    from: at(HOUR),
    to: at(-HOUR),
    title: 'inverted window: inactive',
  },
];

describe('POST /api/status (SPEC §7 Status, §4 Upgrade check)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(
      { MIN_APP_VERSION: '2.5.0', LATEST_APP_VERSION: '3.0.0' },
      { now: () => NOW },
    );
    await insertMissing(
      t.app.db,
      statusMessages,
      MESSAGES.map((m) => ({
        id: m.id,
        titleFo: `fo: ${m.title}`,
        titleEn: `en: ${m.title}`,
        bodyFo: 'Tekstur',
        bodyEn: 'Text',
        activeFrom: m.from,
        activeTo: m.to,
      })),
    );
  });
  afterAll(() => t.close());

  const check = (currentVersion: string, acceptLanguage?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/status',
      headers: acceptLanguage ? { 'accept-language': acceptLanguage } : {},
      payload: { currentVersion, deviceMeta },
    });

  it.each([
    ['2.4.9', true, true],
    ['2.5.0', false, true],
    ['2.9.9', false, true],
    ['3.0.0', false, false],
    ['3.1.0', false, false],
  ])(
    'version %s → mustUpgrade %s, shouldUpgrade %s (semver against MIN/LATEST_APP_VERSION)',
    async (version, must, should) => {
      const res = await check(version);
      expect(res.statusCode).toBe(200);
      const { data } = parse(statusAnswer, res);
      expect(data.mustUpgrade).toBe(must);
      expect(data.shouldUpgrade).toBe(should);
    },
  );

  it('compares versions numerically, not as text (2.10.0 is newer than 2.5.0)', async () => {
    const { data } = parse(statusAnswer, await check('2.10.0'));
    expect(data.mustUpgrade).toBe(false);
  });

  it('shows a message when (from is null or from <= now) and (to is null or now < to) — the intended reading of SPEC §4 "Status messages" (ADR 0010)', async () => {
    const { data } = parse(statusAnswer, await check('3.0.0', 'en'));
    const titles = data.messages.map((m) => m.title.replace(/^en: /, '')).sort();
    expect(titles).toEqual(
      [
        'open both ends: active',
        'inside window: active',
        'starts exactly now: active',
        'started, open end: active',
      ].sort(),
    );
  });

  it('returns activeFrom/activeTo as ISO timestamps and isRead false: the device tracks what it has shown (ADR 0010)', async () => {
    const { data } = parse(statusAnswer, await check('3.0.0'));
    const inside = data.messages.find((m) => m.id === '00000000-0000-4000-8000-000000000002');
    expect(inside).toEqual({
      id: '00000000-0000-4000-8000-000000000002',
      title: 'fo: inside window: active',
      body: 'Tekstur',
      isRead: false,
      activeFrom: at(-HOUR).toISOString(),
      activeTo: at(HOUR).toISOString(),
    });
    expect(data.messages.every((m) => m.isRead === false)).toBe(true);
    const open = data.messages.find((m) => m.id === '00000000-0000-4000-8000-000000000001');
    expect(open).toMatchObject({ activeFrom: null, activeTo: null });
  });

  it('localizes messages by Accept-Language, Faroese by default (SPEC §1)', async () => {
    const fo = parse(statusAnswer, await check('3.0.0'));
    const en = parse(statusAnswer, await check('3.0.0', 'en-US'));
    expect(fo.data.messages.every((m) => m.title.startsWith('fo: ') && m.body === 'Tekstur')).toBe(
      true,
    );
    expect(en.data.messages.every((m) => m.title.startsWith('en: ') && m.body === 'Text')).toBe(
      true,
    );
  });

  it('rejects a version that is not x.y.z, naming the field', async () => {
    const res = await check('three');
    expect(res.statusCode).toBe(400);
    expect(parse(errorEnvelope, res).error).toMatchObject({
      code: 'VALIDATION_FAILED',
      field: 'currentVersion',
    });
  });

  it('requires deviceMeta (SPEC §3 "Device meta")', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/status',
      payload: { currentVersion: '3.0.0' },
    });
    expect(res.statusCode).toBe(400);
    expect(parse(errorEnvelope, res).error).toEqual({
      code: 'VALIDATION_FAILED',
      field: 'deviceMeta',
      message: 'Hetta er eitt kravt felt',
    });
  });

  it('needs no sign-in: the shell checks at every resume, signed in or not (SPEC §1)', async () => {
    expect((await check('3.0.0')).statusCode).toBe(200);
  });
});

describe('POST /api/status as time passes, with the answer kept in memory (SPEC §4 "Status messages", issue 13)', () => {
  let t: TestApp;
  let clock = NOW;
  beforeAll(async () => {
    t = await createTestApp({}, { now: () => clock });
    await insertMissing(t.app.db, statusMessages, [
      {
        id: '00000000-0000-4000-8000-0000000000a1',
        titleFo: 'Viðlíkahald',
        titleEn: 'Maintenance',
        bodyFo: 'Tekstur',
        bodyEn: 'Text',
        activeFrom: at(HOUR),
        activeTo: at(2 * HOUR),
      },
    ]);
  });
  afterAll(() => t.close());

  const titles = async (when: Date, acceptLanguage = 'en') => {
    clock = when;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/status',
      headers: { 'accept-language': acceptLanguage },
      payload: { currentVersion: '3.0.0', deviceMeta },
    });
    expect(res.statusCode).toBe(200);
    return parse(statusAnswer, res).data.messages.map((m) => m.title);
  };

  it('SPEC §4: a message appears at its activeFrom and goes at its activeTo, though nothing in the database changed', async () => {
    expect(await titles(NOW)).toEqual([]);
    expect(await titles(at(HOUR - 1))).toEqual([]);
    expect(await titles(at(HOUR))).toEqual(['Maintenance']);
    expect(await titles(at(HOUR), 'fo')).toEqual(['Viðlíkahald']);
    expect(await titles(at(2 * HOUR - 1))).toEqual(['Maintenance']);
    expect(await titles(at(2 * HOUR))).toEqual([]);
    // A clock set back (as tests do) is answered for its own moment, not the last one seen.
    expect(await titles(at(HOUR + 1))).toEqual(['Maintenance']);
    expect(await titles(NOW)).toEqual([]);
  });

  it('ADR 0057: a message changed in the database is in the next answer (the kept answer is dropped)', async () => {
    expect(await titles(at(HOUR))).toEqual(['Maintenance']);
    await t.app.db
      .update(statusMessages)
      .set({ titleEn: 'Planned maintenance' })
      .where(eq(statusMessages.id, '00000000-0000-4000-8000-0000000000a1'));
    // The trigger's NOTIFY reaches the instance a moment after the commit.
    const heard = await waitFor(async () =>
      (await titles(at(HOUR)))[0] === 'Planned maintenance' ? true : undefined,
    );
    expect(heard).toBe(true);
  });
});
