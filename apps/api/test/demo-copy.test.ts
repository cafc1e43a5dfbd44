import type { FastifyInstance } from 'fastify';
import type { PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope, errorEnvelope } from '@alda/contract/envelope';
import { actionsResponse } from '@alda/contract/schemas/actions';
import { tokens } from '@alda/contract/schemas/auth';
import { notificationsResponse } from '@alda/contract/schemas/notifications';
import { ordersResponse } from '@alda/contract/schemas/orders';
import {
  subscriptionsResponse,
  type Account,
  type SubscriptionsResponse,
} from '@alda/contract/schemas/subscriptions';
import { accounts } from '../src/db/schema/accounts';
import { actions } from '../src/db/schema/actions';
import { paymentAgreements } from '../src/db/schema/agreements';
import {
  givenDataCounters,
  lineBalances,
  prepaidBalances,
  usageDaily,
  usageRecords,
} from '../src/db/schema/balances';
import { extraPackages, plans, planTypes } from '../src/db/schema/catalog';
import { contentPages } from '../src/db/schema/content-pages';
import { notifications } from '../src/db/schema/data-transfers';
import { orders } from '../src/db/schema/orders';
import { phoneLines } from '../src/db/schema/phone-lines';
import { provisioningSteps, simPickupLocations } from '../src/db/schema/provisioning';
import { statusMessages } from '../src/db/schema/status-messages';
import { testProviderCards } from '../src/db/schema/test-provider';
import { users } from '../src/db/schema/users';
import { DEMO_ACCOUNT_IDS } from '../src/seed/demo-accounts';
import type { DemoCopy } from '../src/seed/demo-copy';
import { DEMO_LINE_IDS, DEMO_PASSWORD, DEMO_PHONE_LINES, DEMO_USERS } from '../src/seed/demo-users';
import { seedDemoData, seedReferenceData } from '../src/seed/seed';
import { billItems, bills } from '../src/db/schema/bills';
import { createTestApp, parse, type TestApp } from './helper';

/** The moment the demo and its copies are made and read in (mid-June 2026). */
const NOW = new Date('2026-06-15T12:00:00.000Z');

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const DEMO_NUMBERS = new Set([
  ...DEMO_USERS.map((u) => u.phoneNumber),
  ...DEMO_PHONE_LINES.map((l) => l.msisdn),
]);
const DEMO_EMAILS = new Set(DEMO_USERS.map((u) => u.email));

/** What a copy inserts per table (the demo's own rows), and the shared tables it leaves alone. */
const COPIED = {
  users,
  phoneLines,
  accounts,
  orders,
  provisioningSteps,
  lineBalances,
  usageDaily,
  givenDataCounters,
  prepaidBalances,
  paymentAgreements,
  testProviderCards,
  actions,
  notifications,
  usageRecords,
  bills,
  billItems,
} satisfies Record<string, PgTable>;
const SHARED = {
  planTypes,
  plans,
  extraPackages,
  statusMessages,
  contentPages,
  simPickupLocations,
} satisfies Record<string, PgTable>;

async function countRows<T extends Record<string, PgTable>>(app: FastifyInstance, tables: T) {
  const counts: Record<string, number> = {};
  for (const [name, table] of Object.entries(tables)) counts[name] = await app.db.$count(table);
  return counts as Record<keyof T, number>;
}

/** A number as texts show it: `214455` → `21 44 55`. */
const spaced = (n: string) => n.replace(/^(\d{2})(\d{2})(\d{2})$/, '$1 $2 $3');

/** Every string inside a value (rows, JSON columns, answers). */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.values(value).flatMap(stringsOf);
  }
  return [];
}

/** Reads every row of these tables. */
async function rowsOf<T extends Record<string, PgTable>>(app: FastifyInstance, tables: T) {
  const rows: Record<string, unknown[]> = {};
  for (const [name, table] of Object.entries(tables))
    rows[name] = await app.db.select().from(table);
  return rows as Record<keyof T, unknown[]>;
}

