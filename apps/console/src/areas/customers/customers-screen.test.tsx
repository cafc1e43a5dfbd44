import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { aSession, renderConsole, type Call, type Handler } from '@/test/render';
import { aHit, CUSTOMER_ID } from './fixtures';

const SEARCH = '/api/staff/customers?';
const ACCESS = `/api/staff/customers/${CUSTOMER_ID}/access`;

const searchCalls = (calls: Call[]) =>
  calls
    .filter((c) => c.method === 'GET' && c.path.startsWith(SEARCH))
    .map((c) => new URL(c.path, 'http://x').searchParams.get('q'));

/** The search answers Guðrun; the access is granted; the view waits (not under test here). */
const api =
  (
    access: { status: number; body: unknown } = {
      status: 201,
      body: {
        data: {
          customerId: CUSTOMER_ID,
          auditId: CUSTOMER_ID,
          openedAt: '2026-06-15T12:00:00.000Z',
        },
      },
    },
  ): Handler =>
  (call) => {
    if (call.method === 'GET' && call.path.startsWith(SEARCH))
      return { status: 200, body: { data: { items: [aHit()], truncated: false } } };
    if (call.method === 'POST' && call.path === ACCESS) return access;
    if (call.method === 'GET' && call.path === `/api/staff/customers/${CUSTOMER_ID}`)
      return new Promise(() => {});
    return undefined;
  };

describe('customer search (issue 31 "Customer search")', () => {
  it('searches once typing rests, and lists name, e-mail, numbers and what matched', async () => {
    const user = userEvent.setup();
    const { calls, router } = renderConsole({
      path: '/customers',
      session: aSession('support'),
      handler: api(),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Kundar' })).toBeTruthy();
    expect(screen.getByText('Skriva í minsta lagi 2 tekin fyri at leita.')).toBeTruthy();
    await user.type(screen.getByRole('searchbox', { name: 'Leita' }), 'gudrun');
    const table = await screen.findByRole('table', { name: 'Kundar, ið samsvara við „gudrun“' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.textContent).toContain('Guðrun Poulsen');
    expect(rows[0]?.textContent).toContain('gudrun@demo.alda.fo');
    expect(rows[0]?.textContent).toContain('55 78 12, 55 78 13');
    expect(rows[0]?.textContent).toContain('Navni');
    // One search for the whole word (each search is recorded in the audit log).
    expect(searchCalls(calls)).toEqual(['gudrun']);
    expect(router.state.location.search).toBe('?q=gudrun');
  });

  it('asks for a reason before opening: no reason, no access call and no view', async () => {
    const user = userEvent.setup();
    const { calls, router } = renderConsole({
      path: '/customers?q=gudrun',
      session: aSession('support'),
      handler: api(),
    });
    await user.click(await screen.findByRole('button', { name: 'Guðrun Poulsen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Opna Guðrun Poulsen' });
    await user.click(within(dialog).getByRole('button', { name: 'Opna kundan' }));
    expect(within(dialog).getByText('Skriva eina orsøk, í minsta lagi 3 tekin.')).toBeTruthy();
    expect(
      within(dialog).getByRole('textbox', { name: 'Orsøk' }).getAttribute('aria-invalid'),
    ).toBe('true');
    // Blanks and two letters are no reason either.
    await user.type(within(dialog).getByRole('textbox', { name: 'Orsøk' }), '  ab  ');
    await user.click(within(dialog).getByRole('button', { name: 'Opna kundan' }));
    expect(calls.some((c) => c.path === ACCESS)).toBe(false);
    expect(router.state.location.pathname).toBe('/customers');

    // Cancelling leaves the search as it was.
    await user.click(within(dialog).getByRole('button', { name: 'Angra' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(calls.some((c) => c.path === ACCESS)).toBe(false);
  });

  it('opens the customer with the reason given, then shows the view', async () => {
    const user = userEvent.setup();
    const { calls, router } = renderConsole({
      path: '/customers?q=gudrun',
      session: aSession('provisioning'),
      handler: api(),
    });
    await user.click(await screen.findByRole('button', { name: 'Opna Guðrun Poulsen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Opna Guðrun Poulsen' });
    await user.type(
      within(dialog).getByRole('textbox', { name: 'Orsøk' }),
      'Mál #4411 / samtala kl. 10:05',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Opna kundan' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/customers/${CUSTOMER_ID}`));
    expect(calls.find((c) => c.path === ACCESS)?.body).toEqual({
      reason: 'Mál #4411 / samtala kl. 10:05',
    });
  });

  it('shows a refused access in the dialog and stays on the search', async () => {
    const user = userEvent.setup();
    const { router } = renderConsole({
      path: '/customers?q=gudrun',
      session: aSession('support'),
      handler: api({
        status: 404,
        body: { error: { code: 'NOT_FOUND', message: 'Fanst ikki.' } },
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Guðrun Poulsen' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByRole('textbox', { name: 'Orsøk' }), 'Mál #1');
    await user.click(within(dialog).getByRole('button', { name: 'Opna kundan' }));
    expect(await within(dialog).findByText('Fanst ikki.')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/customers');
  });
});
