import { and, eq, like } from 'drizzle-orm';
import { strFromU8, unzipSync } from 'fflate';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { dataEnvelope } from '@alda/contract/envelope';
import {
  supportConversation,
  supportConversationList,
  supportAttachment,
} from '@alda/contract/schemas/support';
import {
  staffSupportConversation,
  staffSupportList,
  supportSavedReply,
  supportSavedReplyList,
  type SupportQueue,
} from '@alda/contract/schemas/staff-support';
import { dataExportList } from '@alda/contract/schemas/number-protection';
import { orders } from '../src/db/schema/orders';
import { operatorActions } from '../src/db/schema/provisioning';
import { demoUser } from '../src/seed/demo-users';
import { createDemoApp, NOW, signIn, type DemoName } from './demo-accounts';
import { parse } from './helper';
import { signInStaff, type TestStaff } from './staff-helper';

/*
 * Support conversations (issue 46, ADR 0088) on the real app and database with the demo data:
 * the customer's routes and the desk's, every refusal, and the audit of the desk's actions.
 */

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** The app's clock; it only moves forward (a session seen later cannot be used earlier). */
let clock = NOW;
const now = () => clock;
const advance = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};
let t: Awaited<ReturnType<typeof createDemoApp>>;
let desk: TestStaff;
let colleague: TestStaff;

beforeAll(async () => {
  t = await createDemoApp({}, { now });
  desk = await signInStaff(t.app, 'support', now);
  colleague = await signInStaff(t.app, 'support', now);
});
afterAll(async () => {
  await t?.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
/** A customer by name (signed in again once the clock has moved on), or a staff member's headers. */
type Caller = DemoName | { authorization: string };
const signedIn = new Map<DemoName, { at: number; headers: { authorization: string } }>();
async function headersOf(who: Caller) {
  if (typeof who !== 'string') return who;
  const kept = signedIn.get(who);
  if (kept && kept.at === clock.getTime()) return kept.headers;
  const headers = clock.getTime() === NOW.getTime() ? t.as[who] : await signIn(t.app, who);
  signedIn.set(who, { at: clock.getTime(), headers });
  return headers;
}
const call = async (method: Method, url: string, who: Caller, payload?: object) =>
  t.app.inject({ method, url, headers: await headersOf(who), payload });
/** A support member signed in now (sessions end after 15 idle minutes of the app's clock). */
const freshDesk = () => signInStaff(t.app, 'support', now);

function expectError(res: Awaited<ReturnType<typeof call>>, status: number, code: string) {
  expect(res.statusCode, res.body).toBe(status);
  const error = res.json().error as { code: string; message: string };
  expect(error.code).toBe(code);
  expect(error.message).not.toBe('');
  return error;
}

const thread = (res: Awaited<ReturnType<typeof call>>) =>
  parse(dataEnvelope(supportConversation), res).data;
const deskThread = (res: Awaited<ReturnType<typeof call>>) =>
  parse(dataEnvelope(staffSupportConversation), res).data;

/** Guðrun's order of her second number, 557813 (the demo's order still being set up). */
async function gudrunsOrder(): Promise<string> {
  const [row] = await t.app.db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.userId, demoUser('Guðrun').id), eq(orders.msisdn, '557813')));
  if (!row) throw new Error('no order of 557813 in the demo');
  return row.id;
}

async function start(name: DemoName, subject: object, body = 'Hví er nummarið ikki flutt?') {
  return call('POST', '/api/support/conversations', name, {
    subject,
    body,
    clientId: randomUUID(),
  });
}

async function queue(staff: TestStaff, name: SupportQueue) {
  const res = await call('GET', `/api/staff/support/conversations?queue=${name}`, staff.headers);
  return parse(dataEnvelope(staffSupportList), res).data.items;
}

