import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope } from '@alda/contract/envelope';
import { contentResponse } from '@alda/contract/schemas/content';
import type { StaffRole } from '@alda/contract/schemas/staff';
import {
  staffContentVersion,
  staffContentVersionList,
  type StaffContentVersion,
} from '@alda/contract/schemas/staff-content';
import {
  staffStatusMessage,
  staffStatusMessageList,
  type StaffStatusMessage,
} from '@alda/contract/schemas/staff-status';
import { statusResponse } from '@alda/contract/schemas/status';
import { contentPages } from '../src/db/schema/content-pages';
import { operatorActions } from '../src/db/schema/provisioning';
import { contentVersions } from '../src/db/schema/staff';
import { runOperator } from '../src/operator';
import { seedReferenceData } from '../src/seed/seed';
import { createDemoApp, NOW } from './demo-accounts';
import { parse } from './helper';
import { signInStaff, type TestStaff } from './staff-helper';

/*
 * The staff console's status messages and terms/privacy versions (issue 31 "Status messages:
 * compose fo + en, schedule, end" and "Content: terms and privacy as versions; the app shows the
 * published version") on the real app and database with the demo data. What the customer sees
 * is read through the customer's own routes: POST /api/status (SPEC §7 Status) and
 * GET /api/content/:slug (SPEC §2 terms and privacy).
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
let clock = NOW;
const now = () => clock;
const at = (offsetMs: number) => new Date(NOW.getTime() + offsetMs).toISOString();
let t: Awaited<ReturnType<typeof createDemoApp>>;

/** A fresh staff member of `role`, signed in at the clock's time (sessions last 15 idle minutes). */
const staff = (role: StaffRole) => signInStaff(t.app, role, now);
let content: TestStaff;

beforeAll(async () => {
  t = await createDemoApp({}, { now });
  // The terms and privacy every installation has (seeded at each start, apps/api/src/main.ts).
  await seedReferenceData(t.app.db);
  content = await staff('content');
});
afterAll(async () => {
  await t?.close();
});

type Payload = Record<string, unknown>;
const inject = (method: 'GET' | 'POST' | 'PUT', url: string, headers: object, payload?: Payload) =>
  t.app.inject({ method, url, headers: headers as Record<string, string>, payload });

const expectError = (
  res: Awaited<ReturnType<typeof inject>>,
  status: number,
  code: string,
  field?: string,
) => {
  expect(res.statusCode, res.body).toBe(status);
  const error = res.json().error as { code: string; field?: string; message: string };
  expect(error.code).toBe(code);
  if (field) expect(error.field).toBe(field);
  expect(error.message).not.toBe('');
  return error;
};

