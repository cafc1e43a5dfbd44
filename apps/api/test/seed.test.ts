import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope } from '@alda/contract/envelope';
import { tokens } from '@alda/contract/schemas/auth';
import { statusResponse } from '@alda/contract/schemas/status';
import { DEMO_PASSWORD, DEMO_PHONE_LINES, DEMO_USERS } from '../src/seed/demo-users';
import { contentPages } from '../src/db/schema/content-pages';
import { statusMessages } from '../src/db/schema/status-messages';
import { users } from '../src/db/schema/users';
import { isDatabaseEmpty, seedDemoData, seedReferenceData } from '../src/seed/seed';
import { createTestApp, parse, type TestApp } from './helper';

describe('migrations and the demo seed', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('applies migrations idempotently (a restart runs them again)', async () => {
    await expect(t.app.database.migrate()).resolves.toBeUndefined();
  });

  it('starts empty, so start-up knows to seed the demo', async () => {
    expect(await isDatabaseEmpty(t.app.db)).toBe(true);
  });

  it('seeds demo customers, status messages and terms/privacy idempotently', async () => {
    await seedReferenceData(t.app.db);
    expect(await seedDemoData(t.app.db)).toEqual({
      usersCreated: DEMO_USERS.length,
      linesCreated: DEMO_PHONE_LINES.length,
    });
    await seedReferenceData(t.app.db);
    expect(await seedDemoData(t.app.db)).toEqual({ usersCreated: 0, linesCreated: 0 });

    expect(await t.app.db.$count(users)).toBe(DEMO_USERS.length);
    expect(await t.app.db.$count(statusMessages)).toBe(2);
    const pages = await t.app.db
      .select({ slug: contentPages.slug, locale: contentPages.locale })
      .from(contentPages);
    expect(pages.map((p) => `${p.slug}/${p.locale}`).sort()).toEqual([
      'privacy/en',
      'privacy/fo',
      'terms/en',
      'terms/fo',
    ]);
    expect(await isDatabaseEmpty(t.app.db)).toBe(false);
  });

  it('gives the demo customers Faroese names and addresses (SPEC §3 localities)', () => {
    const byName = Object.fromEntries(
      DEMO_USERS.map((u) => [`${u.firstname} ${u.lastname}`, `${u.city} ${u.postCode}`]),
    );
    expect(byName).toMatchObject({
      'Jóannes Joensen': 'Tórshavn 100',
      'Guðrun Poulsen': 'Klaksvík 700',
      'Rói Hansen': 'Vágur 900',
    });
    for (const u of DEMO_USERS) {
      expect(u.phoneNumber).toMatch(/^\d{6}$/);
      expect(u.postCode).toMatch(/^\d{3}$/);
    }
  });

  it(`lets every demo customer log in with ${DEMO_PASSWORD}`, async () => {
    for (const demo of DEMO_USERS) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/email-login',
        payload: { email: demo.email, password: DEMO_PASSWORD },
      });
      expect(res.statusCode, demo.email).toBe(200);
      parse(dataEnvelope(tokens), res);
    }
  });

  it('has demo status messages that are active right after seeding', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/status',
      payload: {
        currentVersion: '3.0.0',
        deviceMeta: { platform: 'ios', osVersion: '17', model: 'iPhone', isVirtual: false },
      },
    });
    const { data } = parse(dataEnvelope(statusResponse), res);
    expect(data.messages.length).toBe(2);
  });
});
