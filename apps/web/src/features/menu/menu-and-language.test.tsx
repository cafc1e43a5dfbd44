import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { LOCALE_KEY } from '@alda/contract/constants';
import { restoreLocale } from '@/shared/i18n/i18n';
import { fail, ok } from '@/test/fake-api';
import { within } from '@testing-library/react';
import { demoUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { dialogClosed } from '@/test/dialogs';

describe('menu (SPEC §2 /menu)', () => {
  it('links terms, privacy and language and shows the app version 3.0.0', async () => {
    await renderApp({ user: demoUser, initialEntries: ['/menu'] });
    expect(await screen.findByRole('link', { name: /Treytir/ })).toBeTruthy();
    expect(screen.getByRole('link', { name: /Privatlívspolitikkur/ })).toBeTruthy();
    expect(screen.getByRole('link', { name: /Mál/ }).textContent).toContain('Føroyskt');
    expect(screen.getByText('Útgáva 3.0.0')).toBeTruthy();
    expect(screen.getByRole('link', { name: /Kvittanir/ }).getAttribute('href')).toBe(
      '/menu/kvittanir',
    );
    expect(screen.getByRole('link', { name: /Mánaðargjald/ }).getAttribute('href')).toBe(
      '/menu/manadargjald',
    );
  });

  it('shows the unread count as a small pill in the notifications row, the phrase for screen readers', async () => {
    await renderApp({
      user: demoUser,
      initialEntries: ['/menu'],
      api: {
        'GET /data-transfers': () => ok([]),
        'GET /notifications': () =>
          ok({ totalUnread: 2, items: [], page: 0, perPage: 15, total: 2 }),
      },
    });
    const main = await screen.findByRole('main');
    const row = await within(main).findByRole('link', { name: /Fráboðanir.*2 ólisnar fráboðanir/ });
    // What the eye sees is the count alone; the phrase is there for screen readers only.
    expect(within(row).getByText('2').getAttribute('aria-hidden')).toBe('true');
    expect(within(row).getByText('2 ólisnar fráboðanir').className).toContain('sr-only');
  });

  it('logs out after confirmation: revokes the refresh token, clears all state and goes to login (SPEC §4 "Session")', async () => {
    const app = await renderApp({
      user: demoUser,
      initialEntries: ['/menu'],
      data: { orders: [] },
      api: { 'POST /auth/logout': () => ok({ ok: true }) },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Rita út' }));
    await user.click(await screen.findByRole('button', { name: 'Rita út' }));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/rita-inn'));
    expect(app.api.callsTo('POST /auth/logout')[0]?.body).toEqual({ refreshToken: 'refresh-1' });
    expect(await app.storage.get('accessToken')).toBeNull();
    expect(await app.storage.get('refreshToken')).toBeNull();
    expect(app.session.getState().user).toBeNull();
    expect(await screen.findByRole('heading', { name: 'Hvussu vilt tú rita inn?' })).toBeTruthy();
  });

  it('stays logged in when the confirmation is cancelled', async () => {
    const app = await renderApp({ user: demoUser, initialEntries: ['/menu'] });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Rita út' }));
    await user.click(await screen.findByRole('button', { name: 'Angra' }));
    await dialogClosed();
    expect(app.session.getState().user).toEqual(demoUser);
    // Only the polls of a signed-in user (SPEC §4); no logout call.
    expect(app.api.callsTo('POST /auth/logout')).toHaveLength(0);
  });
});

describe('language (SPEC §1, §2 /menu/mal)', () => {
  const terms = {
    'GET /content/terms': (req: { headers: Record<string, string> }) =>
      ok({
        slug: 'terms',
        locale: req.headers['accept-language'],
        title: req.headers['accept-language'] === 'en' ? 'Terms' : 'Treytir',
        markdown: 'x',
        updatedAt: '2025-01-01T00:00:00Z',
      }),
  };

  it('switches to English at once, saves the choice, and sends it as Accept-Language (SPEC §1, §7)', async () => {
    const app = await renderApp({ user: demoUser, initialEntries: ['/menu/mal'], api: terms });
    const user = userEvent.setup();
    expect(
      (await screen.findByRole('radio', { name: 'Føroyskt' })).getAttribute('aria-checked'),
    ).toBe('true');
    await user.click(screen.getByRole('radio', { name: 'English' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Language' })).toBeTruthy();
    expect(screen.getByRole('radio', { name: 'English' }).getAttribute('aria-checked')).toBe(
      'true',
    );
    expect(window.localStorage.getItem(`CapacitorStorage.${LOCALE_KEY}`)).toBe('en');
    expect(document.documentElement.lang).toBe('en');
    await app.router.navigate('/menu/treytir');
    expect(await screen.findByRole('heading', { level: 1, name: 'Terms' })).toBeTruthy();
    // The heading is the screen's own title, shown before the page's request goes out: wait for
    // the request itself.
    await waitFor(() =>
      expect(app.api.callsTo('GET /content/terms')[0]?.headers['accept-language']).toBe('en'),
    );
  });

  it('saves the choice on the signed-in user too, so messages and new devices follow it (issue 33 §3)', async () => {
    const app = await renderApp({
      user: demoUser,
      initialEntries: ['/menu/mal'],
      api: {
        'PATCH /auth/me': (req: { body: unknown }) =>
          ok({ ...demoUser, ...(req.body as { locale: 'en' }) }),
      },
    });
    const user = userEvent.setup();
    expect(await screen.findByText(/Teldupostur, SMS og kvittanir/)).toBeTruthy();
    await user.click(await screen.findByRole('radio', { name: 'English' }));
    await waitFor(() => expect(app.session.getState().user?.locale).toBe('en'));
    expect(app.api.callsTo('PATCH /auth/me').map((c) => c.body)).toEqual([{ locale: 'en' }]);
    expect(window.localStorage.getItem(`CapacitorStorage.${LOCALE_KEY}`)).toBe('en');
  });

  it('keeps the choice on the device and says so when the user cannot be saved (issue 33 §3)', async () => {
    const app = await renderApp({
      user: demoUser,
      initialEntries: ['/menu/mal'],
      api: { 'PATCH /auth/me': () => fail(503, 'SERVICE_UNAVAILABLE') },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('radio', { name: 'English' }));
    expect(await screen.findByText(/could not save the choice on your account/)).toBeTruthy();
    expect(screen.getByRole('radio', { name: 'English' }).getAttribute('aria-checked')).toBe(
      'true',
    );
    expect(app.session.getState().user?.locale).toBe('fo');
  });

  it('restores the saved locale at start (SPEC §1 step 2)', async () => {
    const app = await renderApp({ user: demoUser, initialEntries: ['/menu'] });
    window.localStorage.setItem(`CapacitorStorage.${LOCALE_KEY}`, 'en');
    await restoreLocale({ instance: app.i18n });
    expect(await screen.findByRole('heading', { level: 1, name: 'Menu' })).toBeTruthy();
  });
});

describe('appearance (issue 16 item 5, ADR 0067 /menu/utsjond)', () => {
  it('shows the theme in the menu and switches the whole app to dark and back at a tap', async () => {
    await renderApp({ user: demoUser, initialEntries: ['/menu'] });
    const row = await screen.findByRole('link', { name: /Útsjónd/ });
    expect(row.textContent).toContain('Sum á telefonini');
    const user = userEvent.setup();
    await user.click(row);
    const dark = await screen.findByRole('radio', { name: 'Myrk' });
    expect(
      screen.getByRole('radio', { name: 'Sum á telefonini' }).getAttribute('aria-checked'),
    ).toBe('true');
    await user.click(dark);
    await waitFor(() => expect(document.documentElement.dataset.theme).toBe('dark'));
    expect(dark.getAttribute('aria-checked')).toBe('true');
    expect(localStorage.getItem('CapacitorStorage.theme')).toBe('dark');
    await user.click(screen.getByRole('radio', { name: 'Ljós' }));
    await waitFor(() => expect(document.documentElement.dataset.theme).toBe('light'));
    await user.click(screen.getByRole('radio', { name: 'Sum á telefonini' }));
  });
});