describe('a customer writes to the desk (issue 46 §1)', () => {
  it('starts a conversation from an order, with the order linked and the first answer due in 8 working hours', async () => {
    const res = await start('Guðrun', { type: 'order', id: await gudrunsOrder() });
    expect(res.statusCode, res.body).toBe(201);
    const data = thread(res);
    expect(data.subject).toMatchObject({ type: 'order', reference: '557813' });
    expect(data.state).toBe('open');
    expect(data.messages).toEqual([
      expect.objectContaining({ author: 'customer', body: 'Hví er nummarið ikki flutt?' }),
    ]);

    const [item] = (await queue(desk, 'new')).filter((c) => c.id === data.id);
    // Monday 15 June 2026 13:00 in Tórshavn: 3 hours that day, 5 on Tuesday from 08:00.
    expect(item?.firstReplyDueAt).toBe('2026-06-16T12:00:00.000Z');
    expect(item?.customerName).toBe('Guðrun Poulsen');
    expect(item?.late).toBe(false);
  });

  it('refuses a subject that is not the caller’s, the same as an unknown one', async () => {
    const order = await gudrunsOrder();
    expectError(
      await start('Sunneva', { type: 'order', id: order }),
      404,
      'SUPPORT_SUBJECT_NOT_FOUND',
    );
    expectError(
      await start('Sunneva', { type: 'order', id: randomUUID() }),
      404,
      'SUPPORT_SUBJECT_NOT_FOUND',
    );
    expectError(
      await start('Sunneva', { type: 'line', id: demoUser('Guðrun').phoneNumber }),
      404,
      'SUPPORT_SUBJECT_NOT_FOUND',
    );
    expectError(
      await start('Sunneva', { type: 'receipt', id: 'x' }),
      404,
      'SUPPORT_SUBJECT_NOT_FOUND',
    );
    const own = await start('Guðrun', { type: 'roaming_cap', id: demoUser('Guðrun').phoneNumber });
    expect(thread(own).subject).toEqual({
      type: 'roaming_cap',
      id: demoUser('Guðrun').phoneNumber,
      reference: demoUser('Guðrun').phoneNumber,
    });
  });

  it('keeps a message sent again after a dropped connection once', async () => {
    const clientId = randomUUID();
    const payload = { subject: { type: 'general' }, body: 'Sent twice', clientId };
    const first = thread(await call('POST', '/api/support/conversations', 'Rói', payload));
    const again = thread(await call('POST', '/api/support/conversations', 'Rói', payload));
    expect(again.id).toBe(first.id);
    expect(again.messages).toHaveLength(1);
    const reply = { body: 'And again', clientId: randomUUID() };
    const url = `/api/support/conversations/${first.id}/messages`;
    await call('POST', url, 'Rói', reply);
    const twice = thread(await call('POST', url, 'Rói', reply));
    expect(twice.messages.map((m) => m.body)).toEqual(['Sent twice', 'And again']);
  });

  it('refuses empty and over-long text with the field named, in the caller’s language', async () => {
    const tooLong = await call('POST', '/api/support/conversations', 'Guðrun', {
      subject: { type: 'general' },
      body: 'x'.repeat(2001),
      clientId: randomUUID(),
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'body' });
    const empty = await call('POST', '/api/support/conversations', 'Guðrun', {
      subject: { type: 'general' },
      body: '   ',
      clientId: randomUUID(),
    });
    expect(empty.statusCode).toBe(400);
  });
});

describe('nothing leaks between customers (issue 46 §3)', () => {
  it('answers 404 to another customer on every route of a conversation', async () => {
    const mine = thread(await start('Guðrun', { type: 'general' }, 'Private to Guðrun'));
    const base = `/api/support/conversations/${mine.id}`;
    expectError(await call('GET', base, 'Sunneva'), 404, 'NOT_FOUND');
    expectError(await call('POST', `${base}/read`, 'Sunneva'), 404, 'NOT_FOUND');
    expectError(
      await call('POST', `${base}/messages`, 'Sunneva', { body: 'hi', clientId: randomUUID() }),
      404,
      'NOT_FOUND',
    );
    expectError(await call('POST', `${base}/close`, 'Sunneva'), 404, 'NOT_FOUND');
    expectError(await call('POST', `${base}/rating`, 'Sunneva', { score: 1 }), 404, 'NOT_FOUND');
    expectError(
      await call('GET', '/api/support/conversations/not-a-uuid', 'Sunneva'),
      404,
      'NOT_FOUND',
    );
    const list = parse(
      dataEnvelope(supportConversationList),
      await call('GET', '/api/support/conversations', 'Sunneva'),
    ).data;
    expect(list.items.map((c) => c.id)).not.toContain(mine.id);
    expect((await call('GET', base, 'Guðrun')).statusCode).toBe(200);
  });

  it('keeps the desk’s routes from customers and from roles other than support', async () => {
    expect(
      (await call('GET', '/api/staff/support/conversations?queue=new', 'Guðrun')).statusCode,
    ).toBe(401);
    const provisioning = await signInStaff(t.app, 'provisioning', now);
    expectError(
      await call('GET', '/api/staff/support/conversations?queue=new', provisioning.headers),
      403,
      'FORBIDDEN',
    );
  });
});

