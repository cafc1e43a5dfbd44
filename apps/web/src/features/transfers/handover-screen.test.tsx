import { beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Agreement } from '@alda/contract/schemas/agreements';
import type { Order } from '@alda/contract/schemas/orders';
import type { LineHandover } from '@alda/contract/schemas/subscriptions';
import { memberSubscriptions, ownerData } from '@/test/account-fixtures';
import { fail, ok, quietPolls, json, type Handler } from '@/test/fake-api';
import { demoUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { dialogClosed } from '@/test/dialogs';

const card: Agreement = {
  id: 'agr-1',
  status: 'active',
  needsRenewal: false,
  cardBrand: 'Visa',
  cardLast4: '4242',
  cardExpiry: '12/29',
  createdAt: '2026-01-01T10:00:00.000Z',
};

const offer: LineHandover = {
  id: 'h-1',
  phoneNumber: '214456',
  status: 'pending',
  from: { firstname: 'Jóannes', lastname: 'Joensen' },
  to: { firstname: 'Sunneva', lastname: 'Joensen' },
  planId: 'plan-individual-10',
  planName: '10 GB',
  monthlyPrice: { net: 11920, vat: 2980, gross: 14900 },
  isReceiver: true,
  createdAt: '2026-11-20T10:00:00.000Z',
  decidedAt: null,
  orderId: null,
};

const handOverOrder: Order = {
  id: 'order-hand-over',
  kind: 'transfer',
  isComplete: false,
  isCancelled: false,
  isMainSubscription: false,
  planId: 'plan-individual-10',
  phoneNumber: '214456',
  price: null,
  paymentStatus: 'not_required',
  createdAt: '2026-11-23T09:00:00.000Z',
  completedAt: null,
};

async function open(
  handover: LineHandover,
  api: Record<string, Handler> = {},
  agreement: Agreement | null = card,
) {
  const app = await renderApp({
    user: demoUser,
    initialEntries: [`/yvirtaka/${handover.id}`],
    data: { ...ownerData, subscriptions: memberSubscriptions, agreement },
    api: {
      ...quietPolls,
      'GET /line-handovers': () => ok([handover]),
      [`GET /line-handovers/${handover.id}`]: () => ok(handover),
      [`GET /orders/${handOverOrder.id}`]: () => ok(handOverOrder),
      ...api,
    },
  });
  return { ...app, user: userEvent.setup() };
}

beforeAll(async () => {
  await import('./handover-screen');
}, 20_000);

describe('a number offered to me (ADR 0056 "Hand a number to another person", /yvirtaka/:id)', () => {
  it('shows who offers which number on which plan at what monthly price; Accept places the order with an Idempotency-Key and opens it', async () => {
    const app = await open(offer, {
      'POST /line-handovers/h-1/accept': () => ok({ order: handOverOrder, paymentUrl: null }),
    });
    expect(
      await screen.findByText('Jóannes Joensen vil geva tær 21 44 56 á haldinum 10 GB.'),
    ).toBeTruthy();
    expect(screen.getByText('149,00 kr.')).toBeTruthy();
    await app.user.click(screen.getByRole('button', { name: 'Tak ímóti' }));
    await waitFor(() =>
      expect(app.router.state.location.pathname).toBe('/menu/bilegingar/order-hand-over'),
    );
    const [call] = app.api.callsTo('POST /line-handovers/h-1/accept');
    expect(call?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('without a card on file Accept waits for one and links to the payment agreement', async () => {
    await open(offer, {}, null);
    const link = await screen.findByRole('link', { name: 'Skráset eitt kort' });
    expect(link.getAttribute('href')).toBe('/min-brukari/gjaldsavtala');
    expect((screen.getByRole('button', { name: 'Tak ímóti' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
  });

  it('Decline asks first, then DELETEs the hand-over and shows it declined', async () => {
    const app = await open(offer, { 'DELETE /line-handovers/h-1': () => json(204, undefined) });
    await app.user.click(await screen.findByRole('button', { name: 'Sig nei' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Sig nei til nummarið?');
    await app.user.click(within(dialog).getByRole('button', { name: 'Sig nei' }));
    expect(await screen.findByText('Sagt nei')).toBeTruthy();
    expect(app.api.callsTo('DELETE /line-handovers/h-1')).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Tak ímóti' })).toBeNull();
  });

  it('cancelling the decline question changes nothing', async () => {
    const app = await open(offer);
    await app.user.click(await screen.findByRole('button', { name: 'Sig nei' }));
    await app.user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Angra' }),
    );
    await dialogClosed();
    expect(app.api.callsTo('DELETE /line-handovers/h-1')).toHaveLength(0);
  });

  it('the giver sees it waiting and may withdraw it', async () => {
    const mine = { ...offer, isReceiver: false };
    const app = await open(mine, {
      'DELETE /line-handovers/h-1': () =>
        ok({ ...mine, status: 'withdrawn', decidedAt: '2026-11-23T10:00:00.000Z' }),
    });
    expect(
      await screen.findByText(
        'Vit bíða eftir, at Sunneva Joensen svarar. Einki broytist, fyrr enn boðini eru góðtikin.',
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Tak ímóti' })).toBeNull();
    await app.user.click(screen.getByRole('button', { name: 'Tak boðini aftur' }));
    await app.user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Tak boðini aftur' }),
    );
    expect(
      await screen.findByText('Tú tókst boðini um 21 44 56 til Sunneva Joensen aftur.'),
    ).toBeTruthy();
  });

  it('an accept refused with CONFLICT shows its text under "could not move the number"', async () => {
    const app = await open(offer, {
      'POST /line-handovers/h-1/accept': () => fail(409, 'CONFLICT'),
    });
    await app.user.click(await screen.findByRole('button', { name: 'Tak ímóti' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Vit kundu ikki flyta nummarið.');
    expect(alert.textContent).toContain('Hetta er longu broytt. Royn aftur.');
  });
});
