import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import errorsEn from '@alda/contract/locales/errors.en.json';
import errorsFo from '@alda/contract/locales/errors.fo.json';
import { aSession, renderConsole, type Handler } from '@/test/render';

const SIGN_IN = '/api/staff/auth/sign-in';
const PASSKEY_OPTIONS = '/api/staff/auth/passkey-options';

// The browser's passkey prompt (ADR 0097): jsdom has no WebAuthn.
const webauthn = vi.hoisted(() => ({ startAuthentication: vi.fn() }));
vi.mock('@simplewebauthn/browser', () => webauthn);
beforeEach(() => webauthn.startAuthentication.mockReset());

/** Request options as the server answers them. */
const OPTIONS = {
  challenge: 'c2lnbi1pbi1jaGFsbGVuZ2U',
  rpId: 'alda.fo',
  timeout: 300000,
  userVerification: 'required',
  allowCredentials: [{ id: 'Y3JlZGVudGlhbA', type: 'public-key', transports: ['internal'] }],
};
/** The browser's answer. */
const ANSWER = {
  id: 'Y3JlZGVudGlhbA',
  rawId: 'Y3JlZGVudGlhbA',
  type: 'public-key',
  response: {
    clientDataJSON: 'Y2xpZW50RGF0YQ',
    authenticatorData: 'YXV0aERhdGE',
    signature: 'c2lnbmF0dXJl',
    userHandle: 'dXNlcg',
  },
  clientExtensionResults: {},
  authenticatorAttachment: 'platform',
};

/** A DOMException as the browser's prompt throws it. */
function domError(name: string): Error {
  const error = new Error(`${name} from the prompt`);
  error.name = name;
  return error;
}

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

  it('signs in with a passkey: the password first, then the browser asks for the passkey, then its answer', async () => {
    webauthn.startAuthentication.mockResolvedValueOnce(ANSWER);
    const handler: Handler = ({ path }) =>
      path === PASSKEY_OPTIONS
        ? { status: 200, body: { data: { options: OPTIONS } } }
        : path === SIGN_IN
          ? { status: 200, body: { data: aSession('support', 'alda_staff_passkey') } }
          : undefined;
    const { calls, router, session } = renderConsole({ path: '/sign-in', handler });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Teldupostur'), 'rakul@alda.fo ');
    await user.type(screen.getByLabelText('Loyniorð'), 'Rætt loyniorð 1');
    // No code: the passkey stands in for it.
    await user.click(screen.getByRole('button', { name: 'Rita inn við lykilkodu' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/customers'));
    expect(session.token()).toBe('alda_staff_passkey');
    expect(calls.slice(0, 2).map((c) => c.path)).toEqual([PASSKEY_OPTIONS, SIGN_IN]);
    expect(calls[0]?.body).toEqual({ email: 'rakul@alda.fo', password: 'Rætt loyniorð 1' });
    expect(webauthn.startAuthentication).toHaveBeenCalledWith({ optionsJSON: OPTIONS });
    expect(calls[1]?.body).toEqual({
      email: 'rakul@alda.fo',
      password: 'Rætt loyniorð 1',
      passkey: ANSWER,
    });
  });

  it('asks for e-mail and password only before the passkey, and says what went wrong in the prompt', async () => {
    webauthn.startAuthentication.mockRejectedValueOnce(domError('NotAllowedError'));
    const handler: Handler = ({ path }) =>
      path === PASSKEY_OPTIONS ? { status: 200, body: { data: { options: OPTIONS } } } : undefined;
    const { calls } = renderConsole({ path: '/sign-in', handler });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Teldupostur'), 'rakul@alda.fo');
    await user.click(screen.getByRole('button', { name: 'Rita inn við lykilkodu' }));
    screen.getByText('Skriva loyniorðið.');
    expect(screen.queryByText('Skriva kotuna.')).toBeNull();
    expect(calls).toHaveLength(0);

    await user.type(screen.getByLabelText('Loyniorð'), 'pw');
    await user.click(screen.getByRole('button', { name: 'Rita inn við lykilkodu' }));
    // Closed or timed out: nothing was sent to sign in.
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Lykilkodan varð ikki brúkt. Royn aftur ella rita inn við kotuni.',
    );
    expect(calls.map((c) => c.path)).toEqual([PASSKEY_OPTIONS]);
  });

  it('tells a member without a passkey to sign in with the code and add one', async () => {
    const handler: Handler = ({ path }) =>
      path === PASSKEY_OPTIONS
        ? {
            status: 404,
            body: { error: { code: 'PASSKEY_NOT_FOUND', message: errorsFo.PASSKEY_NOT_FOUND } },
          }
        : undefined;
    renderConsole({ path: '/sign-in', handler });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Teldupostur'), 'rakul@alda.fo');
    await user.type(screen.getByLabelText('Loyniorð'), 'pw');
    await user.click(screen.getByRole('button', { name: 'Rita inn við lykilkodu' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Tú hevur onga lykilkodu enn. Rita inn við kotuni og legg so eina lykilkodu afturat undir “Mínar lykilkodur”.',
    );
    expect(webauthn.startAuthentication).not.toHaveBeenCalled();
  });

  it("shows STAFF_PASSKEY_REQUIRED's message and points to the passkey when the role requires one", async () => {
    const handler: Handler = ({ path }) =>
      path === SIGN_IN
        ? {
            status: 401,
            body: {
              error: {
                code: 'STAFF_PASSKEY_REQUIRED',
                message: errorsFo.STAFF_PASSKEY_REQUIRED,
              },
            },
          }
        : undefined;
    const { session } = renderConsole({ path: '/sign-in', handler });
    const user = await fillIn('rakul@alda.fo', 'pw', '123456');
    await user.click(screen.getByRole('button', { name: 'Rita inn' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(errorsFo.STAFF_PASSKEY_REQUIRED);
    expect(alert.textContent).toContain(
      'Rita inn við lykilkodu niðanfyri. Hevur tú mist lykilkoduna, tosa við ein umsitara.',
    );
    expect(session.get()).toBeNull();
    expect(screen.getByRole('button', { name: 'Rita inn við lykilkodu' })).toHaveProperty(
      'disabled',
      false,
    );
  });
});
