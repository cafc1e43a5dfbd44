import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Order, PaymentUpdated } from '@alda/contract/schemas/orders';
import { ownerSubscriptions } from '@/test/account-fixtures';
import { fail, json, ok, quietPolls } from '@/test/fake-api';
import { demoUser } from '@/test/fixtures';
import { renderApp, type TestAppOptions } from '@/test/render';
import { fakeHubConnection } from '@/shared/payments/fake-hub-connection';
import { rememberPayment } from '@/shared/payments/payment-memo';
import { PaymentHubClient } from '@/shared/payments/payment-watch';
import { overridePlatform } from '@/shared/native/platform';
import { paymentRedirect } from '@/shared/payments/start-payment';
import { STILL_PENDING_AFTER_MS } from './use-payment-status';

/** The hub the screen loads lazily: a fake connection the test plays the server of. */
let hub: ReturnType<typeof fakeHubConnection>;
vi.mock('@/shared/payments/payment-hub', () => ({
  createPaymentHub: () => new PaymentHubClient(hub.connection),
}));
/** The native in-app browser the card page is shown in (outside the app: the OS's). */
const browserClose = vi.hoisted(() => ({ calls: 0 }));
vi.mock('@capacitor/browser', () => ({
  Browser: {
    open: async () => undefined,
    close: async () => {
      browserClose.calls += 1;
    },
  },
}));

const packageOrder = (paymentStatus: Order['paymentStatus'], id = 'o-1'): Order => ({
  id,
  kind: 'extra_package',
  isComplete: paymentStatus === 'paid',
  isCancelled: false,
  isMainSubscription: false,
  planId: null,
  phoneNumber: '214455',
  price: { net: 4000, vat: 1000, gross: 5000 },
  paymentStatus,
  createdAt: '2026-11-22T05:00:00.000Z',
  completedAt: paymentStatus === 'paid' ? '2026-11-22T05:00:04.000Z' : null,
});

const updated = (order: Order): PaymentUpdated => ({
  orderId: order.id,
  status: order.paymentStatus,
  order,
  updatedAt: '2026-11-22T05:00:04.000Z',
});

const quiet = {
  ...quietPolls,
  'GET /subscriptions': () => ok(ownerSubscriptions),
  'GET /orders': () => ok([]),
  'GET /agreements': () => ok(null),
};

async function open(orderId: string, api: TestAppOptions['api']) {
  return renderApp({
    user: demoUser,
    data: { subscriptions: ownerSubscriptions },
    initialEntries: [`/betaling/${orderId}`],
    api: { ...quiet, ...api },
  });
}

const status = () => screen.getByRole('heading', { level: 2 });

beforeEach(() => {
  hub = fakeHubConnection();
  window.sessionStorage.clear();
  vi.spyOn(console, 'info').mockImplementation(() => undefined);
});
afterEach(() => vi.restoreAllMocks());

