import { strFromU8, unzipSync } from 'fflate';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope } from '@alda/contract/envelope';
import { actionsResponse } from '@alda/contract/schemas/actions';
import { notificationsResponse } from '@alda/contract/schemas/notifications';
import { dataExport, dataExportList } from '@alda/contract/schemas/number-protection';
import pino from 'pino';
import { listOutboxMessages } from '../src/adapters/outbox/store';
import { createBackgroundTasks } from '../src/background';
import { serializeError } from '../src/log-privacy';
import { EXPORT_AREAS } from '../src/modules/data-export/build';
import { createDataExportService } from '../src/modules/data-export/service';
import { POLICIES } from '../src/modules/rate-limits/policies';
import { createRateLimiter } from '../src/modules/rate-limits/service';
import { dataExports } from '../src/db/schema/number-protection';
import { issueBill } from '../src/modules/bills/issue';
import { createDemoApp, LINES, NOW, signIn } from './demo-accounts';
import { demoUser, LogCapture, parse, testClock } from './helper';
import { expectError, paidOrder } from './purchases-fixtures';

const oneExport = dataEnvelope(dataExport);
const exportList = dataEnvelope(dataExportList);
const DAY_S = 24 * 3600;
const APP_URL = 'https://minsida.alda.fo';

const EXPECTED_FILES = [
  'README.md',
  'activity.json',
  'bills.json',
  'consents.json',
  'lines.json',
  'notifications.json',
  'orders.json',
  'passkeys.json',
  'payments.json',
  'plans.json',
  'profile.json',
  'receipts.json',
  'sessions.json',
  'support.json',
];

