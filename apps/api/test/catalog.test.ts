import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNLIMITED_DATA_MB } from '@alda/contract/constants';
import { dataEnvelope, errorEnvelope } from '@alda/contract/envelope';
import { packageOffer, packagesResponse } from '@alda/contract/schemas/packages';
import { planResponse, plansResponse } from '@alda/contract/schemas/plans';
import { nextMemberPrice } from '@alda/contract/rules/family';
import { allPlans } from '@alda/contract/rules/plans';
import { plans } from '../src/db/schema/catalog';
import { createDemoApp } from './demo-accounts';
import { waitFor } from './helper';

describe('plans and packages (SPEC §3 Plan, Plan type; §7 GET plans, packages)', () => {
  let t: Awaited<ReturnType<typeof createDemoApp>>;
  beforeAll(async () => {
    t = await createDemoApp();
  });
  afterAll(() => t.close());

  const get = (url: string, language = 'fo') =>
    t.app.inject({ method: 'GET', url, headers: { ...t.as.Guðrun, 'accept-language': language } });

  it('lists plan types with their plans in catalogue order, allPlans flattening them (SPEC §3)', async () => {
    const res = await get('/api/plans');
    expect(res.statusCode).toBe(200);
    const { data } = dataEnvelope(plansResponse).parse(res.json());
    expect(data.map((p) => [p.id, p.type, p.name])).toEqual([
      ['individual', 'individual_plan', 'Einstaklingur'],
      ['family', 'family_plan', 'Familja'],
      ['prepaid', 'prepaid', 'Talutíð'],
    ]);
    expect(allPlans(data).map((p) => p.planId)).toEqual([
      'individual-5',
      'individual-20',
      'individual-unlimited',
      'family-20',
      'family-unlimited',
      'prepaid-talutid',
    ]);
    const unlimited = allPlans(data).find((p) => p.planId === 'individual-unlimited');
    expect(unlimited?.dataMb).toBeGreaterThanOrEqual(UNLIMITED_DATA_MB);
  });

  it('prices family members by position, capped at the last entry (SPEC §4)', async () => {
    const { data } = dataEnvelope(plansResponse).parse((await get('/api/plans')).json());
    const family = allPlans(data).find((p) => p.planId === 'family-20');
    expect(family).toMatchObject({
      type: 'family_plan',
      maxMembers: 5,
      memberPrices: [{ price: 24_900 }, { price: 9_900 }, { price: 7_900 }, { price: 7_900 }],
      planTypeName: 'Familja',
      euPackage: { price: 5_900, dataMb: 25_600 },
      commitmentMonths: 6,
    });
    expect(nextMemberPrice(family?.memberPrices ?? [], 1)).toBe(9_900);
    expect(nextMemberPrice(family?.memberPrices ?? [], 4)).toBe(7_900);
  });

  it('names plans in the language of Accept-Language', async () => {
    const res = await get('/api/plans/family-unlimited', 'en');
    const { data } = dataEnvelope(planResponse).parse(res.json());
    expect(data).toMatchObject({ name: 'Family unlimited', planTypeName: 'Family' });
    const fo = dataEnvelope(planResponse).parse((await get('/api/plans/family-unlimited')).json());
    expect(fo.data.name).toBe('Familja óavmarkað');
  });

  it('answers 404 NOT_FOUND for an unknown plan', async () => {
    const res = await get('/api/plans/no-such-plan');
    expect(res.statusCode).toBe(404);
    expect(errorEnvelope.parse(res.json()).error).toMatchObject({ code: 'NOT_FOUND', field: 'id' });
  });

  it('hides a withdrawn plan from the list but still answers it by id (lines keep it)', async () => {
    const offered = async () => {
      const { data } = dataEnvelope(plansResponse).parse((await get('/api/plans')).json());
      return allPlans(data).some((p) => p.planId === 'individual-5');
    };
    // A change by SQL reaches the list kept in memory by its trigger's NOTIFY (ADR 0057), a
    // moment after the commit on PostgreSQL.
    await t.app.db.update(plans).set({ isOffered: false }).where(eq(plans.id, 'individual-5'));
    try {
      await waitFor(async () => ((await offered()) ? undefined : true));
      expect((await get('/api/plans/individual-5')).statusCode).toBe(200);
    } finally {
      await t.app.db.update(plans).set({ isOffered: true }).where(eq(plans.id, 'individual-5'));
      await waitFor(async () => ((await offered()) ? true : undefined));
    }
  });

  it('sells packages valid until month end in Atlantic/Faroe, with and without VAT (SPEC §1, §9)', async () => {
    const res = await get('/api/packages', 'en');
    expect(res.statusCode).toBe(200);
    const { data } = dataEnvelope(packagesResponse).parse(res.json());
    expect(data.map((p) => [p.id, p.kind, p.name])).toEqual([
      ['data-1', 'data', '1 GB'],
      ['data-5', 'data', '5 GB'],
      ['data-20', 'data', '20 GB'],
      ['eu-5', 'eu_data', 'EU 5 GB'],
    ]);
    // 15 June 2026: the month ends at 23:59:59.999 on 30 June in Tórshavn (UTC+1).
    for (const p of data) expect(p.validUntil).toBe('2026-06-30T22:59:59.999Z');
    expect(data[1]?.price).toEqual({ net: 7_920, vat: 1_980, gross: 9_900 });
  });

  it('answers one package, and 404 NOT_FOUND for an unknown one', async () => {
    const one = await get('/api/packages/eu-5');
    expect(dataEnvelope(packageOffer).parse(one.json()).data).toMatchObject({
      id: 'eu-5',
      name: 'ES 5 GB',
      dataMb: 5_120,
    });
    const missing = await get('/api/packages/nope');
    expect(missing.statusCode).toBe(404);
    expect(errorEnvelope.parse(missing.json()).error.code).toBe('NOT_FOUND');
  });

  it('requires a signed-in customer (401)', async () => {
    for (const url of [
      '/api/plans',
      '/api/plans/family-20',
      '/api/packages',
      '/api/packages/data-1',
    ]) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
    }
  });
});
