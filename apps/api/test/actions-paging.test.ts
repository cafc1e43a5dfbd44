import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope } from '@alda/contract/envelope';
import { actionsPageResponse, actionsResponse } from '@alda/contract/schemas/actions';
import { createDemoApp } from './demo-accounts';

describe('activity log paging: GET /api/actions?page=&perPage=', () => {
  let t: Awaited<ReturnType<typeof createDemoApp>>;
  beforeAll(async () => {
    t = await createDemoApp();
  });
  afterAll(() => t.close());

  const get = (url: string) =>
    t.app.inject({ method: 'GET', url, headers: { ...t.as.Jóannes, 'accept-language': 'en' } });

  it('without paging answers as before ({ data: [...] }), with meta beside it', async () => {
    const res = await get('/api/actions');
    expect(res.statusCode).toBe(200);
    const old = dataEnvelope(actionsResponse).parse(res.json()).data;
    const { meta } = actionsPageResponse.parse(res.json());
    expect(meta).toMatchObject({ page: 0, perPage: 100, total: old.length, hasMore: false });
  });

  it('pages newest first without gaps or repeats, and shows data given', async () => {
    const gift = await t.app.inject({
      method: 'POST',
      url: '/api/data-transfers',
      headers: t.as.Jóannes,
      payload: { kind: 'gift', fromPhoneNumber: '214455', phoneNumber: '557812', dataAmount: 100 },
    });
    expect(gift.statusCode, gift.body).toBe(201);
    const all = actionsPageResponse.parse((await get('/api/actions')).json());
    expect(all.data[0]).toMatchObject({ type: 'data_given', dataAmount: 100 });
    const pages = [];
    for (let page = 0; ; page += 1) {
      const res = actionsPageResponse.parse(
        (await get(`/api/actions?page=${page}&perPage=2`)).json(),
      );
      expect(res.meta).toMatchObject({ page, perPage: 2, total: all.meta.total });
      pages.push(...res.data);
      if (!res.meta.hasMore) break;
    }
    expect(pages.map((a) => a.id)).toEqual(all.data.map((a) => a.id));
    const defaultSize = actionsPageResponse.parse((await get('/api/actions?page=0')).json());
    expect(defaultSize.meta.perPage).toBe(20);
    expect((await get('/api/actions?perPage=0')).statusCode).toBe(400);
  });
});
