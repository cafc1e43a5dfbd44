import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  browserSupportsWebAuthnAutofill,
  startAuthentication,
  WebAuthnAbortService,
  type AuthenticationResponseJSON,
} from '@simplewebauthn/browser';
import { plans } from '@/test/account-fixtures';
import { deferred, fail, ok, type Handler } from '@/test/fake-api';
import { demoUser, subscriptionsWithPlan } from '@/test/fixtures';
import { renderApp } from '@/test/render';

// The browser's WebAuthn, as the library hands it over: the ceremonies are the test's to answer.
vi.mock('@simplewebauthn/browser', () => ({
  startAuthentication: vi.fn(),
  startRegistration: vi.fn(),
  browserSupportsWebAuthn: vi.fn(() => true),
  browserSupportsWebAuthnAutofill: vi.fn(async () => false),
  WebAuthnAbortService: { cancelCeremony: vi.fn(), createNewAbortSignal: vi.fn() },
}));

const tokens = { accessToken: 'a-pk', refreshToken: 'r-pk', expiresIn: 900 };
const requestOptions = {
  challenge: 'Y2hhbGxlbmdl',
  rpId: 'localhost',
  timeout: 300_000,
  allowCredentials: [],
  userVerification: 'required',
};
const answer: AuthenticationResponseJSON = {
  id: 'Y3JlZA',
  rawId: 'Y3JlZA',
  type: 'public-key',
  response: {
    clientDataJSON: 'Y2xpZW50',
    authenticatorData: 'YXV0aA',
    signature: 'c2ln',
    userHandle: 'dS0x',
  },
  clientExtensionResults: {},
  authenticatorAttachment: 'platform',
};

/** What a sign-in loads once the tokens are in (as the e-mail login's test). */
const signedInApi: Record<string, Handler> = {
  'POST /auth/passkey-login/options': () => ok({ options: requestOptions }),
  'POST /auth/passkey-login': () => ok(tokens),
  'GET /auth/me': (req) =>
    req.headers.authorization === 'Bearer a-pk' ? ok(demoUser) : fail(401, 'UNAUTHORIZED'),
  'GET /subscriptions': () => ok(subscriptionsWithPlan),
  'GET /orders': () => ok([]),
  'GET /actions': () => ok([]),
  'GET /packages': () => ok([]),
  'GET /plans': () => ok(plans),
  'GET /agreements': () => ok(null),
};

const notAllowed = () =>
  Object.assign(new Error('The operation either timed out or was not allowed.'), {
    name: 'NotAllowedError',
  });

beforeEach(() => {
  // A browser with WebAuthn (jsdom has none); unstubbed after each test (vitest.config.ts).
  vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
  vi.mocked(browserSupportsWebAuthnAutofill).mockResolvedValue(false);
  sessionStorage.clear();
});

afterEach(() => {
  vi.mocked(startAuthentication).mockReset();
  vi.mocked(WebAuthnAbortService.cancelCeremony).mockClear();
});

async function chooser(api: Record<string, Handler> = {}, locale: 'fo' | 'en' = 'fo') {
  const app = await renderApp({
    initialEntries: ['/rita-inn'],
    api: { ...signedInApi, ...api },
    locale,
  });
  await screen.findByRole('heading', { level: 1 });
  return { ...app, user: userEvent.setup() };
}

