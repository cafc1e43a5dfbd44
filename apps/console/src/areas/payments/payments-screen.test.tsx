import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { StaffPaymentsPage } from '@alda/contract/schemas/staff-payments';
import { aSession, renderConsole, type Call, type Handler } from '@/test/render';
import { aPaymentRow, PAYMENT_ID } from './fixtures';

const LIST = '/api/staff/payments';

const listOf =
  (items = [aPaymentRow()]): Handler =>
  (call) =>
    call.method === 'GET' && call.path.startsWith(LIST)
      ? { status: 200, body: { data: { items, nextBefore: null } } }
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

describe("older payments page by page (`before` = the last page's `nextBefore`)", () => {
  const idOf = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  const row = (n: number) =>
    aPaymentRow({
      id: idOf(n),
      customer: { id: '6f1d2c3a-0001-4a6e-9b1a-0a1f00000001', name: `Kundi ${n}` },
    });
  /** Newest first: 1 and 2, then 3 and 4 (before 2), then 5 (before 4), the last page. */
  const PAGES: Record<string, StaffPaymentsPage> = {
    '': { items: [row(1), row(2)], nextBefore: idOf(2) },
    [idOf(2)]: { items: [row(3), row(4)], nextBefore: idOf(4) },
    [idOf(4)]: { items: [row(5)], nextBefore: null },
  };
  const pagedList =
    (wait: (before: string) => Promise<void> | void = () => {}): Handler =>
    async (call) => {
      if (call.method !== 'GET' || !call.path.startsWith(LIST)) return undefined;
      const before = new URL(call.path, 'http://x').searchParams.get('before') ?? '';
      await wait(before);
      return { status: 200, body: { data: PAGES[before] } };
    };
  const names = async () =>
    within(await screen.findByRole('table'))
      .getAllByRole('row')
      .slice(1)
      .map((r) => /Kundi \d/.exec(r.textContent ?? '')?.[0]);

  it('"Vís eldri gjaldingar" appends the next page with the same filter, pending while it loads, and is gone on the last page', async () => {
    const user = userEvent.setup();
    let release = () => {};
    const { calls } = renderConsole({
      path: '/payments?state=paid',
      session: aSession('support'),
      handler: pagedList((before) =>
        before === idOf(2) ? new Promise<void>((resolve) => (release = resolve)) : undefined,
      ),
    });
    await waitFor(async () => expect(await names()).toEqual(['Kundi 1', 'Kundi 2']));
    await user.click(screen.getByRole('button', { name: 'Vís eldri gjaldingar' }));

    const pending = await screen.findByRole('button', { name: 'Heintar eldri gjaldingar…' });
    expect(pending).toHaveProperty('disabled', true);
    expect(pending.getAttribute('aria-busy')).toBe('true');
    release();
    await waitFor(async () =>
      expect(await names()).toEqual(['Kundi 1', 'Kundi 2', 'Kundi 3', 'Kundi 4']),
    );
    const older = listCalls(calls).find((q) => q.get('before') === idOf(2));
    expect(older?.get('state')).toBe('paid');
    expect(older?.get('limit')).toBe('100');

    await user.click(screen.getByRole('button', { name: 'Vís eldri gjaldingar' }));
    await waitFor(async () => expect(await names()).toHaveLength(5));
    expect((await names()).at(-1)).toBe('Kundi 5');
    expect(screen.queryByRole('button', { name: 'Vís eldri gjaldingar' })).toBeNull();
    expect(screen.getByText('5 gjøld')).toBeTruthy();
  });

  it('says when the older page could not be loaded, keeps the rows shown, and tries again from the button', async () => {
    const user = userEvent.setup();
    let fail = true;
    const paged = pagedList();
    renderConsole({
      path: '/payments',
      session: aSession('support'),
      handler: (call) =>
        fail && call.path.includes('before=')
          ? {
              status: 503,
              body: {
                error: { code: 'SERVICE_UNAVAILABLE', message: 'Tænastan er ikki til taks.' },
              },
            }
          : paged(call),
    });
    await waitFor(async () => expect(await names()).toHaveLength(2));
    await user.click(screen.getByRole('button', { name: 'Vís eldri gjaldingar' }));
    // A 5xx is tried once more before it is shown.
    const alert = await screen.findByRole('alert', {}, { timeout: 5_000 });
    expect(alert.textContent).toContain('Vit kundu ikki heinta eldri gjaldingar.');
    expect(alert.textContent).toContain('Tænastan er ikki til taks.');
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(await names()).toEqual(['Kundi 1', 'Kundi 2']);

    fail = false;
    await user.click(screen.getByRole('button', { name: 'Vís eldri gjaldingar' }));
    await waitFor(async () => expect(await names()).toHaveLength(4));
    expect(screen.queryByRole('alert')).toBeNull();
  }, 10_000);
});
