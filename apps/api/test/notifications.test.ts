import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope, errorEnvelope } from '@alda/contract/envelope';
import {
  markAllAsReadResponse,
  markAsReadResponse,
  notificationsResponse,
} from '@alda/contract/schemas/notifications';
import { createDemoApp, type DemoName } from './demo-accounts';

const listAnswer = dataEnvelope(notificationsResponse);

describe('notifications', () => {
  let t: Awaited<ReturnType<typeof createDemoApp>>;
  beforeAll(async () => {
    t = await createDemoApp();
  });
  afterAll(() => t.close());

  const get = (who: DemoName, url: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'GET',
      url,
      headers: { ...t.as[who], 'accept-language': 'fo', ...headers },
    });
  const patch = (who: DemoName, url: string, lang = 'fo') =>
    t.app.inject({ method: 'PATCH', url, headers: { ...t.as[who], 'accept-language': lang } });

  it('answers 401 without a token and 400 for a bad page', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/notifications' })).statusCode).toBe(401);
    const bad = await get('Jóannes', '/api/notifications?perPage=0');
    expect(bad.statusCode).toBe(400);
    expect(errorEnvelope.parse(bad.json()).error.code).toBe('VALIDATION_FAILED');
  });

  it('lists the seeded notifications newest first with the unread count, texts by Accept-Language', async () => {
    const fo = listAnswer.parse((await get('Jóannes', '/api/notifications')).json()).data;
    expect(fo).toMatchObject({ totalUnread: 2, total: 3, page: 0, perPage: 15 });
    expect(fo.items.map((i) => i.type)).toEqual(['order_completed', 'data_received', 'system']);
    expect(fo.items[1]?.body).toBe('Sunneva Joensen gav tær 1 GB.');
    expect(fo.items[2]?.readAt).not.toBeNull();
    const en = listAnswer.parse(
      (await get('Jóannes', '/api/notifications', { 'accept-language': 'en' })).json(),
    ).data;
    expect(en.items[1]?.body).toBe('Sunneva Joensen gave you 1 GB.');
    expect(en.items[2]?.title).toBe('Welcome to Alda');
  });

  it('pages with page and perPage', async () => {
    const first = listAnswer.parse(
      (await get('Jóannes', '/api/notifications?page=0&perPage=2')).json(),
    ).data;
    const second = listAnswer.parse(
      (await get('Jóannes', '/api/notifications?page=1&perPage=2')).json(),
    ).data;
    expect(first.items).toHaveLength(2);
    expect(second.items).toHaveLength(1);
    expect(second).toMatchObject({ page: 1, perPage: 2, total: 3 });
    expect(new Set([...first.items, ...second.items].map((i) => i.id)).size).toBe(3);
  });

  it('marks one read (NOT_FOUND for someone else’s or a bad id) and all read', async () => {
    const before = listAnswer.parse((await get('Jóannes', '/api/notifications')).json()).data;
    const unread = before.items.find((i) => i.readAt === null);
    if (!unread) throw new Error('no unread notification');
    const res = await patch('Jóannes', `/api/notifications/${unread.id}/mark-as-read`, 'en');
    expect(res.statusCode, res.body).toBe(200);
    expect(dataEnvelope(markAsReadResponse).parse(res.json()).data.readAt).not.toBeNull();
    // Again: still read, same time.
    const again = await patch('Jóannes', `/api/notifications/${unread.id}/mark-as-read`);
    expect(dataEnvelope(markAsReadResponse).parse(again.json()).data.readAt).toBe(
      dataEnvelope(markAsReadResponse).parse(res.json()).data.readAt,
    );
    for (const url of [
      `/api/notifications/${unread.id}/mark-as-read`,
      '/api/notifications/nope/mark-as-read',
    ]) {
      const other = await patch('Sunneva', url, 'en');
      expect(other.statusCode).toBe(404);
      expect(errorEnvelope.parse(other.json()).error.message).toBe(
        'We could not find what you were looking for.',
      );
    }
    const mid = listAnswer.parse((await get('Jóannes', '/api/notifications')).json()).data;
    expect(mid.totalUnread).toBe(before.totalUnread - 1);

    const all = await patch('Jóannes', '/api/notifications/mark-all-as-read');
    expect(dataEnvelope(markAllAsReadResponse).parse(all.json()).data).toEqual({
      updated: mid.totalUnread,
      totalUnread: 0,
    });
    const after = listAnswer.parse((await get('Jóannes', '/api/notifications')).json()).data;
    expect(after.totalUnread).toBe(0);
    expect(after.items.every((i) => i.readAt !== null)).toBe(true);
  });
});

