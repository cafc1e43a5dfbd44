import { beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Order } from '@alda/contract/schemas/orders';
import type { SimDetails } from '@alda/contract/schemas/provisioning';
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
      'GET /sim-pickup-locations': () => ok(shops),
      [`GET /orders/${simChange.id}`]: () => ok(simChange),
      ...api,
    },
  });

beforeAll(async () => {
  await import('./sim-replacement-screen');
}, 20_000);

describe('a new SIM or a switch to eSIM (SPEC §1 "manage eSIM or physical SIM details and phone-book visibility")', () => {
  it('switches to eSIM: one order with an Idempotency-Key, then its order screen', async () => {
    const app = await open({
      'POST /subscriptions/sub-joannes/sim/replacement': () =>
        ok({ order: simChange, paymentUrl: null }),
    });
    await userEvent.click(await screen.findByRole('radio', { name: /Skift til eSIM/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Bílegg' }));
    await waitFor(() =>
      expect(app.router.state.location.pathname).toBe('/menu/bilegingar/order-sim'),
    );
    const [call] = app.api.callsTo('POST /subscriptions/sub-joannes/sim/replacement');
    expect(call?.body).toEqual({ eSim: true, simPickupLocationId: null, sendHome: false });
    expect(call?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
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
    await waitFor(() =>
      expect(app.api.callsTo('POST /subscriptions/sub-joannes/sim/replacement')).toHaveLength(1),
    );
    expect(app.api.callsTo('POST /subscriptions/sub-joannes/sim/replacement')[0]?.body).toEqual({
      eSim: false,
      simPickupLocationId: 'klaksvik',
      sendHome: false,
    });
  });

  it('a refusal is shown in words, and the customer stays', async () => {
    const app = await open({
      'POST /subscriptions/sub-joannes/sim/replacement': () => fail(409, 'ORDER_PROCESSING'),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Bílegg' }));
    expect(
      await screen.findByText('Ein bílegging verður enn viðgjørd. Royn aftur, tá ið hon er liðug.'),
    ).toBeTruthy();
    expect(app.router.state.location.pathname).toBe('/sim-kort/sub-joannes/nytt-kort');
  });
});
