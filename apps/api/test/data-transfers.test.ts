import { and, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope, errorEnvelope } from '@alda/contract/envelope';
import { actionsResponse } from '@alda/contract/schemas/actions';
import { dataTransfer, dataTransfersResponse } from '@alda/contract/schemas/data-transfers';
import { notificationsResponse } from '@alda/contract/schemas/notifications';
import { faroeMonth } from '@alda/contract/format/date';
import { givenDataCounters, lineBalances } from '../src/db/schema/balances';
import { createDemoApp, LINES, NOW, type DemoName } from './demo-accounts';

const transferAnswer = dataEnvelope(dataTransfer);

describe('data transfers', () => {
  let t: Awaited<ReturnType<typeof createDemoApp>>;
  beforeAll(async () => {
    t = await createDemoApp();
  });
  afterAll(() => t.close());

  const post = (who: DemoName, payload: Record<string, unknown>, lang = 'fo') =>
    t.app.inject({
      method: 'POST',
      url: '/api/data-transfers',
      headers: { ...t.as[who], 'accept-language': lang },
      payload,
    });
  const act = (who: DemoName, method: 'POST' | 'DELETE' | 'GET', url: string, lang = 'fo') =>
    t.app.inject({ method, url, headers: { ...t.as[who], 'accept-language': lang } });
  const remaining = async (lineId: string) => {
    const [row] = await t.app.db.select().from(lineBalances).where(eq(lineBalances.lineId, lineId));
    return row?.domesticRemainingMb;
  };
  const given = async (lineId: string) => {
    const [row] = await t.app.db
      .select()
      .from(givenDataCounters)
      .where(
        and(eq(givenDataCounters.lineId, lineId), eq(givenDataCounters.month, faroeMonth(NOW))),
      );
    return row;
  };
  const expectError = (
    res: LightMyRequestResponse,
    status: number,
    code: string,
    message?: string,
  ) => {
    expect(res.statusCode, res.body).toBe(status);
    const { error } = errorEnvelope.parse(res.json());
    expect(error.code).toBe(code);
    if (message !== undefined) expect(error.message).toBe(message);
  };

  it('answers 401 without a token, 400 for a bad body', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/data-transfers' });
    expect(res.statusCode).toBe(401);
    const bad = await post('Jóannes', {
      kind: 'gift',
      fromPhoneNumber: '214455',
      phoneNumber: '557812',
      dataAmount: 0,
    });
    expectError(bad, 400, 'VALIDATION_FAILED');
  });

  it('a gift moves data at once, counts against the month, logs both sides and notifies the receiver', async () => {
    const before = {
      giver: await remaining(LINES.joannes),
      receiver: await remaining(LINES.gudrun),
    };
    const res = await post('Jóannes', {
      kind: 'gift',
      fromPhoneNumber: '214455',
      phoneNumber: '+298 557812',
      dataAmount: 1000,
    });
    expect(res.statusCode, res.body).toBe(201);
    const created = transferAnswer.parse(res.json()).data;
    expect(created).toMatchObject({
      kind: 'gift',
      status: 'approved',
      dataAmount: 1000,
      requester: { phoneNumber: '214455' },
      recipient: { phoneNumber: '557812' },
    });
    expect(await remaining(LINES.joannes)).toBe((before.giver ?? 0) - 1000);
    expect(await remaining(LINES.gudrun)).toBe((before.receiver ?? 0) + 1000);
    expect((await given(LINES.joannes))?.givenMb).toBe(1024 + 1000);

    const log = dataEnvelope(actionsResponse).parse(
      (await act('Jóannes', 'GET', '/api/actions', 'en')).json(),
    ).data;
    expect(log[0]).toMatchObject({ type: 'data_given', dataAmount: 1000, phoneNumber: '214455' });
    expect(log[0]?.text).toContain('You gave');
    const theirs = dataEnvelope(actionsResponse).parse(
      (await act('Guðrun', 'GET', '/api/actions', 'fo')).json(),
    ).data;
    expect(theirs[0]).toMatchObject({ type: 'data_received', dataAmount: 1000 });
    expect(theirs[0]?.text).toContain('Tú fekst');

    const notes = dataEnvelope(notificationsResponse).parse(
      (await act('Guðrun', 'GET', '/api/notifications', 'en')).json(),
    ).data;
    expect(notes.items[0]).toMatchObject({ type: 'data_received', readAt: null });
    expect(notes.items[0]?.body).toContain('gave you');
    expect(notes.items[0]?.body).toContain('21 44 55');
  });

  it('refuses a gift beyond the monthly allowance (GIVE_LIMIT_REACHED) in fo and en', async () => {
    // 5 GB max, 1024 + 1000 given: 3096 MB left this month.
    const body = {
      kind: 'gift',
      fromPhoneNumber: '214455',
      phoneNumber: '557812',
      dataAmount: 3097,
    };
    expectError(
      await post('Jóannes', body, 'fo'),
      422,
      'GIVE_LIMIT_REACHED',
      'Tú kanst ikki geva meira data hendan mánaðin.',
    );
    expectError(
      await post('Jóannes', body, 'en'),
      422,
      'GIVE_LIMIT_REACHED',
      'You cannot give more data this month.',
    );
    expect((await given(LINES.joannes))?.givenMb).toBe(2024);
  });

  it('refuses a gift beyond the data left (INSUFFICIENT_DATA) in fo and en', async () => {
    const left = (await remaining(LINES.roi)) ?? 0;
    const body = {
      kind: 'gift',
      fromPhoneNumber: '779031',
      phoneNumber: '214455',
      dataAmount: left + 1,
    };
    expectError(
      await post('Rói', body, 'fo'),
      422,
      'INSUFFICIENT_DATA',
      'Tú hevur ikki nóg mikið av data.',
    );
    expectError(
      await post('Rói', body, 'en'),
      422,
      'INSUFFICIENT_DATA',
      'You do not have sufficient data.',
    );
    expect(await remaining(LINES.roi)).toBe(left);
  });

  it('refuses one’s own numbers (SELF_REQUEST) in fo and en', async () => {
    for (const phoneNumber of ['214455', '214466']) {
      for (const kind of ['gift', 'request']) {
        const body = { kind, fromPhoneNumber: '214455', phoneNumber, dataAmount: 10 };
        expectError(
          await post('Jóannes', body, 'en'),
          422,
          'SELF_REQUEST',
          'You cannot request data from yourself.',
        );
        expectError(
          await post('Jóannes', body, 'fo'),
          422,
          'SELF_REQUEST',
          'Tú kanst ikki biðja um data frá tínum egna nummari.',
        );
      }
    }
  });

  it('answers NUMBER_NOT_FOUND for a number no customer has, in fo and en', async () => {
    const body = {
      kind: 'request',
      fromPhoneNumber: '214455',
      phoneNumber: '299999',
      dataAmount: 10,
    };
    expectError(
      await post('Jóannes', body, 'en'),
      404,
      'NUMBER_NOT_FOUND',
      "The number you're searching for does not exist",
    );
    expectError(
      await post('Jóannes', body, 'fo'),
      404,
      'NUMBER_NOT_FOUND',
      'Nummarið, tú leitar eftir, finst ikki.',
    );
  });

  it('refuses requests from prepaid numbers and numbers in processing (REQUEST_NOT_ALLOWED)', async () => {
    for (const phoneNumber of ['779031', '557813', '214457']) {
      const body = { kind: 'request', fromPhoneNumber: '214456', phoneNumber, dataAmount: 10 };
      expectError(
        await post('Sunneva', body, 'en'),
        422,
        'REQUEST_NOT_ALLOWED',
        'You cannot request data from this number.',
      );
      expectError(
        await post('Sunneva', body, 'fo'),
        422,
        'REQUEST_NOT_ALLOWED',
        'Tað ber ikki til at biðja um data frá hesum nummarinum.',
      );
    }
    // Giving to a prepaid number is fine (anyone may give to any customer).
    const gift = await post('Sunneva', {
      kind: 'gift',
      fromPhoneNumber: '214456',
      phoneNumber: '779031',
      dataAmount: 5,
    });
    expect(gift.statusCode, gift.body).toBe(201);
  });

  it('refuses a fromPhoneNumber that is not the caller’s (FORBIDDEN); a customer without a line cannot give', async () => {
    const body = { kind: 'gift', fromPhoneNumber: '557812', phoneNumber: '214456', dataAmount: 10 };
    expectError(await post('Jóannes', body), 403, 'FORBIDDEN');
    expectError(await post('Ása', { ...body, fromPhoneNumber: '286311' }), 403, 'FORBIDDEN');
  });

  it('request → pending for the asked customer → approve moves data once; again is CONFLICT', async () => {
    const res = await post('Guðrun', {
      kind: 'request',
      fromPhoneNumber: '557812',
      phoneNumber: '214456',
      dataAmount: 300,
    });
    expect(res.statusCode, res.body).toBe(201);
    const request = transferAnswer.parse(res.json()).data;
    expect(request).toMatchObject({ kind: 'request', status: 'pending', decidedAt: null });

    const list = dataEnvelope(dataTransfersResponse).parse(
      (await act('Sunneva', 'GET', '/api/data-transfers')).json(),
    ).data;
    expect(list.map((r) => r.id)).toEqual([request.id]);
    expect(list[0]?.requester.phoneNumber).toBe('557812');
    // The requester does not see their own request in "pending for me".
    expect(
      dataEnvelope(dataTransfersResponse).parse(
        (await act('Guðrun', 'GET', '/api/data-transfers')).json(),
      ).data,
    ).toEqual([]);
    // Either side may read it; others get NOT_FOUND.
    expect((await act('Sunneva', 'GET', `/api/data-transfers/${request.id}`)).statusCode).toBe(200);
    expect((await act('Guðrun', 'GET', `/api/data-transfers/${request.id}`)).statusCode).toBe(200);
    expectError(await act('Jóannes', 'GET', `/api/data-transfers/${request.id}`), 404, 'NOT_FOUND');
    expectError(await act('Jóannes', 'GET', '/api/data-transfers/not-a-uuid'), 404, 'NOT_FOUND');
    // The request tells the asked customer.
    const notes = dataEnvelope(notificationsResponse).parse(
      (await act('Sunneva', 'GET', '/api/notifications', 'fo')).json(),
    ).data;
    expect(notes.items[0]).toMatchObject({ type: 'data_request', title: 'Umbøn um data' });

    // Only the asked customer approves.
    expectError(
      await act('Guðrun', 'POST', `/api/data-transfers/${request.id}/approve`),
      403,
      'FORBIDDEN',
    );
    const before = {
      giver: await remaining(LINES.sunneva),
      receiver: await remaining(LINES.gudrun),
    };
    const ok = await act('Sunneva', 'POST', `/api/data-transfers/${request.id}/approve`);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(transferAnswer.parse(ok.json()).data.status).toBe('approved');
    expect(await remaining(LINES.sunneva)).toBe((before.giver ?? 0) - 300);
    expect(await remaining(LINES.gudrun)).toBe((before.receiver ?? 0) + 300);
    expect((await given(LINES.sunneva))?.givenMb).toBe(300 + 5);

    expectError(
      await act('Sunneva', 'POST', `/api/data-transfers/${request.id}/approve`, 'en'),
      409,
      'CONFLICT',
    );
    expectError(
      await act('Sunneva', 'DELETE', `/api/data-transfers/${request.id}`),
      409,
      'CONFLICT',
    );
    expect(await remaining(LINES.sunneva)).toBe((before.giver ?? 0) - 300);

    // Approval notifies the requester.
    const theirs = dataEnvelope(notificationsResponse).parse(
      (await act('Guðrun', 'GET', '/api/notifications', 'en')).json(),
    ).data;
    expect(theirs.items[0]).toMatchObject({ type: 'data_received', title: 'You received data' });
  });

  it('approving more than the asked customer has fails with INSUFFICIENT_DATA and leaves it pending', async () => {
    const res = await post('Jóannes', {
      kind: 'request',
      fromPhoneNumber: '214455',
      phoneNumber: '557812',
      dataAmount: 900_000,
    });
    const request = transferAnswer.parse(res.json()).data;
    expectError(
      await act('Guðrun', 'POST', `/api/data-transfers/${request.id}/approve`, 'en'),
      422,
      'INSUFFICIENT_DATA',
      'You do not have sufficient data.',
    );
    const still = transferAnswer.parse(
      (await act('Guðrun', 'GET', `/api/data-transfers/${request.id}`)).json(),
    ).data;
    expect(still.status).toBe('pending');
    // Declined by the asked customer.
    const declined = await act('Guðrun', 'DELETE', `/api/data-transfers/${request.id}`);
    expect(declined.statusCode, declined.body).toBe(200);
    expect(transferAnswer.parse(declined.json()).data.status).toBe('declined');
    expect(
      dataEnvelope(dataTransfersResponse).parse(
        (await act('Guðrun', 'GET', '/api/data-transfers')).json(),
      ).data,
    ).toEqual([]);
  });

  it('the requester may withdraw; strangers get NOT_FOUND', async () => {
    const res = await post('Jóannes', {
      kind: 'request',
      fromPhoneNumber: '214455',
      phoneNumber: '214456',
      dataAmount: 50,
    });
    const request = transferAnswer.parse(res.json()).data;
    expectError(
      await act('Guðrun', 'DELETE', `/api/data-transfers/${request.id}`),
      404,
      'NOT_FOUND',
    );
    const withdrawn = await act('Jóannes', 'DELETE', `/api/data-transfers/${request.id}`);
    expect(withdrawn.statusCode).toBe(200);
    expectError(
      await act('Sunneva', 'POST', `/api/data-transfers/${request.id}/approve`),
      409,
      'CONFLICT',
    );
  });

  it('a retried gift with the same Idempotency-Key moves data once, also when both arrive at once', async () => {
    const before = await remaining(LINES.sunneva);
    const send = (key: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/data-transfers',
        headers: { ...t.as.Sunneva, 'idempotency-key': key },
        payload: { kind: 'gift', fromPhoneNumber: '214456', phoneNumber: '557812', dataAmount: 7 },
      });
    const first = await send('retry-1');
    const again = await send('retry-1');
    expect(first.statusCode, first.body).toBe(201);
    expect(transferAnswer.parse(again.json()).data.id).toBe(
      transferAnswer.parse(first.json()).data.id,
    );
    const both = await Promise.all([send('retry-2'), send('retry-2')]);
    expect(both.map((r) => r.statusCode)).toEqual([201, 201]);
    expect(new Set(both.map((r) => transferAnswer.parse(r.json()).data.id)).size).toBe(1);
    expect(await remaining(LINES.sunneva)).toBe((before ?? 0) - 14);
  });
});