describe('polling: ETag and 304 (docs/decisions/0041-polling-etag.md)', () => {
  let t: Awaited<ReturnType<typeof createDemoApp>>;
  beforeAll(async () => {
    t = await createDemoApp();
  });
  afterAll(() => t.close());

  const get = (who: DemoName, url: string, etag?: string, lang = 'fo') =>
    t.app.inject({
      method: 'GET',
      url,
      headers: {
        ...t.as[who],
        'accept-language': lang,
        ...(etag ? { 'if-none-match': etag } : {}),
      },
    });

  for (const url of ['/api/data-transfers', '/api/notifications?page=0&perPage=15']) {
    it(`${url}: 304 with the same ETag, 200 with a new one after a write for the user`, async () => {
      const first = await get('Sunneva', url);
      expect(first.statusCode).toBe(200);
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^W\/".+"$/);
      expect(first.headers['cache-control']).toBe('private, no-cache');

      const cached = await get('Sunneva', url, etag);
      expect(cached.statusCode).toBe(304);
      expect(cached.body).toBe('');
      expect(cached.headers['content-length']).toBeUndefined();
      expect(cached.headers.etag).toBe(etag);
      // Another language or another customer does not match.
      expect((await get('Sunneva', url, etag, 'en')).statusCode).toBe(200);
      expect((await get('Jóannes', url, etag)).statusCode).toBe(200);

      // A request addressed to Sunneva changes both resources.
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/data-transfers',
        headers: t.as.Guðrun,
        payload: {
          kind: 'request',
          fromPhoneNumber: '557812',
          phoneNumber: '214456',
          dataAmount: 10,
        },
      });
      expect(created.statusCode, created.body).toBe(201);
      const changed = await get('Sunneva', url, etag);
      expect(changed.statusCode).toBe(200);
      expect(changed.headers.etag).not.toBe(etag);
      expect((await get('Sunneva', url, changed.headers.etag as string)).statusCode).toBe(304);
    });
  }

  it('marking read changes the notifications ETag', async () => {
    const first = await get('Sunneva', '/api/notifications');
    await t.app.inject({
      method: 'PATCH',
      url: '/api/notifications/mark-all-as-read',
      headers: t.as.Sunneva,
    });
    const after = await get('Sunneva', '/api/notifications', first.headers.etag as string);
    expect(after.statusCode).toBe(200);
  });

  it('answers 304 without reading the transfer and notification tables', async () => {
    const dt = (await get('Rói', '/api/data-transfers')).headers.etag as string;
    const n = (await get('Rói', '/api/notifications')).headers.etag as string;
    // With the tables out of the way, only an answer that does not touch them can succeed.
    await t.app.db.execute(sql`alter table data_transfers rename to data_transfers_hidden`);
    await t.app.db.execute(sql`alter table notifications rename to notifications_hidden`);
    try {
      expect((await get('Rói', '/api/data-transfers', dt)).statusCode).toBe(304);
      expect((await get('Rói', '/api/notifications', n)).statusCode).toBe(304);
      expect((await get('Rói', '/api/notifications')).statusCode).toBe(500);
    } finally {
      await t.app.db.execute(sql`alter table data_transfers_hidden rename to data_transfers`);
      await t.app.db.execute(sql`alter table notifications_hidden rename to notifications`);
    }
    expect((await get('Rói', '/api/notifications', n)).statusCode).toBe(304);
  });
});
