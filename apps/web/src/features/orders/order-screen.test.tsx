import { beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { formatDateTime } from '@alda/contract/format/date';
import { luhnCheckDigit } from '@alda/contract/rules/iccid';
import type { Order } from '@alda/contract/schemas/orders';
import type { OrderProvisioning } from '@alda/contract/schemas/provisioning';
import { ok } from '@/test/fake-api';
import { ownerData } from '@/test/account-fixtures';
import { demoUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const shop = {
  id: 'torshavn',
  name: 'Tórshavn',
  address: 'Niels Finsens gøta 14',
  postCode: '100',
  city: 'Tórshavn',
  openingHours: ['Mánadag–fríggjadag 10–17:30'],
};

const pickupProvisioning: OrderProvisioning = {
  steps: [
    { step: 'received', at: '2025-05-28T09:00:00.000Z', reason: null },
    { step: 'sim_ready_for_pickup', at: '2025-05-29T11:30:00.000Z', reason: null },
  ],
  upcoming: ['active'],
  waitingFor: 'customer_sim',
  expectedAt: '2025-06-01T11:30:00.000Z',
  delivery: 'pickup',
  pickupLocation: shop,
  isPorting: false,
  portDate: null,
};

const newLine = (provisioning: OrderProvisioning, overrides: Partial<Order> = {}): Order => ({
  id: 'order-new',
  kind: 'new_subscription',
  isComplete: false,
  isCancelled: false,
  isMainSubscription: true,
  planId: null,
  phoneNumber: '557899',
  price: null,
  paymentStatus: 'not_required',
  createdAt: '2025-05-28T09:00:00.000Z',
  completedAt: null,
  memberName: null,
  lineId: 'line-new',
  provisioning,
  ...overrides,
});

const rejectedPort: OrderProvisioning = {
  steps: [
    { step: 'received', at: '2025-05-28T09:00:00.000Z', reason: null },
    { step: 'sim_sent', at: '2025-05-28T10:00:00.000Z', reason: null },
    { step: 'port_requested', at: '2025-05-29T09:00:00.000Z', reason: null },
    {
      step: 'port_rejected',
      at: '2025-05-29T12:00:00.000Z',
      reason: 'SIM-kortnummarið samsvarar ikki við tað, ið hin veitarin hevur.',
    },
  ],
  upcoming: ['port_requested', 'port_date_set', 'number_moved', 'active'],
  waitingFor: 'customer_correction',
  expectedAt: null,
  delivery: 'home',
  pickupLocation: null,
  isPorting: true,
  portDate: null,
};

const open = (order: Order, api = {}) =>
  renderApp({
    user: demoUser,
    data: ownerData,
    initialEntries: [`/menu/bilegingar/${order.id}`],
    api: { [`GET /orders/${order.id}`]: () => ok(order), ...api },
  });

beforeAll(async () => {
  await import('./order-screen');
}, 20_000);

describe('an order being provisioned (SPEC §4 "Subscription processing can take days")', () => {
  it('shows the steps so far with their dates, then the steps to come', async () => {
    await open(newLine(pickupProvisioning));
    const steps = await screen.findByRole('list', { name: 'Stig' });
    const items = within(steps).getAllByRole('listitem');
    expect(items.map((li) => li.getAttribute('data-state'))).toEqual(['done', 'done', 'upcoming']);
    expect(items[0]?.textContent).toContain('Bílegging móttikin');
    expect(items[0]?.textContent).toContain(formatDateTime('2025-05-28T09:00:00.000Z'));
    expect(items[1]?.textContent).toContain('SIM-kort klárt at heinta');
    expect(items[1]?.textContent).toContain(formatDateTime('2025-05-29T11:30:00.000Z'));
    expect(items[2]?.textContent).toContain('Nummarið virkar');
    expect(items[2]?.textContent).toContain('Kemur');
  });

  it('says what happens next and when: the shop, and the day it becomes active by itself', async () => {
    await open(newLine(pickupProvisioning));
    const next = await screen.findByRole('region', { name: 'Hvat hendir nú' });
    expect(next.textContent).toContain('SIM-kortið bíðar eftir tær í Tórshavn');
    expect(next.textContent).toContain('Niels Finsens gøta 14, 100 Tórshavn');
    expect(next.textContent).toContain(formatDateTime('2025-06-01T11:30:00.000Z'));
  });

  it('"My SIM works" confirms the SIM and reads the order again', async () => {
    const app = await open(newLine(pickupProvisioning), {
      'POST /orders/order-new/confirm-sim': () => ok(newLine(pickupProvisioning)),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Mítt SIM virkar' }));
    await waitFor(() =>
      expect(app.api.callsTo('POST /orders/order-new/confirm-sim')).toHaveLength(1),
    );
    await waitFor(() => expect(app.api.callsTo('GET /orders/order-new').length).toBeGreaterThan(1));
    expect(await screen.findByText('Takk! Nummarið er nú tikið í nýtslu.')).toBeTruthy();
  });

  it('a network step waits with its expected time and offers no customer action', async () => {
    await open(
      newLine({
        ...pickupProvisioning,
        steps: [pickupProvisioning.steps[0]!],
        upcoming: ['sim_ready_for_pickup', 'active'],
        waitingFor: 'network',
        expectedAt: '2025-05-28T09:00:30.000Z',
      }),
    );
    const next = await screen.findByRole('region', { name: 'Hvat hendir nú' });
    expect(next.textContent).toContain('Næsta stig: SIM-kort klárt at heinta');
    expect(next.textContent).toContain(`Væntað um ${formatDateTime('2025-05-28T09:00:30.000Z')}`);
    expect(screen.queryByRole('button', { name: 'Mítt SIM virkar' })).toBeNull();
  });

  it('a rejected port shows the reason and checks the corrected SIM card number before sending it', async () => {
    const app = await open(newLine(rejectedPort), {
      'PATCH /orders/order-new/porting': () => ok(newLine(rejectedPort)),
    });
    expect(
      await screen.findByText('SIM-kortnummarið samsvarar ikki við tað, ið hin veitarin hevur.', {
        selector: '[role="status"] *, [role="status"]',
      }),
    ).toBeTruthy();
    const field = screen.getByLabelText('SIM-kortnummar hjá núverandi veitara');
    const send = screen.getByRole('button', { name: 'Send rætting' });

    await userEvent.click(send);
    expect(await screen.findByText('Hetta er eitt kravt felt')).toBeTruthy();
    // 19 digits starting 89, but the Luhn check digit is wrong.
    const payload = '892980100001234567';
    const wrongDigit = String((Number(luhnCheckDigit(payload)) + 1) % 10);
    await userEvent.type(field, `${payload}${wrongDigit}`);
    await userEvent.click(send);
    expect(await screen.findByText('SIM-kortnummarið er ikki gilt.')).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(app.api.callsTo('PATCH /orders/order-new/porting')).toHaveLength(0);

    await userEvent.clear(field);
    const valid = `${payload}${luhnCheckDigit(payload)}`;
    await userEvent.type(field, `${valid.slice(0, 4)} ${valid.slice(4, 8)} ${valid.slice(8)}`);
    await userEvent.click(send);
    await waitFor(() => expect(app.api.callsTo('PATCH /orders/order-new/porting')).toHaveLength(1));
    expect(app.api.callsTo('PATCH /orders/order-new/porting')[0]?.body).toEqual({
      simcardNumber: valid,
    });
    expect(await screen.findByText('Takk! Vit biðja um flytingina aftur.')).toBeTruthy();
  });

  it('once the eSIM is ready, leads to its install screen', async () => {
    const app = await open(
      newLine({
        ...pickupProvisioning,
        steps: [
          pickupProvisioning.steps[0]!,
          { step: 'esim_ready', at: '2025-05-28T09:01:00.000Z', reason: null },
        ],
        upcoming: ['active'],
        waitingFor: 'network',
        delivery: 'esim',
        pickupLocation: null,
      }),
    );
    await userEvent.click(await screen.findByRole('link', { name: 'Legg eSIM inn' }));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/sim-kort/line-new/esim'));
  });

  it('the orders list says where an order is and opens it', async () => {
    const order = newLine(pickupProvisioning);
    const app = await renderApp({
      user: demoUser,
      data: { ...ownerData, orders: [order] },
      initialEntries: ['/menu/bilegingar'],
      api: { [`GET /orders/${order.id}`]: () => ok(order) },
    });
    const card = await screen.findByRole('article', { name: 'Nýtt hald' });
    expect(card.textContent).toContain('Nú: SIM-kort klárt at heinta');
    await userEvent.click(within(card).getByRole('link'));
    await waitFor(() =>
      expect(app.router.state.location.pathname).toBe('/menu/bilegingar/order-new'),
    );
    expect(await screen.findByRole('list', { name: 'Stig' })).toBeTruthy();
  });
});
