import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope } from '@alda/contract/envelope';
import { actionsResponse } from '@alda/contract/schemas/actions';
import { monthlyPriceResponse } from '@alda/contract/schemas/billing';
import { account, subscriptionsResponse } from '@alda/contract/schemas/subscriptions';
import { lineBalances } from '../src/db/schema/balances';
import { orders } from '../src/db/schema/orders';
import { createDemoApp, LINES, type DemoName } from './demo-accounts';
import { demoUser, parse } from './helper';
import { expectError } from './purchases-fixtures';

const GB = 1024;

describe('PATCH /api/subscriptions { euPackage } — the EU package toggle (SPEC §1, §7)', () => {
  let t: Awaited<ReturnType<typeof createDemoApp>>;
  beforeAll(async () => {
    t = await createDemoApp();
  });
  afterAll(() => t.close());

  const toggle = (who: DemoName, euPackage: unknown, lang = 'fo', query = '') =>
    t.app.inject({
      method: 'PATCH',
      url: `/api/subscriptions${query}`,
      headers: { ...t.as[who], 'accept-language': lang },
      payload: { euPackage },
    });
  const euAllowance = async (lineId: string) => {
    const [row] = await t.app.db.select().from(lineBalances).where(eq(lineBalances.lineId, lineId));
    return row?.euAllowanceMb;
  };
  const monthly = async (who: DemoName) =>
    parse(
      dataEnvelope(monthlyPriceResponse),
      await t.app.inject({ method: 'GET', url: '/api/billing/monthly-price', headers: t.as[who] }),
    ).data;
  const euLog = async () =>
    parse(
      dataEnvelope(actionsResponse),
      await t.app.inject({
        method: 'GET',
        url: '/api/actions',
        headers: { ...t.as.Jóannes, 'accept-language': 'en' },
      }),
    ).data.filter((a) => a.type === 'eu_package_changed');
  const euOrders = () =>
    t.app.db
      .select()
      .from(orders)
      .where(and(eq(orders.userId, demoUser('Jóannes').id), eq(orders.kind, 'eu_package')));

  /** Entries the demo log already has (the package was switched on long ago). */
  let seeded = 0;

  it('switching off: the account and GET /api/subscriptions show it, the EU allowance is cleared, the monthly price drops, one log entry, one complete eu_package order', async () => {
    seeded = (await euLog()).length;
    const before = await monthly('Jóannes');
    const res = await toggle('Jóannes', false);
    const { data } = parse(dataEnvelope(account), res);
    expect(data.euPackage).toBe(false);
    expect(data.currentMember.phoneNumber).toBe('214455');
    expect(data.currentMember.dataTotal.eu).toBeNull();
    const overview = parse(
      dataEnvelope(subscriptionsResponse),
      await t.app.inject({ method: 'GET', url: '/api/subscriptions', headers: t.as.Jóannes }),
    ).data;
    expect(overview.currentAccount).toEqual(data);
    expect(await euAllowance(LINES.joannes)).toBeNull();
    expect(await euAllowance(LINES.sunneva)).toBeNull();
    const after = await monthly('Jóannes');
    expect(after.lines.some((l) => l.kind === 'eu_package')).toBe(false);
    expect(before.total.gross - after.total.gross).toBe(5_900);
    const log = await euLog();
    expect(log).toHaveLength(seeded + 1);
    expect(log[0]?.text).toBe('EU package switched off');
    const placed = await euOrders();
    expect(placed).toHaveLength(1);
    expect(placed[0]).toMatchObject({
      paymentStatus: 'not_required',
      isComplete: true,
      priceOere: null,
    });
  });

  it('setting the same value twice changes nothing: no second log entry or order', async () => {
    const { data } = parse(dataEnvelope(account), await toggle('Jóannes', false));
    expect(data.euPackage).toBe(false);
    expect(await euLog()).toHaveLength(seeded + 1);
    expect(await euOrders()).toHaveLength(1);
  });

  it("switching on again restores the plan's EU data for the month (never below what was used abroad)", async () => {
    const { data } = parse(dataEnvelope(account), await toggle('Jóannes', true, 'en'));
    expect(data.euPackage).toBe(true);
    expect(data.currentMember.dataTotal.eu).toBe(25 * GB);
    // Jóannes had used 1,200 MB abroad this month: it stays used.
    expect(data.currentMember.dataUsed?.eu).toBe(1_200);
    expect(await euAllowance(LINES.sunneva)).toBe(25 * GB);
    expect((await monthly('Jóannes')).lines.some((l) => l.kind === 'eu_package')).toBe(true);
    const log = await euLog();
    expect(log).toHaveLength(seeded + 2);
    // Both happen at the pinned demo clock, so their order in the log is a tie.
    expect(log.filter((a) => a.text === 'EU package switched off')).toHaveLength(1);
    expect(log.filter((a) => a.text === 'EU package switched on')).toHaveLength(seeded + 1);
  });

  it('SPEC §6: only the owner of the current account — a family member gets 403 OWNER_ONLY in fo and en', async () => {
    expectError(
      await toggle('Sunneva', false),
      403,
      'OWNER_ONLY',
      'Bara eigarin av haldinum kann gera hetta.',
    );
    expectError(
      await toggle('Sunneva', false, 'en'),
      403,
      'OWNER_ONLY',
      'Only the owner of the subscription can do this.',
    );
    expect(await euAllowance(LINES.sunneva)).toBe(25 * GB);
  });

  it('query line picks the account: the work number (individual-5) gets its own EU package', async () => {
    const { data } = parse(
      dataEnvelope(account),
      await toggle('Jóannes', true, 'fo', '?line=214466'),
    );
    expect(data.currentMember.phoneNumber).toBe('214466');
    expect(data.euPackage).toBe(true);
    expect(await euAllowance(LINES.joannesWork)).toBe(10 * GB);
    const lines = (await monthly('Jóannes')).lines.filter((l) => l.kind === 'eu_package');
    expect(lines.map((l) => [l.phoneNumber, l.price.gross])).toEqual([
      ['214455', 5_900],
      ['214466', 4_900],
    ]);
  });

  it('two toggles to the same value at once make one change: the account row is locked, the second sees it done', async () => {
    const gudrunLog = async () =>
      parse(
        dataEnvelope(actionsResponse),
        await t.app.inject({ method: 'GET', url: '/api/actions', headers: t.as.Guðrun }),
      ).data.filter((a) => a.type === 'eu_package_changed');
    const before = (await gudrunLog()).length;
    const answers = await Promise.all([toggle('Guðrun', false), toggle('Guðrun', false)]);
    for (const res of answers) expect(parse(dataEnvelope(account), res).data.euPackage).toBe(false);
    expect(await gudrunLog()).toHaveLength(before + 1);
    const placed = await t.app.db
      .select()
      .from(orders)
      .where(and(eq(orders.userId, demoUser('Guðrun').id), eq(orders.kind, 'eu_package')));
    expect(placed).toHaveLength(1);
    expect(await euAllowance(LINES.gudrun)).toBeNull();
  });

  it('422 PACKAGE_NOT_AVAILABLE on a prepaid plan without an EU package; 400 for a body that is not the toggle', async () => {
    expectError(await toggle('Rói', true, 'en'), 422, 'PACKAGE_NOT_AVAILABLE');
    expectError(await toggle('Jóannes', 'yes'), 400, 'VALIDATION_FAILED');
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/api/subscriptions',
      headers: t.as.Jóannes,
      payload: {},
    });
    expectError(res, 400, 'VALIDATION_FAILED');
  });
});
