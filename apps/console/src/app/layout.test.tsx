import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { aSession, renderConsole, type Handler } from '@/test/render';

const ME = '/api/staff/auth/me';

/** The API of a live session: `/me` answers who is signed in and the session's limits. */
const live =
  (session = aSession('support'), idleExpiresAt = session.idleExpiresAt): Handler =>
  ({ path }) =>
    path === ME
      ? {
          status: 200,
          body: { data: { staff: session.staff, idleExpiresAt, expiresAt: session.expiresAt } },
        }
      : path.startsWith('/api/staff/auth/sign-out')
        ? { status: 204 }
        : undefined;

describe('the signed-in layout', () => {
  it('shows the navigation of the role, the staff member and landmarks with a skip link', async () => {
    renderConsole({ path: '/', session: aSession('provisioning') });
    const nav = await screen.findByRole('navigation', { name: 'Høvuðsvalmynd' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.getAttribute('href')),
    ).toEqual(['/customers', '/orders', '/numbers']);
    expect(screen.getByRole('banner').textContent).toContain('Sólrun Joensen');
    expect(screen.getByRole('banner').textContent).toContain('Uppseting');
    expect(screen.getByRole('main').id).toBe('main');
    expect(
      screen.getByRole('link', { name: 'Far beint til innihaldið' }).getAttribute('href'),
    ).toBe('#main');
  });

  it('sends a role away from an area it may not use, to its landing page', async () => {
    const { router } = renderConsole({ path: '/audit', session: aSession('content') });
    await waitFor(() => expect(router.state.location.pathname).toBe('/status'));
  });

  it('sends a signed-out visit to sign-in', async () => {
    const { router } = renderConsole({ path: '/orders' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/sign-in'));
  });

  it('shows the idle expiry the server answers for the session', async () => {
    const session = aSession('support');
    const idle = new Date(Date.now() + 9 * 60_000);
    idle.setSeconds(0, 0);
    renderConsole({ path: '/customers', session, handler: live(session, idle.toISOString()) });
    // A 24-hour clock: 14:05, not 2:05 PM.
    const time = `${String(idle.getHours()).padStart(2, '0')}:${String(idle.getMinutes()).padStart(2, '0')}`;
    await waitFor(() =>
      expect(screen.getByRole('banner').textContent).toContain(`Innritanin endar kl. ${time}`),
    );
  });

  it('a 401 of any call signs out: the session is gone and sign-in says why', async () => {
    const handler: Handler = ({ path }) =>
      path === ME
        ? {
            status: 401,
            body: { error: { code: 'STAFF_SESSION_EXPIRED', message: 'Tú ert ritað/ur út.' } },
          }
        : undefined;
    const { router, session } = renderConsole({
      path: '/orders',
      session: aSession('support'),
      handler,
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/sign-in'));
    expect(session.get()).toBeNull();
    expect((await screen.findByRole('status')).textContent).toContain(
      'Innritanin gekk út. Rita inn aftur.',
    );
    // Back where the visit was going after the next sign-in.
    expect(router.state.location.state).toEqual({ from: '/orders' });
  });

  it.each([
    ['Rita út', '/api/staff/auth/sign-out', 'Tú hevur ritað út.'],
    ['Rita út allastaðni', '/api/staff/auth/sign-out-everywhere', 'Tú hevur ritað út allastaðni.'],
  ])('"%s" ends the session on the server and in the tab', async (button, path, said) => {
    const { calls, session, router } = renderConsole({
      path: '/customers',
      session: aSession(),
      handler: live(),
    });
    await userEvent.setup().click(await screen.findByRole('button', { name: button }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/sign-in'));
    expect(calls.some((call) => call.method === 'POST' && call.path === path)).toBe(true);
    expect(session.get()).toBeNull();
    expect((await screen.findByRole('status')).textContent).toContain(said);
    // The next sign-in starts afresh, not on the page of whoever signed out.
    expect(router.state.location.state).toBeNull();
  });

  it('switches the language and remembers it on this computer', async () => {
    const admin = aSession('admin');
    renderConsole({ path: '/customers', session: admin, handler: live(admin) });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'English' }));
    const nav = await screen.findByRole('navigation', { name: 'Main menu' });
    expect(within(nav).getByRole('link', { name: 'Audit log' })).toBeTruthy();
    expect(window.localStorage.getItem('alda-console-lang')).toBe('en');
    expect(document.documentElement.lang).toBe('en');
  });
});