describe('sign in with a passkey: the login screen’s button (ADR 0097)', () => {
  it('asks for a challenge, lets the device answer it, signs in as the e-mail login does and goes home', async () => {
    vi.mocked(startAuthentication).mockResolvedValue(answer);
    const { user, api, router, storage } = await chooser();
    const button = screen.getByRole('button', { name: /Við lykilkodu/ });
    expect(button.textContent).toContain('Títt fingramerki, andlit ella skermlás');
    await user.click(button);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(startAuthentication).toHaveBeenCalledWith({ optionsJSON: requestOptions });
    expect(api.callsTo('POST /auth/passkey-login')[0]?.body).toEqual({
      response: answer,
      // The device it signs in from, as every sign-in names it (ADR 0059).
      device: expect.objectContaining({ platform: 'web' }),
    });
    expect(await storage.get('accessToken')).toBe('a-pk');
    expect(await storage.get('refreshToken')).toBe('r-pk');
    expect(await screen.findByRole('heading', { level: 1, name: /Rannvá/ })).toBeTruthy();
    // Not a password sign-in: home offers no passkey.
    expect(sessionStorage.getItem('alda.passkeyOffer')).toBeNull();
  });

  it('goes to the screen a guest was sent to sign in from (the return path)', async () => {
    vi.mocked(startAuthentication).mockResolvedValue(answer);
    sessionStorage.setItem('alda.returnPath', '/min-brukari');
    const { user, router } = await chooser();
    await user.click(screen.getByRole('button', { name: /Við lykilkodu/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/min-brukari'));
    expect(sessionStorage.getItem('alda.returnPath')).toBeNull();
  });

  it('shows that it is signing in while the device and the API answer', async () => {
    const device = deferred<AuthenticationResponseJSON>();
    vi.mocked(startAuthentication).mockReturnValue(device.promise);
    const { user, router } = await chooser();
    const button = screen.getByRole('button', { name: /Við lykilkodu/ });
    await user.click(button);
    await waitFor(() => expect(button.getAttribute('aria-busy')).toBe('true'));
    expect(button.textContent).toContain('Ritar inn við lykilkodu…');
    device.resolve(answer);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('says nothing when the person closes the device’s dialog (NotAllowedError), and sends nothing', async () => {
    vi.mocked(startAuthentication).mockRejectedValue(notAllowed());
    const { user, api, router } = await chooser();
    const button = screen.getByRole('button', { name: /Við lykilkodu/ });
    await user.click(button);
    await waitFor(() => expect(startAuthentication).toHaveBeenCalled());
    await waitFor(() => expect(button.getAttribute('aria-busy')).toBeNull());
    expect(screen.queryByRole('alert')).toBeNull();
    expect(api.callsTo('POST /auth/passkey-login')).toHaveLength(0);
    expect(router.state.location.pathname).toBe('/rita-inn');
  });

  it('is silent about an aborted ceremony too (AbortError)', async () => {
    vi.mocked(startAuthentication).mockRejectedValue(
      Object.assign(new Error('Cancelling existing WebAuthn API call'), { name: 'AbortError' }),
    );
    const { user } = await chooser();
    await user.click(screen.getByRole('button', { name: /Við lykilkodu/ }));
    await waitFor(() => expect(startAuthentication).toHaveBeenCalled());
    await waitFor(() =>
      expect(
        screen.getByRole('button', { name: /Við lykilkodu/ }).getAttribute('aria-busy'),
      ).toBeNull(),
    );
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows the API’s message when the passkey is refused (PASSKEY_NOT_RECOGNISED), in the app’s language', async () => {
    vi.mocked(startAuthentication).mockResolvedValue(answer);
    const { user, router } = await chooser({
      'POST /auth/passkey-login': () => fail(401, 'PASSKEY_NOT_RECOGNISED', 'server text'),
    });
    await user.click(screen.getByRole('button', { name: /Við lykilkodu/ }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Vit kenna ikki hesa lykilkoduna. Rita inn á annan hátt.',
    );
    expect(router.state.location.pathname).toBe('/rita-inn');
  });

  it('says in its own words when the device fails (no API code), in English too', async () => {
    vi.mocked(startAuthentication).mockRejectedValue(
      Object.assign(new Error('bad'), { name: 'SecurityError' }),
    );
    const { user } = await chooser({}, 'en');
    await user.click(screen.getByRole('button', { name: /With a passkey/ }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Logging in with the passkey failed. Try again, or log in another way.',
    );
  });

  it('is not offered where the browser has no WebAuthn', async () => {
    vi.unstubAllGlobals();
    await chooser();
    expect(screen.getByRole('link', { name: /Við teldupostinum/ })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Við lykilkodu/ })).toBeNull();
  });
});

describe('sign in with a passkey: the autofill of the e-mail and phone screens (conditional mediation)', () => {
  it('offers the passkeys in the e-mail field once the screen is up, and a passkey picked there signs in', async () => {
    vi.mocked(browserSupportsWebAuthnAutofill).mockResolvedValue(true);
    const picked = deferred<AuthenticationResponseJSON>();
    vi.mocked(startAuthentication).mockReturnValue(picked.promise);
    const app = await renderApp({ initialEntries: ['/rita-inn/vid-telduposti'], api: signedInApi });
    const email = await screen.findByLabelText('Teldupostur');
    // The field that the browser puts the passkeys under.
    expect(email.getAttribute('autocomplete')).toBe('username webauthn');
    await waitFor(() =>
      expect(startAuthentication).toHaveBeenCalledWith({
        optionsJSON: requestOptions,
        useBrowserAutofill: true,
      }),
    );
    // Nothing is said while the person types their address or password.
    expect(screen.queryByRole('alert')).toBeNull();
    picked.resolve(answer);
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/'));
    expect(app.api.callsTo('POST /auth/passkey-login')[0]?.body).toEqual({
      response: answer,
      device: expect.objectContaining({ platform: 'web' }),
    });
    expect(await app.storage.get('accessToken')).toBe('a-pk');
    // Not a password sign-in: no offer of a passkey on home.
    expect(sessionStorage.getItem('alda.passkeyOffer')).toBeNull();
  });

  it('shows the API’s refusal of the picked passkey and offers the autofill again', async () => {
    vi.mocked(browserSupportsWebAuthnAutofill).mockResolvedValue(true);
    const second = deferred<AuthenticationResponseJSON>();
    vi.mocked(startAuthentication)
      .mockResolvedValueOnce(answer)
      .mockReturnValueOnce(second.promise);
    const app = await renderApp({
      initialEntries: ['/rita-inn/vid-telduposti'],
      api: {
        ...signedInApi,
        'POST /auth/passkey-login': () => fail(401, 'PASSKEY_NOT_RECOGNISED', 'server text'),
      },
    });
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Vit kenna ikki hesa lykilkoduna. Rita inn á annan hátt.',
    );
    await waitFor(() => expect(startAuthentication).toHaveBeenCalledTimes(2));
    expect(app.api.callsTo('POST /auth/passkey-login/options')).toHaveLength(2);
    expect(app.router.state.location.pathname).toBe('/rita-inn/vid-telduposti');
    expect(screen.getByRole('button', { name: 'Rita inn' })).toBeTruthy();
  });

  it('says only what went wrong last: the password’s refusal replaces the passkey’s', async () => {
    vi.mocked(browserSupportsWebAuthnAutofill).mockResolvedValue(true);
    vi.mocked(startAuthentication)
      .mockResolvedValueOnce(answer)
      .mockReturnValueOnce(new Promise(() => {}));
    await renderApp({
      initialEntries: ['/rita-inn/vid-telduposti'],
      api: {
        ...signedInApi,
        'POST /auth/passkey-login': () => fail(401, 'PASSKEY_NOT_RECOGNISED', 'server text'),
        'POST /auth/email-login': () => fail(401, 'INVALID_CREDENTIALS', 'server text'),
      },
    });
    expect((await screen.findByRole('alert')).textContent).toContain('lykilkoduna');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Teldupostur'), 'rannva@example.fo');
    await user.type(screen.getByLabelText('Loyniorð'), 'Skeivt-1');
    await user.click(screen.getByRole('button', { name: 'Rita inn' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).not.toContain('lykilkoduna'));
    expect(screen.getAllByRole('alert')).toHaveLength(1);
  });

  it('shows the sign-in in progress on the submit button once a passkey is picked', async () => {
    vi.mocked(browserSupportsWebAuthnAutofill).mockResolvedValue(true);
    vi.mocked(startAuthentication).mockResolvedValue(answer);
    const login = deferred<Response>();
    await renderApp({
      initialEntries: ['/rita-inn/vid-telduposti'],
      api: { ...signedInApi, 'POST /auth/passkey-login': () => login.promise },
    });
    const busy = await screen.findByRole('button', { name: /Ritar inn við lykilkodu/ });
    expect(busy.getAttribute('aria-busy')).toBe('true');
    login.resolve(ok(tokens));
    await screen.findByRole('heading', { level: 1, name: /Rannvá/ });
  });

  it('stops the autofill when the screen is left, and says nothing about it', async () => {
    vi.mocked(browserSupportsWebAuthnAutofill).mockResolvedValue(true);
    const pending = deferred<AuthenticationResponseJSON>();
    vi.mocked(startAuthentication).mockReturnValue(pending.promise);
    const { router } = await renderApp({
      initialEntries: ['/rita-inn/vid-telduposti'],
      api: signedInApi,
    });
    await waitFor(() => expect(startAuthentication).toHaveBeenCalled());
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Aftur' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/rita-inn'));
    await waitFor(() => expect(WebAuthnAbortService.cancelCeremony).toHaveBeenCalledTimes(1));
    // The browser then rejects the pending request: nothing to say about it.
    pending.reject(Object.assign(new Error('aborted'), { name: 'AbortError' }));
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('is silent when the browser refuses the autofill before anything is picked (another RP ID)', async () => {
    vi.mocked(browserSupportsWebAuthnAutofill).mockResolvedValue(true);
    vi.mocked(startAuthentication).mockRejectedValue(
      Object.assign(new Error('The RP ID "localhost" is invalid for this domain'), {
        name: 'SecurityError',
      }),
    );
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await renderApp({ initialEntries: ['/rita-inn/vid-telduposti'], api: signedInApi });
    await waitFor(() => expect(warn).toHaveBeenCalled());
    expect(screen.queryByRole('alert')).toBeNull();
    expect(startAuthentication).toHaveBeenCalledTimes(1);
  });

  it('does not start where the browser has no passkey autofill', async () => {
    const { api } = await renderApp({
      initialEntries: ['/rita-inn/vid-telduposti'],
      api: signedInApi,
    });
    await screen.findByLabelText('Teldupostur');
    await waitFor(() => expect(browserSupportsWebAuthnAutofill).toHaveBeenCalled());
    expect(startAuthentication).not.toHaveBeenCalled();
    expect(api.callsTo('POST /auth/passkey-login/options')).toHaveLength(0);
  });

  it('offers the passkeys in the phone screen’s number field too', async () => {
    vi.mocked(browserSupportsWebAuthnAutofill).mockResolvedValue(true);
    const picked = deferred<AuthenticationResponseJSON>();
    vi.mocked(startAuthentication).mockReturnValue(picked.promise);
    const { router } = await renderApp({
      initialEntries: ['/rita-inn/vid-telefonnummari'],
      api: signedInApi,
    });
    const number = await screen.findByLabelText('Telefonnummar');
    expect(number.getAttribute('autocomplete')).toBe('username webauthn');
    await waitFor(() =>
      expect(startAuthentication).toHaveBeenCalledWith({
        optionsJSON: requestOptions,
        useBrowserAutofill: true,
      }),
    );
    picked.resolve(answer);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });
});