describe('the desk answers (issue 46 §2)', () => {
  it('assigns, writes a note the customer never sees, answers; the customer sees it unread, then read; all audited', async () => {
    const started = thread(
      await start('Guðrun', { type: 'order', id: await gudrunsOrder() }, 'My port was rejected'),
    );
    const id = started.id;
    expect((await queue(desk, 'new')).map((c) => c.id)).toContain(id);

    // Assigning to someone who cannot work the desk is refused.
    const content = await signInStaff(t.app, 'content', now);
    expectError(
      await call('POST', `/api/staff/support/conversations/${id}/assign`, desk.headers, {
        staffUserId: content.id,
      }),
      400,
      'SUPPORT_ASSIGNEE_INVALID',
    );
    // To a colleague, then back to oneself.
    const toColleague = deskThread(
      await call('POST', `/api/staff/support/conversations/${id}/assign`, desk.headers, {
        staffUserId: colleague.id,
      }),
    );
    expect(toColleague.assignee?.id).toBe(colleague.id);
    expect((await queue(colleague, 'mine')).map((c) => c.id)).toContain(id);
    await call('POST', `/api/staff/support/conversations/${id}/assign`, desk.headers, {
      staffUserId: desk.id,
    });
    expect((await queue(desk, 'mine')).map((c) => c.id)).toContain(id);
    expect((await queue(desk, 'new')).map((c) => c.id)).not.toContain(id);

    advance(MINUTE);
    await call('POST', `/api/staff/support/conversations/${id}/messages`, desk.headers, {
      body: 'Internal: the donor operator refused the ICC',
      internal: true,
    });
    advance(5 * MINUTE);
    const answered = deskThread(
      await call('POST', `/api/staff/support/conversations/${id}/messages`, desk.headers, {
        body: 'We have asked the donor operator again.',
      }),
    );
    expect(answered.state).toBe('waiting');
    expect(answered.firstReplyAt).toBe(clock.toISOString());
    expect(answered.messages.map((m) => m.kind)).toEqual(['customer', 'note', 'staff']);

    const seen = thread(await call('GET', `/api/support/conversations/${id}`, 'Guðrun'));
    expect(seen.messages.map((m) => m.body)).toEqual([
      'My port was rejected',
      'We have asked the donor operator again.',
    ]);
    expect(JSON.stringify(seen)).not.toContain('Internal');
    expect(seen.messages[1]?.author).toBe('staff');
    const list = () =>
      call('GET', '/api/support/conversations', 'Guðrun').then(
        (res) => parse(dataEnvelope(supportConversationList), res).data,
      );
    expect((await list()).items.find((c) => c.id === id)?.unread).toBe(1);
    expect((await list()).unread).toBeGreaterThanOrEqual(1);
    await call('POST', `/api/support/conversations/${id}/read`, 'Guðrun');
    expect((await list()).items.find((c) => c.id === id)?.unread).toBe(0);

    // The console refreshes an open thread every 10 s: one read per staff session is recorded.
    await call('GET', `/api/staff/support/conversations/${id}`, desk.headers);
    await call('GET', `/api/staff/support/conversations/${id}`, desk.headers);
    const views = await t.app.db
      .select()
      .from(operatorActions)
      .where(and(eq(operatorActions.target, id), eq(operatorActions.verb, 'support.view')));
    expect(views).toHaveLength(1);
    const verbs = await t.app.db
      .select({ verb: operatorActions.verb, kind: operatorActions.kind })
      .from(operatorActions)
      .where(and(eq(operatorActions.target, id), like(operatorActions.verb, 'support.%')));
    expect(verbs).toEqual(
      expect.arrayContaining([
        { verb: 'support.assign', kind: 'change' },
        { verb: 'support.note', kind: 'change' },
        { verb: 'support.reply', kind: 'change' },
        { verb: 'support.view', kind: 'read' },
      ]),
    );
  });

  it('closes; the customer rates once; writing within 14 days opens it again, later it is refused', async () => {
    const desk = await freshDesk();
    const { id } = thread(await start('Jóannes', { type: 'general' }, 'Question'));
    expectError(
      await call('POST', `/api/support/conversations/${id}/rating`, 'Jóannes', { score: 5 }),
      409,
      'SUPPORT_RATING_NOT_ALLOWED',
    );
    const closed = deskThread(
      await call('POST', `/api/staff/support/conversations/${id}/close`, desk.headers),
    );
    expect(closed.state).toBe('closed');
    const before = thread(await call('GET', `/api/support/conversations/${id}`, 'Jóannes'));
    expect(before.canRate).toBe(true);
    expect(before.reopenUntil).toBe(new Date(clock.getTime() + 14 * DAY).toISOString());

    const bad = await call('POST', `/api/support/conversations/${id}/rating`, 'Jóannes', {
      score: 6,
    });
    expect(bad.statusCode).toBe(400);
    const rated = thread(
      await call('POST', `/api/support/conversations/${id}/rating`, 'Jóannes', {
        score: 5,
        comment: ' Quick and kind ',
      }),
    );
    expect(rated.rating).toEqual({ score: 5, comment: 'Quick and kind' });
    expect(rated.canRate).toBe(false);
    expectError(
      await call('POST', `/api/support/conversations/${id}/rating`, 'Jóannes', { score: 1 }),
      409,
      'SUPPORT_RATING_NOT_ALLOWED',
    );

    advance(13 * DAY);
    const reopened = thread(
      await call('POST', `/api/support/conversations/${id}/messages`, 'Jóannes', {
        body: 'One more thing',
        clientId: randomUUID(),
      }),
    );
    expect(reopened.state).toBe('open');
    await call('POST', `/api/support/conversations/${id}/close`, 'Jóannes');
    advance(14 * DAY + MINUTE);
    expectError(
      await call('POST', `/api/support/conversations/${id}/messages`, 'Jóannes', {
        body: 'Too late',
        clientId: randomUUID(),
      }),
      409,
      'SUPPORT_CONVERSATION_CLOSED',
    );
  });

  it('marks a conversation late once its first-reply time has passed', async () => {
    const { id } = thread(await start('Sunneva', { type: 'general' }, 'Anyone there?'));
    expect((await queue(await freshDesk(), 'new')).find((c) => c.id === id)?.late).toBe(false);
    advance(4 * DAY);
    expect((await queue(await freshDesk(), 'new')).find((c) => c.id === id)?.late).toBe(true);
  });
});

