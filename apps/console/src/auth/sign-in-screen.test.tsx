import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import errorsEn from '@alda/contract/locales/errors.en.json';
import errorsFo from '@alda/contract/locales/errors.fo.json';
import { aSession, renderConsole, type Handler } from '@/test/render';

const SIGN_IN = '/api/staff/auth/sign-in';

async function fillIn(email: string, password: string, code: string) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Teldupostur'), email);
  await user.type(screen.getByLabelText('Loyniorð'), password);
  await user.type(screen.getByLabelText('Kota'), code);
  return user;
}

describe('sign-in (auth/sign-in-screen.tsx)', () => {
  it('labels its fields for the password manager and the authenticator', () => {
    renderConsole({ path: '/sign-in' });
    expect(screen.getByLabelText('Teldupostur')).toHaveProperty('autocomplete', 'username');
    expect(screen.getByLabelText('Loyniorð')).toHaveProperty('autocomplete', 'current-password');
    expect(screen.getByLabelText('Kota')).toHaveProperty('autocomplete', 'one-time-code');
  });

  it('sends e-mail, password and code in one call and shows the server message of a failure', async () => {
    const handler: Handler = ({ path }) =>
      path === SIGN_IN
        ? {
            status: 401,
            body: {
              error: { code: 'STAFF_SIGN_IN_FAILED', message: errorsFo.STAFF_SIGN_IN_FAILED },
            },
          }
        : undefined;
    const { calls, session } = renderConsole({ path: '/sign-in', handler });
    const user = await fillIn(' rakul@alda.fo ', 'Rætt loyniorð 1', '123456');
    await user.click(screen.getByRole('button', { name: 'Rita inn' }));

    expect((await screen.findByRole('alert')).textContent).toContain(errorsFo.STAFF_SIGN_IN_FAILED);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      method: 'POST',
      path: SIGN_IN,
      body: { email: 'rakul@alda.fo', password: 'Rætt loyniorð 1', totpCode: '123456' },
    });
    expect(calls[0]?.headers['accept-language']).toBe('fo');
    expect(calls[0]?.headers.authorization).toBeUndefined();
    // A code is good for one try: the field is empty for the next one.
    expect(screen.getByLabelText('Kota')).toHaveProperty('value', '');
    expect(session.get()).toBeNull();
  });

  it('shows the message in English when English is chosen (Accept-Language)', async () => {
    const handler: Handler = ({ headers }) => ({
      status: 429,
      body: {
        error: {
          code: 'RATE_LIMITED',
          message:
            headers['accept-language'] === 'en' ? errorsEn.RATE_LIMITED : errorsFo.RATE_LIMITED,
        },
      },
    });
    renderConsole({ path: '/sign-in', handler });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'English' }));
    expect(window.localStorage.getItem('alda-console-lang')).toBe('en');
    await user.type(screen.getByLabelText('Email'), 'rakul@alda.fo');
    await user.type(screen.getByLabelText('Password'), 'pw');
    await user.type(screen.getByLabelText('Code'), 'abcde-12345');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findByRole('alert')).textContent).toContain(errorsEn.RATE_LIMITED);
  });

  it('shows a pending button while the call is on its way, then lands on the first area of the role', async () => {
    let answer: (value: { status: number; body: unknown }) => void = () => {};
    const handler: Handler = ({ path }) =>
      path === SIGN_IN
        ? new Promise((resolve) => (answer = resolve))
        : {
            status: 200,
            body: {
              data: {
                staff: aSession('content').staff,
                idleExpiresAt: aSession().idleExpiresAt,
                expiresAt: aSession().expiresAt,
              },
            },
          };
    const { router, session } = renderConsole({ path: '/sign-in', handler });
    const user = await fillIn('rakul@alda.fo', 'pw', '654321');
    await user.click(screen.getByRole('button', { name: 'Rita inn' }));

    const pending = await screen.findByRole('button', { name: 'Ritar inn…' });
    expect(pending).toHaveProperty('disabled', true);
    expect(pending.getAttribute('aria-busy')).toBe('true');

    answer({ status: 200, body: { data: aSession('content', 'alda_staff_new') } });
    await waitFor(() => expect(router.state.location.pathname).toBe('/status'));
    expect(session.token()).toBe('alda_staff_new');
    const nav = await screen.findByRole('navigation', { name: 'Høvuðsvalmynd' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Støðuboð', 'Innihald', 'Goymd svar']);
  });

  it('checks the fields before calling: nothing is sent while one is missing or malformed', async () => {
    const { calls } = renderConsole({ path: '/sign-in' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Teldupostur'), 'rakul@alda.fo');
    await user.type(screen.getByLabelText('Kota'), '12345');
    await user.click(screen.getByRole('button', { name: 'Rita inn' }));
    screen.getByText('Skriva loyniorðið.');
    screen.getByText('Kotan er seks tøl ella ein varakota (xxxxx-xxxxx).');
    expect(document.activeElement).toBe(screen.getByLabelText('Loyniorð'));
    expect(screen.getByLabelText('Loyniorð').getAttribute('aria-invalid')).toBe('true');
    expect(calls).toHaveLength(0);
  });
});
