import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { plans } from '@/test/account-fixtures';
import { fail, ok, type Handler } from '@/test/fake-api';
import { demoUser, subscriptionsWithPlan } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const tokens = { accessToken: 'a-1', refreshToken: 'r-1', expiresIn: 900 };

async function setup(api: Record<string, Handler> = {}, locale: 'fo' | 'en' = 'fo') {
  const app = await renderApp({ initialEntries: ['/rita-inn/vid-telduposti'], api, locale });
  await screen.findByRole('heading', { level: 2 });
  return { ...app, user: userEvent.setup() };
}

describe('e-mail login (SPEC §2 login.email)', () => {
  it('validates as you type with the contract rules (SPEC §5)', async () => {
    const { user } = await setup();
    const email = screen.getByLabelText('Teldupostur');
    await user.type(email, 'rannva@');
    expect(await screen.findByText('Skriva eina gilda teldupostadressu.')).toBeTruthy();
    expect(email.getAttribute('aria-invalid')).toBe('true');
    await user.type(email, 'example.fo');
    await waitFor(() =>
      expect(screen.queryByText('Skriva eina gilda teldupostadressu.')).toBeNull(),
    );
  });

  it('requires both fields before it sends anything (SPEC §5 "This is a required field")', async () => {
    const { user, api } = await setup({}, 'en');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findAllByText('This is a required field')).toHaveLength(2);
    expect(api.requests).toHaveLength(0);
  });

  it("shows 'Incorrect email or password.' from the error code (SPEC §8)", async () => {
    const { user } = await setup(
      {
        'POST /auth/email-login': () =>
          fail(401, 'INVALID_CREDENTIALS', 'Incorrect email or password.'),
      },
      'en',
    );
    await user.type(screen.getByLabelText('Email'), 'rannva@example.fo');
    await user.type(screen.getByLabelText('Password'), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Incorrect email or password.',
    );
  });

  it('shows the message of a code in the current language, not the raw server text', async () => {
    const { user } = await setup({
      'POST /auth/email-login': () => fail(429, 'RATE_LIMITED', 'Too many attempts'),
    });
    await user.type(screen.getByLabelText('Teldupostur'), 'rannva@example.fo');
    await user.type(screen.getByLabelText('Loyniorð'), 'Loyniord1');
    await user.click(screen.getByRole('button', { name: 'Rita inn' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Ov nógvar royndir');
  });

  it('stores the tokens, loads the user and the account data, and goes home (SPEC §1, §4 "Session")', async () => {
    const { user, api, storage, router, queryClient } = await setup({
      'POST /auth/email-login': () => ok(tokens),
      'GET /auth/me': (req) =>
        req.headers.authorization === 'Bearer a-1' ? ok(demoUser) : fail(401, 'UNAUTHORIZED'),
      'GET /subscriptions': () => ok(subscriptionsWithPlan),
      'GET /orders': () => ok([]),
      // All six answer, so that none is asked again by the screen that shows it.
      'GET /actions': () => ok([]),
      'GET /packages': () => ok([]),
      'GET /plans': () => ok(plans),
      'GET /agreements': () => ok(null),
    });
    await user.type(screen.getByLabelText('Teldupostur'), '  Rannva@Example.fo ');
    await user.type(screen.getByLabelText('Loyniorð'), 'Loyniord1');
    await user.click(screen.getByRole('button', { name: 'Rita inn' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(api.callsTo('POST /auth/email-login')[0]?.body).toEqual({
      // The device it signs in from (ADR 0059).
      device: expect.objectContaining({ platform: 'web' }),
      email: 'rannva@example.fo',
      password: 'Loyniord1',
    });
    expect(await storage.get('accessToken')).toBe('a-1');
    expect(await storage.get('refreshToken')).toBe('r-1');
    for (const path of [
      '/actions',
      '/packages',
      '/subscriptions',
      '/plans',
      '/orders',
      '/agreements',
    ]) {
      expect(api.callsTo(`GET ${path}`), path).toHaveLength(1);
    }
    expect(queryClient.getQueryData(['account', 'subscriptions'])).toEqual(subscriptionsWithPlan);
    expect(await screen.findByRole('heading', { level: 1, name: /Rannvá/ })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Títt data' })).toBeTruthy();
    // Signed in with the password: home may offer a passkey for next time (ADR 0097).
    expect(sessionStorage.getItem('alda.passkeyOffer')).toMatch(
      new RegExp(`^${demoUser.id} \\d+$`),
    );
  });

  it('toggles the password visibility', async () => {
    const { user } = await setup();
    const password = screen.getByLabelText('Loyniorð');
    expect(password.getAttribute('type')).toBe('password');
    await user.click(screen.getByRole('button', { name: 'Vís' }));
    expect(password.getAttribute('type')).toBe('text');
  });

  it('goes back to the method chooser', async () => {
    const { user, router } = await setup();
    await user.click(screen.getByRole('button', { name: 'Aftur' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/rita-inn'));
  });
});

describe('login chooser (SPEC §2 auth.login)', () => {
  it('offers phone and e-mail login and registration, and switches language before login', async () => {
    const app = await renderApp({ initialEntries: ['/rita-inn'] });
    const user = userEvent.setup();
    expect(await screen.findByRole('link', { name: /Við teldupostinum/ })).toBeTruthy();
    expect(screen.getByRole('link', { name: /Við telefonnummari/ }).getAttribute('href')).toBe(
      '/rita-inn/vid-telefonnummari',
    );
    expect(screen.getByRole('link', { name: 'Stovna brúkara' }).getAttribute('href')).toBe(
      '/stovna-brukara',
    );
    expect(screen.queryByText('Kemur skjótt')).toBeNull();
    await user.click(screen.getByRole('radio', { name: 'English' }));
    expect(await screen.findByRole('heading', { name: 'How do you want to log in?' })).toBeTruthy();
    expect(app.i18n.language).toBe('en');
  });
});

describe('forgotten password link (SPEC §2 forgot-password)', () => {
  it('hands the typed address over to the forgot-password screen', async () => {
    const { user } = await setup();
    await user.type(screen.getByLabelText('Teldupostur'), 'rannva@example.fo');
    await user.click(screen.getByRole('link', { name: 'Gloymt loyniorðið?' }));
    expect(await screen.findByRole('heading', { name: 'Gloymt loyniorðið?' })).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('Teldupostur').value).toBe('rannva@example.fo');
  });
});