/** The customer app's status check at resume (SPEC §7 Status), in `lang`. */
async function appMessages(lang: 'fo' | 'en') {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/status',
    headers: { 'accept-language': lang },
    payload: {
      currentVersion: '99.0.0',
      deviceMeta: { platform: 'android', osVersion: '14', model: 'Pixel 8', isVirtual: false },
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  return parse(dataEnvelope(statusResponse), res).data.messages;
}

const MESSAGE = {
  titleFo: 'Viðlíkahald í nátt',
  titleEn: 'Maintenance tonight',
  bodyFo: 'Appin er niðri frá kl. 23 til 01.',
  bodyEn: 'The app is down from 23:00 to 01:00.',
};

async function publish(payload: Payload, who = content): Promise<StaffStatusMessage> {
  const res = await inject('POST', '/api/staff/status-messages', who.headers, payload);
  expect(res.statusCode, res.body).toBe(201);
  return parse(dataEnvelope(staffStatusMessage), res).data;
}

const auditOf = (targetId: string) =>
  t.app.db.select().from(operatorActions).where(eq(operatorActions.target, targetId));

describe('status messages: publish, schedule, end (issue 31; SPEC §4 "Status messages", ADR 0010)', () => {
  it("SPEC §4: a message published now is in the app's status check at once, in Faroese and in English", async () => {
    clock = NOW;
    const message = await publish({ ...MESSAGE, reason: 'CHG-2041' });
    expect(message).toMatchObject({ ...MESSAGE, state: 'active', activeFrom: NOW.toISOString() });
    expect(message.activeTo).toBeNull();

    const fo = (await appMessages('fo')).find((m) => m.id === message.id);
    const en = (await appMessages('en')).find((m) => m.id === message.id);
    expect(fo).toMatchObject({ title: MESSAGE.titleFo, body: MESSAGE.bodyFo });
    expect(en).toMatchObject({ title: MESSAGE.titleEn, body: MESSAGE.bodyEn });

    const list = await inject('GET', '/api/staff/status-messages', content.headers);
    const items = parse(dataEnvelope(staffStatusMessageList), list).data.items;
    expect(items[0]).toMatchObject({ id: message.id, state: 'active' });
  });

  it('SPEC §4 / ADR 0010: a scheduled message shows only inside [activeFrom, activeTo)', async () => {
    clock = NOW;
    const message = await publish({
      ...MESSAGE,
      titleEn: 'Scheduled',
      activeFrom: at(HOUR),
      activeTo: at(2 * HOUR),
    });
    expect(message).toMatchObject({
      state: 'scheduled',
      activeFrom: at(HOUR),
      activeTo: at(2 * HOUR),
    });
    const shown = async () => (await appMessages('en')).some((m) => m.id === message.id);

    expect(await shown()).toBe(false);
    clock = new Date(NOW.getTime() + HOUR - 1);
    expect(await shown()).toBe(false);
    clock = new Date(NOW.getTime() + HOUR);
    expect(await shown()).toBe(true);
    clock = new Date(NOW.getTime() + 2 * HOUR - 1);
    expect(await shown()).toBe(true);
    clock = new Date(NOW.getTime() + 2 * HOUR);
    expect(await shown()).toBe(false);

    const late = await staff('content');
    const list = await inject('GET', '/api/staff/status-messages', late.headers);
    const item = parse(dataEnvelope(staffStatusMessageList), list).data.items.find(
      (m) => m.id === message.id,
    );
    expect(item?.state).toBe('ended');
    clock = NOW;
  });

  it('takes a start in the past as now (a message cannot have been shown before it was written)', async () => {
    clock = NOW;
    const message = await publish({ ...MESSAGE, activeFrom: at(-HOUR), activeTo: at(HOUR) });
    expect(message).toMatchObject({ activeFrom: NOW.toISOString(), state: 'active' });
  });

  it('"End now" with a reason: the app no longer shows it; ending it again is 409, an unknown id 404', async () => {
    clock = NOW;
    const message = await publish({ ...MESSAGE, titleEn: 'To be ended' });
    expect((await appMessages('fo')).map((m) => m.id)).toContain(message.id);

    clock = new Date(NOW.getTime() + MINUTE);
    const res = await inject(
      'POST',
      `/api/staff/status-messages/${message.id}/end`,
      content.headers,
      {
        reason: 'Viðlíkahaldið er liðugt',
      },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(parse(dataEnvelope(staffStatusMessage), res).data).toMatchObject({
      state: 'ended',
      activeTo: clock.toISOString(),
    });
    expect((await appMessages('fo')).map((m) => m.id)).not.toContain(message.id);
    expect((await appMessages('en')).map((m) => m.id)).not.toContain(message.id);

    const again = await inject(
      'POST',
      `/api/staff/status-messages/${message.id}/end`,
      content.headers,
      {
        reason: 'Aftur',
      },
    );
    expectError(again, 409, 'STAFF_ACTION_NOT_ALLOWED');
    const unknown = await inject(
      'POST',
      '/api/staff/status-messages/00000000-0000-4000-8000-00000000abcd/end',
      content.headers,
      { reason: 'Einki' },
    );
    expectError(unknown, 404, 'NOT_FOUND');
    clock = NOW;
  });

  it('ends a scheduled message before it starts: it never shows', async () => {
    clock = NOW;
    const message = await publish({ ...MESSAGE, activeFrom: at(HOUR) });
    const res = await inject(
      'POST',
      `/api/staff/status-messages/${message.id}/end`,
      content.headers,
      {
        reason: 'Ikki longur neyðugt',
      },
    );
    expect(parse(dataEnvelope(staffStatusMessage), res).data.state).toBe('ended');
    clock = new Date(NOW.getTime() + 2 * HOUR);
    expect((await appMessages('en')).map((m) => m.id)).not.toContain(message.id);
    clock = NOW;
  });

  it('refuses bad windows with 400 STATUS_WINDOW_INVALID on activeTo, in the language asked for, and publishes nothing', async () => {
    clock = NOW;
    const before = (await appMessages('en')).length;
    const inverted = await inject('POST', '/api/staff/status-messages', content.headers, {
      ...MESSAGE,
      activeFrom: at(2 * HOUR),
      activeTo: at(HOUR),
    });
    const fo = expectError(inverted, 400, 'STATUS_WINDOW_INVALID', 'activeTo');
    const past = await inject(
      'POST',
      '/api/staff/status-messages',
      { ...content.headers, 'accept-language': 'en' },
      { ...MESSAGE, activeTo: at(-MINUTE) },
    );
    const en = expectError(past, 400, 'STATUS_WINDOW_INVALID', 'activeTo');
    expect(fo.message).not.toBe(en.message);
    const empty = await inject('POST', '/api/staff/status-messages', content.headers, {
      ...MESSAGE,
      activeTo: NOW.toISOString(),
    });
    expectError(empty, 400, 'STATUS_WINDOW_INVALID', 'activeTo');
    expect((await appMessages('en')).length).toBe(before);
  });

  it('refuses a missing language, a too long title, a date that is no date and an end without a reason (400)', async () => {
    const { titleEn: _titleEn, ...noEnglish } = MESSAGE;
    expectError(
      await inject('POST', '/api/staff/status-messages', content.headers, noEnglish),
      400,
      'VALIDATION_FAILED',
      'titleEn',
    );
    expectError(
      await inject('POST', '/api/staff/status-messages', content.headers, {
        ...MESSAGE,
        bodyFo: '   ',
      }),
      400,
      'VALIDATION_FAILED',
      'bodyFo',
    );
    expectError(
      await inject('POST', '/api/staff/status-messages', content.headers, {
        ...MESSAGE,
        titleFo: 'x'.repeat(201),
      }),
      400,
      'VALIDATION_FAILED',
      'titleFo',
    );
    expectError(
      await inject('POST', '/api/staff/status-messages', content.headers, {
        ...MESSAGE,
        activeFrom: 'tomorrow',
      }),
      400,
      'VALIDATION_FAILED',
      'activeFrom',
    );
    const message = await publish(MESSAGE);
    expectError(
      await inject('POST', `/api/staff/status-messages/${message.id}/end`, content.headers, {}),
      400,
      'STAFF_REASON_REQUIRED',
      'reason',
    );
    expectError(
      await inject('POST', '/api/staff/status-messages/not-an-id/end', content.headers, {
        reason: 'Ein orsøk',
      }),
      400,
      'VALIDATION_FAILED',
    );
  });

  it('writes one audit entry per change, with the staff member, the target and the reason', async () => {
    clock = NOW;
    const message = await publish({ ...MESSAGE, reason: 'CHG-7' });
    await inject('POST', `/api/staff/status-messages/${message.id}/end`, content.headers, {
      reason: 'CHG-7 done',
    });
    const entries = await auditOf(message.id);
    expect(entries).toHaveLength(2);
    expect(entries).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          operator: `staff:${content.email}`,
          staffUserId: content.id,
          kind: 'change',
          verb: 'status publish',
          targetType: 'status',
          reason: 'CHG-7',
        }),
        expect.objectContaining({
          operator: `staff:${content.email}`,
          staffUserId: content.id,
          verb: 'status end',
          targetType: 'status',
          reason: 'CHG-7 done',
        }),
      ]),
    );
  });

  it('one set of rules: a message the operator command publishes is in the console list, and the console ends it', async () => {
    clock = NOW;
    const out: string[] = [];
    const code = await runOperator(
      [
        'status',
        'publish',
        '--title-fo',
        'Frá skipanarlinjuni',
        '--title-en',
        'From the command line',
        '--body-fo',
        'Tekstur',
        '--body-en',
        'Text',
        '--as',
        'sigrid',
      ],
      {
        env: {},
        config: t.config,
        database: t.app.database,
        now,
        out: (text) => out.push(text),
        err: (text) => out.push(text),
      },
    );
    expect(code, out.join('')).toBe(0);
    const id = /Published status message (\S+)/.exec(out.join(''))?.[1] ?? '';
    const list = await inject('GET', '/api/staff/status-messages', content.headers);
    const item = parse(dataEnvelope(staffStatusMessageList), list).data.items.find(
      (m) => m.id === id,
    );
    expect(item).toMatchObject({ titleEn: 'From the command line', state: 'active' });
    const [cliEntry] = await auditOf(id);
    expect(cliEntry).toMatchObject({
      operator: 'sigrid',
      verb: 'status publish',
      staffUserId: null,
    });

    const end = await inject('POST', `/api/staff/status-messages/${id}/end`, content.headers, {
      reason: 'Ikki rætt',
    });
    expect(end.statusCode, end.body).toBe(200);
    expect((await appMessages('en')).map((m) => m.id)).not.toContain(id);
  });

  it('answers 304 to a poll of an unchanged list, and a new ETag once a message is added', async () => {
    const first = await inject('GET', '/api/staff/status-messages', content.headers);
    const etag = first.headers.etag as string;
    expect(etag).toBeTruthy();
    const same = await inject('GET', '/api/staff/status-messages', {
      ...content.headers,
      'if-none-match': etag,
    });
    expect(same.statusCode).toBe(304);
    await publish(MESSAGE);
    const changed = await inject('GET', '/api/staff/status-messages', {
      ...content.headers,
      'if-none-match': etag,
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
  });
});

