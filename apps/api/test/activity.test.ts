import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope, errorEnvelope } from '@alda/contract/envelope';
import { actionsResponse } from '@alda/contract/schemas/actions';
import { agreementResponse } from '@alda/contract/schemas/agreements';
import { ordersResponse } from '@alda/contract/schemas/orders';
import { backupMainOrder, visibleOrders } from '@alda/contract/rules/orders';
import { ACTION_TYPES } from '../src/db/schema/actions';
import { actionText } from '../src/modules/actions/texts';
import { createDemoApp, type DemoName } from './demo-accounts';

describe('orders, activity log and payment agreement (SPEC §3 Order, §7)', () => {
  let t: Awaited<ReturnType<typeof createDemoApp>>;
  beforeAll(async () => {
    t = await createDemoApp();
  });
  afterAll(() => t.close());

  const get = (who: DemoName, url: string, language = 'fo') =>
    t.app.inject({ method: 'GET', url, headers: { ...t.as[who], 'accept-language': language } });
  const orders = async (who: DemoName) =>
    dataEnvelope(ordersResponse).parse((await get(who, '/api/orders')).json()).data;
  const actions = async (who: DemoName, language = 'fo') =>
    dataEnvelope(actionsResponse).parse((await get(who, '/api/actions', language)).json()).data;

  it("answers the owner's orders newest first, cancelled included for the app to hide (SPEC §3)", async () => {
    const list = await orders('Jóannes');
    expect(list.map((o) => [o.kind, o.phoneNumber, o.isComplete, o.isCancelled])).toEqual([
      ['add_member', '214457', false, false],
      ['extra_package', '214456', false, true],
      ['new_subscription', '214466', true, false],
      ['add_member', '214456', true, false],
      ['new_subscription', '214455', true, false],
    ]);
    expect(visibleOrders(list)).toHaveLength(4);
    expect(backupMainOrder(list)).toBeNull();
    const processing = list[0];
    expect(processing).toMatchObject({
      memberName: 'Bárður Joensen',
      planId: 'family-20',
      completedAt: null,
      price: null,
      paymentStatus: 'not_required',
    });
  });

  it('splits charged amounts into net and VAT (SPEC §9)', async () => {
    const pack = (await orders('Guðrun')).find((o) => o.kind === 'extra_package');
    expect(pack).toMatchObject({
      price: { net: 7_920, vat: 1_980, gross: 9_900 },
      paymentStatus: 'paid',
    });
  });

  it("shows a member no orders of the family account: they are the owner's (SPEC §6)", async () => {
    expect(await orders('Sunneva')).toEqual([]);
  });

  it('answers the activity log newest first in the language asked for', async () => {
    const fo = await actions('Jóannes');
    expect(fo.map((a) => a.type)).toEqual([
      'member_added',
      'data_given',
      'payment',
      'eu_package_changed',
      'subscription_created',
      'member_added',
      'subscription_created',
    ]);
    const gift = fo.find((a) => a.type === 'data_given');
    expect(gift).toMatchObject({
      text: 'Tú gavst 1 GB til Sunneva Joensen',
      dataAmount: 1024,
      phoneNumber: '214455',
    });
    const en = await actions('Jóannes', 'en');
    expect(en.find((a) => a.type === 'data_given')?.text).toBe('You gave 1 GB to Sunneva Joensen');
    expect(en.find((a) => a.type === 'payment')?.text).toBe('Payment made: 556.00 kr.');
  });

  it('names the owner as actor on what he did for a member', async () => {
    const received = (await actions('Sunneva')).find((a) => a.type === 'data_received');
    expect(received?.actor).toMatchObject({ firstname: 'Jóannes', lastname: 'Joensen' });
    expect(received?.text).toBe('Tú fekst 1 GB frá Jóannes Joensen');
    expect(await actions('Ása')).toEqual([]);
  });

  it('has a sentence in both languages for every action type', () => {
    for (const type of ACTION_TYPES) {
      for (const locale of ['fo', 'en'] as const) {
        const text = actionText({ type, payload: {}, dataMb: 1024, amountOere: 100 }, locale);
        expect(text.length, `${type}/${locale}`).toBeGreaterThan(3);
      }
    }
  });

  it('answers the payment agreement with only brand, last four digits and expiry', async () => {
    const res = await get('Jóannes', '/api/agreements');
    expect(res.statusCode).toBe(200);
    expect(dataEnvelope(agreementResponse).parse(res.json()).data).toMatchObject({
      status: 'active',
      cardBrand: 'Visa',
      cardLast4: '4242',
      cardExpiry: '09/29',
    });
    expect(res.body).not.toContain('demo-card');
    const none = await get('Rói', '/api/agreements');
    expect(dataEnvelope(agreementResponse).parse(none.json()).data).toBeNull();
  });

  it('requires a signed-in customer (401)', async () => {
    for (const url of ['/api/orders', '/api/actions', '/api/agreements']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(401);
      expect(errorEnvelope.parse(res.json()).error.code).toBe('UNAUTHORIZED');
    }
  });
});
