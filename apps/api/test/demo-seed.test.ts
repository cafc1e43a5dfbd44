import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionType } from '@alda/contract/schemas/actions';
import { agreementStatus } from '@alda/contract/schemas/agreements';
import { orderKind, paymentStatus } from '@alda/contract/schemas/orders';
import { packageKind } from '@alda/contract/schemas/packages';
import { planType } from '@alda/contract/schemas/plans';
import { usageKind } from '@alda/contract/schemas/usage';
import { DEMO_PHONE_LINES, DEMO_USERS } from '../src/seed/demo-users';
import { accounts } from '../src/db/schema/accounts';
import { ACTION_TYPES, actions } from '../src/db/schema/actions';
import { AGREEMENT_STATUSES, paymentAgreements } from '../src/db/schema/agreements';
import { lineBalances, USAGE_KINDS } from '../src/db/schema/balances';
import {
  extraPackages,
  PACKAGE_KINDS,
  PLAN_KINDS,
  plans,
  planTypes,
} from '../src/db/schema/catalog';
import { ORDER_KINDS, orders, PAYMENT_STATUSES } from '../src/db/schema/orders';
import { seedDemoData } from '../src/seed/seed';
import { createTestApp, type TestApp } from './helper';

describe('demo accounts seed', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('is idempotent: a second run adds nothing', async () => {
    const count = async () => ({
      planTypes: await t.app.db.$count(planTypes),
      plans: await t.app.db.$count(plans),
      packages: await t.app.db.$count(extraPackages),
      accounts: await t.app.db.$count(accounts),
      orders: await t.app.db.$count(orders),
      balances: await t.app.db.$count(lineBalances),
      agreements: await t.app.db.$count(paymentAgreements),
      actions: await t.app.db.$count(actions),
    });
    await seedDemoData(t.app.db);
    const first = await count();
    expect(first).toEqual({
      planTypes: 3,
      plans: 6,
      packages: 4,
      accounts: 5,
      orders: 10,
      balances: 5,
      agreements: 2,
      actions: 16,
    });
    await seedDemoData(t.app.db);
    expect(await count()).toEqual(first);
  });

  it('has a customer without any line for the welcome screen, and says what each login shows', () => {
    const asa = DEMO_USERS.find((u) => u.email === 'ny@demo.alda.fo');
    expect(asa).toMatchObject({ firstname: 'Ása', lastname: 'Hansen', hasLine: false });
    expect(DEMO_PHONE_LINES.some((l) => l.userId === asa?.id)).toBe(false);
    for (const u of DEMO_USERS) expect(u.role.length).toBeGreaterThan(10);
  });

  it('stores exactly the enums the contract defines', () => {
    const same = (db: readonly string[], contract: readonly string[]) =>
      expect([...db].sort()).toEqual([...contract].sort());
    same(ACTION_TYPES, actionType.options);
    same(AGREEMENT_STATUSES, agreementStatus.options);
    same(ORDER_KINDS, orderKind.options);
    same(PAYMENT_STATUSES, paymentStatus.options);
    same(PACKAGE_KINDS, packageKind.options);
    same(PLAN_KINDS, planType.options);
    same(USAGE_KINDS, usageKind.options);
  });
});
