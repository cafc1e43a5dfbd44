import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Agreement } from '@alda/contract/schemas/agreements';
import type { Order } from '@alda/contract/schemas/orders';
import type { PackageOffer } from '@alda/contract/schemas/packages';
import { memberSubscriptions, ownerSubscriptions } from '@/test/account-fixtures';
import { deferred, fail, json, ok, quietPolls } from '@/test/fake-api';
import { demoUser } from '@/test/fixtures';
import { renderApp, type TestAppOptions } from '@/test/render';
import { accountKeys } from '@/shared/api/account-data';
import { recallPayment } from '@/shared/payments/payment-memo';
import { overridePlatform } from '@/shared/native/platform';
import { paymentRedirect } from '@/shared/payments/start-payment';

const offers: PackageOffer[] = [
  {
    id: 'pkg-1',
    kind: 'data',
    name: '1 GB',
    dataMb: 1024,
    price: { net: 1600, vat: 400, gross: 2000 },
    validUntil: '2026-11-30T23:59:59.999Z',
  },
  {
    id: 'pkg-5',
    kind: 'data',
    name: '5 GB',
    dataMb: 5120,
    price: { net: 4000, vat: 1000, gross: 5000 },
    validUntil: '2026-11-30T23:59:59.999Z',
  },
];

const placed = (id: string, paymentUrl: string | null) => ({
  order: {
    id,
    kind: 'extra_package',
    isComplete: false,
    isCancelled: false,
    isMainSubscription: false,
    planId: null,
    phoneNumber: '214455',
    price: { net: 4000, vat: 1000, gross: 5000 },
    paymentStatus: 'pending',
    createdAt: '2026-11-22T05:00:00.000Z',
    completedAt: null,
  } satisfies Order,
  paymentUrl,
});

const activeAgreement: Agreement = {
  id: 'ag-1',
  status: 'active',
  needsRenewal: false,
  cardBrand: 'Visa',
  cardLast4: '4242',
  cardExpiry: '12/29',
  createdAt: '2026-10-01T10:00:00.000Z',
};

const quiet = {
  ...quietPolls,
  'GET /orders/o-1': () => ok(placed('o-1', null).order),
};

async function open(options: TestAppOptions & { path?: string } = {}) {
  const app = await renderApp({
    user: demoUser,
    initialEntries: [options.path ?? '/keyp-pakka'],
    ...options,
    data: { subscriptions: ownerSubscriptions, packages: offers, agreement: null, ...options.data },
    api: { ...quiet, ...options.api },
  });
  await screen.findAllByRole('radiogroup');
  return app;
}

let assign: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  window.sessionStorage.clear();
  assign = vi.spyOn(paymentRedirect, 'assign').mockImplementation(() => undefined);
});
afterEach(() => vi.restoreAllMocks());

