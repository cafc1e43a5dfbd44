import { eq, inArray } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope } from '@alda/contract/envelope';
import { notificationsResponse } from '@alda/contract/schemas/notifications';
import { subscriptionsResponse } from '@alda/contract/schemas/subscriptions';
import {
  tmfError,
  tmfUsageAnswer,
  tmfUsageBatchAnswer,
  type TmfUsageInput,
} from '@alda/contract/schemas/usage-tmf635';
import type { NetworkSimulator } from '../src/adapters/network/simulator';
import { lineBalances, roamingCapAlerts, usageRecords } from '../src/db/schema/balances';
import { phoneLines } from '../src/db/schema/phone-lines';
import {
  createDemoApp,
  LINES,
  NOW,
  sendUsage,
  USAGE_FEED_TOKEN,
  type DemoName,
} from './demo-accounts';
import { LogCapture, usingPostgres } from './helper';
import { documentExample, expectValid, fromUsageCreate, tmf635 } from './usage-tmf635-document';
import errorsEn from '@alda/contract/locales/errors.en.json';
import errorsFo from '@alda/contract/locales/errors.fo.json';

/*
 * Issue 43 §2 and §5, issue 61 §3: the usage feed on TMF635 Usage Management v4
 * (docs/decisions/0083-usage-tmf635.md), through the real app on a real database. The TMF635
 * document is the one TM Forum publishes (contracts/tmf635/, vendored unedited): its own example
 * Usage is built from its `example` values and must validate against its `Usage_Create` schema and
 * be accepted; every answer must validate against its `Usage` or `Error` schema.
 * Numbers: Jóannes 214455, Sunneva 214456 (Jóannes's family), Guðrun 557812 (EU package).
 */

const URL = '/tmf-api/usageManagement/v4/usage';
const CAP = 37_300;

let counter = 0;
const nextId = () => `tmf-${String((counter += 1)).padStart(5, '0')}-${Date.now().toString(36)}`;

/** A data Usage for a number, its volume a Quantity (the document's `Quantity` type). */
function dataUsage(
  msisdn: string,
  volume: { amount: number | string; units: string } | null,
  patch: Partial<TmfUsageInput> & Record<string, unknown> = {},
  extra: { name: string; value: unknown }[] = [],
): TmfUsageInput & Record<string, unknown> {
  return {
    id: nextId(),
    usageDate: '2026-06-15T11:00:00+01:00',
    usageType: 'data',
    status: 'rated',
    usageCharacteristic: [
      { name: 'msisdn', valueType: 'string', value: msisdn },
      ...(volume ? [{ name: 'dataVolume', valueType: 'Quantity', value: volume }] : []),
      ...extra,
    ],
    ...patch,
  };
}

