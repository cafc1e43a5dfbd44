import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { startRegistration, type RegistrationResponseJSON } from '@simplewebauthn/browser';
import { PASSKEY_FRESH_SIGN_IN_S, type Passkey } from '@alda/contract/schemas/passkeys';
import { newCustomer, ownerData, plans } from '@/test/account-fixtures';
import { fail, ok, quietPolls, type Handler } from '@/test/fake-api';
import { demoUser, subscriptionsWithPlan } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { markPasskeyOffer } from './passkey-offer-slot';

vi.mock('@simplewebauthn/browser', () => ({
  startAuthentication: vi.fn(),
  startRegistration: vi.fn(),
  browserSupportsWebAuthn: vi.fn(() => true),
  browserSupportsWebAuthnAutofill: vi.fn(async () => false),
  WebAuthnAbortService: { cancelCeremony: vi.fn(), createNewAbortSignal: vi.fn() },
}));

const creationOptions = {
  challenge: 'Y2hhbGxlbmdl',
  rp: { id: 'localhost', name: 'Alda' },
  user: { id: 'dS0x', name: 'rannva@example.fo', displayName: 'Rannvá Joensen' },
  pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
};
const registration: RegistrationResponseJSON = {
  id: 'bmV3',
  rawId: 'bmV3',
  type: 'public-key',
  response: { clientDataJSON: 'Y2xpZW50', attestationObject: 'YXR0', transports: ['internal'] },
  clientExtensionResults: {},
};
const CREATED: Passkey = {
  id: '33333333-3333-4333-8333-333333333333',
  name: 'Mac (Chrome)',
  backedUp: true,
  createdAt: '2026-06-16T10:00:00.000Z',
  lastUsedAt: null,
};
const TITLE = 'Rita skjótari inn næstu ferð?';
/** What this device keeps of the answer (Capacitor Preferences: localStorage on the web). */
const answerKept = () => localStorage.getItem(`CapacitorStorage.alda.passkeyOffer.${demoUser.id}`);

beforeEach(() => {
  vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
  sessionStorage.clear();
});

afterEach(() => {
  vi.mocked(startRegistration).mockReset();
});

/** Home right after a password sign-in of this tab (the mark the sign-in screens leave). */
async function homeAfterPasswordSignIn(api: Record<string, Handler>, at = Date.now()) {
  markPasskeyOffer(demoUser.id, at);
  const app = await renderApp({
    user: demoUser,
    data: ownerData,
    api: { ...quietPolls, ...api },
  });
  return { ...app, user: userEvent.setup() };
}

const offer = () => screen.findByRole('region', { name: TITLE });