describe('POST /dev/demo-copy: a private copy of the demo data set per browser journey', () => {
  let t: TestApp;
  /** The demo's own row counts, before any copy. */
  let demoCounts: Record<keyof typeof COPIED, number>;
  let demoNumberedOrders = 0;
  let sharedCounts: Record<keyof typeof SHARED, number>;
  let first: DemoCopy;
  let second: DemoCopy;
  /**
   * The demo's own unique values as they appear in its rows: every id, e-mail, number and card
   * reference. No row or answer of a copy may carry any of them.
   */
  let demoValue: RegExp;
  /** The demo value a string carries (a number also as shown, `21 44 55`), if any. */
  const demoValueIn = (value: unknown) =>
    stringsOf(value)
      .map((text) => demoValue.exec(text)?.[0])
      .find((found) => found !== undefined);

  const copy = async (): Promise<DemoCopy> => {
    const res = await t.app.inject({ method: 'POST', url: '/dev/demo-copy' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    return (res.json() as { data: DemoCopy }).data;
  };
  const signIn = async (email: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/email-login',
      payload: { email, password: DEMO_PASSWORD },
    });
    expect(res.statusCode, res.body).toBe(200);
    return { authorization: `Bearer ${parse(dataEnvelope(tokens), res).data.accessToken}` };
  };
  const get = async (url: string, headers: Record<string, string>) => {
    const res = await t.app.inject({ method: 'GET', url, headers });
    expect(res.statusCode, res.body).toBe(200);
    return res;
  };
  const subscriptions = async (headers: Record<string, string>) =>
    parse(dataEnvelope(subscriptionsResponse), await get('/api/subscriptions', headers)).data;
  const demoEmail = (firstname: string) => {
    const user = DEMO_USERS.find((u) => u.firstname === firstname);
    if (!user) throw new Error(`no demo user ${firstname}`);
    return user.email;
  };

  /** Every account of an answer (current, other and individual), by id. */
  const accountsOf = (answer: SubscriptionsResponse): Account[] => {
    const all = [
      ...(answer.currentAccount ? [answer.currentAccount] : []),
      ...answer.otherAccounts,
      ...answer.individuals,
    ];
    return [...new Map(all.map((a) => [a.id, a])).values()];
  };

  /**
   * A copy's answer in the demo's terms: its customers', lines' and accounts' ids, e-mails and
   * numbers turned back into the demo's, any other id (orders, actions…) made `<id>` on both
   * sides. A complete copy then answers exactly what the demo answers.
   */
  const asDemo = (value: unknown, c?: DemoCopy): unknown => {
    const back = new Map<string, string>();
    if (c) {
      for (const user of DEMO_USERS) {
        const mine = c.users[user.firstname];
        if (!mine) throw new Error(`copy without ${user.firstname}`);
        back
          .set(mine.id, user.id)
          .set(mine.email, user.email)
          .set(mine.phoneNumber, user.phoneNumber);
      }
      for (const [name, id] of Object.entries(DEMO_LINE_IDS)) {
        const mine = c.lines[name as keyof typeof DEMO_LINE_IDS];
        const demo = DEMO_PHONE_LINES.find((l) => l.id === id);
        if (!demo) throw new Error(`no demo line ${name}`);
        // The number also as texts show it (`21 44 55`).
        back
          .set(mine.id, id)
          .set(mine.msisdn, demo.msisdn)
          .set(spaced(mine.msisdn), spaced(demo.msisdn));
      }
      for (const [name, id] of Object.entries(DEMO_ACCOUNT_IDS)) {
        back.set(c.accounts[name as keyof typeof DEMO_ACCOUNT_IDS], id);
      }
    }
    const known = new Set<string>([
      ...DEMO_USERS.map((u) => u.id),
      ...Object.values(DEMO_LINE_IDS),
      ...Object.values(DEMO_ACCOUNT_IDS),
    ]);
    const keys = [...back.keys()].map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    const pattern = keys.length > 0 ? new RegExp(keys.join('|'), 'g') : undefined;
    const walk = (v: unknown): unknown => {
      if (typeof v === 'string') {
        const mapped = pattern ? v.replace(pattern, (m) => back.get(m) ?? m) : v;
        return mapped.replace(UUID, (id) => (known.has(id) ? id : '<id>'));
      }
      if (Array.isArray(v)) return v.map(walk);
      if (v && typeof v === 'object') {
        return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
      }
      return v;
    };
    return walk(value);
  };

  beforeAll(async () => {
    t = await createTestApp(
      { DEMO_MODE: 'true', USAGE_SIMULATOR_INTERVAL_S: '0' },
      { now: () => NOW },
    );
    await seedReferenceData(t.app.db);
    await seedDemoData(t.app.db, NOW, undefined, { bills: true });
    demoCounts = await countRows(t.app, COPIED);
    // Orders that name a number (a month's payment names none).
    demoNumberedOrders = (await t.app.db.select().from(orders)).filter((o) => o.msisdn).length;
    const demoStrings = stringsOf(await rowsOf(t.app, COPIED));
    const ids = new Set(demoStrings.flatMap((text) => text.match(UUID) ?? []));
    const cards = new Set(demoStrings.filter((text) => text.startsWith('demo-card-')));
    const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    demoValue = new RegExp(
      [
        ...[...ids].map(escape),
        ...[...DEMO_EMAILS].map(escape),
        ...[...cards].map((card) => `${escape(card)}(?![a-z0-9-])`),
        // A number on its own: not inside a longer run of digits, nor inside a fresh random id
        // (a UUID's hex can hold six digits in a row, always beside a letter).
        ...[...DEMO_NUMBERS].flatMap((n) => [`(?<![0-9A-Za-z])${n}(?![0-9A-Za-z])`, spaced(n)]),
      ].join('|'),
    );
    // A fresh random id that happens to hold a demo number is not a demo value (a CI run met one).
    expect(demoValue.test(`0a${[...DEMO_NUMBERS][0]}b-0000-4000-8000-000000000000`)).toBe(false);
    expect(ids.size).toBeGreaterThan(50);
    expect(cards.size).toBe(2);
    sharedCounts = await countRows(t.app, SHARED);
    first = await copy();
    second = await copy();
  });
  afterAll(() => t.close());

  it('answers every demo customer, line and account of the copy by the demo’s names', () => {
    for (const c of [first, second]) {
      expect(Object.keys(c.users).sort()).toEqual(DEMO_USERS.map((u) => u.firstname).sort());
      expect(Object.keys(c.lines).sort()).toEqual(Object.keys(DEMO_LINE_IDS).sort());
      expect(Object.keys(c.accounts).sort()).toEqual(Object.keys(DEMO_ACCOUNT_IDS).sort());
      for (const user of DEMO_USERS) {
        expect(c.users[user.firstname]).toMatchObject({
          firstname: user.firstname,
          lastname: user.lastname,
          email: expect.stringMatching(/^[a-z]+\+c[0-9a-f]+@demo\.alda\.fo$/),
          phoneNumber: expect.stringMatching(/^2[2-7][0-9]{4}$/),
        });
      }
      for (const line of Object.values(c.lines)) {
        expect(line.msisdn).toMatch(/^2[2-7][0-9]{4}$/);
      }
      // A customer's own line has the customer's number.
      expect(c.lines.joannes.msisdn).toBe(c.users['Jóannes']?.phoneNumber);
      expect(c.lines.gudrun.msisdn).toBe(c.users['Guðrun']?.phoneNumber);
    }
  });

  it('gives each copy its own ids, e-mails and numbers, none of them the demo’s or the other copy’s', () => {
    const values = (c: DemoCopy) => [
      ...Object.values(c.users).flatMap((u) => [u.id, u.email, u.phoneNumber]),
      ...Object.values(c.lines).flatMap((l) => [l.id, l.msisdn]),
      ...Object.values(c.accounts),
    ];
    const a = values(first);
    const b = values(second);
    // All different within a copy, but for the four lines that are their users' own numbers.
    expect(new Set(a).size).toBe(a.length - 4);
    const demo = new Set<string>([
      ...DEMO_USERS.flatMap((u) => [u.id, u.email, u.phoneNumber]),
      ...Object.values(DEMO_LINE_IDS),
      ...DEMO_PHONE_LINES.map((l) => l.msisdn),
      ...Object.values(DEMO_ACCOUNT_IDS),
    ]);
    for (const value of a) {
      expect(demo.has(value), value).toBe(false);
      expect(b.includes(value), value).toBe(false);
    }
    for (const value of b) expect(demo.has(value), value).toBe(false);
    // Seven lines with seven numbers, five customers with five: all distinct.
    expect(new Set(Object.values(first.lines).map((l) => l.msisdn)).size).toBe(7);
    expect(new Set(Object.values(first.users).map((u) => u.phoneNumber)).size).toBe(5);
  });

  it('inserts exactly the demo’s rows once more per copy, and none of the shared reference data', async () => {
    const after = await countRows(t.app, COPIED);
    for (const name of Object.keys(COPIED) as (keyof typeof COPIED)[]) {
      expect(after[name], name).toBe(demoCounts[name] * 3);
    }
    expect(await countRows(t.app, SHARED)).toEqual(sharedCounts);
    // Only the demo's own rows carry the demo's ids, e-mails, numbers and card references: each
    // copy's rows have their own everywhere, in JSON columns and texts too.
    const rows = await rowsOf(t.app, COPIED);
    for (const name of Object.keys(COPIED) as (keyof typeof COPIED)[]) {
      const withDemoValues = rows[name].filter((row) => demoValueIn(row) !== undefined);
      expect(withDemoValues.length, name).toBe(demoCounts[name]);
    }
    // No copied row carries a demo e-mail or number or a demo id outside the demo's own rows.
    const copyUsers = await t.app.db.select().from(users);
    expect(copyUsers.filter((u) => DEMO_EMAILS.has(u.email))).toHaveLength(DEMO_USERS.length);
    const lines = await t.app.db.select().from(phoneLines);
    expect(lines.filter((l) => DEMO_NUMBERS.has(l.msisdn))).toHaveLength(DEMO_PHONE_LINES.length);
    const orderRows = await t.app.db.select().from(orders);
    expect(orderRows.filter((o) => o.msisdn && DEMO_NUMBERS.has(o.msisdn))).toHaveLength(
      demoNumberedOrders,
    );
    const cards = await t.app.db.select().from(testProviderCards);
    const agreements = await t.app.db.select().from(paymentAgreements);
    expect(new Set(agreements.map((a) => a.providerReference)).size).toBe(agreements.length);
    for (const a of agreements) expect(cards.map((c) => c.id)).toContain(a.providerReference);
  });

  it('lets each copy’s Jóannes sign in with the demo password and see what the demo’s Jóannes sees, on the copy’s numbers', async () => {
    const demo = await subscriptions(await signIn(demoEmail('Jóannes')));
    const family = demo.currentAccount;
    expect(family?.type).toBe('family_plan');
    for (const c of [first, second]) {
      const joannes = c.users['Jóannes'];
      if (!joannes) throw new Error('no Jóannes in the copy');
      const as = await signIn(joannes.email);
      const mine = await subscriptions(as);
      expect(mine.currentAccount?.id).toBe(c.accounts.joensenFamily);
      expect(mine.currentAccount?.planId).toBe(family?.planId);
      expect(mine.currentAccount?.members).toHaveLength(family?.members.length ?? -1);
      expect(mine.currentAccount?.family).toEqual(family?.family);
      expect(mine.currentAccount?.currentMember).toMatchObject({
        phoneNumber: c.lines.joannes.msisdn,
        dataRemaining: family?.currentMember.dataRemaining,
      });
      expect(mine.currentAccount?.members.map((m) => m.phoneNumber).sort()).toEqual(
        [c.lines.joannes.msisdn, c.lines.sunneva.msisdn].sort(),
      );
      expect(mine.individuals.map((a) => a.id)).toEqual([c.accounts.joannesWork]);
      // Everything else the same, once the copy's ids and numbers are read as the demo's.
      expect(asDemo(mine, c)).toEqual(asDemo(demo));
      for (const url of ['/api/orders', '/api/actions', '/api/notifications']) {
        const [demoAnswer, copyAnswer] = [
          (await get(url, await signIn(demoEmail('Jóannes')))).json(),
          (await get(url, as)).json(),
        ];
        expect(asDemo(copyAnswer, c), url).toEqual(asDemo(demoAnswer));
        expect(demoValueIn(copyAnswer), url).toBeUndefined();
      }
      expect(demoValueIn(mine)).toBeUndefined();
      parse(dataEnvelope(ordersResponse), await get('/api/orders', as));
      parse(dataEnvelope(actionsResponse), await get('/api/actions', as));
      parse(dataEnvelope(notificationsResponse), await get('/api/notifications', as));
    }
  });

  it('keeps the copy’s changes in the copy: a gift on it leaves the demo and the other copy as they were', async () => {
    const demoAs = await signIn(demoEmail('Jóannes'));
    const remaining = async (headers: Record<string, string>) => {
      const family = (await subscriptions(headers)).currentAccount;
      return Object.fromEntries(
        (family?.members ?? []).map((m) => [m.user.firstname, m.dataRemaining.domestic]),
      );
    };
    const demoBefore = await remaining(demoAs);
    const secondAs = await signIn(second.users['Jóannes']?.email ?? '');
    const secondBefore = await remaining(secondAs);
    const firstAs = await signIn(first.users['Jóannes']?.email ?? '');
    const before = await remaining(firstAs);
    expect(before).toEqual(demoBefore);

    const res = await t.app.inject({
      method: 'POST',
      url: '/api/data-transfers',
      headers: { ...firstAs, 'idempotency-key': 'demo-copy-gift-1' },
      payload: {
        kind: 'gift',
        fromPhoneNumber: first.lines.joannes.msisdn,
        phoneNumber: first.lines.sunneva.msisdn,
        dataAmount: 500,
      },
    });
    expect(res.statusCode, res.body).toBe(201);

    expect(await remaining(firstAs)).toEqual({
      Jóannes: (before['Jóannes'] ?? 0) - 500,
      Sunneva: (before['Sunneva'] ?? 0) + 500,
    });
    expect(await remaining(demoAs)).toEqual(demoBefore);
    expect(await remaining(secondAs)).toEqual(secondBefore);
    // The copy's Sunneva is told (with the copy's number); the demo's Sunneva hears nothing.
    const news = async (email: string) =>
      JSON.stringify(
        parse(
          dataEnvelope(notificationsResponse),
          await get('/api/notifications', await signIn(email)),
        ).data,
      );
    expect(await news(first.users['Sunneva']?.email ?? '')).toContain(
      spaced(first.lines.joannes.msisdn),
    );
    expect(await news(demoEmail('Sunneva'))).not.toContain(spaced(first.lines.joannes.msisdn));
  });

  it('keeps Guðrun’s second number processing and Rói’s prepaid credit in the copy, as in the demo', async () => {
    for (const name of ['Guðrun', 'Rói']) {
      const mine = await signIn(first.users[name]?.email ?? '');
      const demo = await signIn(demoEmail(name));
      for (const url of ['/api/subscriptions', '/api/orders', '/api/actions']) {
        const [demoAnswer, copyAnswer] = [
          (await get(url, demo)).json(),
          (await get(url, mine)).json(),
        ];
        expect(asDemo(copyAnswer, first), `${name} ${url}`).toEqual(asDemo(demoAnswer));
        expect(demoValueIn(copyAnswer), `${name} ${url}`).toBeUndefined();
      }
    }

    // Guðrun's second number: its order is still being provisioned, on the copy's number …
    const gudrun = await signIn(first.users['Guðrun']?.email ?? '');
    const list = parse(dataEnvelope(ordersResponse), await get('/api/orders', gudrun)).data;
    const pending = list.filter((o) => !o.isComplete && !o.isCancelled);
    expect(pending).toEqual([
      expect.objectContaining({
        phoneNumber: first.lines.gudrunSecond.msisdn,
        provisioning: expect.objectContaining({ isPorting: true, waitingFor: 'network' }),
      }),
    ]);
    expect(
      accountsOf(await subscriptions(gudrun)).find((a) => a.id === first.accounts.gudrun)
        ?.currentMember,
    ).toMatchObject({ phoneNumber: first.lines.gudrun.msisdn, status: 'active' });
    // … and phone login for it answers that it is still being processed (SPEC §8).
    const pin = await t.app.inject({
      method: 'POST',
      url: '/api/auth/request-pin',
      headers: { 'accept-language': 'en' },
      payload: { phoneNumber: first.lines.gudrunSecond.msisdn },
    });
    expect(pin.statusCode, pin.body).toBe(409);
    expect(errorEnvelope.parse(pin.json()).error.code).toBe('PHONE_PROCESSING');

    const roi = await subscriptions(await signIn(first.users['Rói']?.email ?? ''));
    expect(roi.currentAccount).toMatchObject({ id: first.accounts.roi, type: 'prepaid' });
    expect(roi.currentAccount?.currentMember).toMatchObject({
      phoneNumber: first.lines.roi.msisdn,
      prepaidBalance: 8_550,
    });
  });

  it('copies all or nothing: a copy whose rows would clash with existing ones fails whole', async () => {
    const before = await countRows(t.app, COPIED);
    // A remap that keeps the demo's values: the very first row (Jóannes) is already there.
    await expect(seedDemoData(t.app.db, NOW, { row: (row) => row })).rejects.toThrow();
    expect(await countRows(t.app, COPIED)).toEqual(before);
  });

  it('makes two copies asked for at the same moment, each its own', async () => {
    const [a, b] = await Promise.all([copy(), copy()]);
    const numbers = (c: DemoCopy) => Object.values(c.lines).map((l) => l.msisdn);
    expect(a && b && numbers(a).filter((n) => numbers(b).includes(n))).toEqual([]);
    expect(a?.users['Jóannes']?.email).not.toBe(b?.users['Jóannes']?.email);
    await signIn(a?.users['Rói']?.email ?? '');
    await signIn(b?.users['Rói']?.email ?? '');
  });

  it('answers 404 ROUTE_NOT_FOUND without demo mode, and copies nothing', async () => {
    const off = await createTestApp({ DEMO_MODE: 'false' }, { now: () => NOW });
    try {
      await seedReferenceData(off.app.db);
      await seedDemoData(off.app.db, NOW);
      const before = await off.app.db.$count(users);
      const res = await off.app.inject({ method: 'POST', url: '/dev/demo-copy' });
      expect(res.statusCode).toBe(404);
      expect(errorEnvelope.parse(res.json()).error.code).toBe('ROUTE_NOT_FOUND');
      expect(await off.app.db.$count(users)).toBe(before);
    } finally {
      await off.close();
    }
  });
});