describe('limits and saved replies (issue 46 §2, §3)', () => {
  it('allows 10 messages a minute per customer, then answers 429 with a time to wait', async () => {
    advance(DAY);
    const { id } = thread(await start('Rói', { type: 'general' }, 'Message 1'));
    for (let n = 2; n <= 10; n++) {
      const res = await call('POST', `/api/support/conversations/${id}/messages`, 'Rói', {
        body: `Message ${n}`,
        clientId: randomUUID(),
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const over = await call('POST', `/api/support/conversations/${id}/messages`, 'Rói', {
      body: 'Message 11',
      clientId: randomUUID(),
    });
    expectError(over, 429, 'TOO_MANY_ATTEMPTS');
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    const thread11 = thread(await call('GET', `/api/support/conversations/${id}`, 'Rói'));
    expect(thread11.messages).toHaveLength(10);
  });

  it('lets the content role manage saved replies in both languages, and support only read them', async () => {
    const desk = await freshDesk();
    const content = await signInStaff(t.app, 'content', now);
    const reply = {
      titleFo: 'Flyting avvíst',
      titleEn: 'Port rejected',
      bodyFo: 'Vit hava biðið hin veitaran um at royna aftur.',
      bodyEn: 'We have asked the other operator to try again.',
    };
    expectError(
      await call('POST', '/api/staff/support/saved-replies', desk.headers, reply),
      403,
      'FORBIDDEN',
    );
    const created = parse(
      dataEnvelope(supportSavedReply),
      await call('POST', '/api/staff/support/saved-replies', content.headers, reply),
    ).data;
    const listed = parse(
      dataEnvelope(supportSavedReplyList),
      await call('GET', '/api/staff/support/saved-replies', desk.headers),
    ).data;
    expect(listed.items).toContainEqual(expect.objectContaining(reply));
    const changed = await call(
      'PUT',
      `/api/staff/support/saved-replies/${created.id}`,
      content.headers,
      { ...reply, titleEn: 'Port refused' },
    );
    expect(changed.statusCode).toBe(200);
    expectError(
      await call('DELETE', '/api/staff/support/saved-replies/not-a-uuid', content.headers),
      404,
      'NOT_FOUND',
    );
    expect(
      (await call('DELETE', `/api/staff/support/saved-replies/${created.id}`, content.headers))
        .statusCode,
    ).toBe(204);
    const audit = await t.app.db
      .select({ verb: operatorActions.verb })
      .from(operatorActions)
      .where(eq(operatorActions.target, created.id));
    expect(audit.map((a) => a.verb).sort()).toEqual([
      'support.saved-reply.create',
      'support.saved-reply.delete',
      'support.saved-reply.update',
    ]);
  });
});

describe('images with a message (issue 46 §1, §3)', () => {
  const photo = () =>
    sharp({ create: { width: 2400, height: 1800, channels: 3, background: '#27a' } })
      .withMetadata({ orientation: 1 })
      .withExifMerge({ IFD0: { Model: 'SIM card photo' }, IFD3: { GPSLatitudeRef: 'N' } })
      .jpeg()
      .toBuffer();
  const upload = (who: Caller, body: Buffer | string, type = 'image/jpeg') =>
    headersOf(who).then((headers) =>
      t.app.inject({
        method: 'POST',
        url: '/api/support/attachments',
        headers: { ...headers, 'content-type': type },
        payload: body,
      }),
    );

  it('keeps a photo without EXIF, serves it only to its customer and the desk, safely', async () => {
    advance(DAY);
    const up = await upload('Guðrun', await photo());
    expect(up.statusCode, up.body).toBe(201);
    const image = parse(dataEnvelope(supportAttachment), up).data;
    expect(image).toMatchObject({ contentType: 'image/jpeg', width: 1600, height: 1200 });

    // Before it is sent: hers only.
    const own = await call('GET', `/api/support/attachments/${image.id}`, 'Guðrun');
    expect(own.statusCode).toBe(200);
    expect(own.headers['content-type']).toBe('image/jpeg');
    expect(own.headers['x-content-type-options']).toBe('nosniff');
    expect(own.headers['content-security-policy']).toContain("default-src 'none'");
    expect((await sharp(own.rawPayload).metadata()).exif).toBeUndefined();
    expectError(
      await call('GET', `/api/support/attachments/${image.id}`, 'Sunneva'),
      404,
      'NOT_FOUND',
    );

    // Another customer cannot send it as theirs; nothing is written then.
    const stolen = await call('POST', '/api/support/conversations', 'Sunneva', {
      subject: { type: 'general' },
      body: 'Look at this',
      clientId: randomUUID(),
      attachmentIds: [image.id],
    });
    expectError(stolen, 404, 'NOT_FOUND');
    const sunnevas = parse(
      dataEnvelope(supportConversationList),
      await call('GET', '/api/support/conversations', 'Sunneva'),
    ).data;
    expect(sunnevas.items.map((c) => c.lastMessage)).not.toContain('Look at this');

    const sent = thread(
      await call('POST', '/api/support/conversations', 'Guðrun', {
        subject: { type: 'general' },
        body: 'My SIM card',
        clientId: randomUUID(),
        attachmentIds: [image.id],
      }),
    );
    expect(sent.messages[0]?.attachments).toEqual([image]);
    const staff = await freshDesk();
    const seen = await call('GET', `/api/staff/support/attachments/${image.id}`, staff.headers);
    expect(seen.statusCode).toBe(200);
    expect(seen.headers['x-content-type-options']).toBe('nosniff');
    const [audit] = await t.app.db
      .select()
      .from(operatorActions)
      .where(
        and(
          eq(operatorActions.verb, 'support.attachment.view'),
          eq(operatorActions.staffUserId, staff.id),
        ),
      );
    expect(audit).toMatchObject({ kind: 'read', target: sent.id });
    // Sent once: it cannot go in a second message.
    expectError(
      await call('POST', `/api/support/conversations/${sent.id}/messages`, 'Guðrun', {
        body: 'Again',
        clientId: randomUUID(),
        attachmentIds: [image.id],
      }),
      404,
      'NOT_FOUND',
    );
  });

  it('refuses a forged type, an oversized image and more than three per message', async () => {
    advance(MINUTE);
    expectError(await upload('Rói', 'not really a jpeg'), 415, 'ATTACHMENT_TYPE_NOT_ALLOWED');
    const pdf = Buffer.from('%PDF-1.7\n1 0 obj\n');
    expectError(await upload('Rói', pdf, 'image/png'), 415, 'ATTACHMENT_TYPE_NOT_ALLOWED');
    const big = Buffer.alloc(5 * 1024 * 1024 + 10);
    big.set([0xff, 0xd8, 0xff]);
    expectError(await upload('Rói', big), 413, 'ATTACHMENT_TOO_LARGE');
    const four = await call('POST', '/api/support/conversations', 'Rói', {
      subject: { type: 'general' },
      body: 'Four pictures',
      clientId: randomUUID(),
      attachmentIds: [randomUUID(), randomUUID(), randomUUID(), randomUUID()],
    });
    expect(four.statusCode).toBe(400);
    expect(four.json().error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'attachmentIds' });
  });
});

describe('the customer’s data (issue 46 §3, issue 32)', () => {
  it('puts the conversations and their images in the data export, without the desk’s notes', async () => {
    advance(DAY);
    const staff = await freshDesk();
    const up = await t.app.inject({
      method: 'POST',
      url: '/api/support/attachments',
      headers: { ...(await headersOf('Ása')), 'content-type': 'image/png' },
      payload: await sharp({ create: { width: 20, height: 10, channels: 4, background: '#fff' } })
        .png()
        .toBuffer(),
    });
    expect(up.statusCode, up.body).toBe(201);
    const image = parse(dataEnvelope(supportAttachment), up).data;
    const { id } = thread(
      await call('POST', '/api/support/conversations', 'Ása', {
        subject: { type: 'general' },
        body: 'Export me',
        clientId: randomUUID(),
        attachmentIds: [image.id],
      }),
    );
    await call('POST', `/api/staff/support/conversations/${id}/messages`, staff.headers, {
      body: 'Desk-only remark',
      internal: true,
    });
    await call('POST', `/api/staff/support/conversations/${id}/messages`, staff.headers, {
      body: 'Here is our answer',
    });
    const asked = await call('POST', '/api/profile/data-exports', 'Ása');
    expect(asked.statusCode, asked.body).toBe(202);
    await t.app.dataExports.runRound();
    const list = await call('GET', '/api/profile/data-exports', 'Ása');
    const [ready] = parse(dataEnvelope(dataExportList), list).data;
    const link = new URL(ready?.downloadUrl ?? 'http://missing/');
    const zip = await t.app.inject({ method: 'GET', url: `${link.pathname}${link.search}` });
    const files = unzipSync(new Uint8Array(zip.rawPayload));
    const support = JSON.parse(strFromU8(files['support.json'] ?? new Uint8Array())) as Array<{
      id: string;
      messages: Array<{ from: string; text: string; images: string[] }>;
    }>;
    const mine = support.find((c) => c.id === id);
    expect(mine?.messages.map((m) => [m.from, m.text])).toEqual([
      ['you', 'Export me'],
      ['alda', 'Here is our answer'],
    ]);
    expect(JSON.stringify(support)).not.toContain('Desk-only');
    expect(mine?.messages[0]?.images).toEqual([`support/${image.id}.png`]);
    expect(files[`support/${image.id}.png`]?.slice(0, 4)).toEqual(
      Uint8Array.from([0x89, 0x50, 0x4e, 0x47]),
    );
  });

  it('keeps a deleted customer’s conversations for the desk, anonymised', async () => {
    advance(DAY);
    // Ása has no number with us, so she may delete her user (SPEC §6).
    expectError(
      await call('POST', '/api/support/conversations', 'Ása', {
        subject: { type: 'line' },
        body: 'A line without its number',
        clientId: randomUUID(),
      }),
      404,
      'SUPPORT_SUBJECT_NOT_FOUND',
    );
    const { id } = thread(
      await call('POST', '/api/support/conversations', 'Ása', {
        subject: { type: 'general' },
        body: 'Before I leave',
        clientId: randomUUID(),
      }),
    );
    const deleted = await call('DELETE', '/api/auth/me', 'Ása');
    expect(deleted.statusCode, deleted.body).toBe(204);
    const staff = await freshDesk();
    const kept = deskThread(
      await call('GET', `/api/staff/support/conversations/${id}`, staff.headers),
    );
    expect(kept.customerName).toBeNull();
    expect(kept.customerId).toBeNull();
    expect(kept.messages.map((m) => m.body)).toEqual(['Before I leave']);
  });
});