describe('the offer of a passkey after a password sign-in (ADR 0097)', () => {
  it('comes after the e-mail login, on home, once the customer has no passkey', async () => {
    const app = await renderApp({
      initialEntries: ['/rita-inn/vid-telduposti'],
      api: {
        ...quietPolls,
        'POST /auth/email-login': () =>
          ok({ accessToken: 'a-1', refreshToken: 'r-1', expiresIn: 900 }),
        'GET /auth/me': () => ok(demoUser),
        'GET /subscriptions': () => ok(subscriptionsWithPlan),
        'GET /orders': () => ok([]),
        'GET /actions': () => ok([]),
        'GET /packages': () => ok([]),
        'GET /plans': () => ok(plans),
        'GET /agreements': () => ok(null),
        'GET /auth/passkeys': () => ok([]),
      },
    });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Teldupostur'), 'rannva@example.fo');
    await user.type(screen.getByLabelText('Loyniorð'), 'Loyniord1');
    await user.click(screen.getByRole('button', { name: 'Rita inn' }));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/'));
    const card = await offer();
    expect(card.textContent).toContain(
      'Stovna eina lykilkodu, so kanst tú rita inn við fingramerki, andliti ella skermlási – uttan loyniorð.',
    );
    expect(within(card).getByRole('button', { name: 'Stovna lykilkodu' })).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'Ikki nú' })).toBeTruthy();
  });

  it('"Ikki nú" hides it and it is never shown again on this device for this user', async () => {
    const first = await homeAfterPasswordSignIn({ 'GET /auth/passkeys': () => ok([]) });
    const card = await offer();
    await first.user.click(within(card).getByRole('button', { name: 'Ikki nú' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: TITLE })).toBeNull());
    expect(answerKept()).toBe('dismissed');
    first.view.unmount();

    // The next password sign-in on this device: no offer, nothing asked of the API.
    const again = await homeAfterPasswordSignIn({ 'GET /auth/passkeys': () => ok([]) });
    await screen.findByRole('heading', { level: 1, name: /Rannvá/ });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('region', { name: TITLE })).toBeNull();
    expect(again.api.callsTo('GET /auth/passkeys')).toHaveLength(0);
  });

  it('accepting makes the passkey without the password (the fresh sign-in) and is not offered again', async () => {
    vi.mocked(startRegistration).mockResolvedValue(registration);
    const { user, api, toasts } = await homeAfterPasswordSignIn({
      'GET /auth/passkeys': () => ok([]),
      'POST /auth/passkeys/options': () => ok({ options: creationOptions }),
      'POST /auth/passkeys': () => ok(CREATED),
    });
    const card = await offer();
    await user.click(within(card).getByRole('button', { name: 'Stovna lykilkodu' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: TITLE })).toBeNull());
    expect(api.callsTo('POST /auth/passkeys/options').map((r) => r.body)).toEqual([{}]);
    expect(startRegistration).toHaveBeenCalledWith({ optionsJSON: creationOptions });
    expect(api.callsTo('POST /auth/passkeys')[0]?.body).toMatchObject({ response: registration });
    expect(toasts.getToasts().map((t) => t.message)).toContain(
      'Lykilkodan er stovnað. Næstu ferð kanst tú rita inn við henni.',
    );
    expect(answerKept()).toBe('accepted');
    expect(sessionStorage.getItem('alda.passkeyOffer')).toBeNull();
  });

  it('stays, silent, when the device’s dialog is closed', async () => {
    vi.mocked(startRegistration).mockRejectedValue(
      Object.assign(new Error('not allowed'), { name: 'NotAllowedError' }),
    );
    const { user, api, toasts } = await homeAfterPasswordSignIn({
      'GET /auth/passkeys': () => ok([]),
      'POST /auth/passkeys/options': () => ok({ options: creationOptions }),
    });
    const card = await offer();
    await user.click(within(card).getByRole('button', { name: 'Stovna lykilkodu' }));
    await waitFor(() => expect(startRegistration).toHaveBeenCalled());
    await waitFor(() =>
      expect(
        within(card).getByRole('button', { name: 'Stovna lykilkodu' }).getAttribute('aria-busy'),
      ).toBeNull(),
    );
    expect(toasts.getToasts()).toEqual([]);
    expect(api.callsTo('POST /auth/passkeys')).toHaveLength(0);
    expect(answerKept()).toBeNull();
  });

  it('sends the customer to the passkeys screen when the API no longer counts the sign-in as fresh', async () => {
    const { user, router } = await homeAfterPasswordSignIn({
      'GET /auth/passkeys': () => ok([]),
      'POST /auth/passkeys/options': () =>
        Response.json(
          {
            error: {
              code: 'VALIDATION_FAILED',
              message: 'server text',
              field: 'password',
              issues: [{ path: 'password', key: 'REQUIRED', message: 'required' }],
            },
          },
          { status: 400 },
        ),
    });
    const card = await offer();
    await user.click(within(card).getByRole('button', { name: 'Stovna lykilkodu' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/min-brukari/lykilkodur'));
  });

  it('is not made when the customer already has a passkey', async () => {
    const { api } = await homeAfterPasswordSignIn({ 'GET /auth/passkeys': () => ok([CREATED]) });
    await waitFor(() => expect(api.callsTo('GET /auth/passkeys')).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('region', { name: TITLE })).toBeNull();
  });

  it('is not made where the browser has no WebAuthn, nor after a sign-in without the password', async () => {
    vi.unstubAllGlobals();
    const noWebAuthn = await homeAfterPasswordSignIn({ 'GET /auth/passkeys': () => ok([]) });
    await screen.findByRole('heading', { level: 1, name: /Rannvá/ });
    expect(noWebAuthn.api.callsTo('GET /auth/passkeys')).toHaveLength(0);
    noWebAuthn.view.unmount();

    vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
    sessionStorage.clear();
    const pin = await renderApp({
      user: demoUser,
      data: ownerData,
      api: { ...quietPolls, 'GET /auth/passkeys': () => ok([]) },
    });
    await screen.findByRole('heading', { level: 1, name: /Rannvá/ });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('region', { name: TITLE })).toBeNull();
    expect(pin.api.callsTo('GET /auth/passkeys')).toHaveLength(0);
  });

  it('is not made once the sign-in is older than the API’s fresh window, nor for another user', async () => {
    const stale = await homeAfterPasswordSignIn(
      { 'GET /auth/passkeys': () => ok([]) },
      Date.now() - PASSKEY_FRESH_SIGN_IN_S * 1000 - 1000,
    );
    await screen.findByRole('heading', { level: 1, name: /Rannvá/ });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('region', { name: TITLE })).toBeNull();
    expect(stale.api.callsTo('GET /auth/passkeys')).toHaveLength(0);
    stale.view.unmount();

    markPasskeyOffer('someone-else');
    const other = await renderApp({
      user: demoUser,
      data: ownerData,
      api: { ...quietPolls, 'GET /auth/passkeys': () => ok([]) },
    });
    await screen.findByRole('heading', { level: 1, name: /Rannvá/ });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(other.api.callsTo('GET /auth/passkeys')).toHaveLength(0);
  });

  it('shows on welcome after a registration, in English too', async () => {
    markPasskeyOffer(demoUser.id);
    await renderApp({
      user: demoUser,
      initialEntries: ['/valkomin'],
      data: { subscriptions: newCustomer, orders: [], plans },
      api: { ...quietPolls, 'GET /auth/passkeys': () => ok([]) },
      locale: 'en',
    });
    const card = await screen.findByRole('region', { name: 'Sign in faster next time?' });
    expect(within(card).getByRole('button', { name: 'Create a passkey' })).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'Not now' })).toBeTruthy();
  });

  it('says so when the passkey cannot be made', async () => {
    vi.mocked(startRegistration).mockResolvedValue(registration);
    const { user, toasts } = await homeAfterPasswordSignIn({
      'GET /auth/passkeys': () => ok([]),
      'POST /auth/passkeys/options': () => ok({ options: creationOptions }),
      'POST /auth/passkeys': () => fail(400, 'PASSKEY_CHALLENGE_EXPIRED', 'server text'),
    });
    const card = await offer();
    await user.click(within(card).getByRole('button', { name: 'Stovna lykilkodu' }));
    await waitFor(() =>
      expect(toasts.getToasts().map((t) => t.message)).toContain(
        'Lykilkodu-umbønin er útgingin. Royn aftur.',
      ),
    );
    expect(screen.getByRole('region', { name: TITLE })).toBeTruthy();
    expect(answerKept()).toBeNull();
  });
});