describe('"Your data": a copy of everything we keep, to download (issue 32, GDPR Art. 15/20)', () => {
  const clock = testClock(NOW.toISOString());
  let t: Awaited<ReturnType<typeof createDemoApp>>;
  const guðrun = demoUser('Guðrun');
  const jóannes = demoUser('Jóannes');

  beforeAll(async () => {
    t = await createDemoApp({ APP_URL }, { now: clock.now });
    // A card payment, so payments.json has something to leave the card number out of.
    await paidOrder(
      t.app,
      {
        userId: guðrun.id,
        kind: 'extra_package',
        lineId: LINES.gudrun,
        msisdn: '557812',
        packageId: 'data-5',
        priceOere: 9_900,
      },
      NOW,
    );
    // Her bill of the month (ADR 0098), as the month-end job would make it.
    await t.app.db.transaction((tx) =>
      issueBill(tx, { userId: guðrun.id, period: '2026-06', now: NOW, history: true }),
    );
  });
  afterAll(() => t.close());

  const ask = (who: 'Guðrun' | 'Jóannes', lang = 'fo') =>
    t.app.inject({
      method: 'POST',
      url: '/api/profile/data-exports',
      headers: { ...t.as[who], 'accept-language': lang },
    });
  const list = async (who: 'Guðrun' | 'Jóannes') =>
    parse(
      exportList,
      await t.app.inject({ method: 'GET', url: '/api/profile/data-exports', headers: t.as[who] }),
    ).data;
  const fetchLink = (url: string) => {
    const { pathname, search } = new URL(url);
    // As a browser asks: the ZIP must still arrive as it is (no br/gzip over a binary).
    return t.app.inject({
      method: 'GET',
      url: `${pathname}${search}`,
      headers: { 'accept-encoding': 'br, gzip' },
    });
  };
  const mailsTo = (email: string) => listOutboxMessages(t.app.db, { recipient: email, limit: 20 });

  let downloadUrl = '';
  let exportId = '';

  it('asking answers 202 with a queued export; asking again while it is prepared is 409 DATA_EXPORT_PENDING', async () => {
    const res = await ask('Guðrun', 'en');
    expect(res.statusCode, res.body).toBe(202);
    const { data } = parse(oneExport, res);
    expect(data).toMatchObject({ state: 'queued', progress: 0, downloadUrl: null });
    exportId = data.id;
    expectError(await ask('Guðrun'), 409, 'DATA_EXPORT_PENDING');
    expect((await list('Guðrun')).map((e) => e.state)).toEqual(['queued']);
  });

  it('an unauthenticated request is 401', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/profile/data-exports' });
    expectError(res, 401, 'UNAUTHORIZED');
  });

  it('once the worker has run: ready at 100 %, a notification, an activity entry and an e-mail with the link', async () => {
    const before = (await mailsTo(guðrun.email)).length;
    const round = await t.app.dataExports.runRound();
    expect(round).toMatchObject({ prepared: 1, failed: 0 });
    await t.app.background.idle();

    const [ready] = await list('Guðrun');
    expect(ready).toMatchObject({ id: exportId, state: 'ready', progress: 100 });
    expect(ready?.readyAt).toBe(NOW.toISOString());
    expect(ready?.expiresAt).toBe(new Date(NOW.getTime() + 7 * DAY_S * 1000).toISOString());
    expect(ready?.downloadUrl).toMatch(
      new RegExp(`^${APP_URL}/api/data-exports/${exportId}/download\\?expires=\\d+&sig=`),
    );
    downloadUrl = ready?.downloadUrl ?? '';

    const notes = parse(
      dataEnvelope(notificationsResponse),
      await t.app.inject({
        method: 'GET',
        url: '/api/notifications',
        headers: { ...t.as.Guðrun, 'accept-language': 'en' },
      }),
    ).data.items;
    // Same instant as the package bought in beforeAll (the pinned clock): found by type.
    expect(notes.find((n) => n.type === 'data_export_ready')).toMatchObject({
      type: 'data_export_ready',
      title: 'Your data is ready',
      link: '/min-brukari',
    });
    const log = parse(
      dataEnvelope(actionsResponse),
      await t.app.inject({ method: 'GET', url: '/api/actions', headers: t.as.Guðrun }),
    ).data;
    expect(log.some((entry) => entry.type === 'data_export')).toBe(true);

    const mails = await mailsTo(guðrun.email);
    expect(mails.length).toBe(before + 1);
    // Asked in English: the e-mail is in English and carries the same signed link.
    expect(mails[0]?.subject).toBe('Your data from Alda is ready');
    expect(mails[0]?.text).toContain(downloadUrl);
  });

  it('the link downloads a ZIP with README.md (in the language asked) and one JSON file per area', async () => {
    const res = await fetchLink(downloadUrl);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="alda-data-2026-06-15.zip"',
    );
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-encoding']).toBeUndefined();

    const files = unzipSync(new Uint8Array(res.rawPayload));
    expect(Object.keys(files).sort()).toEqual(EXPECTED_FILES);
    const text = (name: string) => strFromU8(files[name] ?? new Uint8Array());
    const json = (name: string) => JSON.parse(text(name)) as unknown;

    expect(text('README.md')).toContain('# Your data at Alda');
    expect(text('README.md')).toContain('Article 15');
    expect(text('README.md')).toContain('Article 20');

    const profile = json('profile.json') as Record<string, unknown>;
    expect(profile).toMatchObject({ id: guðrun.id, email: guðrun.email });
    expect(text('profile.json')).not.toMatch(/password_?hash|\$argon2/i);

    const lines = json('lines.json') as Array<Record<string, unknown>>;
    expect(lines.some((l) => l.phoneNumber === '557812' && l.relation === 'own')).toBe(true);
    expect(text('lines.json')).not.toMatch(/simPin|simPuk|esimMatchingId/);

    // Amounts and states, the card's brand and last four: no card number, no provider references.
    const payments = json('payments.json') as { payments: Array<Record<string, unknown>> };
    expect(payments.payments).toContainEqual(
      expect.objectContaining({
        amountOere: 9_900,
        state: 'paid',
        cardBrand: 'Visa',
        cardLast4: '4242',
      }),
    );
    // A card number is a run of 12–19 digits on its own. A random UUID's last group is 12
    // digits too about once in 280 ids (`…-429250294674` failed a CI run), so ids do not count.
    const cardNumber = /(?<![\w-])\d{12,19}(?!\w)/;
    expect('"id": "ddf673dd-4e63-419f-aa90-429250294674"').not.toMatch(cardNumber);
    expect('"cardNumber": "4242424242424242"').toMatch(cardNumber);
    expect(text('payments.json')).not.toMatch(cardNumber);
    expect(text('payments.json')).not.toMatch(/fx_|agr_visa|providerPaymentId|cardExpiry/);
    expect((json('receipts.json') as unknown[]).length).toBeGreaterThan(0);
    const bills = json('bills.json') as {
      bills: Array<{ period: string; customerName: string; items: Array<{ kind: string }> }>;
    };
    expect(bills.bills).toHaveLength(1);
    expect(bills.bills[0]).toMatchObject({ period: '2026-06', customerName: 'Guðrun Poulsen' });
    expect(bills.bills[0]?.items.map((i) => i.kind)).toContain('package');
    expect(text('sessions.json')).not.toMatch(/tokenHash|deviceKey/);
    expect(json('consents.json')).toMatchObject({ usageAlerts: expect.any(Object) });
    // The log as the app shows it, sentences in the export's language (the export's own entry
    // is written when it is ready, so it shows in the next one).
    expect(json('activity.json')).toContainEqual(
      expect.objectContaining({ type: 'package_purchased', text: 'Extra package bought: 5 GB' }),
    );

    const [row] = await t.app.db.select().from(dataExports).where(eq(dataExports.id, exportId));
    expect(row?.downloadedAt).not.toBeNull();
  });

  it("a tampered signature, a guessed id or another export's signature is 410 DATA_EXPORT_LINK_INVALID", async () => {
    const url = new URL(downloadUrl);
    const sig = url.searchParams.get('sig') ?? '';
    const tampered = new URL(url);
    tampered.searchParams.set('sig', `${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`);
    expectError(await fetchLink(tampered.toString()), 410, 'DATA_EXPORT_LINK_INVALID');

    const later = new URL(url);
    later.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + DAY_S));
    expectError(await fetchLink(later.toString()), 410, 'DATA_EXPORT_LINK_INVALID');

    const guessed = new URL(
      url.toString().replace(exportId, '00000000-0000-4000-8000-000000000000'),
    );
    expectError(await fetchLink(guessed.toString()), 410, 'DATA_EXPORT_LINK_INVALID');
    expectError(
      await t.app.inject({ method: 'GET', url: '/api/data-exports/nonsense/download' }),
      410,
      'DATA_EXPORT_LINK_INVALID',
    );

    // Jóannes's own export, with Guðrun's signature: dead.
    expect((await ask('Jóannes')).statusCode).toBe(202);
    await t.app.dataExports.runRound();
    await t.app.background.idle();
    const [his] = await list('Jóannes');
    expect(his?.state).toBe('ready');
    const borrowed = new URL(url.toString().replace(exportId, his?.id ?? ''));
    expectError(await fetchLink(borrowed.toString()), 410, 'DATA_EXPORT_LINK_INVALID');
    // His README is in Faroese (asked in Faroese).
    const zip = unzipSync(new Uint8Array((await fetchLink(his?.downloadUrl ?? '')).rawPayload));
    expect(strFromU8(zip['README.md'] ?? new Uint8Array())).toContain('# Tínar dátur hjá Alda');
    // His own numbers and his family's (Sunneva's SIM card): each SIM card's number as the app
    // shows it, only its last four digits; no PIN, PUK or eSIM code, by name or by value.
    const hisLines = zip['lines.json'] ?? new Uint8Array();
    const lines = JSON.parse(strFromU8(hisLines)) as Array<Record<string, unknown>>;
    expect(lines.find((l) => l.id === LINES.joannes)).toMatchObject({ relation: 'own' });
    expect(lines.some((l) => l.relation === 'family_member')).toBe(true);
    const iccids = lines.map((l) => l.iccid).filter((iccid) => iccid !== null);
    expect(iccids).toHaveLength(2);
    for (const iccid of iccids) expect(iccid).toMatch(/^•••• •••• •••• \d{4}$/);
    expect(strFromU8(hisLines)).not.toMatch(/simPin|simPuk|esimMatchingId|4471|90318245|K2QF/);
    // No whole ICCID: 12 digits or more on their own (a random id's all-digit last group is not).
    expect(strFromU8(hisLines)).not.toMatch(/(?<![\w-])\d{12,}(?!\w)/);
    expect(jóannes.id).not.toBe(guðrun.id);
  });

  it('after 7 days the link is dead (410), the job removes the file, and the list says expired', async () => {
    clock.advance(7 * DAY_S + 1);
    // A week on, the access tokens of the morning are long gone.
    t.as.Guðrun = await signIn(t.app, 'Guðrun');
    expectError(await fetchLink(downloadUrl), 410, 'DATA_EXPORT_LINK_INVALID');
    const round = await t.app.dataExports.runRound();
    expect(round.expired).toBe(2);
    const [row] = await t.app.db.select().from(dataExports).where(eq(dataExports.id, exportId));
    expect(row?.file).toBeNull();
    const [gone] = await list('Guðrun');
    expect(gone).toMatchObject({ state: 'expired', downloadUrl: null });
  });

  it('an export whose worker died half-way is taken over once its lease has run out', async () => {
    // As a crashed instance leaves it: preparing at 40 %, its lease (expires_at) in the past.
    const [stuck] = await t.app.db
      .insert(dataExports)
      .values({
        userId: jóannes.id,
        state: 'preparing',
        progress: 40,
        locale: 'fo',
        createdAt: clock.now(),
        expiresAt: new Date(clock.now().getTime() - 1000),
      })
      .returning();
    expect((await t.app.dataExports.runRound()).prepared).toBe(1);
    const [row] = await t.app.db.select().from(dataExports).where(eq(dataExports.id, stuck!.id));
    expect(row).toMatchObject({ state: 'ready', progress: 100 });
    expect(row?.file?.length).toBeGreaterThan(0);
    // A preparing export inside its lease is left to its worker.
    await t.app.db.insert(dataExports).values({
      userId: guðrun.id,
      state: 'preparing',
      progress: 10,
      locale: 'fo',
      createdAt: clock.now(),
      expiresAt: new Date(clock.now().getTime() + 60_000),
    });
    expect((await t.app.dataExports.runRound()).prepared).toBe(0);
    await t.app.db.delete(dataExports).where(eq(dataExports.state, 'preparing'));
  });

  it('a failure marks the export failed, logs no personal data, and the customer may ask again', async () => {
    const logs = new LogCapture();
    const log = pino({ level: 'info', serializers: { err: serializeError } }, logs);
    const service = createDataExportService({
      db: t.app.db,
      now: clock.now,
      log,
      limiter: createRateLimiter({ db: t.app.db, now: clock.now, log }),
      email: { kind: 'outbox', send: async () => {}, close: async () => {} },
      background: createBackgroundTasks(log),
      linkSecret: t.config.linkSecret,
      appUrl: APP_URL,
      areas: [
        ...EXPORT_AREAS.slice(0, 2),
        {
          file: 'broken.json',
          read: () => Promise.reject(new Error('the charging system went away')),
        },
      ],
    });
    clock.advance(1); // newer than his export of the last test
    const asked = await service.request(jóannes.id, 'fo');
    expect(await service.runRound()).toMatchObject({ prepared: 0, failed: 1 });
    const [failed] = await service.list(jóannes.id);
    expect(failed).toMatchObject({ id: asked.id, state: 'failed', downloadUrl: null });
    // The area before the failure was committed (the app showed it) before the failure.
    expect(failed?.progress).toBeGreaterThan(0);
    const line = logs.lines.find((l) => l.msg === 'data export failed');
    expect(line).toMatchObject({ exportId: asked.id });
    const logged = JSON.stringify(logs.lines);
    expect(logged).not.toContain(jóannes.email);
    expect(logged).not.toContain(jóannes.firstname);
    // Not pending any more: a new one may be asked for.
    expect((await service.request(jóannes.id, 'fo')).state).toBe('queued');
    await t.app.db.delete(dataExports).where(eq(dataExports.state, 'queued'));
  });

  it('a new export may be asked for once the last is done, up to 3 a day (429 beyond)', async () => {
    // Guðrun has asked once today (the clock moved 7 days on since: a new day's window).
    for (let i = 0; i < 3; i += 1) {
      expect((await ask('Guðrun')).statusCode).toBe(202);
      await t.app.dataExports.runRound();
    }
    expectError(await ask('Guðrun'), 429, 'TOO_MANY_ATTEMPTS');
    expect(await list('Guðrun')).toHaveLength(4);
  });

  it("the day's limit outlives the limiter's pruning of old windows (kept for two of the longest window)", async () => {
    const limiter = createRateLimiter({
      db: t.app.db,
      now: clock.now,
      log: pino({ level: 'silent' }),
    });
    const today = [{ policy: POLICIES.dataExportUser, subject: ['pruning'] }];
    for (let i = 0; i < 3; i += 1) await limiter.consume(today);
    clock.advance(3 * 3600); // hours on, the same day's window
    // Every 500th counted attempt of a process prunes old windows.
    for (let i = 0; i < 500; i += 1) {
      await limiter.consume([{ policy: POLICIES.dataExportUser, subject: [`other-${i}`] }]);
    }
    await expect(limiter.consume(today)).rejects.toMatchObject({ code: 'TOO_MANY_ATTEMPTS' });
  });
});