/** The customer's page (GET /api/content/:slug) in `lang`, with its ETag. */
async function appPage(slug: 'terms' | 'privacy', lang: 'fo' | 'en', etag?: string) {
  const res = await t.app.inject({
    url: `/api/content/${slug}`,
    headers: { 'accept-language': lang, ...(etag ? { 'if-none-match': etag } : {}) },
  });
  return {
    status: res.statusCode,
    etag: res.headers.etag as string,
    page: res.statusCode === 200 ? parse(dataEnvelope(contentResponse), res).data : undefined,
  };
}

const versionsOf = async (slug: string, who = content) => {
  const res = await inject('GET', `/api/staff/content/${slug}/versions`, who.headers);
  expect(res.statusCode, res.body).toBe(200);
  return parse(dataEnvelope(staffContentVersionList), res).data.items;
};

async function draft(slug: string, texts: Payload, who = content): Promise<StaffContentVersion> {
  const res = await inject('POST', `/api/staff/content/${slug}/versions`, who.headers, texts);
  expect(res.statusCode, res.body).toBe(201);
  return parse(dataEnvelope(staffContentVersion), res).data;
}

const publishVersion = (slug: string, id: string, payload: Payload = {}, who = content) =>
  inject('POST', `/api/staff/content/${slug}/versions/${id}/publish`, who.headers, payload);

