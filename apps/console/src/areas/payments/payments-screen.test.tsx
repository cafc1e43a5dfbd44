import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { aSession, renderConsole, type Call, type Handler } from '@/test/render';
import { aPaymentRow, PAYMENT_ID } from './fixtures';

const LIST = '/api/staff/payments';

const listOf =
  (items = [aPaymentRow()]): Handler =>
  (call) =>
    call.method === 'GET' && call.path.startsWith(LIST)
      ? { status: 200, body: { data: { items } } }
      : undefined;

const listCalls = (calls: Call[]) =>
  calls.filter((c) => c.path.startsWith(LIST)).map((c) => new URL(c.path, 'http://x').searchParams);

describe('the payments list (issue 31 "Payments")', () => {
  it('lists payments with customer, amount, method, state, card and refunds in a table', async () => {
    renderConsole({
      path: '/payments',
      session: aSession('support'),
      handler: listOf([
        aPaymentRow(),
        aPaymentRow({
          id: '2a6c3e10-5b7d-4f8e-9a1b-2c3d4e5f6a7b',
          state: 'failed',
          card: null,
          amountOere: 14_900,
          customer: { id: '6f1d2c3a-0002-4a6e-9b1a-0a1f00000002', name: 'Sunneva Hansen' },
          refundedOere: 0,
        }),
        aPaymentRow({
          id: '3b7d4f21-6c8e-4a9f-8b2c-3d4e5f6a7b8c',
          refundedOere: 1_000,
          refundingOere: 900,
        }),
      ]),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Gjaldingar' })).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Gjaldingar, nýggjastu fyrst' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(3);
    expect(rows[0]?.textContent).toContain('Jóannes Joensen');
    expect(rows[0]?.textContent).toContain('39,00 kr.');
    expect(rows[0]?.textContent).toContain('Goldið');
    expect(rows[0]?.textContent).toContain('Visa •••• 4242');
    expect(rows[1]?.textContent).toContain('149,00 kr.');
    expect(rows[1]?.textContent).toContain('Miseydnaðist');
    expect(rows[2]?.textContent).toContain('10,00 kr.');
    expect(rows[2]?.textContent).toContain('9,00 kr. bíðar');
    expect(
      within(rows[0] as HTMLElement)
        .getByRole('link', { name: '25.11.2026 09:12' })
        .getAttribute('href'),
    ).toBe(`/payments/${PAYMENT_ID}`);
    expect(screen.getByText('3 gjøld')).toBeTruthy();
  });

  it('searches by what was typed and filters by state; the search stays in the address', async () => {
    const user = userEvent.setup();
    const { calls, router } = renderConsole({
      path: '/payments',
      session: aSession('support'),
      handler: listOf([]),
    });
    await screen.findByText('Ongar gjaldingar enn.');
    await user.type(screen.getByRole('searchbox', { name: 'Leita' }), '+298 21 44 55');
    await user.click(screen.getByRole('button', { name: 'Leita' }));
    await screen.findByText('Einki gjald samsvarar við leitingina.');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Støða' }), 'paid');

    await waitFor(() => expect(listCalls(calls).at(-1)?.get('state')).toBe('paid'));
    const last = listCalls(calls).at(-1);
    expect(last?.get('q')).toBe('+298 21 44 55');
    expect(router.state.location.search).toBe('?q=%2B298+21+44+55&state=paid');
    await user.click(screen.getByRole('button', { name: 'Tøm leitingina' }));
    // Back to the plain list (answered from the cache while it is fresh).
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(screen.getByRole('searchbox', { name: 'Leita' })).toHaveProperty('value', '');
    expect(await screen.findByText('Ongar gjaldingar enn.')).toBeTruthy();
  }, 15_000);

  it('says when the list could not be loaded, with the reason, and tries again on request', async () => {
    const user = userEvent.setup();
    let fail = true;
    renderConsole({
      path: '/payments',
      session: aSession('support'),
      handler: (call) =>
        fail
          ? { status: 500, body: { error: { code: 'INTERNAL', message: 'Okkurt gekk galið.' } } }
          : listOf()(call),
    });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Vit kundu ikki heinta gjaldingarnar.');
    expect(alert.textContent).toContain('Okkurt gekk galið.');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Royn aftur' }));
    expect(await screen.findByRole('table')).toBeTruthy();
  });

  it('refreshes itself every 5 s (the live list)', async () => {
    const { calls } = renderConsole({
      path: '/payments',
      session: aSession('support'),
      handler: listOf(),
    });
    await screen.findByRole('table');
    const before = listCalls(calls).length;
    await waitFor(() => expect(listCalls(calls).length).toBeGreaterThan(before), {
      timeout: 7_000,
    });
  }, 10_000);
});
