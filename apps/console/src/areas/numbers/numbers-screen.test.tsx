import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import type { StaffNumbersPage } from '@alda/contract/schemas/staff-numbers';
import { aSession, renderConsole, type Call, type Handler } from '@/test/render';

const counts = { free: 399_990, reserved: 2, quarantined: 2, 'in-use': 6 };

const quarantined: StaffNumbersPage = {
  state: 'quarantined',
  items: [
    {
      state: 'quarantined',
      msisdn: '219950',
      cancelledAt: '2026-06-05T12:00:00.000Z',
      quarantineEndsAt: '2026-09-03T12:00:00.000Z',
      customerNumber: false,
    },
    {
      state: 'quarantined',
      msisdn: '557790',
      cancelledAt: '2026-05-01T08:00:00.000Z',
      quarantineEndsAt: '2026-07-30T08:00:00.000Z',
      customerNumber: false,
    },
    {
      state: 'quarantined',
      msisdn: '779031',
      cancelledAt: '2026-06-10T08:00:00.000Z',
      quarantineEndsAt: '2026-09-08T08:00:00.000Z',
      customerNumber: true,
    },
  ],
  nextAfter: null,
  counts,
  quarantineDays: 90,
};

const free = (after?: string): StaffNumbersPage => ({
  state: 'free',
  items: (after ? ['200003', '200004'] : ['200000', '200001', '200002']).map((msisdn) => ({
    state: 'free',
    msisdn,
  })),
  nextAfter: after ? null : '200002',
  counts,
  quarantineDays: 90,
});

const query = (call: Call) => new URL(call.path, 'http://console').searchParams;

/** The inventory API: the list by state, and releases (`release` answers them). */
function api(release?: Handler): Handler {
  return (call) => {
    if (call.method === 'GET' && call.path.startsWith('/api/staff/numbers')) {
      const state = query(call).get('state');
      if (state === 'free')
        return { status: 200, body: { data: free(query(call).get('after') ?? undefined) } };
      return { status: 200, body: { data: quarantined } };
    }
    if (call.method === 'POST' && call.path.endsWith('/release')) return release?.(call);
    return undefined;
  };
}

// The screen is a lazy chunk: load it once before the tests.
beforeAll(async () => {
  await import('./numbers-screen');
}, 20_000);