const TERMS = {
  titleFo: 'Treytir',
  titleEn: 'Terms',
  markdownFo:
    '# Treytir fyri mobiltænastur\n\nNýggjar treytir frá 1. juli.\n\n- Binditíð: 6 mánaðir\n',
  markdownEn: '# Terms of mobile service\n\nNew terms from 1 July.\n\n- Commitment: 6 months\n',
};

describe('terms and privacy as versions (issue 31 "Content"; SPEC §2 terms and privacy)', () => {
  it('offers the text the app shows now as version 1, live, the first time a page is opened', async () => {
    const app = await appPage('privacy', 'fo');
    const appEn = await appPage('privacy', 'en');
    const items = await versionsOf('privacy');
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ version: 1, state: 'live', createdBy: 'system' });
    const res = await inject(
      'GET',
      `/api/staff/content/privacy/versions/${items[0]?.id}`,
      content.headers,
    );
    const first = parse(dataEnvelope(staffContentVersion), res).data;
    expect(first).toMatchObject({
      titleFo: app.page?.title,
      markdownFo: app.page?.markdown,
      titleEn: appEn.page?.title,
      markdownEn: appEn.page?.markdown,
    });
    // Asking again adds nothing.
    expect(await versionsOf('privacy')).toHaveLength(1);
  });

  it('SPEC §2: a draft is not shown; once published the app shows it at once in both languages, with a new ETag', async () => {
    clock = NOW;
    const before = await appPage('terms', 'fo');
    const beforeEn = await appPage('terms', 'en');
    expect(before.status).toBe(200);

    const version = await draft('terms', TERMS);
    expect(version).toMatchObject({ version: 2, state: 'draft', publishedAt: null });
    expect((await appPage('terms', 'fo', before.etag)).status).toBe(304);

    clock = new Date(NOW.getTime() + MINUTE);
    const res = await publishVersion('terms', version.id, { reason: 'Nýggjar treytir' });
    expect(res.statusCode, res.body).toBe(200);
    expect(parse(dataEnvelope(staffContentVersion), res).data).toMatchObject({
      state: 'live',
      publishedBy: `staff:${content.email}`,
      publishedAt: clock.toISOString(),
    });

    const after = await appPage('terms', 'fo', before.etag);
    expect(after.status).toBe(200);
    expect(after.etag).not.toBe(before.etag);
    expect(after.page).toMatchObject({
      title: 'Treytir',
      markdown: TERMS.markdownFo,
      updatedAt: clock.toISOString(),
    });
    const afterEn = await appPage('terms', 'en', beforeEn.etag);
    expect(afterEn.status).toBe(200);
    expect(afterEn.page).toMatchObject({ title: 'Terms', markdown: TERMS.markdownEn });
    expect((await appPage('terms', 'fo', after.etag)).status).toBe(304);

    const items = await versionsOf('terms');
    expect(items.map((v) => [v.version, v.state])).toEqual([
      [2, 'live'],
      [1, 'previous'],
    ]);
    clock = NOW;
  });

  it('a second publication replaces the first; a published version is never published or edited again (409)', async () => {
    clock = new Date(NOW.getTime() + 2 * MINUTE);
    const third = await draft('terms', {
      ...TERMS,
      markdownFo: '# Treytir\n\nTriðja útgáva.\n',
      markdownEn: '# Terms\n\nThird version.\n',
    });
    expect(third.version).toBe(3);
    expect((await publishVersion('terms', third.id)).statusCode).toBe(200);
    expect((await appPage('terms', 'fo')).page?.markdown).toBe('# Treytir\n\nTriðja útgáva.\n');
    expect((await appPage('terms', 'en')).page?.markdown).toBe('# Terms\n\nThird version.\n');
    expect((await versionsOf('terms')).map((v) => [v.version, v.state])).toEqual([
      [3, 'live'],
      [2, 'previous'],
      [1, 'previous'],
    ]);

    expectError(await publishVersion('terms', third.id), 409, 'STAFF_ACTION_NOT_ALLOWED');
    const [second] = (await versionsOf('terms')).filter((v) => v.version === 2);
    expectError(await publishVersion('terms', second?.id ?? ''), 409, 'STAFF_ACTION_NOT_ALLOWED');
    expectError(
      await inject('PUT', `/api/staff/content/terms/versions/${third.id}`, content.headers, TERMS),
      409,
      'STAFF_ACTION_NOT_ALLOWED',
    );
    expect((await appPage('terms', 'fo')).page?.markdown).toBe('# Treytir\n\nTriðja útgáva.\n');
    clock = NOW;
  });

  it('keeps the publication order on a clock that stands still: the version published last is live', async () => {
    clock = new Date(NOW.getTime() + 3 * MINUTE);
    const a = await draft('terms', { ...TERMS, markdownFo: 'A\n' });
    const b = await draft('terms', { ...TERMS, markdownFo: 'B\n' });
    expect((await publishVersion('terms', b.id)).statusCode).toBe(200);
    expect((await publishVersion('terms', a.id)).statusCode).toBe(200);
    expect((await appPage('terms', 'fo')).page?.markdown).toBe('A\n');
    const states = Object.fromEntries((await versionsOf('terms')).map((v) => [v.id, v.state]));
    expect(states[a.id]).toBe('live');
    expect(states[b.id]).toBe('previous');
    clock = NOW;
  });

  it('edits a draft (PUT) until it is published', async () => {
    const version = await draft('privacy', { ...TERMS, titleFo: 'Privatlívspolitikkur' });
    const res = await inject(
      'PUT',
      `/api/staff/content/privacy/versions/${version.id}`,
      content.headers,
      {
        ...TERMS,
        titleFo: 'Privatlívspolitikkur',
        markdownFo: '# Rættað\n',
      },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(parse(dataEnvelope(staffContentVersion), res).data).toMatchObject({
      id: version.id,
      version: version.version,
      state: 'draft',
      markdownFo: '# Rættað\n',
    });
  });

  it('numbers two drafts written at the same moment apart (unique slug + version)', async () => {
    const answers = await Promise.all(
      [1, 2, 3, 4].map(() =>
        inject('POST', '/api/staff/content/privacy/versions', content.headers, TERMS),
      ),
    );
    for (const res of answers) expect(res.statusCode, res.body).toBe(201);
    const numbers = answers.map((r) => parse(dataEnvelope(staffContentVersion), r).data.version);
    expect(new Set(numbers).size).toBe(4);
    const all = await t.app.db
      .select({ version: contentVersions.version })
      .from(contentVersions)
      .where(eq(contentVersions.slug, 'privacy'));
    expect(new Set(all.map((r) => r.version)).size).toBe(all.length);
  });

  it('refuses blank or too long texts, an unknown page and an unknown version', async () => {
    expectError(
      await inject('POST', '/api/staff/content/terms/versions', content.headers, {
        ...TERMS,
        markdownEn: ' \n ',
      }),
      400,
      'VALIDATION_FAILED',
      'markdownEn',
    );
    expectError(
      await inject('POST', '/api/staff/content/terms/versions', content.headers, {
        ...TERMS,
        titleEn: '',
      }),
      400,
      'VALIDATION_FAILED',
      'titleEn',
    );
    expectError(
      await inject('POST', '/api/staff/content/terms/versions', content.headers, {
        ...TERMS,
        markdownFo: 'x'.repeat(50_001),
      }),
      400,
      'VALIDATION_FAILED',
      'markdownFo',
    );
    expectError(
      await inject('GET', '/api/staff/content/cookies/versions', content.headers),
      400,
      'VALIDATION_FAILED',
      'slug',
    );
    const unknown = '00000000-0000-4000-8000-00000000abcd';
    expectError(
      await inject('GET', `/api/staff/content/terms/versions/${unknown}`, content.headers),
      404,
      'NOT_FOUND',
    );
    expectError(await publishVersion('terms', unknown), 404, 'NOT_FOUND');
    // A version of the other page is not found under this one.
    const [privacyVersion] = await versionsOf('privacy');
    expectError(
      await inject(
        'GET',
        `/api/staff/content/terms/versions/${privacyVersion?.id}`,
        content.headers,
      ),
      404,
      'NOT_FOUND',
    );
  });

  it('writes one audit entry per change: content.draft, content.edit, content.publish with the reason', async () => {
    const version = await draft('privacy', TERMS);
    await inject('PUT', `/api/staff/content/privacy/versions/${version.id}`, content.headers, {
      ...TERMS,
      markdownEn: '# Edited\n',
    });
    expect((await publishVersion('privacy', version.id, { reason: 'DPO-12' })).statusCode).toBe(
      200,
    );
    const entries = await auditOf(version.id);
    expect(entries.map((e) => e.verb).sort()).toEqual([
      'content.draft',
      'content.edit',
      'content.publish',
    ]);
    for (const entry of entries) {
      expect(entry).toMatchObject({
        operator: `staff:${content.email}`,
        staffUserId: content.id,
        kind: 'change',
        targetType: 'content',
        details: expect.objectContaining({ slug: 'privacy', version: version.version }),
      });
    }
    expect(entries.find((e) => e.verb === 'content.publish')?.reason).toBe('DPO-12');
    const [page] = await t.app.db
      .select()
      .from(contentPages)
      .where(and(eq(contentPages.slug, 'privacy'), eq(contentPages.locale, 'en')));
    expect(page?.markdown).toBe('# Edited\n');
  });
});

