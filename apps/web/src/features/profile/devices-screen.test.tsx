import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AuthSession } from '@alda/contract/schemas/sessions';
import { deferred, fail, json, ok, type Handler } from '@/test/fake-api';
import { demoUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const THIS_PHONE: AuthSession = {
  id: '11111111-1111-4111-8111-111111111111',
  current: true,
  device: {
    name: null,
    platform: 'ios',
    model: 'iPhone15,2',
    osVersion: '17.5',
    userAgent: 'AldaApp/3.0.0',
  },
  country: null,
  createdAt: '2026-06-01T08:00:00.000Z',
  lastSeenAt: '2026-06-15T09:45:00.000Z',
};
const PIXEL: AuthSession = {
  id: '22222222-2222-4222-8222-222222222222',
  current: false,
  device: {
    name: 'Telefonin hjá Rannvá',
    platform: 'android',
    model: 'Pixel 8',
    osVersion: '14',
    userAgent: 'AldaApp/3.0.0',
  },
  country: null,
  createdAt: '2026-05-20T18:30:00.000Z',
  lastSeenAt: '2026-06-14T21:10:00.000Z',
};
const BROWSER: AuthSession = {
  id: '33333333-3333-4333-8333-333333333333',
  current: false,
  device: {
    name: null,
    platform: 'web',
    model: 'Macintosh',
    osVersion: '10.15.7',
    userAgent: null,
  },
  country: 'DK',
  createdAt: '2026-06-10T12:00:00.000Z',
  lastSeenAt: '2026-06-10T12:05:00.000Z',
};

async function setup(api: Record<string, Handler>, locale: 'fo' | 'en' = 'fo') {
  const app = await renderApp({
    user: demoUser,
    initialEntries: ['/min-brukari/eindir'],
    api,
    locale,
  });
  await screen.findByRole('heading', { level: 1 });
  return { ...app, user: userEvent.setup() };
}

describe('signed-in devices (issue 14, ASVS V7; ADR 0059)', () => {
  it('is reachable from the profile', async () => {
    const app = await renderApp({
      user: demoUser,
      initialEntries: ['/min-brukari'],
      api: { 'GET /auth/sessions': () => ok([THIS_PHONE]) },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('link', { name: 'Innritaðar eindir' }));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/min-brukari/eindir'));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Innritaðar eindir' }),
    ).toBeTruthy();
  });

  it('lists this device marked and the others with platform, times and an unknown place (fo)', async () => {
    await setup({ 'GET /auth/sessions': () => ok([THIS_PHONE, PIXEL, BROWSER]) });
    const current = await screen.findByRole('listitem', { name: 'iPhone15,2' });
    expect(current.textContent).toContain('Hendan eindin');
    expect(current.textContent).toContain('iOS 17.5');
    // Faroese time: UTC+1 in summer.
    expect(current.textContent).toContain('Innritað 01.06.2026 09:00');
    expect(current.textContent).toContain('Seinast virkin 15.06.2026 10:45');
    expect(current.textContent).toContain('Staður: ókendur');
    // This device is signed out with the ordinary logout, not from the list.
    expect(within(current).queryByRole('button')).toBeNull();

    const pixel = screen.getByRole('listitem', { name: 'Telefonin hjá Rannvá' });
    expect(pixel.textContent).toContain('Android 14');
    expect(pixel.textContent).not.toContain('Hendan eindin');
    expect(
      within(pixel).getByRole('button', { name: 'Rita út: Telefonin hjá Rannvá' }),
    ).toBeTruthy();
    const browser = screen.getByRole('listitem', { name: 'Macintosh' });
    expect(browser.textContent).toContain('Kagi');
    // The country the edge named at sign-in, in the app's language (ADR 0059).
    expect(browser.textContent).toContain('Staður: Danmark');
    expect(screen.getByRole('button', { name: 'Rita allar aðrar eindir út' })).toBeTruthy();
  });

  it('shows English texts', async () => {
    await setup({ 'GET /auth/sessions': () => ok([THIS_PHONE, PIXEL]) }, 'en');
    const current = await screen.findByRole('listitem', { name: 'iPhone15,2' });
    expect(current.textContent).toContain('This device');
    expect(current.textContent).toContain('Place: unknown');
    expect(screen.getByRole('button', { name: 'Sign out all other devices' })).toBeTruthy();
  });

  it('shows a loading state, then an empty state when no other device is signed in', async () => {
    const answer = deferred<Response>();
    await setup({ 'GET /auth/sessions': () => answer.promise });
    expect(screen.getByLabelText('Heintar…', { selector: '[aria-busy="true"]' })).toBeTruthy();
    answer.resolve(ok([THIS_PHONE]));
    expect(await screen.findByRole('heading', { name: 'Ongar aðrar eindir' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Rita allar aðrar eindir út' })).toBeNull();
  });

  it('shows an error with a retry when the list cannot be loaded', async () => {
    let calls = 0;
    const { user } = await setup({
      'GET /auth/sessions': () => {
        calls += 1;
        return calls === 1 ? fail(503, 'SERVICE_UNAVAILABLE') : ok([THIS_PHONE, PIXEL]);
      },
    });
    expect(await screen.findByText('Vit kundu ikki vísa innritaðu eindirnar.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Royn aftur' }));
    expect(await screen.findByRole('listitem', { name: 'Telefonin hjá Rannvá' })).toBeTruthy();
  });

  it('signs out one device after the password, and shows the list without it (ASVS 5.0 7.5.2)', async () => {
    let sessions = [THIS_PHONE, PIXEL, BROWSER];
    const route = `POST /auth/sessions/${PIXEL.id}/sign-out`;
    const { user, api, toasts } = await setup({
      'GET /auth/sessions': () => ok(sessions),
      [route]: () => {
        sessions = [THIS_PHONE, BROWSER];
        return new Response(null, { status: 204 });
      },
    });
    const pixel = await screen.findByRole('listitem', { name: 'Telefonin hjá Rannvá' });
    await user.click(within(pixel).getByRole('button', { name: 'Rita út: Telefonin hjá Rannvá' }));
    // Cancel first: nothing happens, and the focus goes back to the button.
    let dialog = await screen.findByRole('dialog', { name: 'Rita Telefonin hjá Rannvá út?' });
    await user.click(within(dialog).getByRole('button', { name: 'Angra' }));
    await waitFor(() =>
      expect(within(pixel).getByRole('button', { name: 'Rita út: Telefonin hjá Rannvá' })).toBe(
        document.activeElement,
      ),
    );
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.callsTo(route)).toHaveLength(0);

    await user.click(within(pixel).getByRole('button', { name: 'Rita út: Telefonin hjá Rannvá' }));
    dialog = await screen.findByRole('dialog', { name: 'Rita Telefonin hjá Rannvá út?' });
    const password = within(dialog).getByLabelText('Loyniorð');
    // The password field has the focus, says what it is for, and can be shown.
    await waitFor(() => expect(document.activeElement).toBe(password));
    expect(within(dialog).getByText('Skriva loyniorðið fyri at halda fram.')).toBeTruthy();
    await user.type(password, 'Demo1234!');
    expect(password.getAttribute('type')).toBe('password');
    await user.click(within(dialog).getByRole('button', { name: 'Vís' }));
    expect(password.getAttribute('type')).toBe('text');
    await user.click(within(dialog).getByRole('button', { name: 'Rita út' }));
    await waitFor(() =>
      expect(screen.queryByRole('listitem', { name: 'Telefonin hjá Rannvá' })).toBeNull(),
    );
    expect(api.callsTo(route).map((r) => r.body)).toEqual([{ password: 'Demo1234!' }]);
    expect(toasts.getToasts().map((t) => t.message)).toContain('Eindin er ritað út.');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByRole('listitem', { name: 'Macintosh' })).toBeTruthy();
  });

  it('keeps the modal open on a wrong password: the error under the field, the focus on it, nothing signed out (ASVS 5.0 7.5.2)', async () => {
    const route = `POST /auth/sessions/${PIXEL.id}/sign-out`;
    const answer = deferred<Response>();
    const { user, api } = await setup({
      'GET /auth/sessions': () => ok([THIS_PHONE, PIXEL]),
      [route]: () => answer.promise,
    });
    const pixel = await screen.findByRole('listitem', { name: 'Telefonin hjá Rannvá' });
    await user.click(within(pixel).getByRole('button', { name: 'Rita út: Telefonin hjá Rannvá' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rita Telefonin hjá Rannvá út?' });
    const password = within(dialog).getByLabelText('Loyniorð');

    // Empty: said at once, no call.
    await user.click(within(dialog).getByRole('button', { name: 'Rita út' }));
    expect(within(dialog).getByText('Hetta er eitt kravt felt')).toBeTruthy();
    expect(password.getAttribute('aria-invalid')).toBe('true');
    expect(api.callsTo(route)).toHaveLength(0);

    await user.type(password, 'Skeivt-1');
    await user.click(within(dialog).getByRole('button', { name: 'Rita út' }));
    // While the call runs the button is busy.
    const busy = within(dialog).getByRole('button', { name: /Ritar út/ });
    expect(busy.getAttribute('aria-busy')).toBe('true');
    answer.resolve(
      json(422, {
        error: { code: 'PASSWORD_INCORRECT', message: 'server text', field: 'password' },
      }),
    );
    expect(await within(dialog).findByText('Loyniorðið er skeivt.')).toBeTruthy();
    expect(password.getAttribute('aria-invalid')).toBe('true');
    expect(password.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.activeElement).toBe(password);
    expect(screen.getByRole('dialog')).toBe(dialog);
    // Still signed in (the list sits behind the modal, hidden from the accessibility tree).
    expect(
      screen.getByRole('listitem', { name: 'Telefonin hjá Rannvá', hidden: true }),
    ).toBeTruthy();
    expect(api.callsTo(route).map((r) => r.body)).toEqual([{ password: 'Skeivt-1' }]);

    // Locked after too many: said under the field too.
    api.on(route, () => fail(429, 'TOO_MANY_ATTEMPTS'));
    await user.click(within(dialog).getByRole('button', { name: 'Rita út' }));
    expect(await within(dialog).findByText(/^Ov nógvar royndir\. Fyri tína trygd/)).toBeTruthy();
    expect(screen.getByRole('dialog')).toBe(dialog);
  });

  it('says so when the device was already signed out (SESSION_NOT_FOUND) and refreshes', async () => {
    let sessions = [THIS_PHONE, PIXEL];
    const { user, toasts } = await setup({
      'GET /auth/sessions': () => ok(sessions),
      [`POST /auth/sessions/${PIXEL.id}/sign-out`]: () => {
        sessions = [THIS_PHONE];
        return fail(404, 'SESSION_NOT_FOUND', 'server text');
      },
    });
    const pixel = await screen.findByRole('listitem', { name: 'Telefonin hjá Rannvá' });
    await user.click(within(pixel).getByRole('button', { name: 'Rita út: Telefonin hjá Rannvá' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Loyniorð'), 'Demo1234!');
    await user.click(within(dialog).getByRole('button', { name: 'Rita út' }));
    expect(await screen.findByRole('heading', { name: 'Ongar aðrar eindir' })).toBeTruthy();
    expect(toasts.getToasts().map((t) => t.message)).toContain('Eindin er ikki innritað longur.');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('signs out all other devices after the password, keeping this one (ASVS 5.0 7.5.2)', async () => {
    let sessions = [THIS_PHONE, PIXEL, BROWSER];
    const { user, api, toasts, session } = await setup({
      'GET /auth/sessions': () => ok(sessions),
      'POST /auth/sessions/sign-out-others': () => {
        sessions = [THIS_PHONE];
        return ok({ signedOut: 2 });
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Rita allar aðrar eindir út' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rita allar aðrar eindir út?' });
    // Enter sends it, as in every form.
    await user.type(within(dialog).getByLabelText('Loyniorð'), 'Demo1234!{Enter}');
    expect(await screen.findByRole('heading', { name: 'Ongar aðrar eindir' })).toBeTruthy();
    expect(api.callsTo('POST /auth/sessions/sign-out-others').map((r) => r.body)).toEqual([
      { password: 'Demo1234!' },
    ]);
    expect(toasts.getToasts().map((t) => t.message)).toContain('2 eindir eru ritaðar út.');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByRole('listitem', { name: 'iPhone15,2' })).toBeTruthy();
    expect(session.getState().user).not.toBeNull();
  });

  it('asks a customer without a password for an SMS code instead (ASVS 5.0 7.5.2, ADR 0059)', async () => {
    let sessions = [THIS_PHONE, PIXEL];
    const app = await renderApp({
      user: { ...demoUser, hasPassword: false },
      initialEntries: ['/min-brukari/eindir'],
      locale: 'en',
      api: {
        'GET /auth/sessions': () => ok(sessions),
        'POST /auth/sessions/confirmation-code': () =>
          ok({ phoneNumber: '214365', expiresIn: 600, resendAfter: 60 }),
        'POST /auth/sessions/sign-out-others': (request) => {
          const body = request.body as { code?: string };
          if (body.code !== '123456')
            return json(422, {
              error: { code: 'CONFIRMATION_CODE_INCORRECT', message: 'x', field: 'code' },
            });
          sessions = [THIS_PHONE];
          return ok({ signedOut: 1 });
        },
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Sign out all other devices' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out all other devices?' });
    expect(within(dialog).queryByLabelText('Password')).toBeNull();
    expect(within(dialog).getByText(/You sign in with SMS codes/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Send code' }));
    const code = await within(dialog).findByLabelText('Code from the SMS');
    expect(within(dialog).getByText('We have sent a code to 21 43 65.')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(code));
    await user.type(code, '12{Enter}');
    expect(await within(dialog).findByText('The code must be 6 digits.')).toBeTruthy();
    await user.clear(code);
    await user.type(code, '111111');
    await user.click(within(dialog).getByRole('button', { name: 'Sign out all' }));
    expect(await within(dialog).findByText('The code is incorrect.')).toBeTruthy();
    await user.clear(code);
    await user.type(code, '123456');
    await user.click(within(dialog).getByRole('button', { name: 'Sign out all' }));
    expect(await screen.findByRole('heading', { name: 'No other devices' })).toBeTruthy();
    expect(app.api.callsTo('POST /auth/sessions/sign-out-others').map((r) => r.body)).toEqual([
      { code: '111111' },
      { code: '123456' },
    ]);
    expect(app.api.callsTo('POST /auth/sessions/confirmation-code')).toHaveLength(1);
  });
});