describe('the number inventory (/console/numbers)', () => {
  it('shows the quarantined numbers first, the count of each state and when each quarantine ends', async () => {
    const { calls } = renderConsole({
      path: '/numbers',
      session: aSession('support'),
      handler: api(),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Nummur' })).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Nummur: Løgd til viks' });
    const rows = within(table).getAllByRole('row');
    expect(rows[1]?.textContent).toContain('21 99 50');
    expect(rows[1]?.textContent).toContain('05.06.2026');
    expect(rows[1]?.textContent).toContain('03.09.2026');
    const tabs = screen.getByRole('group', { name: 'Støða' });
    expect(
      within(tabs)
        .getByRole('button', { name: /Løgd til viks/ })
        .getAttribute('aria-pressed'),
    ).toBe('true');
    expect(within(tabs).getByRole('button', { name: /Í nýtslu/ }).textContent).toContain('6');
    // Thousands as written in Faroese.
    expect(within(tabs).getByRole('button', { name: /Leys/ }).textContent).toContain('399.990');
    // A customer's own number cannot be released: no button, and the row says why.
    expect(rows[3]?.textContent).toContain('Kundans nummar – kann ikki frígevast');
    expect(within(rows[3]!).queryByRole('button')).toBeNull();
    expect(screen.getByText(/lagt til viks í 90 dagar/)).toBeTruthy();
    expect(query(calls.find((c) => c.path.startsWith('/api/staff/numbers'))!).get('state')).toBe(
      'quarantined',
    );
  });

  it('asks for another state and a search, and pages on with after', async () => {
    const user = userEvent.setup();
    const { calls, router } = renderConsole({
      path: '/numbers',
      session: aSession('provisioning'),
      handler: api(),
    });
    await screen.findByRole('table', { name: 'Nummur: Løgd til viks' });
    await user.click(screen.getByRole('button', { name: /^Leys/ }));
    await screen.findByRole('table', { name: 'Nummur: Leys' });
    await user.type(screen.getByRole('searchbox', { name: 'Leita eftir nummari' }), '+298 20 0');
    await user.click(screen.getByRole('button', { name: 'Leita' }));
    await waitFor(() => expect(router.state.location.search).toBe('?state=free&q=200'));
    await waitFor(() =>
      expect(
        calls.some((c) => query(c).get('state') === 'free' && query(c).get('q') === '200'),
      ).toBe(true),
    );
    await user.click(await screen.findByRole('button', { name: 'Vís fleiri' }));
    expect(await screen.findByText('20 00 04')).toBeTruthy();
    expect(calls.some((c) => query(c).get('after') === '200002')).toBe(true);
    expect(screen.queryByRole('button', { name: 'Vís fleiri' })).toBeNull();
  });

  it('releases a quarantined number with the reason given, and says so', async () => {
    const user = userEvent.setup();
    const { calls } = renderConsole({
      path: '/numbers',
      session: aSession('support'),
      handler: api((call) => ({
        status: 201,
        body: {
          data: {
            id: '5d3a4c1e-2b3f-4a5b-8c6d-7e8f9a0b1c2d',
            msisdn: '219950',
            releasedAt: '2026-06-15T12:00:00.000Z',
            releasedBy: 'staff:support@alda.fo',
            reason: (call.body as { reason: string }).reason,
            cancelledAt: '2026-06-05T12:00:00.000Z',
          },
        },
      })),
    });
    await user.click(await screen.findByRole('button', { name: 'Frígev 21 99 50' }));
    const dialog = screen.getByRole('dialog', { name: 'Frígev 21 99 50' });
    expect(dialog.textContent).toContain('05.06.2026');
    // No reason: the dialog says what is missing and sends nothing.
    await user.click(within(dialog).getByRole('button', { name: 'Frígev nummarið' }));
    expect(within(dialog).getByText('Skriva eina orsøk (í minsta lagi 3 tekin).')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await user.type(within(dialog).getByRole('textbox', { name: 'Orsøk' }), 'Mál 4711');
    await user.click(within(dialog).getByRole('button', { name: 'Frígev nummarið' }));
    expect(await screen.findByText('21 99 50 er frígivið. Kundar kunnu nú fáa tað.')).toBeTruthy();
    const post = calls.find((c) => c.method === 'POST');
    expect(post?.path).toBe('/api/staff/numbers/219950/release');
    expect(post?.body).toEqual({ reason: 'Mál 4711' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("shows the server's refusal in the dialog (a number no longer in quarantine)", async () => {
    const user = userEvent.setup();
    renderConsole({
      path: '/numbers',
      session: aSession('support'),
      handler: api(() => ({
        status: 409,
        body: {
          error: {
            code: 'STAFF_ACTION_NOT_ALLOWED',
            message: 'Hetta ber ikki til í hesi støðuni.',
          },
        },
      })),
    });
    await user.click(await screen.findByRole('button', { name: 'Frígev 55 77 90' }));
    const dialog = screen.getByRole('dialog');
    await user.type(within(dialog).getByRole('textbox', { name: 'Orsøk' }), 'Samtala 88');
    await user.click(within(dialog).getByRole('button', { name: 'Frígev nummarið' }));
    expect(await within(dialog).findByRole('alert')).toHaveProperty(
      'textContent',
      'Hetta ber ikki til í hesi støðuni.',
    );
  });

  it('says when the inventory cannot be loaded, and offers to try again', async () => {
    renderConsole({
      path: '/numbers',
      session: aSession('support'),
      handler: ({ path }) =>
        path.startsWith('/api/staff/numbers')
          ? { status: 403, body: { error: { code: 'FORBIDDEN', message: 'Tú hevur ikki loyvi.' } } }
          : undefined,
    });
    expect(await screen.findByText('Nummurini kundu ikki heintast.')).toBeTruthy();
    expect(screen.getByText('Tú hevur ikki loyvi.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Royn aftur' })).toBeTruthy();
  });
});