describe('who may use status and content (content, admin)', () => {
  const ROUTES: [method: 'GET' | 'POST' | 'PUT', url: string, payload?: Payload][] = [
    ['GET', '/api/staff/status-messages'],
    ['POST', '/api/staff/status-messages', MESSAGE],
    [
      'POST',
      '/api/staff/status-messages/00000000-0000-4000-8000-00000000abcd/end',
      { reason: 'Ein orsøk' },
    ],
    ['GET', '/api/staff/content/terms/versions'],
    ['POST', '/api/staff/content/terms/versions', TERMS],
    ['GET', '/api/staff/content/terms/versions/00000000-0000-4000-8000-00000000abcd'],
    ['PUT', '/api/staff/content/terms/versions/00000000-0000-4000-8000-00000000abcd', TERMS],
    ['POST', '/api/staff/content/terms/versions/00000000-0000-4000-8000-00000000abcd/publish', {}],
  ];

  it.each(['support', 'provisioning'] as const)(
    'refuses the %s role on every route (403 FORBIDDEN) and changes nothing',
    async (role) => {
      clock = NOW;
      const who = await staff(role);
      const messages = (await appMessages('en')).length;
      for (const [method, url, payload] of ROUTES) {
        expectError(await inject(method, url, who.headers, payload), 403, 'FORBIDDEN');
      }
      expect((await appMessages('en')).length).toBe(messages);
    },
  );

  it("refuses a customer's token and no token on every route (401)", async () => {
    for (const [method, url, payload] of ROUTES) {
      expect((await inject(method, url, t.as.Jóannes, payload)).statusCode).toBe(401);
      expect((await inject(method, url, {}, payload)).statusCode).toBe(401);
    }
  });

  it('lets admin publish and end a message and publish a version', async () => {
    clock = NOW;
    const admin = await staff('admin');
    const message = await publish(MESSAGE, admin);
    const end = await inject(
      'POST',
      `/api/staff/status-messages/${message.id}/end`,
      admin.headers,
      {
        reason: 'Admin',
      },
    );
    expect(end.statusCode).toBe(200);
    const version = await draft('privacy', TERMS, admin);
    expect((await publishVersion('privacy', version.id, {}, admin)).statusCode).toBe(200);
  });
});
