import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope } from '@alda/contract/envelope';
import { notificationsResponse } from '@alda/contract/schemas/notifications';
import { subscriptionsResponse } from '@alda/contract/schemas/subscriptions';
import { topUpOptionsResponse } from '@alda/contract/schemas/top-ups';
import { prepaidBalances } from '../src/db/schema/balances';
import { createDemoApp, LINES, NOW, type DemoName } from './demo-accounts';
import { demoUser, parse } from './helper';
import { expectError, paidOrder } from './purchases-fixtures';

describe('top-up of a prepaid number: GET /api/top-ups/options, POST /api/top-ups (SPEC §1, §8 top-up errors)', () => {
  let t: Awaited<ReturnType<typeof createDemoApp>>;
  beforeAll(async () => {
    t = await createDemoApp();
  });
  afterAll(() => t.close());

  let keys = 0;
  const topUp = (
    who: DemoName,
    payload: Record<string, unknown>,
    lang = 'fo',
    key: string | null = `k${(keys += 1)}`,
  ) =>
    t.app.inject({
      method: 'POST',
      url: '/api/top-ups',
      headers: {
        ...t.as[who],
        'accept-language': lang,
        ...(key === null ? {} : { 'idempotency-key': key }),
      },
      payload,
    });
  const credit = async () => {
    const [row] = await t.app.db
      .select()
      .from(prepaidBalances)
      .where(eq(prepaidBalances.lineId, LINES.roi));
    return row?.balanceOere ?? 0;
  };

  it('offers amounts within the range', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/top-ups/options',
      headers: t.as.Rói,
    });
    const { data } = parse(dataEnvelope(topUpOptionsResponse), res);
    expect(data.amounts).toEqual([5_000, 10_000, 20_000, 30_000, 50_000]);
    for (const amount of data.amounts) {
      expect(amount).toBeGreaterThanOrEqual(data.minOere);
      expect(amount).toBeLessThanOrEqual(data.maxOere);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/top-ups/options' })).statusCode).toBe(
      401,
    );
  });

  it('400 IDEMPOTENCY_KEY_REQUIRED without the header', async () => {
    expectError(
      await topUp('Rói', { phoneNumber: '779031', amount: 10_000 }, 'en', null),
      400,
      'IDEMPOTENCY_KEY_REQUIRED',
    );
  });

  it('SPEC §8 top-up errors: TOP_UP_NOT_PREPAID for a number with a plan, in fo and en', async () => {
    expectError(
      await topUp('Jóannes', { phoneNumber: '214455', amount: 10_000 }),
      422,
      'TOP_UP_NOT_PREPAID',
      'Bert talutíðarnummur kunnu fyllast uppá.',
    );
    expectError(
      await topUp('Jóannes', { phoneNumber: '214455', amount: 10_000 }, 'en'),
      422,
      'TOP_UP_NOT_PREPAID',
      'Only prepaid numbers can be topped up.',
    );
  });

  it('SPEC §8 top-up errors: TOP_UP_AMOUNT_INVALID below the minimum, above the maximum or not whole kroner', async () => {
    for (const amount of [4_900, 100_100, 10_050]) {
      expectError(
        await topUp('Rói', { phoneNumber: '779031', amount }),
        422,
        'TOP_UP_AMOUNT_INVALID',
        'Upphæddin kann ikki fyllast uppá. Vel eina aðra upphædd.',
      );
    }
    expectError(
      await topUp('Rói', { phoneNumber: '779031', amount: 1 }, 'en'),
      422,
      'TOP_UP_AMOUNT_INVALID',
      'That amount cannot be topped up. Choose another amount.',
    );
    expectError(
      await topUp('Rói', { phoneNumber: '779031', amount: -100 }),
      400,
      'VALIDATION_FAILED',
    );
  });

  it("own numbers only: another customer's prepaid number is 404 NUMBER_NOT_FOUND", async () => {
    expectError(
      await topUp('Jóannes', { phoneNumber: '779031', amount: 10_000 }),
      404,
      'NUMBER_NOT_FOUND',
    );
  });

  it('a paid top-up adds its amount to the prepaid credit, shown by GET /api/subscriptions', async () => {
    const before = await credit();
    await paidOrder(
      t.app,
      {
        userId: demoUser('Rói').id,
        kind: 'top_up',
        lineId: LINES.roi,
        msisdn: '779031',
        priceOere: 20_000,
      },
      NOW,
    );
    expect(await credit()).toBe(before + 20_000);
    const overview = parse(
      dataEnvelope(subscriptionsResponse),
      await t.app.inject({ method: 'GET', url: '/api/subscriptions', headers: t.as.Rói }),
    ).data;
    expect(overview.currentAccount?.currentMember.prepaidBalance).toBe(before + 20_000);
    const notes = parse(
      dataEnvelope(notificationsResponse),
      await t.app.inject({
        method: 'GET',
        url: '/api/notifications',
        headers: { ...t.as.Rói, 'accept-language': 'fo' },
      }),
    ).data;
    expect(notes.items[0]).toMatchObject({
      title: 'Fylt uppá',
      body: 'Innistøðan á 77 90 31 er fylt uppá við 200,00 kr.',
    });
  });
});