describe(`usage on TMF635 (issue 43 §2, ${usingPostgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  let t: Awaited<ReturnType<typeof createDemoApp>>;
  let network: NetworkSimulator;
  const logs = new LogCapture();
  beforeAll(async () => {
    t = await createDemoApp({ USAGE_FEED_TOKEN, LOG_LEVEL: 'info' }, { logStream: logs });
    network = t.app.network as NetworkSimulator;
  });
  afterAll(() => t.close());

  const post = (body: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: URL,
      headers: {
        authorization: `Bearer ${USAGE_FEED_TOKEN}`,
        // As the document's `consumes` writes it.
        'content-type': 'application/json;charset=utf-8',
        ...headers,
      },
      payload: JSON.stringify(body),
    });
  const balance = async (lineId: string) => {
    const [row] = await t.app.db.select().from(lineBalances).where(eq(lineBalances.lineId, lineId));
    if (!row) throw new Error(`no balance for ${lineId}`);
    return row;
  };
  const stored = (ids: string[]) =>
    t.app.db.select().from(usageRecords).where(inArray(usageRecords.recordId, ids));
  const currentMember = async (who: DemoName) => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/subscriptions',
      headers: t.as[who],
    });
    return dataEnvelope(subscriptionsResponse).parse(res.json()).data.currentAccount?.currentMember;
  };

  it('issue 43 §2: refuses a caller without the usage feed token with 401 and a TMF635 Error, before reading the body', async () => {
    for (const authorization of [
      undefined,
      'Bearer wrong-token-wrong-token-wrong',
      t.as.Jóannes.authorization,
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: URL,
        headers: authorization ? { authorization } : {},
        payload: { nonsense: true },
      });
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="alda-usage-feed"');
      expectValid('Error', res.json());
      expect(tmfError.parse(res.json())).toMatchObject({ code: 'UNAUTHORIZED', status: '401' });
    }
  });

  it("issue 43 §5: the document's own example Usage validates against its Usage_Create schema and is accepted", async () => {
    expect(tmf635.info.version).toBe('4.0.0');
    const example = documentExample();
    expect(example).toEqual({
      description: 'Voicemail Retrieval',
      usageDate: '2020-09-21T09:13:16-07:00',
    });
    // As published (a voicemail retrieval, no data, no number, no id; issue 61 §3: the id is ours).
    const voicemail = { ...example };
    expectValid('Usage_Create', voicemail);
    const start = await balance(LINES.joannes);
    const taken = await post(voicemail);
    expect(taken.statusCode, taken.body).toBe(201);
    expectValid('Usage', taken.json());
    const { id } = tmfUsageAnswer.parse(taken.json());
    expect(tmfUsageAnswer.parse(taken.json())).toEqual({
      id: expect.stringMatching(/^tmf635-[0-9a-f]{40}$/),
      href: `http://localhost:3000${URL}/${id}`,
      description: 'Voicemail Retrieval',
      usageDate: '2020-09-21T16:13:16.000Z',
      usageType: 'other',
      status: 'received',
      usageCharacteristic: [
        { name: 'count', valueType: 'number', value: 1 },
        { name: 'roamingZone', valueType: 'string', value: 'domestic' },
      ],
      '@type': 'Usage',
    });
    // Not data use, on no number: kept on no line, nothing booked.
    expect(await stored([id])).toMatchObject([
      { usageType: 'other', lineId: null, msisdn: null, quantity: 1, unit: 'count', usedMb: 0 },
    ]);

    // The same example as data use on Jóannes's number: the number as a related party (with the
    // document's required `@referredType`) and the volume as a Quantity characteristic.
    const asData = {
      ...example,
      usageType: 'data',
      relatedParty: [{ id: '298214455', role: 'subscriber', '@referredType': 'Subscriber' }],
      usageCharacteristic: [
        { name: 'dataVolume', valueType: 'Quantity', value: { amount: 250, units: 'MB' } },
      ],
    };
    expectValid('Usage_Create', asData);
    const booked = await post(asData);
    expect(booked.statusCode, booked.body).toBe(201);
    expectValid('Usage', booked.json());
    expect(tmfUsageAnswer.parse(booked.json())).toMatchObject({
      id: expect.stringMatching(/^tmf635-/),
      description: 'Voicemail Retrieval',
      usageDate: '2020-09-21T16:13:16.000Z',
      usageType: 'data',
      status: 'rated',
      usageCharacteristic: [
        { name: 'msisdn', valueType: 'string', value: '298214455' },
        { name: 'dataVolume', valueType: 'Quantity', value: { amount: 250, units: 'MB' } },
        { name: 'roamingZone', valueType: 'string', value: 'domestic' },
      ],
      ratedProductUsage: [
        {
          isBilled: false,
          usageRatingTag: 'included usage',
          taxIncludedRatingAmount: { unit: 'DKK', value: 0 },
          taxExcludedRatingAmount: { unit: 'DKK', value: 0 },
        },
      ],
    });
    expect((await balance(LINES.joannes)).domesticRemainingMb).toBe(
      start.domesticRemainingMb - 250,
    );
  });

  it('issue 43 §2: a single data Usage books on the line, as the customer sees in GET /api/subscriptions', async () => {
    const before = await currentMember('Jóannes');
    const usage = dataUsage('214455', { amount: 500, units: 'MB' });
    const res = await post(usage);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expectValid('Usage', res.json());
    const after = await currentMember('Jóannes');
    expect(after?.dataRemaining.domestic).toBe((before?.dataRemaining.domestic ?? 0) - 500);
    expect(after?.dataUsed?.domestic).toBe((before?.dataUsed?.domestic ?? 0) + 500);
    expect(after?.dataUpdatedAt).toBe(NOW.toISOString());
    const [row] = await stored([usage.id ?? '']);
    expect(row).toMatchObject({
      msisdn: '214455',
      usedMb: 500,
      kind: 'domestic',
      occurredAt: new Date('2026-06-15T10:00:00.000Z'),
    });
  });

  it('issue 43 §2: a repeated id changes nothing — 200 with the first booking, a duplicate in a batch', async () => {
    const usage = dataUsage('214455', { amount: 120, units: 'MB' });
    const start = (await balance(LINES.joannes)).domesticRemainingMb;
    const first = await post(usage);
    expect(first.statusCode).toBe(201);
    // A retry (even with another volume) answers the booking as it was, and moves nothing.
    const again = await post({
      ...usage,
      usageCharacteristic: [
        { name: 'msisdn', value: '214455' },
        { name: 'dataVolume', value: { amount: 9_999, units: 'MB' } },
      ],
    });
    expect(again.statusCode).toBe(200);
    expectValid('Usage', again.json());
    expect(again.json()).toEqual(first.json());
    const batch = await post([usage, dataUsage('214455', { amount: 30, units: 'MB' })]);
    expect(tmfUsageBatchAnswer.parse(batch.json())).toMatchObject({
      booked: 1,
      duplicates: 1,
      results: [
        { index: 0, id: usage.id, outcome: 'duplicate' },
        { index: 1, outcome: 'booked' },
      ],
    });
    expect((await balance(LINES.joannes)).domesticRemainingMb).toBe(start - 120 - 30);
  });

  it('single Usages sent at once are booked together, each told its own fate: every new one 201 with its own Usage, a repeat of one in flight 200 with that booking, an unknown number 422 — and the balance moves by each exactly once', async () => {
    const start = (await balance(LINES.joannes)).domesticRemainingMb;
    const usages = Array.from({ length: 40 }, (_, i) =>
      dataUsage('214455', { amount: 1 + (i % 3), units: 'MB' }),
    );
    const repeated = usages[7]!;
    const stranger = dataUsage('219999', { amount: 5, units: 'MB' });
    const answers = await Promise.all([
      ...usages.map((u) => post(u)),
      post(repeated),
      post(stranger),
    ]);
    const mine = answers.slice(0, 40);
    // The repeat arrives with the first in flight or after it: one of the two is the booking.
    const pair = [answers[7]!, answers[40]!].map((a) => a.statusCode).sort();
    expect(pair).toEqual([200, 201]);
    expect(answers[40]!.json()).toEqual(answers[7]!.json());
    for (const [i, answer] of mine.entries()) {
      if (i === 7) continue;
      expect(answer.statusCode, answer.body).toBe(201);
      expect(answer.json()).toMatchObject({ id: usages[i]!.id });
    }
    expect(answers[41]!.statusCode).toBe(422);
    expect(answers[41]!.json()).toMatchObject({ code: 'UNKNOWN_NUMBER' });
    const used = usages.reduce((sum, _u, i) => sum + 1 + (i % 3), 0);
    expect((await balance(LINES.joannes)).domesticRemainingMb).toBe(start - used);
    expect(await stored(usages.map((u) => u.id ?? ''))).toHaveLength(40);
  });

  /** GET …/usage/{id} as the charging system reads a Usage back. */
  const read = (id: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'GET',
      url: `${URL}/${encodeURIComponent(id)}`,
      headers: { authorization: `Bearer ${USAGE_FEED_TOKEN}`, ...headers },
    });

  it('issue 61 §3 (SPEC §9): a data Usage built from Usage_Create alone — no id — gets 201 with an id and href, reads back with GET …/usage/{id}, and the same use sent again is a duplicate', async () => {
    // Only what the document's Usage_Create has (it skips id and href), as a client built from it.
    const usage = fromUsageCreate({
      description: 'Mobile data session',
      usageDate: '2026-06-15T12:30:00+01:00',
      usageType: 'data',
      status: 'rated',
      relatedParty: [{ id: '+298214455', role: 'subscriber', '@referredType': 'Subscriber' }],
      usageCharacteristic: [
        { name: 'dataVolume', valueType: 'Quantity', value: { amount: 75, units: 'MB' } },
      ],
    });
    const start = (await balance(LINES.joannes)).domesticRemainingMb;
    const res = await post(usage);
    expect(res.statusCode, res.body).toBe(201);
    expectValid('Usage', res.json());
    const answer = tmfUsageAnswer.parse(res.json());
    expect(answer.id).toMatch(/^tmf635-[0-9a-f]{40}$/);
    expect(answer.href).toBe(`http://localhost:3000${URL}/${answer.id}`);
    expect(res.headers.location).toBe(answer.href);
    expect(answer).toMatchObject({ usageType: 'data', status: 'rated' });
    expect((await balance(LINES.joannes)).domesticRemainingMb).toBe(start - 75);

    // Read back: the Usage as stored, the same as the POST answered.
    const back = await read(answer.id);
    expect(back.statusCode, back.body).toBe(200);
    expectValid('Usage', back.json());
    expect(back.json()).toEqual(res.json());
    expect(new globalThis.URL(answer.href).pathname).toBe(`${URL}/${answer.id}`);

    // Sent again — the same use, its properties in another order and its time in another offset —
    // it is the same record: 200 with the first booking, nothing booked twice.
    const resent = await post({
      usageCharacteristic: usage.usageCharacteristic,
      relatedParty: [{ id: '214455', role: 'subscriber', '@referredType': 'Subscriber' }],
      usageType: 'DATA',
      usageDate: '2026-06-15T11:30:00Z',
      status: 'rated',
      description: 'Mobile data session',
    });
    expect(resent.statusCode, resent.body).toBe(200);
    expect(resent.json()).toEqual(res.json());
    const twiceInABatch = await post([usage, usage]);
    expect(tmfUsageBatchAnswer.parse(twiceInABatch.json())).toMatchObject({
      booked: 0,
      duplicates: 2,
      results: [{ id: answer.id }, { id: answer.id }],
    });
    expect((await balance(LINES.joannes)).domesticRemainingMb).toBe(start - 75);

    // Other use (another volume, another minute) is another record.
    const more = await post({ ...usage, usageDate: '2026-06-15T12:31:00+01:00' });
    expect(more.statusCode).toBe(201);
    expect(tmfUsageAnswer.parse(more.json()).id).not.toBe(answer.id);
    expect((await balance(LINES.joannes)).domesticRemainingMb).toBe(start - 150);

    // A client-given id stays the key, and reads back under it.
    const withId = dataUsage('214455', { amount: 5, units: 'MB' });
    const given = await post(withId);
    expect(tmfUsageAnswer.parse(given.json())).toMatchObject({
      id: withId.id,
      href: `http://localhost:3000${URL}/${withId.id}`,
    });
    expect((await read(withId.id ?? '')).json()).toEqual(given.json());

    // The longest id both feeds take, 128 characters (escaped in the path, longer there), too:
    // over the router's default parameter limit of 100.
    const longest = dataUsage(
      '214455',
      { amount: 1, units: 'MB' },
      { id: nextId().padEnd(128, '.:') },
    );
    expect(longest.id).toHaveLength(128);
    const longestPosted = await post(longest);
    expect(longestPosted.statusCode, longestPosted.body).toBe(201);
    expect(tmfUsageAnswer.parse(longestPosted.json()).id).toBe(longest.id);
    const longestRead = await read(longest.id ?? '');
    expect(longestRead.statusCode, longestRead.body).toBe(200);
    expect(longestRead.json()).toEqual(longestPosted.json());

    // An id never received, or one that cannot exist (too long, a `/` in it, none): 404 as the
    // document's Error, logged as a refusal.
    for (const [unknown, path] of [
      ['tmf635-0000000000000000000000000000000000000000'],
      ['a b'],
      ['x'.repeat(129)],
      ['x'.repeat(200)],
      ['a/b', `${URL}/a/b`],
      ['', `${URL}/`],
    ] as const) {
      const logged = logs.lines.length;
      const missing = path
        ? await t.app.inject({
            method: 'GET',
            url: path,
            headers: { authorization: `Bearer ${USAGE_FEED_TOKEN}` },
          })
        : await read(unknown);
      expect(missing.statusCode, unknown).toBe(404);
      expectValid('Error', missing.json());
      expect(missing.json()).toEqual({
        code: 'NOT_FOUND',
        reason: 'We could not find what you were looking for.',
        message: 'id',
        status: '404',
      });
      expect(logs.lines.slice(logged), unknown).toContainEqual(
        expect.objectContaining({ msg: 'request rejected', code: 'NOT_FOUND', field: 'id' }),
      );
    }
    // A malformed escape in the path is refused by the router, as the document's Error too.
    const malformed = await t.app.inject({
      method: 'GET',
      url: `${URL}/a%ED%B0%80b`,
      headers: { authorization: `Bearer ${USAGE_FEED_TOKEN}` },
    });
    expect(malformed.statusCode).toBe(400);
    expectValid('Error', malformed.json());
    expect(malformed.json()).toEqual({
      code: 'BAD_REQUEST',
      reason: errorsEn.BAD_REQUEST,
      status: '400',
    });
    // Reading needs the token too, whatever the id.
    for (const id of [answer.id, 'x'.repeat(200)]) {
      const anonymous = await t.app.inject({ method: 'GET', url: `${URL}/${id}` });
      expect(anonymous.statusCode).toBe(401);
      expectValid('Error', anonymous.json());
    }
  });

  it('issue 61 §3: stores every usage type — calls, SMS, use abroad and outside the EU — with its quantity, unit, other party, zone and rated amount; only data moves a balance', async () => {
    const before = await balance(LINES.gudrun);
    const call = fromUsageCreate({
      usageDate: '2026-06-15T09:00:00Z',
      usageType: 'VOICE',
      relatedParty: [{ id: '557812', role: 'subscriber', '@referredType': 'Subscriber' }],
      usageCharacteristic: [
        { name: 'duration', valueType: 'Quantity', value: { amount: 2.5, units: 'min' } },
        { name: 'otherParty', valueType: 'string', value: '+45 12 34 56 78' },
        { name: 'roamingZone', valueType: 'string', value: 'eu' },
      ],
      ratedProductUsage: [{ taxIncludedRatingAmount: { unit: 'DKK', value: 3.75 } }],
    });
    const sms = fromUsageCreate({
      usageDate: '2026-06-15T09:05:00Z',
      usageType: 'sms',
      relatedParty: [{ id: '298557812', role: 'subscriber', '@referredType': 'Subscriber' }],
      usageCharacteristic: [
        { name: 'count', valueType: 'number', value: 2 },
        { name: 'otherParty', valueType: 'string', value: '211111' },
        { name: 'roamingZone', valueType: 'string', value: 'world' },
      ],
    });
    const oneSms = fromUsageCreate({
      usageDate: '2026-06-15T09:06:00Z',
      usageType: 'sms',
      usageCharacteristic: [{ name: 'msisdn', valueType: 'string', value: '557812' }],
    });
    const dataAbroad = fromUsageCreate({
      usageDate: '2026-06-15T09:10:00Z',
      usageType: 'data',
      usageCharacteristic: [
        { name: 'msisdn', valueType: 'string', value: '557812' },
        { name: 'dataVolume', valueType: 'Quantity', value: { amount: 40, units: 'MB' } },
        { name: 'roamingZone', valueType: 'string', value: 'eu' },
      ],
    });
    const res = await post([call, sms, oneSms, dataAbroad]);
    const answer = tmfUsageBatchAnswer.parse(res.json());
    expect(answer.results.map((r) => r.outcome)).toEqual(['booked', 'booked', 'booked', 'booked']);
    const ids = answer.results.map((r) => r.id ?? '');
    const rows = new Map((await stored(ids)).map((row) => [row.recordId, row]));
    expect(ids.map((id) => rows.get(id))).toMatchObject([
      {
        usageType: 'voice',
        msisdn: '557812',
        lineId: LINES.gudrun,
        quantity: 150,
        unit: 's',
        otherParty: '+45 12 34 56 78',
        kind: 'eu',
        ratedOere: 375,
        usedMb: 0,
        chargeOere: 0,
      },
      { usageType: 'sms', quantity: 2, unit: 'count', otherParty: '211111', kind: 'world' },
      { usageType: 'sms', quantity: 1, unit: 'count', otherParty: null, kind: 'domestic' },
      { usageType: 'data', quantity: 40, unit: 'MB', usedMb: 40, kind: 'eu', ratedOere: null },
    ]);
    // Data still books as before: 40 MB out of the EU package. The call and the SMS — even abroad,
    // even rated — move no bucket and no roaming charge.
    const after = await balance(LINES.gudrun);
    expect(after).toMatchObject({
      domesticRemainingMb: before.domesticRemainingMb,
      euUsedMb: before.euUsedMb + 40,
      roamingChargedOere: before.roamingChargedOere,
      roamingChargedMb: before.roamingChargedMb,
    });

    // Read back as stored: the call's seconds, the other party, the charging system's amount.
    const back = await read(ids[0] ?? '');
    expectValid('Usage', back.json());
    expect(tmfUsageAnswer.parse(back.json())).toMatchObject({
      usageType: 'voice',
      status: 'rated',
      usageCharacteristic: [
        { name: 'msisdn', value: '298557812' },
        { name: 'duration', valueType: 'Quantity', value: { amount: 150, units: 's' } },
        { name: 'roamingZone', value: 'eu' },
        { name: 'otherParty', value: '+45 12 34 56 78' },
      ],
      ratedProductUsage: [
        {
          usageRatingTag: 'usage',
          taxIncludedRatingAmount: { unit: 'DKK', value: 3.75 },
          taxExcludedRatingAmount: { unit: 'DKK', value: 3 },
        },
      ],
    });

    // What is refused, not guessed: data abroad outside the EU, a volume on another type (data
    // must say so), a call without a duration; a number of no live line waits, as data does.
    const refused = await post([
      {
        ...dataAbroad,
        usageCharacteristic: [
          ...(dataAbroad.usageCharacteristic ?? []).slice(0, 2),
          { name: 'roamingZone', value: 'world' },
        ],
      },
      { ...dataAbroad, usageType: 'roaming' },
      { ...call, usageCharacteristic: [{ name: 'msisdn', value: '557812' }] },
      {
        ...sms,
        relatedParty: [{ id: '299999', role: 'subscriber', '@referredType': 'Subscriber' }],
      },
    ]);
    expect(
      tmfUsageBatchAnswer
        .parse(refused.json())
        .results.map((r) => [r.error?.code, r.error?.message]),
    ).toEqual([
      ['USAGE_ZONE_UNSUPPORTED', 'usageCharacteristic.roamingZone: "world"'],
      ['USAGE_INVALID', 'usageType: "roaming"'],
      ['USAGE_INVALID', 'usageCharacteristic.duration'],
      ['UNKNOWN_NUMBER', 'msisdn'],
    ]);
  });

  it('issue 61 §3: a machine caller gets English reasons unless it asks for Faroese', async () => {
    const bad = dataUsage('214455', { amount: 1, units: 'TB' });
    const english =
      'The unit of the data volume is not one we take: B, KB, MB or GB (also KiB, MiB and GiB).';
    const faroese =
      'Eindin á dátunøgdini er ikki kend. Vit taka B, KB, MB og GB (eisini KiB, MiB og GiB).';
    const cases: [Record<string, string>, string][] = [
      [{}, english],
      [{ 'accept-language': 'da-DK, da;q=0.9' }, english],
      [{ 'accept-language': 'en, fo;q=0.5' }, english],
      [{ 'accept-language': 'fo' }, faroese],
      [{ 'accept-language': 'fo-FO, en;q=0.8' }, faroese],
    ];
    for (const [headers, reason] of cases) {
      const res = await post(bad, headers);
      expect(res.statusCode).toBe(400);
      expect(tmfError.parse(res.json()).reason, JSON.stringify(headers)).toBe(reason);
    }
    // The framework's answers too: no token, an unknown Usage.
    const unauthorized = await t.app.inject({ method: 'POST', url: URL, payload: {} });
    expect(tmfError.parse(unauthorized.json()).reason).toBe(errorsEn.UNAUTHORIZED);
    const missing = await read('never-sent', { 'accept-language': 'fo' });
    expect(tmfError.parse(missing.json()).reason).toBe(errorsFo.NOT_FOUND);
  });

  it('issue 43 §2: a batch books the good Usages and refuses each bad one with its reason', async () => {
    const good = [
      dataUsage('214455', { amount: 100, units: 'MB' }),
      // The number as a related party only, in the international form.
      {
        ...dataUsage('214455', { amount: 50, units: 'MB' }),
        usageCharacteristic: [{ name: 'dataVolume', value: { amount: 50, units: 'MB' } }],
        relatedParty: [
          { id: 'CUST-1234', role: 'customer', '@referredType': 'Customer' },
          { id: '+298 214455', role: 'subscriber', '@referredType': 'Subscriber' },
        ],
      },
    ];
    const noId = dataUsage('214455', { amount: 10, units: 'MB' });
    delete noId.id;
    const unknownNumber = dataUsage('299999', { amount: 10, units: 'MB' });
    const terabytes = dataUsage('214455', { amount: 1, units: 'TB' });
    const world = dataUsage('214455', { amount: 10, units: 'MB' }, {}, [
      { name: 'roamingZone', value: 'world' },
    ]);
    const euros = dataUsage(
      '557812',
      { amount: 10, units: 'MB' },
      { ratedProductUsage: [{ taxIncludedRatingAmount: { unit: 'EUR', value: 1.5 } }] },
      [{ name: 'roamingZone', value: 'eu' }],
    );
    const noDate = dataUsage('214455', { amount: 10, units: 'MB' });
    delete noDate.usageDate;
    const noVolume = dataUsage('214455', null);
    const noNumber = {
      ...dataUsage('214455', { amount: 10, units: 'MB' }),
      usageCharacteristic: [{ name: 'dataVolume', value: { amount: 10, units: 'MB' } }],
    };
    const badDate = { ...dataUsage('214455', { amount: 10, units: 'MB' }), usageDate: 'yesterday' };
    const voice = {
      id: nextId(),
      usageDate: '2026-06-15T10:00:00Z',
      usageType: 'voice',
      usageCharacteristic: [
        { name: 'msisdn', value: '214455' },
        { name: 'duration', value: 20 },
        { name: 'durationUnit', value: 'SEC' },
      ],
    };
    const voiceWithoutUnit = {
      ...voice,
      id: nextId(),
      usageCharacteristic: [
        { name: 'msisdn', value: '214455' },
        { name: 'duration', value: 20 },
      ],
    };
    const batch = [
      good[0],
      noId,
      unknownNumber,
      terabytes,
      world,
      euros,
      noDate,
      42,
      voice,
      noVolume,
      noNumber,
      badDate,
      good[1],
      voiceWithoutUnit,
    ];
    const start = (await balance(LINES.joannes)).domesticRemainingMb;
    const res = await post(batch);
    expect(res.statusCode, res.body).toBe(200);
    const answer = tmfUsageBatchAnswer.parse(res.json());
    for (const result of answer.results) if (result.error) expectValid('Error', result.error);
    expect(answer).toMatchObject({ booked: 4, duplicates: 0, skipped: 0, refused: 10 });
    const errors = answer.results.map((r) => [r.index, r.outcome, r.error?.code, r.error?.message]);
    expect(errors).toEqual([
      [0, 'booked', undefined, undefined],
      // Without an id (issue 61 §3): booked under one made from the use.
      [1, 'booked', undefined, undefined],
      [2, 'refused', 'UNKNOWN_NUMBER', 'msisdn'],
      [3, 'refused', 'USAGE_UNIT_UNSUPPORTED', 'usageCharacteristic.dataVolume.value.units: "TB"'],
      [4, 'refused', 'USAGE_ZONE_UNSUPPORTED', 'usageCharacteristic.roamingZone: "world"'],
      [
        5,
        'refused',
        'USAGE_CURRENCY_UNSUPPORTED',
        'ratedProductUsage.0.taxIncludedRatingAmount.unit: "EUR"',
      ],
      [6, 'refused', 'USAGE_INVALID', 'usageDate'],
      [7, 'refused', 'USAGE_NOT_A_USAGE', 'body'],
      // A call is stored for the bill (issue 61 §3); its duration needs a unit, as a volume does.
      [8, 'booked', undefined, undefined],
      [9, 'refused', 'USAGE_VOLUME_MISSING', 'usageCharacteristic.dataVolume'],
      [10, 'refused', 'USAGE_NUMBER_INVALID', 'relatedParty'],
      [11, 'refused', 'USAGE_INVALID', 'usageDate'],
      [12, 'booked', undefined, undefined],
      [13, 'refused', 'USAGE_INVALID', 'usageCharacteristic.durationUnit'],
    ]);
    // Each refusal carries its reason (English for a machine, issue 61 §3) and its HTTP status.
    expect(answer.results[2]?.error).toEqual({
      code: 'UNKNOWN_NUMBER',
      reason:
        'The number has no live line with us. Send the use again once the number is in service.',
      message: 'msisdn',
      status: '422',
    });
    expect(answer.results[3]?.error?.reason).toBe(
      'The unit of the data volume is not one we take: B, KB, MB or GB (also KiB, MiB and GiB).',
    );
    expect(answer.results[3]?.id).toBe(terabytes.id);
    // Only the data moved the balance; the refused were not stored, so they can come again.
    expect((await balance(LINES.joannes)).domesticRemainingMb).toBe(start - 150 - 10);
    const ids = batch.flatMap((u) => (typeof u === 'object' && u.id ? [u.id] : []));
    expect((await stored(ids)).map((r) => r.recordId).sort()).toEqual(
      [...good.map((u) => u.id), voice.id].sort(),
    );
    // The reasons in Faroese when the caller asks for it.
    const fo = await post([terabytes], { 'accept-language': 'fo' });
    expect(tmfUsageBatchAnswer.parse(fo.json()).results[0]?.error?.reason).toBe(
      'Eindin á dátunøgdini er ikki kend. Vit taka B, KB, MB og GB (eisini KiB, MiB og GiB).',
    );
  });

  it('issue 43 §2: converts B, KB, MB and GB (1024-based) to whole MB, as a Quantity or a number with its unit', async () => {
    const cases: [TmfUsageInput, number][] = [
      [dataUsage('557812', { amount: 3 * 1024 * 1024, units: 'B' }), 3],
      [dataUsage('557812', { amount: 2048, units: 'KB' }), 2],
      [dataUsage('557812', { amount: 1536, units: 'kB' }), 2], // 1.5 MB rounds up
      [dataUsage('557812', { amount: 300, units: 'MB' }), 300],
      [dataUsage('557812', { amount: 2, units: 'GB' }), 2048],
      [dataUsage('557812', { amount: 1.5, units: 'GiB' }), 1536],
      [dataUsage('557812', { amount: '700', units: 'MiB' }), 700],
      [dataUsage('557812', { amount: 400 * 1024, units: 'B' }), 0], // under half a MB
      [
        dataUsage('557812', null, {}, [
          { name: 'dataVolume', value: 5 * 1024 * 1024 },
          { name: 'dataVolumeUnit', value: 'bytes' },
        ]),
        5,
      ],
    ];
    const start = await balance(LINES.gudrun);
    const res = await post(cases.map(([usage]) => usage));
    const answer = tmfUsageBatchAnswer.parse(res.json());
    expect(answer.results.map((r) => r.outcome)).toEqual(cases.map(() => 'booked'));
    const rows = await stored(cases.map(([usage]) => usage.id ?? ''));
    const byId = new Map(rows.map((r) => [r.recordId, r.usedMb]));
    expect(cases.map(([usage]) => byId.get(usage.id ?? ''))).toEqual(cases.map(([, mb]) => mb));
    const total = cases.reduce((sum, [, mb]) => sum + mb, 0);
    expect((await balance(LINES.gudrun)).domesticRemainingMb).toBe(
      start.domesticRemainingMb - total,
    );

    // Without a unit, or in a unit that is not a data volume: refused, not guessed.
    const unclear = await post([
      dataUsage('557812', null, {}, [{ name: 'dataVolume', value: 10 }]),
      dataUsage('557812', { amount: 10, units: 'SEC' }),
      dataUsage('557812', { amount: -5, units: 'MB' }),
    ]);
    expect(
      tmfUsageBatchAnswer
        .parse(unclear.json())
        .results.map((r) => [r.error?.code, r.error?.message]),
    ).toEqual([
      ['USAGE_VOLUME_MISSING', 'usageCharacteristic.dataVolumeUnit'],
      ['USAGE_UNIT_UNSUPPORTED', 'usageCharacteristic.dataVolume.value.units: "SEC"'],
      ['USAGE_INVALID', 'usageCharacteristic.dataVolume.value'],
    ]);
  });

  it('issue 43 §2: an unknown number is refused with 422 UNKNOWN_NUMBER and not stored', async () => {
    const usage = dataUsage('299999', { amount: 10, units: 'MB' });
    const res = await post(usage);
    expect(res.statusCode).toBe(422);
    expectValid('Error', res.json());
    expect(res.json()).toEqual({
      code: 'UNKNOWN_NUMBER',
      reason:
        'The number has no live line with us. Send the use again once the number is in service.',
      message: 'msisdn',
      status: '422',
    });
    expect(await stored([usage.id ?? ''])).toEqual([]);
  });

  it('issue 43 §2: a body that is not a Usage is 400 with a clear code, never a 500', async () => {
    const cases: [string | Buffer, string, string, number][] = [
      ['"usage"', 'application/json', 'USAGE_NOT_A_USAGE', 400],
      ['null', 'application/json', 'USAGE_NOT_A_USAGE', 400],
      ['[]', 'application/json', 'USAGE_BATCH_SIZE', 400],
      [
        JSON.stringify(Array.from({ length: 1001 }, () => ({}))),
        'application/json',
        'USAGE_BATCH_SIZE',
        400,
      ],
      ['{"id": "x",', 'application/json', 'BAD_REQUEST', 400],
      ['<usage/>', 'application/xml', 'UNSUPPORTED_MEDIA_TYPE', 415],
      ['{"id":"a","usageDate":42}', 'application/json;charset=utf-8', 'USAGE_INVALID', 400],
      ['{"usageType":"data"}', 'application/json', 'USAGE_INVALID', 400],
      ['{"id":"a\\u0000b"}', 'application/json', 'VALIDATION_FAILED', 400],
    ];
    for (const [payload, contentType, code, status] of cases) {
      const res = await t.app.inject({
        method: 'POST',
        url: URL,
        headers: { authorization: `Bearer ${USAGE_FEED_TOKEN}`, 'content-type': contentType },
        payload,
      });
      expect(res.statusCode, `${String(payload).slice(0, 40)}: ${res.body}`).toBe(status);
      expectValid('Error', res.json());
      expect(tmfError.parse(res.json())).toMatchObject({ code, status: String(status) });
      expect(tmfError.parse(res.json()).reason).not.toBe('');
    }
    const invalidDate = await post({ id: 'a', usageDate: 42 });
    expect(invalidDate.json()).toEqual({
      code: 'USAGE_INVALID',
      reason: 'A field of the Usage is not right; the message names it.',
      message: 'usageDate',
      status: '400',
    });
  });

  describe('roaming (ADR 0078): the rated amount moves the cap and tells as the JSON feed does', () => {
    /** Sunneva's month with nothing included left: every MB abroad is charged. */
    const nothingIncluded = async () => {
      await t.app.db
        .update(lineBalances)
        .set({
          domesticRemainingMb: 0,
          euUsedMb: 25 * 1024,
          roamingChargedOere: 0,
          roamingChargedMb: 0,
          roamingWrittenOffMb: 0,
          roamingStoppedAt: null,
        })
        .where(eq(lineBalances.lineId, LINES.sunneva));
      await t.app.db
        .update(phoneLines)
        .set({ roamingCapOere: null, roamingCapOff: false })
        .where(eq(phoneLines.id, LINES.sunneva));
      await t.app.db.delete(roamingCapAlerts).where(eq(roamingCapAlerts.lineId, LINES.sunneva));
    };
    const capNotes = async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/notifications?perPage=100',
        headers: t.as.Sunneva,
      });
      return dataEnvelope(notificationsResponse)
        .parse(res.json())
        .data.items.filter((n) => n.type === 'roaming_cap');
    };
    const abroad = (mb: number, dkk?: { included?: number; excluded?: number }) =>
      dataUsage(
        '214456',
        { amount: mb, units: 'MB' },
        dkk
          ? {
              ratedProductUsage: [
                {
                  isBilled: false,
                  usageRatingTag: 'non included usage',
                  ...(dkk.included !== undefined
                    ? { taxIncludedRatingAmount: { unit: 'DKK', value: dkk.included } }
                    : {}),
                  ...(dkk.excluded !== undefined
                    ? { taxExcludedRatingAmount: { unit: 'DKK', value: dkk.excluded } }
                    : {}),
                },
              ],
            }
          : {},
        [{ name: 'roamingZone', value: 'eu' }],
      );

    it("issue 43 §2: the charging system's tax-included amount prices the use abroad; 80 % of the cap is told", async () => {
      await nothingIncluded();
      // 1,000 MB rated at 298.40 kr. (not our 0.10 kr./MB): 29,840 øre = 80 % of 373 kr.
      const usage = abroad(1_000, { included: 298.4 });
      expectValid('Usage_Create', usage);
      const res = await post(usage);
      expect(res.statusCode, res.body).toBe(201);
      expectValid('Usage', res.json());
      expect(tmfUsageAnswer.parse(res.json()).ratedProductUsage).toEqual([
        {
          isBilled: false,
          ratingDate: NOW.toISOString(),
          usageRatingTag: 'non included usage',
          taxIncludedRatingAmount: { unit: 'DKK', value: 298.4 },
          taxExcludedRatingAmount: { unit: 'DKK', value: 238.72 },
        },
      ]);
      await t.app.background.idle();
      expect(await balance(LINES.sunneva)).toMatchObject({
        roamingChargedOere: 29_840,
        roamingChargedMb: 1_000,
        roamingStoppedAt: null,
      });
      const [note] = await capNotes();
      expect(note).toMatchObject({
        title: '80 % av útreiðsluloftinum uttanlands',
        body: '21 44 56: data uttanlands hevur kostað 298,40 kr. av 373 kr. í hesum mánaði. Við 373 kr. steðgar data uttanlands.',
      });
    });

    it('issue 43 §2: an amount beyond whole øre a number can hold, or over the limit, is refused as USAGE_INVALID, never a 500 (found by the property below)', async () => {
      for (const dkk of [{ excluded: 90071992547409.92 }, { included: 100_000.01 }]) {
        const res = await post(abroad(10, dkk));
        expect(res.statusCode, res.body).toBe(400);
        expectValid('Error', res.json());
        expect(res.json()).toMatchObject({ code: 'USAGE_INVALID' });
      }
    });

    it('issue 43 §2: a tax-excluded amount gets VAT, no amount takes ROAMING_PRICE_PER_MB, and the cap stops roaming as with the JSON feed', async () => {
      await nothingIncluded();
      // 238.72 kr. without VAT = 298.40 kr. with 25 % VAT; then 2,000 MB at 0.10 kr./MB = 200 kr.
      // reach the cap of 373 kr.: that record is charged (it was used) and roaming stops.
      const batch = [abroad(1_000, { excluded: 238.72 }), abroad(2_000)];
      const res = await post(batch);
      expect(tmfUsageBatchAnswer.parse(res.json()).booked).toBe(2);
      await t.app.background.idle();
      const after = await balance(LINES.sunneva);
      expect(after.roamingChargedOere).toBe(29_840 + 20_000);
      expect(after.roamingStoppedAt).not.toBeNull();
      expect(network.isRoamingDataBarred('214456')).toBe(true);
      expect((await capNotes()).map((n) => n.title)).toContain('Data uttanlands er steðgað');
      expect(after.roamingChargedOere).toBeGreaterThanOrEqual(CAP);

      // The same use through the JSON feed on the same month gives the same figures (our price).
      await nothingIncluded();
      await sendUsage(t.app, [
        {
          recordId: nextId(),
          phoneNumber: '214456',
          usedMb: 600,
          kind: 'eu',
          occurredAt: '2026-06-15T10:00:00.000Z',
        },
      ]);
      const viaJson = (await balance(LINES.sunneva)).roamingChargedOere;
      await nothingIncluded();
      await post(abroad(600));
      expect((await balance(LINES.sunneva)).roamingChargedOere).toBe(viaJson);
      expect(viaJson).toBe(6_000);
    });

    it('issue 43 §2: when the EU package covers part of a record, its amount is charged pro rata', async () => {
      await nothingIncluded();
      // 100 MB of the EU package left: of a 400 MB record rated at 40 kr., 300 MB are charged.
      await t.app.db
        .update(lineBalances)
        .set({ euUsedMb: 25 * 1024 - 100 })
        .where(eq(lineBalances.lineId, LINES.sunneva));
      const usage = abroad(400, { included: 40 });
      await post(usage);
      const [row] = await stored([usage.id ?? '']);
      expect(row).toMatchObject({ kind: 'eu', usedMb: 400, chargedMb: 300, chargeOere: 3_000 });
    });
  });

  it('issue 43 §6: logs one line per request with the counts and refused ids, never the numbers', async () => {
    const refused = dataUsage('214455', { amount: 1, units: 'TB' });
    await post([dataUsage('214455', { amount: 1, units: 'MB' }), refused]);
    const line = logs.lines.filter((l) => l.msg === 'TMF635 usage received').at(-1);
    expect(line).toMatchObject({
      level: 30,
      received: 2,
      booked: 1,
      duplicates: 0,
      skipped: 0,
      refused: 1,
      refusals: [{ index: 1, id: refused.id, code: 'USAGE_UNIT_UNSUPPORTED' }],
    });
    const numbers = logs.lines
      .filter((l) => l.msg === 'TMF635 usage received' || l.msg === 'request rejected')
      .map((l) => JSON.stringify(l))
      .filter((l) => /214455|214456|557812|299999/.test(l));
    expect(numbers).toEqual([]);
  });

  it('issue 43 §2: answers any body — Usage-shaped or not — with a Usage, a batch answer or a TMF635 Error, never a 5xx (property)', async () => {
    const anyValue = fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      fc.constantFrom('214455', '298557812', '+298 214466', '299999', 'B', 'GB', 'eu', 'world'),
    );
    const quantity = fc.record(
      { amount: fc.oneof(fc.double({ noNaN: true }), fc.nat(), fc.string()), units: anyValue },
      { requiredKeys: [] },
    );
    const money = fc.record(
      { unit: fc.constantFrom('DKK', 'dkk', 'EUR', ''), value: fc.double({ noNaN: true }) },
      { requiredKeys: [] },
    );
    const usage = fc.record(
      {
        id: fc.oneof(fc.uuid(), fc.string({ maxLength: 200 }), anyValue),
        usageDate: fc.oneof(
          fc
            .date({ noInvalidDate: true, min: new Date('2000-01-01'), max: new Date('2030-01-01') })
            .map((d) => d.toISOString()),
          anyValue,
        ),
        usageType: fc.oneof(fc.constantFrom('data', 'DATA', 'voice', 'sms'), anyValue),
        usageCharacteristic: fc.array(
          fc.record({
            name: fc.constantFrom('dataVolume', 'dataVolumeUnit', 'msisdn', 'roamingZone', 'x'),
            value: fc.oneof(anyValue, quantity),
          }),
          { maxLength: 5 },
        ),
        relatedParty: fc.array(
          fc.record({ id: anyValue, role: fc.constantFrom('subscriber', 'customer', 'owner') }),
          { maxLength: 3 },
        ),
        ratedProductUsage: fc.array(
          fc.record(
            {
              taxIncludedRatingAmount: money,
              taxExcludedRatingAmount: money,
              isTaxExempt: fc.boolean(),
            },
            { requiredKeys: [] },
          ),
          { maxLength: 2 },
        ),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(usage, fc.array(usage, { maxLength: 4 }), fc.jsonValue({ maxDepth: 3 })),
        async (body) => {
          const res = await post(body);
          expect(res.statusCode, res.body).toBeLessThan(500);
          const answer: unknown = res.json();
          if (res.statusCode >= 400) expectValid('Error', answer);
          else if (Array.isArray(body)) tmfUsageBatchAnswer.parse(answer);
          else expectValid('Usage', answer);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('issue 43 §2: the endpoint is in the OpenAPI document beside the JSON feed', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
      paths: Record<
        string,
        Record<string, { tags?: string[]; responses?: Record<string, unknown> }>
      >;
    };
    const operation = doc.paths[URL]?.post;
    expect(operation?.tags).toEqual(['usage feed']);
    expect(Object.keys(operation?.responses ?? {})).toEqual(
      expect.arrayContaining(['200', '201', '400', '401', '422']),
    );
    expect(doc.paths['/api/usage/records']?.post).toBeDefined();
  });
});
