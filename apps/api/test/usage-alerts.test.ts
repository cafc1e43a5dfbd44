import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope, errorEnvelope } from '@alda/contract/envelope';
import { user as userSchema } from '@alda/contract/schemas/auth';
import { notificationsResponse } from '@alda/contract/schemas/notifications';
import type { UsageRecord } from '@alda/contract/schemas/usage';
import { lineBalances, usageAlerts } from '../src/db/schema/balances';
import { outboxMessages } from '../src/db/schema/outbox';
import { createDemoApp, LINES, sendUsage, USAGE_FEED_TOKEN, type DemoName } from './demo-accounts';

/*
 * Usage alerts (issue 16 item 1, ADR 0066): raised where the usage feed books records, at 80 %
 * and 100 % of a line's month's data, domestic and EU apart, once per threshold per month, to the
 * line's user and the account's owner, each by their own switches, and by e-mail when chosen.
 * Demo figures (seed/demo-accounts.ts, June 2026): Sunneva (member of Jóannes's family) has used
 * 17,800 of 21,504 MB (82.8 %), Jóannes's work line 1,900 of 5,120 MB, Guðrun 3,400 MB of her
 * 25,600 MB EU package.
 */

let counter = 0;
const record = (patch: Partial<UsageRecord>): UsageRecord => ({
  recordId: `alert-${(counter += 1)}`,
  phoneNumber: '214455',
  usedMb: 10,
  kind: 'domestic',
  occurredAt: '2026-06-15T11:00:00.000Z',
  ...patch,
});