describe('payment status screen /betaling/:orderId (SPEC §4 "Payment flow")', () => {
  it('SPEC §4 Payment flow: waits live for the card company, then shows what was bought when PaymentUpdated arrives, and refreshes the account data', async () => {
    rememberPayment('o-1', { itemName: '5 GB' });
    const app = await open('o-1', { 'GET /orders/o-1': () => ok(packageOrder('pending')) });

    expect(
      await screen.findByRole('heading', { name: 'Vit bíða eftir kortfelagnum' }),
    ).toBeTruthy();
    expect(await screen.findByText('Beinleiðis samband')).toBeTruthy();
    expect(hub.invoked).toEqual([{ method: 'ListenToOrder', args: ['o-1'] }]);
    // Once listening, the order is read again (it may have been paid before the hub listened).
    await waitFor(() => expect(app.api.callsTo('GET /orders/o-1')).toHaveLength(2));
    const subscriptionReads = app.api.callsTo('GET /subscriptions').length;

    act(() => hub.emit('PaymentUpdated', updated(packageOrder('paid'))));

    expect(await screen.findByRole('heading', { name: 'Gjaldið er móttikið' })).toBeTruthy();
    const region = status().closest('[aria-live]');
    expect(region?.getAttribute('aria-live')).toBe('polite');
    expect(region?.textContent).toContain('5 GB er lagt afturat 21 44 55');
    expect(region?.textContent).toContain(
      '50,00 kr. er tikið av kortinum (40,00 kr. uttan MVG · MVG 10,00 kr.)',
    );
    // SPEC §4: stop listening, then disconnect.
    await waitFor(() =>
      expect(hub.invoked.map((i) => i.method)).toEqual(['ListenToOrder', 'StopListeningToOrder']),
    );
    await waitFor(() => expect(hub.connection.state).toBe('Disconnected'));
    // Home's data is read again at once.
    await waitFor(() =>
      expect(app.api.callsTo('GET /subscriptions').length).toBeGreaterThan(subscriptionReads),
    );
    await userEvent.click(screen.getByRole('link', { name: 'Til forsíðuna' }));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/'));
  }, 20_000);

  it('SPEC §8: when the hub cannot connect, the screen reads the order over HTTP with backoff until it is paid', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    hub = fakeHubConnection({ startFails: true });
    let order = packageOrder('pending', 'o-2');
    const app = await open('o-2', { 'GET /orders/o-2': () => ok(order) });

    expect(await screen.findByText('Vit kanna støðuna við jøvnum millumbilum')).toBeTruthy();
    expect(app.api.callsTo('GET /orders/o-2')).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(2_000));
    expect(app.api.callsTo('GET /orders/o-2')).toHaveLength(2);
    // Backoff: the next read is 3 s later, not 2 s.
    await act(() => vi.advanceTimersByTimeAsync(2_000));
    expect(app.api.callsTo('GET /orders/o-2')).toHaveLength(2);
    order = packageOrder('paid', 'o-2');
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(await screen.findByRole('heading', { name: 'Gjaldið er móttikið' })).toBeTruthy();
    // Without a memo (e.g. another tab) it still says what happened.
    expect(screen.getByText('Pakkin er lagdur afturat 21 44 55')).toBeTruthy();
    const reads = app.api.callsTo('GET /orders/o-2').length;
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(app.api.callsTo('GET /orders/o-2').length).toBeLessThanOrEqual(reads + 1);
  });

  it('names the package bought from GET /packages when this tab does not remember it (card page in another tab, app restarted)', async () => {
    const bought = { ...packageOrder('paid', 'o-9'), packageId: 'data-5' };
    const app = await open('o-9', {
      'GET /orders/o-9': () => ok(bought),
      'GET /packages': () =>
        ok([
          {
            id: 'data-5',
            kind: 'data',
            name: '5 GB',
            dataMb: 5120,
            price: { net: 7_920, vat: 1_980, gross: 9_900 },
            validUntil: '2026-11-30T23:59:59.999Z',
          },
        ]),
    });
    expect(await screen.findByText('5 GB er lagt afturat 21 44 55')).toBeTruthy();
    expect(app.api.callsTo('GET /packages')).toHaveLength(1);
  });

  it('ADR 0054 native shell: closes the in-app browser with the card page once the payment has settled, not before', async () => {
    overridePlatform('ios');
    try {
      browserClose.calls = 0;
      let order = packageOrder('pending', 'o-8');
      await open('o-8', { 'GET /orders/o-8': () => ok(order) });
      expect(
        await screen.findByRole('heading', { name: 'Vit bíða eftir kortfelagnum' }),
      ).toBeTruthy();
      expect(await screen.findByText('Beinleiðis samband')).toBeTruthy();
      expect(browserClose.calls).toBe(0);
      order = packageOrder('paid', 'o-8');
      act(() => hub.emit('PaymentUpdated', updated(order)));
      expect(await screen.findByRole('heading', { name: 'Gjaldið er móttikið' })).toBeTruthy();
      await waitFor(() => expect(browserClose.calls).toBe(1));
    } finally {
      overridePlatform(null);
    }
  });

  it('says so when the payment is still not confirmed after a while, and keeps checking', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const app = await open('o-3', { 'GET /orders/o-3': () => ok(packageOrder('pending', 'o-3')) });
    expect(
      await screen.findByRole('heading', { name: 'Vit bíða eftir kortfelagnum' }),
    ).toBeTruthy();
    expect(screen.queryByText(/Gjaldið er ikki staðfest enn/)).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(STILL_PENDING_AFTER_MS));
    expect(screen.getByText(/^Gjaldið er ikki staðfest enn — vit boða tær frá/)).toBeTruthy();
    const reads = app.api.callsTo('GET /orders/o-3').length;
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(app.api.callsTo('GET /orders/o-3').length).toBeGreaterThan(reads);
  });

  it('declined: "Kortið varð avvíst", and retry places the same purchase again with a new Idempotency-Key, by card', async () => {
    const assign = vi.spyOn(paymentRedirect, 'assign').mockImplementation(() => undefined);
    rememberPayment('o-4', {
      itemName: '5 GB',
      retry: {
        path: '/packages',
        body: { packageId: 'pkg-5', phoneNumber: '214455', payWith: 'agreement' },
      },
    });
    const app = await open('o-4', {
      'GET /orders/o-4': () => ok(packageOrder('failed', 'o-4')),
      'POST /packages': () =>
        json(201, {
          data: {
            order: packageOrder('pending', 'o-5'),
            paymentUrl: 'http://pay.test/checkout/o-5',
          },
        }),
    });
    expect(await screen.findByRole('heading', { name: 'Kortið varð avvíst' })).toBeTruthy();
    expect(hub.invoked).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Royn við øðrum korti' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://pay.test/checkout/o-5'));
    const [sent] = app.api.callsTo('POST /packages');
    expect(sent?.body).toEqual({ packageId: 'pkg-5', phoneNumber: '214455', payWith: 'card' });
    expect(sent?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('declined without a memo: retry goes back to the purchase screen', async () => {
    const app = await open('o-6', { 'GET /orders/o-6': () => ok(packageOrder('failed', 'o-6')) });
    await userEvent.click(await screen.findByRole('link', { name: 'Royn við øðrum korti' }));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/keyp-pakka'));
  });

  it('cancelled on the card page: says nothing was charged and offers to try again (en)', async () => {
    rememberPayment('o-8', { returnTo: '/keyp-pakka?nummar=214455&pakki=pkg-5' });
    const app = await renderApp({
      user: demoUser,
      locale: 'en',
      data: { subscriptions: ownerSubscriptions },
      initialEntries: ['/betaling/o-8'],
      api: { ...quiet, 'GET /orders/o-8': () => ok(packageOrder('cancelled', 'o-8')) },
    });
    expect(await screen.findByRole('heading', { name: 'The payment was cancelled' })).toBeTruthy();
    expect(
      screen.getByText('Nothing was charged. You can try again whenever you like.'),
    ).toBeTruthy();
    await userEvent.click(screen.getByRole('link', { name: 'Try another card' }));
    await waitFor(() =>
      expect(app.router.state.location.search).toBe('?nummar=214455&pakki=pkg-5'),
    );
  });

  it('a paid top-up says how much was topped up on which number', async () => {
    const topUp: Order = {
      ...packageOrder('paid', 'o-7'),
      kind: 'top_up',
      phoneNumber: '214460',
      price: { net: 8000, vat: 2000, gross: 10000 },
    };
    await open('o-7', { 'GET /orders/o-7': () => ok(topUp) });
    expect(await screen.findByText('100 kr. er fylt uppá 21 44 60')).toBeTruthy();
  });

  it('an unknown order shows an error state, not a spinner', async () => {
    await open('nope', { 'GET /orders/nope': () => fail(404, 'NOT_FOUND') });
    expect(
      await screen.findByRole('heading', { name: 'Vit finna ikki hetta gjaldið' }),
    ).toBeTruthy();
    expect(screen.getByText('Bíleggingin finst ikki millum tínar bíleggingar.')).toBeTruthy();
    expect(hub.invoked).toHaveLength(0);
  });

  describe('MobilePay: the screen says MobilePay, not card', () => {
    const vipps = () =>
      ok({
        provider: 'vipps-mobilepay',
        methods: ['mobilepay', 'card'],
        agreementVia: 'mobilepay',
        agreementForPurchases: false,
      });

    it('waits for MobilePay, and a paid purchase was paid with MobilePay', async () => {
      rememberPayment('o-1', { itemName: '5 GB', paidWith: 'mobilepay' });
      await open('o-1', { 'GET /orders/o-1': () => ok(packageOrder('pending')) });
      expect(await screen.findByRole('heading', { name: 'Vit bíða eftir MobilePay' })).toBeTruthy();
      expect(await screen.findByText('Beinleiðis samband')).toBeTruthy();
      act(() => hub.emit('PaymentUpdated', updated(packageOrder('paid'))));
      expect(await screen.findByRole('heading', { name: 'Gjaldið er móttikið' })).toBeTruthy();
      expect(
        screen.getByText(
          '50,00 kr. er goldið við MobilePay (40,00 kr. uttan MVG · MVG 10,00 kr.).',
        ),
      ).toBeTruthy();
      expect(screen.queryByText(/kort/)).toBeNull();
    });

    it('declined: "Gjaldið varð avvíst", and the retry goes to MobilePay again, with a new Idempotency-Key', async () => {
      const assign = vi.spyOn(paymentRedirect, 'assign').mockImplementation(() => undefined);
      rememberPayment('o-4', {
        itemName: '5 GB',
        paidWith: 'mobilepay',
        retry: {
          path: '/packages',
          body: { packageId: 'pkg-5', phoneNumber: '214455', payWith: 'mobilepay' },
        },
      });
      const app = await open('o-4', {
        'GET /orders/o-4': () => ok(packageOrder('failed', 'o-4')),
        'POST /packages': () =>
          json(201, {
            data: {
              order: packageOrder('pending', 'o-5'),
              paymentUrl: 'https://mobilepay.test/o-5',
            },
          }),
      });
      expect(await screen.findByRole('heading', { name: 'Gjaldið varð avvíst' })).toBeTruthy();
      expect(
        screen.getByText('Gjaldið gekk ikki ígjøgnum í MobilePay, og einki er tikið. Royn aftur.'),
      ).toBeTruthy();
      await userEvent.click(screen.getByRole('button', { name: 'Royn aftur við MobilePay' }));
      await waitFor(() => expect(assign).toHaveBeenCalledWith('https://mobilepay.test/o-5'));
      const [sent] = app.api.callsTo('POST /packages');
      expect(sent?.body).toEqual({
        packageId: 'pkg-5',
        phoneNumber: '214455',
        payWith: 'mobilepay',
      });
      expect(sent?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('a MobilePay agreement charge is taken days later; declined, it is retried in MobilePay, not on the agreement', async () => {
      const assign = vi.spyOn(paymentRedirect, 'assign').mockImplementation(() => undefined);
      const month: Order = { ...packageOrder('pending', 'o-10'), kind: 'subscription_payment' };
      let order = month;
      rememberPayment('o-10', {
        paidWith: 'mobilepay',
        retry: { path: '/billing/pay', body: { payWith: 'agreement' } },
      });
      const app = await open('o-10', {
        'GET /orders/o-10': () => ok(order),
        'POST /billing/pay': () =>
          json(201, {
            data: {
              order: { ...month, id: 'o-11' },
              paymentUrl: 'https://mobilepay.test/o-11',
            },
          }),
      });
      expect(await screen.findByRole('heading', { name: 'Vit bíða eftir MobilePay' })).toBeTruthy();
      expect(
        screen.getByText(/^MobilePay tekur gjaldið av gjaldsavtaluni um nakrar dagar/),
      ).toBeTruthy();
      expect(await screen.findByText('Beinleiðis samband')).toBeTruthy();
      order = { ...month, paymentStatus: 'failed' };
      act(() => hub.emit('PaymentUpdated', updated(order)));
      await userEvent.click(
        await screen.findByRole('button', { name: 'Royn aftur við MobilePay' }),
      );
      await waitFor(() => expect(assign).toHaveBeenCalledWith('https://mobilepay.test/o-11'));
      expect(app.api.callsTo('POST /billing/pay')[0]?.body).toEqual({ payWith: 'mobilepay' });
    });

    it('not remembered (another tab, the app restarted): with Vipps MobilePay it speaks of the payment, not a card (en)', async () => {
      const app = await renderApp({
        user: demoUser,
        locale: 'en',
        data: { subscriptions: ownerSubscriptions },
        initialEntries: ['/betaling/o-6'],
        api: {
          ...quiet,
          'GET /payments/methods': vipps,
          'GET /orders/o-6': () => ok(packageOrder('failed', 'o-6')),
        },
      });
      expect(await screen.findByRole('heading', { name: 'The payment was declined' })).toBeTruthy();
      expect(
        screen.getByText('The payment did not go through and nothing was charged. Try again.'),
      ).toBeTruthy();
      await userEvent.click(screen.getByRole('link', { name: 'Try again' }));
      await waitFor(() => expect(app.router.state.location.pathname).toBe('/keyp-pakka'));
    });

    it('a MobilePay agreement approved: says so', async () => {
      rememberPayment('o-12', { paidWith: 'mobilepay', returnTo: '/min-brukari/gjaldsavtala' });
      const agreementOrder: Order = {
        ...packageOrder('paid', 'o-12'),
        kind: 'payment_agreement',
        phoneNumber: null,
        price: { net: 0, vat: 0, gross: 0 },
      };
      await open('o-12', { 'GET /orders/o-12': () => ok(agreementOrder) });
      expect(await screen.findByText('Gjaldsavtalan við MobilePay er góðkend')).toBeTruthy();
    });
  });
});
