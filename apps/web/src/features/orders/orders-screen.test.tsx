import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fail, ok } from '@/test/fake-api';
import { ownerData } from '@/test/account-fixtures';
import { demoUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';

describe('orders (SPEC §1 "view orders", §3 "Order", §4 "Orders")', () => {
  it('shows processing orders first, marked as taking days, and hides cancelled ones', async () => {
    await renderApp({ user: demoUser, data: ownerData, initialEntries: ['/menu/bilegingar'] });
    const inProgress = await screen.findByRole('article', { name: 'Nýggjur familjulimur' });
    expect(inProgress.textContent).toContain('Bárður Joensen · 21 44 57 · 50 GB');
    expect(inProgress.textContent).toContain('Í gerð – hetta kann taka nakrar dagar.');
    expect(inProgress.textContent).toContain('Bílagt 20.05.2025');
    expect(inProgress.textContent).toContain('39,20 kr. uttan MVG · MVG 9,80 kr.');
    const done = screen.getByRole('article', { name: 'Nýtt hald' });
    expect(done.textContent).toContain('Liðug');
    expect(done.textContent).toContain('Liðug 03.04.2025');
    expect(screen.getAllByRole('article')).toHaveLength(2);
    expect(screen.queryByText(/Rógvi/)).toBeNull();
  });

  it('is linked from the menu', async () => {
    const app = await renderApp({ user: demoUser, data: ownerData, initialEntries: ['/menu'] });
    await userEvent.click(await screen.findByRole('link', { name: 'Bíleggingar' }));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/menu/bilegingar'));
  });

  it('has an empty state', async () => {
    await renderApp({
      user: demoUser,
      data: { ...ownerData, orders: [] },
      initialEntries: ['/menu/bilegingar'],
    });
    expect(await screen.findByRole('heading', { name: 'Ongar bíleggingar' })).toBeTruthy();
  });

  it('loads the orders when the start-up could not, with a retry', async () => {
    let answer = () => fail(503, 'SERVICE_UNAVAILABLE', 'Down');
    await renderApp({
      user: demoUser,
      locale: 'en',
      initialEntries: ['/menu/bilegingar'],
      api: {
        'GET /orders': () => answer(),
        'GET /plans': () => ok(ownerData.plans),
      },
    });
    expect(await screen.findByRole('alert')).toBeTruthy();
    answer = () => ok(ownerData.orders);
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    const order = await screen.findByRole('article', { name: 'New family member' });
    expect(within(order).getByText('In progress')).toBeTruthy();
    expect(order.textContent).toContain('In progress – this can take a few days.');
  });
});