describe('buy an extra package (SPEC §1, §7 packages)', () => {
  it('lists the packages with the price with and without VAT and the month end they are valid until, and buys by card on the provider page', async () => {
    const app = await open({
      api: { 'POST /packages': () => json(201, { data: placed('o-1', 'http://pay.test/c/o-1') }) },
    });
    const list = screen.getByRole('radiogroup', { name: 'Vel pakka' });
    const five = within(list).getByRole('radio', { name: /5 GB/ });
    expect(five.textContent).toContain('50,00 kr.');
    expect(five.textContent).toContain('40,00 kr. uttan MVG · MVG 10,00 kr.');
    expect(five.textContent).toContain('Galdandi til 30.11.2026');
    // The owner may buy for the family: own line first, then Sunneva.
    const lines = within(screen.getByRole('radiogroup', { name: 'Hvørjum nummari?' })).getAllByRole(
      'radio',
    );
    expect(lines.map((l) => l.textContent)).toEqual([
      '21 44 55Títt nummar',
      '21 44 56Sunneva Joensen',
    ]);
    // Without a card on file there is nothing to choose: the card page it is.
    expect(screen.queryByRole('radiogroup', { name: 'Hvussu vilt tú gjalda?' })).toBeNull();

    const user = userEvent.setup();
    await user.click(five);
    await user.click(screen.getByRole('button', { name: 'Keyp fyri 50,00 kr.' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://pay.test/c/o-1'));
    const [sent] = app.api.callsTo('POST /packages');
    expect(sent?.body).toEqual({ packageId: 'pkg-5', phoneNumber: '214455', payWith: 'card' });
    expect(sent?.headers['idempotency-key']).toBeTruthy();
    // What the status screen needs after the card page: the name and how to buy it again.
    expect(recallPayment('o-1')).toMatchObject({
      itemName: '5 GB',
      retry: { path: '/packages', body: { packageId: 'pkg-5', phoneNumber: '214455' } },
    });
  });

  it('ADR 0054 native shell: the card page opens in the in-app browser and the app shows the live status screen under it', async () => {
    overridePlatform('ios');
    try {
      const openInApp = vi.spyOn(paymentRedirect, 'openInApp').mockResolvedValue(undefined);
      const app = await open({
        api: {
          'POST /packages': () => json(201, { data: placed('o-1', 'http://pay.test/c/o-1') }),
        },
      });
      const user = userEvent.setup();
      await user.click(screen.getByRole('radio', { name: /5 GB/ }));
      await user.click(screen.getByRole('button', { name: 'Keyp fyri 50,00 kr.' }));
      await waitFor(() => expect(app.router.state.location.pathname).toBe('/betaling/o-1'));
      expect(openInApp).toHaveBeenCalledWith('http://pay.test/c/o-1');
      // The WebView never leaves the app.
      expect(assign).not.toHaveBeenCalled();
    } finally {
      overridePlatform(null);
    }
  });

  it('a double tap buys once, and a retry after a lost answer sends the same Idempotency-Key', async () => {
    const answer = deferred<Response>();
    let calls = 0;
    const app = await open({
      api: {
        'POST /packages': () => {
          calls += 1;
          if (calls === 1) return answer.promise;
          return json(201, { data: placed('o-1', 'http://pay.test/c/o-1') });
        },
      },
    });
    const user = userEvent.setup();
    await user.click(screen.getByRole('radio', { name: /1 GB/ }));
    const buy = screen.getByRole('button', { name: 'Keyp fyri 20,00 kr.' });
    await user.click(buy);
    await user.click(buy);
    expect(app.api.callsTo('POST /packages')).toHaveLength(1);
    // The answer never comes back (network): the next tap is the same attempt.
    answer.reject(new TypeError('Failed to fetch'));
    expect(await screen.findByText('Vit kundu ikki keypa eyka pakkan.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Keyp fyri 20,00 kr.' }));
    await waitFor(() => expect(assign).toHaveBeenCalledOnce());
    const [first, second] = app.api.callsTo('POST /packages');
    expect(second?.headers['idempotency-key']).toBe(first?.headers['idempotency-key']);
  });

  it('SPEC §8: a refused purchase shows the package failure message with the reason, and the next try is a new purchase', async () => {
    const app = await open({
      locale: 'en',
      api: { 'POST /packages': () => fail(409, 'PACKAGE_NOT_AVAILABLE', 'Not for sale') },
    });
    const user = userEvent.setup();
    await user.click(screen.getByRole('radio', { name: /5 GB/ }));
    await user.click(screen.getByRole('button', { name: 'Buy for 50.00 kr.' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('We could not buy the extra package.');
    expect(alert.textContent).not.toContain('Not for sale');
    await user.click(screen.getByRole('button', { name: 'Buy for 50.00 kr.' }));
    await waitFor(() => expect(app.api.callsTo('POST /packages')).toHaveLength(2));
    const [first, second] = app.api.callsTo('POST /packages');
    expect(second?.headers['idempotency-key']).not.toBe(first?.headers['idempotency-key']);
    expect(assign).not.toHaveBeenCalled();
  });

  it('with a card on file it can charge that card and goes straight to the status screen', async () => {
    const app = await open({
      data: { agreement: activeAgreement },
      api: { 'POST /packages': () => json(201, { data: placed('o-1', null) }) },
    });
    const methods = screen.getByRole('radiogroup', { name: 'Hvussu vilt tú gjalda?' });
    // The agreement's place is kept while the provider's methods are on their way.
    expect(
      (await within(methods).findByRole('radio', { name: /Skrásetta kortið/ })).textContent,
    ).toContain('Visa •••• 4242');
    const user = userEvent.setup();
    await user.click(within(methods).getByRole('radio', { name: /Skrásetta kortið/ }));
    await user.click(screen.getByRole('radio', { name: /5 GB/ }));
    await user.click(screen.getByRole('button', { name: 'Keyp fyri 50,00 kr.' }));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/betaling/o-1'));
    expect(app.api.callsTo('POST /packages')[0]?.body).toMatchObject({ payWith: 'agreement' });
    expect(assign).not.toHaveBeenCalled();
  });

  it('asks for a package before buying, and a family member only sees their own line', async () => {
    const app = await open({ data: { subscriptions: memberSubscriptions } });
    expect(screen.queryByRole('radiogroup', { name: 'Hvørjum nummari?' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Vel pakka' }));
    expect(screen.getByText('Vel ein pakka fyrst.')).toBeTruthy();
    expect(app.api.callsTo('POST /packages')).toHaveLength(0);
  });

  it('preselects the line and package of a retry (?nummar=&pakki=)', async () => {
    await open({ path: '/keyp-pakka?nummar=214456&pakki=pkg-1' });
    expect(screen.getByRole('radio', { name: /21 44 56/ }).getAttribute('aria-checked')).toBe(
      'true',
    );
    expect(screen.getByRole('radio', { name: /1 GB/ }).getAttribute('aria-checked')).toBe('true');
  });
});

/** GET /payments/methods of Vipps MobilePay: MobilePay first; agreements only for the month. */
const vipps = {
  provider: 'vipps-mobilepay',
  methods: ['mobilepay', 'card'],
  agreementVia: 'mobilepay',
  agreementForPurchases: false,
};
/** GET /payments/methods of the built-in test provider: the card page, and the card on file. */
const testProvider = {
  provider: 'test',
  methods: ['card'],
  agreementVia: 'card',
  agreementForPurchases: true,
};

const methodRadios = async () => {
  const group = await screen.findByRole('radiogroup', { name: 'Hvussu vilt tú gjalda?' });
  await waitFor(() => expect(group.getAttribute('aria-busy')).toBeNull());
  return within(group).getAllByRole('radio');
};

describe('how to pay: the provider’s methods (GET /payments/methods) and the agreement on file', () => {
  it('Vipps MobilePay: MobilePay and the card in the provider’s order, MobilePay chosen; buying sends payWith mobilepay and goes to MobilePay', async () => {
    const app = await open({
      api: {
        'GET /payments/methods': () => ok(vipps),
        'POST /packages': () => json(201, { data: placed('o-1', 'https://mobilepay.test/o-1') }),
      },
    });
    const radios = await screen.findAllByRole('radio', { name: /MobilePay|Gjaldskort/ });
    expect(radios.map((r) => r.textContent)).toEqual([
      'MobilePayTú góðkennir gjaldið í MobilePay',
      'GjaldskortTú skrivar kortið inn á trygga gjaldssíðu',
    ]);
    expect(radios.map((r) => r.getAttribute('aria-checked'))).toEqual(['true', 'false']);
    // MobilePay's name as one word, in its brand blue: the word mark, not a made-up logo.
    const mark = within(radios[0]!).getByText('MobilePay');
    expect(mark.className).toContain('bg-[#5A78FF]');

    const user = userEvent.setup();
    await user.click(screen.getByRole('radio', { name: /5 GB/ }));
    await user.click(screen.getByRole('button', { name: 'Keyp fyri 50,00 kr.' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://mobilepay.test/o-1'));
    expect(app.api.callsTo('POST /packages')[0]?.body).toEqual({
      packageId: 'pkg-5',
      phoneNumber: '214455',
      payWith: 'mobilepay',
    });
    expect(recallPayment('o-1')).toMatchObject({ paidWith: 'mobilepay' });
    // The provider's answer is kept for the session: asked once.
    expect(app.api.callsTo('GET /payments/methods')).toHaveLength(1);
  });

  it('Vipps MobilePay: the card is a choice too, and an agreement on file is not offered for a purchase (it is charged days later)', async () => {
    const app = await open({
      data: { agreement: activeAgreement },
      api: {
        'GET /payments/methods': () => ok(vipps),
        'POST /packages': () => json(201, { data: placed('o-1', 'http://pay.test/c/o-1') }),
      },
    });
    const radios = await methodRadios();
    expect(radios.map((r) => r.textContent)).toEqual([
      'MobilePayTú góðkennir gjaldið í MobilePay',
      'GjaldskortTú skrivar kortið inn á trygga gjaldssíðu',
    ]);
    const user = userEvent.setup();
    await user.click(screen.getByRole('radio', { name: /Gjaldskort/ }));
    await user.click(screen.getByRole('radio', { name: /1 GB/ }));
    await user.click(screen.getByRole('button', { name: 'Keyp fyri 20,00 kr.' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://pay.test/c/o-1'));
    expect(app.api.callsTo('POST /packages')[0]?.body).toMatchObject({ payWith: 'card' });
    expect(recallPayment('o-1')).toMatchObject({ paidWith: 'card' });
  });

  it('the test provider: only the card, so no choice without an agreement; with one, the card on file first, the card page chosen until the customer taps the card on file', async () => {
    const app = await open({
      api: {
        'GET /payments/methods': () => ok(testProvider),
        'POST /packages': () => json(201, { data: placed('o-1', null) }),
      },
    });
    await waitFor(() => expect(app.api.callsTo('GET /payments/methods')).toHaveLength(1));
    expect(screen.queryByRole('radiogroup', { name: 'Hvussu vilt tú gjalda?' })).toBeNull();
    expect(screen.queryByText('MobilePay')).toBeNull();

    app.queryClient.setQueryData(accountKeys.resource('agreement'), activeAgreement);
    const radios = await methodRadios();
    expect(radios.map((r) => r.textContent)).toEqual([
      'Skrásetta kortiðVisa •••• 4242 — verður tikið beinanvegin',
      'GjaldskortTú skrivar kortið inn á trygga gjaldssíðu',
    ]);
    expect(radios[1]?.getAttribute('aria-checked')).toBe('true');
    const user = userEvent.setup();
    await user.click(radios[0] as HTMLElement);
    expect(radios[0]?.getAttribute('aria-checked')).toBe('true');
    await user.click(screen.getByRole('radio', { name: /5 GB/ }));
    await user.click(screen.getByRole('button', { name: 'Keyp fyri 50,00 kr.' }));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/betaling/o-1'));
    expect(app.api.callsTo('POST /packages')[0]?.body).toMatchObject({ payWith: 'agreement' });
    expect(recallPayment('o-1')).toMatchObject({ paidWith: 'card' });
  });

  it('a press before the provider has answered waits for it and pays its first way; when it cannot be read, the card page', async () => {
    const methods = deferred<Response>();
    const app = await open({
      api: {
        'GET /payments/methods': () => methods.promise,
        'POST /packages': () => json(201, { data: placed('o-1', 'https://mobilepay.test/o-1') }),
      },
    });
    const user = userEvent.setup();
    await user.click(screen.getByRole('radio', { name: /5 GB/ }));
    await user.click(screen.getByRole('button', { name: 'Keyp fyri 50,00 kr.' }));
    expect(app.api.callsTo('POST /packages')).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Keyp fyri 50,00 kr.' }).ariaBusy).toBe('true');
    methods.resolve(ok(vipps));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://mobilepay.test/o-1'));
    expect(app.api.callsTo('POST /packages')[0]?.body).toMatchObject({ payWith: 'mobilepay' });
  });

  it('when GET /payments/methods fails the purchase stays possible by card', async () => {
    const app = await open({
      api: {
        'GET /payments/methods': () => fail(500, 'INTERNAL'),
        'POST /packages': () => json(201, { data: placed('o-1', 'http://pay.test/c/o-1') }),
      },
    });
    const user = userEvent.setup();
    await user.click(screen.getByRole('radio', { name: /5 GB/ }));
    await user.click(screen.getByRole('button', { name: 'Keyp fyri 50,00 kr.' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://pay.test/c/o-1'));
    expect(app.api.callsTo('POST /packages')[0]?.body).toMatchObject({ payWith: 'card' });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('native shell: MobilePay goes the card page’s way — the in-app browser over the status screen — and the API hears the platform', async () => {
    overridePlatform('android');
    try {
      const openInApp = vi.spyOn(paymentRedirect, 'openInApp').mockResolvedValue(undefined);
      const app = await open({
        api: {
          'GET /payments/methods': () => ok(vipps),
          'POST /packages': () => json(201, { data: placed('o-1', 'https://mobilepay.test/o-1') }),
        },
      });
      await methodRadios();
      const user = userEvent.setup();
      await user.click(screen.getByRole('radio', { name: /5 GB/ }));
      await user.click(screen.getByRole('button', { name: 'Keyp fyri 50,00 kr.' }));
      await waitFor(() => expect(app.router.state.location.pathname).toBe('/betaling/o-1'));
      expect(openInApp).toHaveBeenCalledWith('https://mobilepay.test/o-1');
      expect(assign).not.toHaveBeenCalled();
      const [sent] = app.api.callsTo('POST /packages');
      expect(sent?.body).toMatchObject({ payWith: 'mobilepay' });
      expect(sent?.headers['x-alda-platform']).toBe('android');
    } finally {
      overridePlatform(null);
    }
  });
});
