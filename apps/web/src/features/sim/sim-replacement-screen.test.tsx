import { beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Order } from '@alda/contract/schemas/orders';
import type { LineProtection } from '@alda/contract/schemas/number-protection';
import type { SimDetails } from '@alda/contract/schemas/provisioning';
import { dialogClosed } from '@/test/dialogs';
import { fail, ok } from '@/test/fake-api';
import { ownerData } from '@/test/account-fixtures';
import { demoUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const physical: SimDetails = {
  lineId: 'sub-joannes',
  phoneNumber: '214455',
  simType: 'physical',
  iccidMasked: '•••• •••• •••• 2207',
  esim: null,
  pendingOrderId: null,
  phoneBookVisible: false,
};

const simChange: Order = {
  id: 'order-sim',
  kind: 'sim_change',
  isComplete: false,
  isCancelled: false,
  isMainSubscription: false,
  planId: null,
  phoneNumber: '214455',
  price: null,
  paymentStatus: 'not_required',
  createdAt: '2025-05-28T09:00:00.000Z',
  completedAt: null,
  lineId: 'sub-joannes',
  provisioning: null,
};

const protection = (state: LineProtection['lock']['state']): LineProtection => ({
  lineId: 'sub-joannes',
  phoneNumber: '214455',
  lock: { state, unlockAt: null, requestedAt: null },
  unlockDelayMinutes: 24 * 60,
  simChangedAt: null,
  portOutCode: null,
});

const shops = [
  {
    id: 'klaksvik',
    name: 'Klaksvík',
    address: 'Klaksvíksvegur 7',
    postCode: '700',
    city: 'Klaksvík',
    openingHours: ['Mánadag–fríggjadag 10–17'],
  },
];

const open = (api = {}) =>
  renderApp({
    user: demoUser,
    data: ownerData,
    initialEntries: ['/sim-kort/sub-joannes/nytt-kort'],
    api: {
      'GET /subscriptions/sub-joannes/sim': () => ok(physical),
      'GET /subscriptions/sub-joannes/protection': () => ok(protection('unlocked')),
      'GET /sim-pickup-locations': () => ok(shops),
      [`GET /orders/${simChange.id}`]: () => ok(simChange),
      ...api,
    },
  });

beforeAll(async () => {
  await import('./sim-replacement-screen');
}, 20_000);

/** The step-up dialog (ADR 0076): the password again, then the dialog's own "Bílegg". */
async function confirmWithPassword(password = 'Demo1234!') {
  const dialog = await screen.findByRole('dialog', { name: 'Vátta, at tað ert tú' });
  await userEvent.type(within(dialog).getByLabelText('Loyniorð'), password);
  await userEvent.click(within(dialog).getByRole('button', { name: 'Bílegg' }));
  return dialog;
}

describe('a new SIM or a switch to eSIM (SPEC §1 "manage eSIM or physical SIM details and phone-book visibility")', () => {
  it('switches to eSIM after the password again: one order with an Idempotency-Key, then its order screen', async () => {
    const app = await open({
      'POST /subscriptions/sub-joannes/sim/replacement': () =>
        ok({ order: simChange, paymentUrl: null }),
    });
    await userEvent.click(await screen.findByRole('radio', { name: /Skift til eSIM/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Bílegg' }));
    // Nothing is ordered before the password is given.
    expect(app.api.callsTo('POST /subscriptions/sub-joannes/sim/replacement')).toHaveLength(0);
    await confirmWithPassword();
    await waitFor(() =>
      expect(app.router.state.location.pathname).toBe('/menu/bilegingar/order-sim'),
    );
    const [call] = app.api.callsTo('POST /subscriptions/sub-joannes/sim/replacement');
    expect(call?.body).toEqual({
      eSim: true,
      simPickupLocationId: null,
      sendHome: false,
      password: 'Demo1234!',
    });
    expect(call?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('a wrong password stays in the dialog; the next try is a new attempt', async () => {
    let calls = 0;
    const app = await open({
      'POST /subscriptions/sub-joannes/sim/replacement': () =>
        ++calls === 1
          ? fail(422, 'PASSWORD_INCORRECT')
          : ok({ order: simChange, paymentUrl: null }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Bílegg' }));
    const dialog = await confirmWithPassword('Skeivt-1');
    expect(await within(dialog).findByText('Loyniorðið er skeivt.')).toBeTruthy();
    const password = within(dialog).getByLabelText('Loyniorð');
    await userEvent.clear(password);
    await userEvent.type(password, 'Demo1234!');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Bílegg' }));
    await waitFor(() =>
      expect(app.router.state.location.pathname).toBe('/menu/bilegingar/order-sim'),
    );
    const [first, second] = app.api.callsTo('POST /subscriptions/sub-joannes/sim/replacement');
    expect(second?.body).toMatchObject({ password: 'Demo1234!' });
    expect(second?.headers['idempotency-key']).not.toBe(first?.headers['idempotency-key']);
  });

  it('a pickup needs a shop from the list', async () => {
    const app = await open({
      'POST /subscriptions/sub-joannes/sim/replacement': () =>
        ok({ order: simChange, paymentUrl: null }),
    });
    await userEvent.click(await screen.findByRole('radio', { name: /Heinta í handli/ }));
    const order = screen.getByRole('button', { name: 'Bílegg' });
    expect((order as HTMLButtonElement).disabled).toBe(true);
    await userEvent.click(await screen.findByRole('radio', { name: /Klaksvíksvegur 7/ }));
    await userEvent.click(order);
    await confirmWithPassword();
    await waitFor(() =>
      expect(app.api.callsTo('POST /subscriptions/sub-joannes/sim/replacement')).toHaveLength(1),
    );
    expect(app.api.callsTo('POST /subscriptions/sub-joannes/sim/replacement')[0]?.body).toEqual({
      eSim: false,
      simPickupLocationId: 'klaksvik',
      sendHome: false,
      password: 'Demo1234!',
    });
  });

  it('a refusal is shown in words, and the customer stays', async () => {
    const app = await open({
      'POST /subscriptions/sub-joannes/sim/replacement': () => fail(409, 'ORDER_PROCESSING'),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Bílegg' }));
    await confirmWithPassword();
    await dialogClosed();
    expect(
      await screen.findByText('Ein bílegging verður enn viðgjørd. Royn aftur, tá ið hon er liðug.'),
    ).toBeTruthy();
    expect(app.router.state.location.pathname).toBe('/sim-kort/sub-joannes/nytt-kort');
  });

  it('a locked number (NUMBER_LOCKED) says so and links to the lock screen', async () => {
    await open({
      'POST /subscriptions/sub-joannes/sim/replacement': () => fail(409, 'NUMBER_LOCKED'),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Bílegg' }));
    await confirmWithPassword();
    await dialogClosed();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Nummarið er læst.');
    expect(within(alert).getByRole('link', { name: 'Til nummarlásið' }).getAttribute('href')).toBe(
      '/nummarlas/sub-joannes',
    );
  });

  it('a locked number says so before the password is asked for: no order can be placed (ADR 0076)', async () => {
    const app = await open({
      'GET /subscriptions/sub-joannes/protection': () => ok(protection('locked')),
    });
    const notice = await screen.findByText(
      'Nummarið er læst, so tað kann ikki fáa nýtt SIM. Lat tað upp fyrst.',
    );
    expect(
      within(notice.closest('[role]') ?? notice.parentElement!)
        .getByRole('link', { name: 'Til nummarlásið' })
        .getAttribute('href'),
    ).toBe('/nummarlas/sub-joannes');
    const order = screen.getByRole('button', { name: 'Bílegg' });
    expect((order as HTMLButtonElement).disabled).toBe(true);
    await userEvent.click(order);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(app.api.callsTo('POST /subscriptions/sub-joannes/sim/replacement')).toHaveLength(0);
  });

  it('a customer without a password confirms with an SMS code', async () => {
    const app = await renderApp({
      user: { ...demoUser, hasPassword: false },
      data: ownerData,
      initialEntries: ['/sim-kort/sub-joannes/nytt-kort'],
      api: {
        'GET /subscriptions/sub-joannes/sim': () => ok(physical),
        'GET /sim-pickup-locations': () => ok(shops),
        [`GET /orders/${simChange.id}`]: () => ok(simChange),
        'POST /auth/sessions/confirmation-code': () =>
          ok({ phoneNumber: '214455', expiresIn: 300, resendAfter: 30 }),
        'POST /subscriptions/sub-joannes/sim/replacement': () =>
          ok({ order: simChange, paymentUrl: null }),
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Bílegg' }));
    const dialog = await screen.findByRole('dialog', { name: 'Vátta, at tað ert tú' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send kotu' }));
    await userEvent.type(await within(dialog).findByLabelText('Kota úr SMS'), '123456');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Bílegg' }));
    await waitFor(() =>
      expect(app.router.state.location.pathname).toBe('/menu/bilegingar/order-sim'),
    );
    expect(app.api.callsTo('POST /subscriptions/sub-joannes/sim/replacement')[0]?.body).toEqual({
      eSim: true,
      simPickupLocationId: null,
      sendHome: false,
      code: '123456',
    });
  });
});
