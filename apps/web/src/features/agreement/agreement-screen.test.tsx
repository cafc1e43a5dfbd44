import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Agreement } from '@alda/contract/schemas/agreements';
import type { Order, OrderPlacedResponse } from '@alda/contract/schemas/orders';
import { accountKeys } from '@/shared/api/account-data';
import { paymentRedirect } from '@/shared/payments/start-payment';
import { recallPayment } from '@/shared/payments/payment-memo';
import { deferred, fail, ok, quietPolls } from '@/test/fake-api';
import { dialogClosed } from '@/test/dialogs';
import { demoUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const visa: Agreement = {
  id: 'agr-1',
  status: 'active',
  needsRenewal: false,
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

  it('ends the card agreement after a confirm: progress while it runs, a toast, and the screen without it', async () => {
    const ended = deferred<Response>();
    const app = await renderApp({
      user: demoUser,
      data: { agreement: visa },
      initialEntries: ['/min-brukari/gjaldsavtala'],
      api: {
        ...quietPolls,
        'DELETE /agreements': () => ended.promise,
        'GET /agreements': () => ok({ ...visa, status: 'cancelled' }),
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Enda gjaldsavtaluna' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enda gjaldsavtaluna?' });
    expect(dialog.textContent).toContain('Vit biðja gjaldveitaran um at strika kortið.');
    await user.click(within(dialog).getByRole('button', { name: 'Enda' }));
    await dialogClosed();
    await waitFor(() => expect(app.api.callsTo('DELETE /agreements')).toHaveLength(1));
    expect(
      screen.getByRole('button', { name: 'Enda gjaldsavtaluna' }).getAttribute('aria-busy'),
    ).toBe('true');
    ended.resolve(ok(null));
    expect(await screen.findByRole('heading', { name: 'Einki kort er skrásett' })).toBeTruthy();
    expect(app.toasts.getToasts().map((toast) => toast.message)).toContain(
      'Tú hevur endað gjaldsavtaluna.',
    );
    expect(screen.queryByRole('button', { name: 'Enda gjaldsavtaluna' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Skráset kort' })).toBeTruthy();
    // The agreement is read again after it ended.
    await waitFor(() => expect(app.api.callsTo('GET /agreements')).toHaveLength(1));
  });

  it('cancelling the confirm ends nothing', async () => {
    const app = await renderApp({
      user: demoUser,
      data: { agreement: visa },
      initialEntries: ['/min-brukari/gjaldsavtala'],
      api: quietPolls,
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Enda gjaldsavtaluna' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enda gjaldsavtaluna?' });
    await user.click(within(dialog).getByRole('button', { name: 'Angra' }));
    await dialogClosed();
    expect(app.api.callsTo('DELETE /agreements')).toHaveLength(0);
    expect(screen.getByRole('heading', { name: 'Visa' })).toBeTruthy();
  });
});

describe('payment agreement with Vipps MobilePay (agreementVia: mobilepay)', () => {
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
    id: 'agr-mp',
    cardBrand: 'MobilePay',
    cardLast4: null,
    cardExpiry: null,
  };

  it('without one: it is approved in MobilePay — the button opens MobilePay and the status screen will say MobilePay', async () => {
    const app = await renderApp({
      user: demoUser,
      data: { agreement: null },
      initialEntries: ['/min-brukari/gjaldsavtala'],
      api: {
        ...quietPolls,
        ...vipps,
        'POST /agreements': () =>
          ok({ ...placed, paymentUrl: 'https://mobilepay.test/agreement/1' }),
      },
    });
    expect(await screen.findByRole('heading', { name: 'Eingin gjaldsavtala' })).toBeTruthy();
    expect(screen.getByText(/^Góðkenn eina gjaldsavtalu í MobilePay/)).toBeTruthy();
    expect(
      screen.getByText('Tú góðkennir avtaluna í MobilePay. Vit taka ongar pengar nú.'),
    ).toBeTruthy();
    expect(screen.queryByText(/kort/i)).toBeNull();
    const approve = screen.getByRole('button', { name: 'Góðkenn í MobilePay' });
    expect(within(approve).getByText('MobilePay').className).toContain('bg-[#5A78FF]');
    await userEvent.click(approve);
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://mobilepay.test/agreement/1'));
    expect(app.api.callsTo('POST /agreements')[0]?.body).toEqual({});
    expect(recallPayment(cardCheck.id)).toMatchObject({
      itemName: 'Gjaldsavtala við MobilePay',
      paidWith: 'mobilepay',
    });
  });

  it('a card agreement of the provider used before asks to approve a new one in MobilePay (issue 61 §2)', async () => {
    await renderApp({
      user: demoUser,
      data: { agreement: { ...visa, status: 'expired', needsRenewal: true } },
      initialEntries: ['/min-brukari/gjaldsavtala'],
      api: { ...quietPolls, ...vipps },
    });
    expect(await screen.findByText('Má endurnýggjast')).toBeTruthy();
    expect(screen.queryByText('Gingin út')).toBeNull();
    expect(screen.getByText(/^Vit hava skift gjaldveitara/)).toBeTruthy();
    // Not the expired card's words: nothing is wrong with the card itself.
    expect(screen.queryByText(/Kortið er gingið út/)).toBeNull();
    expect(screen.getByRole('button', { name: /Góðkenn í MobilePay/ })).toBeTruthy();
  });

  it('an active one shows MobilePay without card digits (en), and can be ended', async () => {
    const app = await renderApp({
      user: demoUser,
      locale: 'en',
      data: { agreement: mobilePay },
      initialEntries: ['/min-brukari/gjaldsavtala'],
      api: {
        ...quietPolls,
        ...vipps,
        'DELETE /agreements': () => ok(null),
        'GET /agreements': () => ok(null),
      },
    });
    expect(await screen.findByRole('heading', { name: 'MobilePay' })).toBeTruthy();
    expect(screen.getByText('Active')).toBeTruthy();
    expect(screen.queryByText(/••••/)).toBeNull();
    expect(
      screen.getByText(
        'The monthly price can be paid with MobilePay without you approving each payment.',
      ),
    ).toBeTruthy();
    // MobilePay keeps its card itself: nothing to change here.
    expect(screen.queryByRole('button', { name: /Change card|Approve in MobilePay/ })).toBeNull();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'End the payment agreement' }));
    const dialog = await screen.findByRole('dialog', { name: 'End the payment agreement?' });
    expect(dialog.textContent).toContain('We end the agreement in MobilePay too.');
    await user.click(within(dialog).getByRole('button', { name: 'End' }));
    expect(await screen.findByRole('heading', { name: 'No payment agreement' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Approve in MobilePay' })).toBeTruthy();
    expect(app.toasts.getToasts().map((toast) => toast.message)).toContain(
      'You have ended the payment agreement.',
    );
  });

  it('the provider not answering (503) ends nothing: the reason, and it can be tried again', async () => {
    let attempt = 0;
    const app = await renderApp({
      user: demoUser,
      data: { agreement: mobilePay },
      initialEntries: ['/min-brukari/gjaldsavtala'],
      api: {
        ...quietPolls,
        ...vipps,
        'DELETE /agreements': () => {
          attempt += 1;
          return attempt === 1
            ? fail(503, 'PAYMENT_PROVIDER_UNAVAILABLE', 'The provider is down')
            : ok(null);
        },
        'GET /agreements': () => ok({ ...mobilePay, status: 'cancelled' }),
      },
    });
    const user = userEvent.setup();
    const end = async () => {
      await user.click(await screen.findByRole('button', { name: 'Enda gjaldsavtaluna' }));
      const dialog = await screen.findByRole('dialog', { name: 'Enda gjaldsavtaluna?' });
      expect(dialog.textContent).toContain('Vit enda eisini avtaluna í MobilePay.');
      await user.click(within(dialog).getByRole('button', { name: 'Enda' }));
      await dialogClosed();
    };
    await end();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Vit kundu ikki enda gjaldsavtaluna.');
    expect(alert.textContent).toContain(
      'Gjaldingartænastan svarar ikki í løtuni. Royn aftur um eina løtu.',
    );
    // Nothing changed: the agreement is still there, and no toast says otherwise.
    expect(screen.getByRole('heading', { name: 'MobilePay' })).toBeTruthy();
    expect(app.toasts.getToasts()).toHaveLength(0);
    await end();
    expect(await screen.findByRole('heading', { name: 'Eingin gjaldsavtala' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('a pending one waits to be approved in MobilePay, and the approval can be started again', async () => {
    await renderApp({
      user: demoUser,
      data: { agreement: { ...mobilePay, status: 'pending', cardBrand: null } },
      initialEntries: ['/min-brukari/gjaldsavtala'],
      api: { ...quietPolls, ...vipps },
    });
    expect(await screen.findByRole('heading', { name: 'MobilePay' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toContain(
      'Avtalan er ikki góðkend í MobilePay enn.',
    );
    expect(screen.getByRole('button', { name: 'Góðkenn í MobilePay' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Enda gjaldsavtaluna' })).toBeTruthy();
  });
});
