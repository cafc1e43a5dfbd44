import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Agreement } from '@alda/contract/schemas/agreements';
import type { Order, OrderPlacedResponse } from '@alda/contract/schemas/orders';
import { accountKeys } from '@/shared/api/account-data';
import { paymentRedirect } from '@/shared/payments/start-payment';
import { fail, ok, quietPolls } from '@/test/fake-api';
import { demoUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const visa: Agreement = {
  id: 'agr-1',
  status: 'active',
  cardBrand: 'Visa',
  cardLast4: '4242',
  cardExpiry: '08/29',
  createdAt: '2026-10-01T10:00:00.000Z',
};

const cardCheck: Order = {
  id: 'ord-card-1',
  kind: 'payment_agreement',
  isComplete: false,
  isCancelled: false,
  isMainSubscription: false,
  planId: null,
  phoneNumber: null,
  price: { net: 0, vat: 0, gross: 0 },
  paymentStatus: 'pending',
  createdAt: '2026-11-22T05:00:00.000Z',
  completedAt: null,
};

const placed: OrderPlacedResponse = {
  order: cardCheck,
  paymentUrl: 'http://127.0.0.1:3230/provider/checkout/chk_1',
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

describe('payment agreement /min-brukari/gjaldsavtala (SPEC §2 profile.agreement)', () => {
  it('shows the card on file from the start-up data (SPEC §1 step 5): brand, last 4, expiry, status — and no footer', async () => {
    const app = await renderApp({
      user: demoUser,
      data: { agreement: visa },
      initialEntries: ['/min-brukari/gjaldsavtala'],
      api: quietPolls,
    });
    expect(await screen.findByRole('heading', { name: 'Visa' })).toBeTruthy();
    expect(screen.getByLabelText('Kort sum endar við 4242').textContent).toContain('4242');
    expect(screen.getByText('08/29')).toBeTruthy();
    expect(screen.getByText('Virkin')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Skift kort' })).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Høvuðsvalmynd' })).toBeNull();
    // The start-up already loaded it: no second request.
    expect(app.api.callsTo('GET /agreements')).toHaveLength(0);
  });

  it('says when the card is still being checked, or has expired and should be changed', async () => {
    const app = await renderApp({
      user: demoUser,
      data: { agreement: { ...visa, status: 'pending' } },
      initialEntries: ['/min-brukari/gjaldsavtala'],
      api: quietPolls,
    });
    expect(await screen.findByText('Verður kannað')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toContain(
      'Gjaldveitarin hevur ikki váttað kortið enn.',
    );
    app.queryClient.setQueryData(accountKeys.resource('agreement'), { ...visa, status: 'expired' });
    expect(await screen.findByText('Gingin út')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toContain('Kortið er gingið út. Skift kort');
    expect(screen.getByRole('button', { name: 'Skift kort' })).toBeTruthy();
  });

  it('is reached from the profile screen', async () => {
    const app = await renderApp({
      user: demoUser,
      data: { agreement: visa },
      initialEntries: ['/min-brukari'],
      api: quietPolls,
    });
    await userEvent.click(await screen.findByRole('link', { name: 'Gjaldsavtala' }));
    await waitFor(() =>
      expect(app.router.state.location.pathname).toBe('/min-brukari/gjaldsavtala'),
    );
    expect(await screen.findByRole('heading', { name: 'Visa' })).toBeTruthy();
  });

  it('without a card explains why to save one; "Skráset kort" posts with an Idempotency-Key and opens the provider’s card page', async () => {
    const app = await renderApp({
      user: demoUser,
      data: { agreement: null },
      initialEntries: ['/min-brukari/gjaldsavtala'],
      api: { ...quietPolls, 'POST /agreements': () => ok(placed) },
    });
    expect(await screen.findByRole('heading', { name: 'Einki kort er skrásett' })).toBeTruthy();
    expect(screen.getByText(/goymt hjá gjaldveitaranum/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Skráset kort' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(placed.paymentUrl));
    const [post] = app.api.callsTo('POST /agreements');
    expect(post?.body).toEqual({});
    expect(post?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('loads the agreement when the start-up could not, with its own message when that fails', async () => {
    const app = await renderApp({
      user: demoUser,
      locale: 'en',
      initialEntries: ['/min-brukari/gjaldsavtala'],
      api: { ...quietPolls, 'GET /agreements': () => fail(500, 'INTERNAL') },
    });
    expect(await screen.findByText('We could not fetch the payment agreement.')).toBeTruthy();
    app.api.on('GET /agreements', () => ok(visa));
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Visa' })).toBeTruthy();
  });

  it('SPEC §8 payment agreement creation: its own message; a lost answer is retried with the same key, an answered failure gets a new one', async () => {
    let attempt = 0;
    const app = await renderApp({
      user: demoUser,
      data: { agreement: visa },
      initialEntries: ['/min-brukari/gjaldsavtala'],
      api: {
        ...quietPolls,
        'POST /agreements': () => {
          attempt += 1;
          if (attempt === 1) throw new TypeError('Failed to fetch');
          if (attempt === 2)
            return fail(503, 'PAYMENT_PROVIDER_UNAVAILABLE', 'The provider is down');
          return ok(placed);
        },
      },
    });
    const change = await screen.findByRole('button', { name: 'Skift kort' });
    await userEvent.click(change);
    expect(await screen.findByText('Vit kundu ikki skráseta kortið.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Skift kort' }));
    expect(
      await screen.findByText('Gjaldingartænastan svarar ikki í løtuni. Royn aftur um eina løtu.'),
    ).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('Vit kundu ikki skráseta kortið.');
    expect(assign).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Skift kort' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(placed.paymentUrl));
    const keys = app.api.callsTo('POST /agreements').map((r) => r.headers['idempotency-key']);
    expect(keys).toHaveLength(3);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[1]);
  });
});
