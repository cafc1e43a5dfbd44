import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope } from '@alda/contract/envelope';
import { actionsResponse } from '@alda/contract/schemas/actions';
import { notificationsResponse } from '@alda/contract/schemas/notifications';
import { subscriptionsResponse } from '@alda/contract/schemas/subscriptions';
import { lineBalances } from '../src/db/schema/balances';
import { extraPackages } from '../src/db/schema/catalog';
import { receipts } from '../src/db/schema/payments';
import { createDemoApp, LINES, NOW, type DemoName } from './demo-accounts';
import { demoUser, parse } from './helper';
import { expectError, paidOrder } from './purchases-fixtures';
import { DEMO_ACCOUNT_IDS } from '../src/seed/demo-accounts';

const GB = 1024;

describe('extra packages: POST /api/packages and fulfilment (SPEC §1, §7)', () => {
  let t: Awaited<ReturnType<typeof createDemoApp>>;
  beforeAll(async () => {
    t = await createDemoApp();
  });
  afterAll(() => t.close());

  let keys = 0;
  const buy = (
    who: DemoName,
    payload: Record<string, unknown>,
    { lang = 'fo', key = `key-${(keys += 1)}` }: { lang?: string; key?: string | null } = {},
  ) =>
    t.app.inject({
      method: 'POST',
      url: '/api/packages',
      headers: {
        ...t.as[who],
        'accept-language': lang,
        ...(key === null ? {} : { 'idempotency-key': key }),
      },
      payload,
    });
  const balance = async (lineId: string) => {
    const [row] = await t.app.db.select().from(lineBalances).where(eq(lineBalances.lineId, lineId));
    return row;
  };

  it('answers 401 without a token and 400 for a bad body', async () => {
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/packages',
      payload: { packageId: 'data-5', phoneNumber: '214455' },
    });
    expect(anonymous.statusCode).toBe(401);
    expectError(
      await buy('Jóannes', { packageId: 'data-5', phoneNumber: '12' }),
      400,
      'VALIDATION_FAILED',
    );
  });

  it('SPEC §8 buying an extra package: 400 IDEMPOTENCY_KEY_REQUIRED without the header, in fo and en', async () => {
    expectError(
      await buy('Jóannes', { packageId: 'data-5', phoneNumber: '214455' }, { key: null }),
      400,
      'IDEMPOTENCY_KEY_REQUIRED',
      'Umbønin manglar ein eintýddan lykil (Idempotency-Key).',
    );
    expectError(
      await buy(
        'Jóannes',
        { packageId: 'data-5', phoneNumber: '214455' },
        { key: null, lang: 'en' },
      ),
      400,
      'IDEMPOTENCY_KEY_REQUIRED',
      'The request is missing an Idempotency-Key header.',
    );
  });

  it('404 NOT_FOUND for an unknown package', async () => {
    expectError(
      await buy('Jóannes', { packageId: 'data-999', phoneNumber: '214455' }, { lang: 'en' }),
      404,
      'NOT_FOUND',
    );
  });

  it("404 NUMBER_NOT_FOUND for a number that is not the caller's, a member buying for the owner, or no number at all", async () => {
    // Guðrun's number, bought by Jóannes.
    expectError(
      await buy('Jóannes', { packageId: 'data-5', phoneNumber: '557812' }),
      404,
      'NUMBER_NOT_FOUND',
      'Nummarið, tú leitar eftir, finst ikki.',
    );
    // Sunneva is a member of Jóannes's family: she may not buy for the owner's number.
    expectError(
      await buy('Sunneva', { packageId: 'data-5', phoneNumber: '214455' }, { lang: 'en' }),
      404,
      'NUMBER_NOT_FOUND',
      "The number you're searching for does not exist",
    );
    // A number nobody has, and one still being set up (Bárður): the same answer, no enumeration.
    expectError(
      await buy('Jóannes', { packageId: 'data-5', phoneNumber: '299999' }),
      404,
      'NUMBER_NOT_FOUND',
    );
    expectError(
      await buy('Jóannes', { packageId: 'data-5', phoneNumber: '214457' }),
      404,
      'NUMBER_NOT_FOUND',
    );
  });

  it('422 PACKAGE_NOT_AVAILABLE: a data package on a prepaid number, EU data without the EU package, a withdrawn package', async () => {
    expectError(
      await buy('Rói', { packageId: 'data-1', phoneNumber: '779031' }),
      422,
      'PACKAGE_NOT_AVAILABLE',
      'Hesin pakkin er ikki til sølu til hetta nummarið.',
    );
    // Jóannes's work number has no EU package.
    expectError(
      await buy('Jóannes', { packageId: 'eu-5', phoneNumber: '214466' }, { lang: 'en' }),
      422,
      'PACKAGE_NOT_AVAILABLE',
      'This package is not for sale for this number.',
    );
    await t.app.db.insert(extraPackages).values({
      id: 'data-old',
      kind: 'data',
      nameFo: '3 GB',
      nameEn: '3 GB',
      dataMb: 3 * GB,
      priceOere: 5_900,
      isOffered: false,
    });
    expectError(
      await buy('Jóannes', { packageId: 'data-old', phoneNumber: '214455' }),
      422,
      'PACKAGE_NOT_AVAILABLE',
    );
  });

  it('SPEC §1: a paid data package adds its data to the month at once — GET /api/subscriptions shows more, the order is complete, with a receipt, a log entry and a notification', async () => {
    const before = await balance(LINES.sunneva);
    const show = async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/subscriptions',
        headers: t.as.Sunneva,
      });
      return parse(dataEnvelope(subscriptionsResponse), res).data.currentAccount?.currentMember;
    };
    const shownBefore = await show();
    // The family owner buys 5 GB for Sunneva's number.
    const { order } = await paidOrder(
      t.app,
      {
        userId: demoUser('Jóannes').id,
        kind: 'extra_package',
        lineId: LINES.sunneva,
        accountId: DEMO_ACCOUNT_IDS.joensenFamily,
        msisdn: '214456',
        packageId: 'data-5',
        priceOere: 9_900,
      },
      NOW,
    );
    const after = await balance(LINES.sunneva);
    expect(after?.domesticTotalMb).toBe((before?.domesticTotalMb ?? 0) + 5 * GB);
    expect(after?.domesticRemainingMb).toBe((before?.domesticRemainingMb ?? 0) + 5 * GB);
    expect(after?.euAllowanceMb).toBe(before?.euAllowanceMb);
    const shown = await show();
    expect(shown?.dataTotal.domestic).toBe((shownBefore?.dataTotal.domestic ?? 0) + 5 * GB);
    expect(shown?.dataRemaining.domestic).toBe((shownBefore?.dataRemaining.domestic ?? 0) + 5 * GB);

    expect(order.isComplete).toBe(true);
    expect(order.completedAt?.toISOString()).toBe(NOW.toISOString());
    const [receipt] = await t.app.db.select().from(receipts).where(eq(receipts.orderId, order.id));
    expect(receipt?.grossOere).toBe(9_900);
    expect(receipt?.lines[0]?.description).toContain('21 44 56');
    // Valid until the end of the month in Atlantic/Faroe (June 2026: 30.06.2026).
    expect(receipt?.lines[0]?.description).toContain('30.06.2026');

    // The buyer's log and the number's user's log both say it, each in its own language.
    for (const [who, text] of [
      ['Jóannes', 'Extra package bought: 5 GB'],
      ['Sunneva', 'Extra package bought: 5 GB'],
    ] as const) {
      const log = parse(
        dataEnvelope(actionsResponse),
        await t.app.inject({
          method: 'GET',
          url: '/api/actions',
          headers: { ...t.as[who], 'accept-language': 'en' },
        }),
      ).data;
      expect(log.map((a) => a.text)).toContain(text);
    }
    const notes = parse(
      dataEnvelope(notificationsResponse),
      await t.app.inject({
        method: 'GET',
        url: '/api/notifications',
        headers: { ...t.as.Sunneva, 'accept-language': 'fo' },
      }),
    ).data;
    expect(notes.items[0]?.title).toBe('Eykapakkin er settur til');
    expect(notes.items[0]?.body).toContain('30.06.2026');
  });

  it('SPEC §1: a paid EU data package adds to the EU allowance, not the domestic data', async () => {
    const before = await balance(LINES.gudrun);
    await paidOrder(
      t.app,
      {
        userId: demoUser('Guðrun').id,
        kind: 'extra_package',
        lineId: LINES.gudrun,
        msisdn: '557812',
        packageId: 'eu-5',
        priceOere: 6_900,
      },
      NOW,
    );
    const after = await balance(LINES.gudrun);
    expect(after?.euAllowanceMb).toBe((before?.euAllowanceMb ?? 0) + 5 * GB);
    expect(after?.domesticTotalMb).toBe(before?.domesticTotalMb);
    expect(after?.domesticRemainingMb).toBe(before?.domesticRemainingMb);
  });

  it('a line without a balance this month gets one from its plan, plus the package', async () => {
    await t.app.db.delete(lineBalances).where(and(eq(lineBalances.lineId, LINES.joannesWork)));
    await paidOrder(
      t.app,
      {
        userId: demoUser('Jóannes').id,
        kind: 'extra_package',
        lineId: LINES.joannesWork,
        msisdn: '214466',
        packageId: 'data-1',
        priceOere: 3_900,
      },
      NOW,
    );
    const after = await balance(LINES.joannesWork);
    // individual-5: 5 GB + the 1 GB package.
    expect(after?.domesticTotalMb).toBe(6 * GB);
    expect(after?.domesticRemainingMb).toBe(6 * GB);
    expect(after?.euAllowanceMb).toBeNull();
  });
});