describe('usage alerts (issue 16, ADR 0066)', () => {
  let t: Awaited<ReturnType<typeof createDemoApp>>;
  beforeAll(async () => {
    t = await createDemoApp({ USAGE_FEED_TOKEN });
  });
  afterAll(() => t.close());

  const send = (records: UsageRecord[]) => sendUsage(t.app, records);
  const alertsOf = async (who: DemoName, language = 'fo') => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/notifications?perPage=100',
      headers: { ...t.as[who], 'accept-language': language },
    });
    expect(res.statusCode).toBe(200);
    return dataEnvelope(notificationsResponse)
      .parse(res.json())
      .data.items.filter((n) => n.type === 'usage_alert');
  };
  const setAlerts = (who: DemoName, usageAlerts: Record<string, unknown>) =>
    t.app.inject({
      method: 'PATCH',
      url: '/api/auth/me',
      headers: t.as[who],
      payload: { usageAlerts },
    });

  it('tells a member and the family owner when the member’s line passes 80 %, in each reader’s language, once', async () => {
    expect(await alertsOf('Sunneva')).toEqual([]);
    await send([record({ phoneNumber: '214456', usedMb: 5 })]);

    const [own] = await alertsOf('Sunneva');
    expect(own).toMatchObject({
      title: '80 % av datanum er brúkt',
      body: '21 44 56: 80 % av datanum í hesum mánaði er brúkt. 3,61 GB eru eftir.',
      link: `/nytsla/${LINES.sunneva}`,
      readAt: null,
    });
    // The owner is told whose line it is; in English when read in English.
    const [owners] = await alertsOf('Jóannes', 'en');
    expect(owners).toMatchObject({
      title: '80% of your data used',
      body: "Sunneva Joensen (21 44 56): 80% of this month's data is used. 3.61 GB left.",
    });

    // More use in the same month does not tell 80 % again.
    await send([record({ phoneNumber: '214456', usedMb: 100 })]);
    expect(await alertsOf('Sunneva')).toHaveLength(1);
    expect(await alertsOf('Jóannes')).toHaveLength(1);
  });

  it('tells 100 % when the data is used up, and only 100 % when one batch jumps past both', async () => {
    // Sunneva's last 3,599 MB: 100 % follows the 80 % already told.
    await send([record({ phoneNumber: '214456', usedMb: 3_599 })]);
    const sunneva = await alertsOf('Sunneva');
    expect(sunneva.map((n) => n.title).sort()).toEqual([
      '80 % av datanum er brúkt',
      'Alt datað er brúkt',
    ]);
    expect(sunneva.find((n) => n.title === 'Alt datað er brúkt')?.body).toBe(
      '21 44 56: alt datað í hesum mánaði er brúkt. Keyp ein eykapakka ella bið onnur um data fyri at halda fullari ferð.',
    );

    // Jóannes's work line goes from 37 % to 100 % in one batch: one alert, and 80 % is never
    // told afterwards.
    const before = (await alertsOf('Jóannes')).length;
    await send([
      record({ phoneNumber: '214466', usedMb: 2_000 }),
      record({ phoneNumber: '214466', usedMb: 1_220 }),
    ]);
    const joannes = await alertsOf('Jóannes');
    expect(joannes).toHaveLength(before + 1);
    const work = joannes.filter((n) => n.link === `/nytsla/${LINES.joannesWork}`);
    expect(work.map((n) => n.title)).toEqual(['Alt datað er brúkt']);
    expect(work[0]?.body).toMatch(/^21 44 66: /);
    const rows = await t.app.db
      .select()
      .from(usageAlerts)
      .where(eq(usageAlerts.lineId, LINES.joannesWork));
    expect(rows.map((r) => [r.kind, r.threshold]).sort()).toEqual([
      ['domestic', 100],
      ['domestic', 80],
    ]);
  });

  it('tells the EU package apart from the data at home', async () => {
    // Guðrun: 3,400 + 17,100 = 20,500 of 25,600 MB EU (80.1 %); her data at home is untouched.
    await send([record({ phoneNumber: '557812', usedMb: 17_100, kind: 'eu' })]);
    const [eu] = await alertsOf('Guðrun');
    expect(eu).toMatchObject({
      title: '80 % av ES-pakkanum er brúkt',
      body: '55 78 12: 80 % av ES-pakkanum í hesum mánaði er brúkt. 4,98 GB eru eftir.',
    });
    const [en] = await alertsOf('Guðrun', 'en');
    expect(en?.title).toBe('80% of the EU package used');
    expect(await alertsOf('Guðrun')).toHaveLength(1);
  });

  it('follows each person’s switches in the profile, and e-mails those who chose it', async () => {
    const off = await setAlerts('Jóannes', { at80: false, email: true });
    expect(off.statusCode, off.body).toBe(200);
    expect(dataEnvelope(userSchema).parse(off.json()).data.usageAlerts).toEqual({
      at80: false,
      at100: true,
      email: true,
    });
    // Jóannes's own line (37 %) to 80 %: recorded, but he turned 80 % off.
    const before = (await alertsOf('Jóannes')).length;
    const [balance] = await t.app.db
      .select()
      .from(lineBalances)
      .where(eq(lineBalances.lineId, LINES.joannes));
    const toEighty = Math.ceil(balance!.domesticTotalMb * 0.8) - balance!.domesticUsedMb;
    await send([record({ phoneNumber: '214455', usedMb: toEighty })]);
    expect(await alertsOf('Jóannes')).toHaveLength(before);
    expect(
      await t.app.db
        .select()
        .from(usageAlerts)
        .where(and(eq(usageAlerts.lineId, LINES.joannes), eq(usageAlerts.threshold, 80))),
    ).toHaveLength(1);

    // 100 % is on: a notification and, after the commit, an e-mail in his language (Faroese).
    await send([record({ phoneNumber: '214455', usedMb: balance!.domesticTotalMb })]);
    // The test clock stands still, so alerts of earlier tests share this one's time: find it by
    // its text, not by its place in the list.
    const after = await alertsOf('Jóannes');
    expect(after).toHaveLength(before + 1);
    expect(
      after.filter((n) => n.title === 'Alt datað er brúkt' && n.body.startsWith('21 44 55:')),
    ).toHaveLength(1);
    await t.app.background.idle();
    const mails = await t.app.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.recipient, 'joannes@demo.alda.fo'));
    const alertMails = mails.filter((m) => m.subject?.startsWith('Alda: Alt datað er brúkt'));
    expect(alertMails).toHaveLength(1);
    expect(alertMails[0]?.text).toContain('Hey Jóannes');
    expect(alertMails[0]?.text).toContain('21 44 55: alt datað í hesum mánaði er brúkt.');
    // Without e-mail chosen (Sunneva, Guðrun), none was sent.
    const others = await t.app.db.select().from(outboxMessages);
    expect(others.filter((m) => m.subject?.startsWith('Alda: 80 %'))).toEqual([]);
  });

  it('refuses unknown switches and wrong types with 400, changing nothing', async () => {
    for (const usageAlerts of [{ at90: true }, { at80: 'no' }, { email: null }]) {
      const res = await setAlerts('Sunneva', usageAlerts);
      expect(res.statusCode, JSON.stringify(usageAlerts)).toBe(400);
      expect(errorEnvelope.parse(res.json()).error.code).toBe('VALIDATION_FAILED');
    }
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: t.as.Sunneva });
    expect(dataEnvelope(userSchema).parse(me.json()).data.usageAlerts).toEqual({
      at80: true,
      at100: true,
      email: false,
    });
  });

  it('tells a threshold once even when two batches cross it at the same time', async () => {
    // Guðrun's data at home: 11,000 of 25,600 MB; two batches at once take it to 85 %.
    const [balance] = await t.app.db
      .select()
      .from(lineBalances)
      .where(eq(lineBalances.lineId, LINES.gudrun));
    const half = Math.ceil((balance!.domesticTotalMb * 0.85 - balance!.domesticUsedMb) / 2);
    const before = (await alertsOf('Guðrun')).length;
    await Promise.all([
      send([record({ phoneNumber: '557812', usedMb: half })]),
      send([record({ phoneNumber: '557812', usedMb: half })]),
    ]);
    expect(await alertsOf('Guðrun')).toHaveLength(before + 1);
  });

  it('tells a threshold again in a new month: last month’s alert does not count', async () => {
    // Rói (talutíð, 700 of 2,048 MB): an 80 % alert recorded for May does not stop June's.
    await t.app.db
      .insert(usageAlerts)
      .values({ lineId: LINES.roi, month: '2026-05', kind: 'domestic', threshold: 80 });
    await send([record({ phoneNumber: '779031', usedMb: 1_000 })]);
    expect((await alertsOf('Rói')).map((n) => n.title)).toEqual(['80 % av datanum er brúkt']);
  });
});
