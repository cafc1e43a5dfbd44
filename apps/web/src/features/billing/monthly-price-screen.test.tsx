import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Agreement } from '@alda/contract/schemas/agreements';
import type { MonthlyPriceResponse } from '@alda/contract/schemas/billing';
import type { Order, OrderPlacedResponse } from '@alda/contract/schemas/orders';
import { paymentRedirect } from '@/shared/payments/start-payment';
import { fail, ok, quietPolls } from '@/test/fake-api';
import { demoUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const november: MonthlyPriceResponse = {
  period: '2026-11',
  lines: [
    {
      phoneNumber: '214455',
      kind: 'plan',
      description: 'Familja 50 GB',
      price: { net: 23920, vat: 5980, gross: 29900 },
    },
    {
      phoneNumber: '214455',
      kind: 'eu_package',
      description: 'ES-pakki',
      price: { net: 3920, vat: 980, gross: 4900 },
    },
    {
      phoneNumber: '556677',
      kind: 'member',
      description: 'Limur',
      price: { net: 7920, vat: 1980, gross: 9900 },
    },
  ],
  total: { net: 35760, vat: 8940, gross: 44700 },
  paidOrderId: null,
};

const visa: Agreement = {
  id: 'agr-1',
  status: 'active',
  needsRenewal: false,
  cardBrand: 'Visa',
  cardLast4: '4242',
  cardExpiry: '08/29',
  createdAt: '2026-10-01T10:00:00.000Z',
};

const monthOrder: Order = {
  id: 'ord-month-11',
  kind: 'subscription_payment',
  isComplete: false,
  isCancelled: false,
  isMainSubscription: false,
  planId: null,
  phoneNumber: null,
  price: november.total,
  paymentStatus: 'pending',
  createdAt: '2026-11-22T05:00:00.000Z',
  completedAt: null,
};

const byCard: OrderPlacedResponse = {
  order: monthOrder,
  paymentUrl: 'http://127.0.0.1:3230/provider/checkout/chk_9',
};

let assign: ReturnType<typeof vi.fn<(url: string) => void>>;
const realAssign = paymentRedirect.assign;
beforeEach(() => {
  assign = vi.fn<(url: string) => void>();
  paymentRedirect.assign = assign;
});
afterEach(() => {
  paymentRedirect.assign = realAssign;
});

describe('monthly price /menu/manadargjald (SPEC §1 "view and pay for subscriptions", §9 VAT)', () => {
  it('is reached from the menu and shows the lines per number, the EU package and the total with and without VAT', async () => {
    const app = await renderApp({
      user: demoUser,
      data: { agreement: null },
      initialEntries: ['/menu'],
      api: { ...quietPolls, 'GET /billing/monthly-price': () => ok(november) },
    });
    await userEvent.click(await screen.findByRole('link', { name: 'Mánaðargjald' }));
    const month = await screen.findByRole('region', { name: 'november 2026' });
    expect(within(month).getByText('Ikki goldið')).toBeTruthy();
    const owner = within(month).getByRole('region', { name: '21 44 55' });
    expect(owner.textContent).toContain('Familja 50 GB299,00 kr.');
    expect(owner.textContent).toContain('ES-pakki');
    expect(owner.textContent).toContain('49,00 kr.');
    const member = within(month).getByRole('region', { name: '55 66 77' });
    expect(member.textContent).toContain('Limur99,00 kr.');
    expect(within(month).getByText('Uttan MVG').nextSibling?.textContent).toBe('357,60 kr.');
    expect(within(month).getByText('MVG 25 %').nextSibling?.textContent).toBe('89,40 kr.');
    expect(within(month).getByText('Tilsamans við MVG').nextSibling?.textContent).toBe(
      '447,00 kr.',
    );
    expect(app.router.state.location.pathname).toBe('/menu/manadargjald');
  });

  it('issue 33 §2: last month’s charges abroad are a line of their own under the number, with their amount', async () => {
    const roaming = {
      phoneNumber: '556677',
      kind: 'roaming' as const,
      description: 'Kostnaður uttanlands í oktober 2026',
      price: { net: 15120, vat: 3780, gross: 18900 },
    };
    await renderApp({
      user: demoUser,
      data: { agreement: null },
      initialEntries: ['/menu/manadargjald'],
      api: {
        ...quietPolls,
        'GET /billing/monthly-price': () =>
          ok({
            ...november,
            lines: [...november.lines, roaming],
            total: { net: 50880, vat: 12720, gross: 63600 },
          }),
      },
    });
    const month = await screen.findByRole('region', { name: 'november 2026' });
    const member = within(month).getByRole('region', { name: '55 66 77' });
    const items = within(member).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual([
      'Limur99,00 kr.',
      'Kostnaður uttanlands í oktober 2026189,00 kr.',
    ]);
    expect(within(month).getByText('Tilsamans við MVG').nextSibling?.textContent).toBe(
      '636,00 kr.',
    );
    expect(screen.getByRole('button', { name: 'Gjald nú · 636,00 kr.' })).toBeTruthy();
  });

  it('"Gjald nú" without a card on file pays by card on the provider’s page, with an Idempotency-Key', async () => {
    const app = await renderApp({
      user: demoUser,
      data: { agreement: null },
      initialEntries: ['/menu/manadargjald'],
      api: {
        ...quietPolls,
        'GET /billing/monthly-price': () => ok(november),
        'POST /billing/pay': () => ok(byCard),
      },
    });
    expect(await screen.findByText('Einki kort er skrásett')).toBeTruthy();
    await userEvent.click(await screen.findByRole('button', { name: 'Gjald nú · 447,00 kr.' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(byCard.paymentUrl));
    const [post] = app.api.callsTo('POST /billing/pay');
    expect(post?.body).toEqual({ payWith: 'card' });
    expect(post?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('with an active agreement charges the card on file after a confirm, and goes to the payment status', async () => {
    const app = await renderApp({
      user: demoUser,
      data: { agreement: visa },
      initialEntries: ['/menu/manadargjald'],
      api: {
        ...quietPolls,
        'GET /billing/monthly-price': () => ok(november),
        'POST /billing/pay': () => ok({ order: monthOrder, paymentUrl: null }),
        'GET /orders/ord-month-11': () => ok({ ...monthOrder, paymentStatus: 'pending' }),
      },
    });
    const user = userEvent.setup();
    await user.click(
      await screen.findByRole('button', { name: 'Gjald við Visa\u00a0••••\u00a04242' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Gjalda mánaðargjaldið?' });
    // No-break spaces keep the card on one line.
    expect(dialog.textContent).toContain('447,00 kr. verða tiknar av Visa\u00a0••••\u00a04242.');
    await user.click(within(dialog).getByRole('button', { name: 'Gjald' }));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/betaling/ord-month-11'));
    expect(app.api.callsTo('POST /billing/pay')[0]?.body).toEqual({ payWith: 'agreement' });
    expect(assign).not.toHaveBeenCalled();
  });

  it('a paid month shows the badge and no way to pay it again', async () => {
    await renderApp({
      user: demoUser,
      data: { agreement: visa },
      initialEntries: ['/menu/manadargjald'],
      api: {
        ...quietPolls,
        'GET /billing/monthly-price': () => ok({ ...november, paidOrderId: 'ord-month-11' }),
      },
    });
    const month = await screen.findByRole('region', { name: 'november 2026' });
    expect(within(month).getByText('Goldið')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Gjald/ })).toBeNull();
    expect(screen.getByRole('link', { name: 'Sí kvittanir' }).getAttribute('href')).toBe(
      '/menu/kvittanir',
    );
  });

  it('ALREADY_PAID: says why and shows the month as paid', async () => {
    let paid = false;
    const app = await renderApp({
      user: demoUser,
      data: { agreement: null },
      initialEntries: ['/menu/manadargjald'],
      api: {
        ...quietPolls,
        'GET /billing/monthly-price': () =>
          ok({ ...november, paidOrderId: paid ? 'ord-month-11' : null }),
        'POST /billing/pay': () => {
          paid = true;
          return fail(409, 'ALREADY_PAID');
        },
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Gjald nú · 447,00 kr.' }));
    expect(await screen.findByText('Goldið')).toBeTruthy();
    expect(app.api.callsTo('GET /billing/monthly-price')).toHaveLength(2);
  });

  it('SPEC §8 fetching the monthly price: its own message, and a retry', async () => {
    const app = await renderApp({
      user: demoUser,
      locale: 'en',
      data: { agreement: null },
      initialEntries: ['/menu/manadargjald'],
      api: { ...quietPolls, 'GET /billing/monthly-price': () => fail(500, 'INTERNAL') },
    });
    expect(await screen.findByText('We could not fetch the monthly price.')).toBeTruthy();
    app.api.on('GET /billing/monthly-price', () => ok(november));
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('region', { name: 'November 2026' })).toBeTruthy();
  });

  it('a failed payment start has its own message with the reason', async () => {
    await renderApp({
      user: demoUser,
      locale: 'en',
      data: { agreement: null },
      initialEntries: ['/menu/manadargjald'],
      api: {
        ...quietPolls,
        'GET /billing/monthly-price': () => ok(november),
        'POST /billing/pay': () => fail(503, 'PAYMENT_PROVIDER_UNAVAILABLE'),
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Pay now · 447.00 kr.' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('We could not start the payment.');
    expect(alert.textContent).toContain('The payment service is not answering right now.');
    expect(assign).not.toHaveBeenCalled();
  });

  describe('with Vipps MobilePay', () => {
    const vipps = {
      'GET /payments/methods': () =>
        ok({
          provider: 'vipps-mobilepay',
          methods: ['mobilepay', 'card'],
          agreementVia: 'mobilepay',
          agreementForPurchases: false,
        }),
    };
    const mobilePay: Agreement = {
      ...visa,
      cardBrand: 'MobilePay',
      cardLast4: null,
      cardExpiry: null,
    };

    it('without an agreement: MobilePay and the card, in the provider’s order; MobilePay pays with payWith mobilepay', async () => {
      const app = await renderApp({
        user: demoUser,
        data: { agreement: null },
        initialEntries: ['/menu/manadargjald'],
        api: {
          ...quietPolls,
          ...vipps,
          'GET /billing/monthly-price': () => ok(november),
          'POST /billing/pay': () =>
            ok({ order: monthOrder, paymentUrl: 'https://mobilepay.test/m-11' }),
        },
      });
      const mobilePayButton = await screen.findByRole('button', { name: 'Gjald við MobilePay' });
      const buttons = screen.getAllByRole('button', { name: /^Gjald/ });
      expect(buttons.map((b) => b.textContent)).toEqual(['Gjald við MobilePay', 'Gjald við korti']);
      expect(within(mobilePayButton).getByText('MobilePay').className).toContain('bg-[#5A78FF]');
      expect(screen.getByText('Eingin gjaldsavtala')).toBeTruthy();
      await userEvent.click(mobilePayButton);
      await waitFor(() => expect(assign).toHaveBeenCalledWith('https://mobilepay.test/m-11'));
      expect(app.api.callsTo('POST /billing/pay')[0]?.body).toEqual({ payWith: 'mobilepay' });
    });

    it('with a MobilePay agreement: charged to it after a confirm that says MobilePay takes it within days', async () => {
      const app = await renderApp({
        user: demoUser,
        data: { agreement: mobilePay },
        initialEntries: ['/menu/manadargjald'],
        api: {
          ...quietPolls,
          ...vipps,
          'GET /billing/monthly-price': () => ok(november),
          'POST /billing/pay': () => ok({ order: monthOrder, paymentUrl: null }),
          'GET /orders/ord-month-11': () => ok(monthOrder),
        },
      });
      const user = userEvent.setup();
      const agreementButton = await screen.findByRole('button', {
        name: 'Gjald við gjaldsavtaluni',
      });
      await screen.findByRole('button', { name: 'Gjald við MobilePay' });
      expect(screen.getAllByRole('button', { name: /^Gjald/ }).map((b) => b.textContent)).toEqual([
        'Gjald við gjaldsavtaluni',
        'Gjald við MobilePay',
        'Gjald við korti',
      ]);
      await user.click(agreementButton);
      const dialog = await screen.findByRole('dialog', { name: 'Gjalda mánaðargjaldið?' });
      expect(dialog.textContent).toContain(
        '447,00 kr. verða tiknar av gjaldsavtaluni í MobilePay. MobilePay tekur gjaldið um nakrar dagar.',
      );
      await user.click(within(dialog).getByRole('button', { name: 'Gjald' }));
      await waitFor(() =>
        expect(app.router.state.location.pathname).toBe('/betaling/ord-month-11'),
      );
      expect(app.api.callsTo('POST /billing/pay')[0]?.body).toEqual({ payWith: 'agreement' });
      expect(await screen.findByRole('heading', { name: 'Vit bíða eftir MobilePay' })).toBeTruthy();
    });
  });
});
