import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SubscriptionsResponse } from '@alda/contract/schemas/subscriptions';
import { joensenFamily, makeMember, ownerSubscriptions } from '@/test/account-fixtures';
import { fail, json, ok, quietPolls } from '@/test/fake-api';
import { demoUser } from '@/test/fixtures';
import { renderApp, type TestAppOptions } from '@/test/render';
import { recallPayment } from '@/shared/payments/payment-memo';
import { paymentRedirect } from '@/shared/payments/start-payment';

/** Rói: one prepaid (talutíð) number with 23,50 kr. left. */
const roi = makeMember({
  id: 'sub-roi',
  phoneNumber: '214460',
  user: { id: 'user-roi', firstname: 'Rói', lastname: 'Olsen' },
  prepaidBalance: 2350,
});
const prepaidSubscriptions: SubscriptionsResponse = {
  currentAccount: {
    ...joensenFamily,
    id: 'acc-roi',
    type: 'individual_plan',
    members: [roi],
    otherMembers: [],
    currentMember: roi,
    family: null,
  },
  otherAccounts: [],
  isOwner: true,
  individuals: [],
};

const options = { amounts: [5000, 10000, 20000], minOere: 5000, maxOere: 100000 };

const placed = {
  order: {
    id: 'o-9',
    kind: 'top_up',
    isComplete: false,
    isCancelled: false,
    isMainSubscription: false,
    planId: null,
    phoneNumber: '214460',
    price: { net: 8000, vat: 2000, gross: 10000 },
    paymentStatus: 'pending',
    createdAt: '2026-11-22T05:00:00.000Z',
    completedAt: null,
  },
  paymentUrl: 'http://pay.test/c/o-9',
};

async function open(options_: TestAppOptions = {}) {
  return renderApp({
    user: demoUser,
    initialEntries: ['/fyll-uppa'],
    ...options_,
    data: { subscriptions: prepaidSubscriptions, agreement: null, ...options_.data },
    api: {
      ...quietPolls,
      'GET /top-ups/options': () => ok(options),
      ...options_.api,
    },
  });
}

let assign: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  window.sessionStorage.clear();
  assign = vi.spyOn(paymentRedirect, 'assign').mockImplementation(() => undefined);
});
afterEach(() => vi.restoreAllMocks());

describe('top up a prepaid line (SPEC §1 "top up")', () => {
  it('shows the balance and the amounts on offer, and pays the chosen amount by card', async () => {
    const app = await open({ api: { 'POST /top-ups': () => json(201, { data: placed }) } });
    const amounts = await screen.findByRole('radiogroup', { name: 'Upphædd' });
    expect(screen.getByText('23,50 kr.')).toBeTruthy();
    expect(
      within(amounts)
        .getAllByRole('radio')
        .map((r) => r.textContent),
    ).toEqual(['50 kr.', '100 kr.', '200 kr.']);
    const user = userEvent.setup();
    await user.click(within(amounts).getByRole('radio', { name: '100 kr.' }));
    await user.click(screen.getByRole('button', { name: 'Fyll uppá fyri 100,00 kr.' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://pay.test/c/o-9'));
    const [sent] = app.api.callsTo('POST /top-ups');
    expect(sent?.body).toEqual({ phoneNumber: '214460', amount: 10000, payWith: 'card' });
    expect(sent?.headers['idempotency-key']).toBeTruthy();
    expect(recallPayment('o-9')?.returnTo).toBe('/fyll-uppa?nummar=214460&upphaedd=10000');
  });

  it('with Vipps MobilePay offers MobilePay and the card in its order (en), and pays with the chosen one', async () => {
    const app = await open({
      locale: 'en',
      api: {
        'GET /payments/methods': () =>
          ok({
            provider: 'vipps-mobilepay',
            methods: ['mobilepay', 'card'],
            agreementVia: 'mobilepay',
            agreementForPurchases: false,
          }),
        'POST /top-ups': () => json(201, { data: placed }),
      },
    });
    const methods = await screen.findByRole('radiogroup', { name: 'How do you want to pay?' });
    expect(
      within(methods)
        .getAllByRole('radio')
        .map((r) => r.textContent),
    ).toEqual([
      'MobilePayYou approve the payment in MobilePay',
      'Payment cardYou enter the card on a secure payment page',
    ]);
    const user = userEvent.setup();
    await user.click(screen.getByRole('radio', { name: '50 kr.' }));
    await user.click(screen.getByRole('button', { name: 'Top up 50.00 kr.' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://pay.test/c/o-9'));
    expect(app.api.callsTo('POST /top-ups')[0]?.body).toEqual({
      phoneNumber: '214460',
      amount: 5000,
      payWith: 'mobilepay',
    });
  });

  it('SPEC §8: a refused top-up shows the top-up failure message with the reason', async () => {
    await open({
      locale: 'en',
      api: { 'POST /top-ups': () => fail(422, 'TOP_UP_AMOUNT_INVALID', 'bad amount') },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('radio', { name: '50 kr.' }));
    await user.click(screen.getByRole('button', { name: 'Top up 50.00 kr.' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The top-up failed.');
    expect(alert.textContent).not.toContain('bad amount');
    expect(assign).not.toHaveBeenCalled();
  });

  it('explains that only prepaid numbers can be topped up', async () => {
    const app = await open({ data: { subscriptions: ownerSubscriptions } });
    expect(await screen.findByText(/Áfylling er bara til talutíðarnummur/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Fyll uppá fyri/ })).toBeNull();
    expect(app.api.callsTo('POST /top-ups')).toHaveLength(0);
  });
});
