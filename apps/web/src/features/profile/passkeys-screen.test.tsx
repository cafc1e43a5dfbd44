import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  browserSupportsWebAuthn,
  startRegistration,
  type RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import type { User } from '@alda/contract/schemas/auth';
import type { Passkey } from '@alda/contract/schemas/passkeys';
import { deferred, fail, ok, type Handler } from '@/test/fake-api';
import { dialogClosed } from '@/test/dialogs';
import { demoUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';

vi.mock('@simplewebauthn/browser', () => ({
  startAuthentication: vi.fn(),
  startRegistration: vi.fn(),
  browserSupportsWebAuthn: vi.fn(() => true),
  browserSupportsWebAuthnAutofill: vi.fn(async () => false),
  WebAuthnAbortService: { cancelCeremony: vi.fn(), createNewAbortSignal: vi.fn() },
}));

const PIXEL: Passkey = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'Pixel 8 (Chrome)',
  backedUp: true,
  createdAt: '2026-06-01T08:00:00.000Z',
  lastUsedAt: '2026-06-15T09:45:00.000Z',
};
const KEY: Passkey = {
  id: '22222222-2222-4222-8222-222222222222',
  name: 'Trygdarlykil',
  backedUp: false,
  createdAt: '2026-05-20T18:30:00.000Z',
  lastUsedAt: null,
};
const creationOptions = {
  challenge: 'Y2hhbGxlbmdl',
  rp: { id: 'localhost', name: 'Alda' },
  user: { id: 'dS0x', name: 'rannva@example.fo', displayName: 'Rannvá Joensen' },
  pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
  timeout: 300_000,
  excludeCredentials: [],
  authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  attestation: 'none',
};
const registration: RegistrationResponseJSON = {
  id: 'bmV3',
  rawId: 'bmV3',
  type: 'public-key',
  response: { clientDataJSON: 'Y2xpZW50', attestationObject: 'YXR0', transports: ['internal'] },
  clientExtensionResults: {},
  authenticatorAttachment: 'platform',
};
const NEW: Passkey = {
  id: '33333333-3333-4333-8333-333333333333',
  name: 'Mac (Chrome)',
  backedUp: false,
  createdAt: '2026-06-16T10:00:00.000Z',
  lastUsedAt: null,
};

beforeEach(() => {
  vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
  vi.mocked(browserSupportsWebAuthn).mockReturnValue(true);
});

afterEach(() => {
  vi.mocked(startRegistration).mockReset();
});

async function setup(
  api: Record<string, Handler>,
  { locale = 'fo', user = demoUser }: { locale?: 'fo' | 'en'; user?: User } = {},
) {
  const app = await renderApp({ user, initialEntries: ['/min-brukari/lykilkodur'], api, locale });
  await screen.findByRole('heading', { level: 1 });
  return { ...app, user: userEvent.setup() };
}

describe('the customer’s passkeys (ADR 0097)', () => {
  it('is reachable from the profile', async () => {
    const app = await renderApp({
      user: demoUser,
      initialEntries: ['/min-brukari'],
      api: { 'GET /auth/passkeys': () => ok([PIXEL]) },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('link', { name: 'Lykilkodur' }));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/min-brukari/lykilkodur'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Lykilkodur' })).toBeTruthy();
  });

  it('lists each passkey with its name, when it was made and last used, and whether it is synced (fo)', async () => {
    await setup({ 'GET /auth/passkeys': () => ok([PIXEL, KEY]) });
    const pixel = await screen.findByRole('listitem', { name: 'Pixel 8 (Chrome)' });
    // Faroese time: UTC+1 in summer.
    expect(pixel.textContent).toContain('Stovnað 01.06.2026 09:00');
    expect(pixel.textContent).toContain('Seinast brúkt 15.06.2026 10:45');
    expect(pixel.textContent).toContain('Samstillað');
    expect(pixel.textContent).toContain('Kann eisini brúkast á tínum øðrum eindum.');
    expect(
      within(pixel).getByRole('button', { name: 'Broyt navn: Pixel 8 (Chrome)' }),
    ).toBeTruthy();
    expect(within(pixel).getByRole('button', { name: 'Strika: Pixel 8 (Chrome)' })).toBeTruthy();
    const key = screen.getByRole('listitem', { name: 'Trygdarlykil' });
    expect(key.textContent).toContain('Stovnað 20.05.2026 19:30');
    expect(key.textContent).toContain('Enn ikki brúkt');
    expect(key.textContent).not.toContain('Samstillað');
    expect(screen.getByRole('button', { name: 'Stovna lykilkodu' })).toBeTruthy();
  });

  it('shows English texts', async () => {
    await setup({ 'GET /auth/passkeys': () => ok([PIXEL, KEY]) }, { locale: 'en' });
    const pixel = await screen.findByRole('listitem', { name: 'Pixel 8 (Chrome)' });
    expect(pixel.textContent).toContain('Synced');
    expect(pixel.textContent).toContain('Last used 15.06.2026 10:45');
    expect(screen.getByRole('listitem', { name: 'Trygdarlykil' }).textContent).toContain(
      'Not used yet',
    );
    expect(screen.getByRole('button', { name: 'Create a passkey' })).toBeTruthy();
  });

  it('shows a loading state, then explains what a passkey is when there is none', async () => {
    const answer = deferred<Response>();
    await setup({ 'GET /auth/passkeys': () => answer.promise });
    expect(screen.getByLabelText('Heintar…', { selector: '[aria-busy="true"]' })).toBeTruthy();
    answer.resolve(ok([]));
    expect(await screen.findByRole('heading', { name: 'Ongar lykilkodur enn' })).toBeTruthy();
    expect(
      screen.getByText(
        'Við eini lykilkodu ritar tú inn við fingramerki, andliti ella skermlási í staðin fyri við loyniorði.',
      ),
    ).toBeTruthy();
  });

  it('shows an error with a retry when the list cannot be loaded', async () => {
    let calls = 0;
    const { user } = await setup({
      'GET /auth/passkeys': () => {
        calls += 1;
        return calls === 1 ? fail(503, 'SERVICE_UNAVAILABLE') : ok([PIXEL]);
      },
    });
    expect(await screen.findByText('Vit kundu ikki vísa lykilkodurnar.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Royn aftur' }));
    expect(await screen.findByRole('listitem', { name: 'Pixel 8 (Chrome)' })).toBeTruthy();
  });

  it('explains and offers no way to make one where the browser has no WebAuthn', async () => {
    vi.mocked(browserSupportsWebAuthn).mockReturnValue(false);
    await setup({ 'GET /auth/passkeys': () => ok([PIXEL]) });
    expect(await screen.findByText('Hendan eindin kann ikki brúka lykilkodur')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Stovna lykilkodu' })).toBeNull();
    // The passkeys of other devices can still be managed.
    expect(await screen.findByRole('listitem', { name: 'Pixel 8 (Chrome)' })).toBeTruthy();
  });

  it('creates a passkey after the password: the device’s dialog, then the new one in the list', async () => {
    let list: Passkey[] = [PIXEL];
    vi.mocked(startRegistration).mockResolvedValue(registration);
    const { user, api, toasts } = await setup({
      'GET /auth/passkeys': () => ok(list),
      'POST /auth/passkeys/options': () => ok({ options: creationOptions }),
      'POST /auth/passkeys': () => {
        list = [NEW, PIXEL];
        return ok(NEW);
      },
    });
    await screen.findByRole('listitem', { name: 'Pixel 8 (Chrome)' });
    await user.click(screen.getByRole('button', { name: 'Stovna lykilkodu' }));
    // From the profile the proof is always asked for, in the devices screen's step-up modal.
    const dialog = await screen.findByRole('dialog', { name: 'Stovna lykilkodu' });
    expect(startRegistration).not.toHaveBeenCalled();
    await user.type(within(dialog).getByLabelText('Loyniorð'), 'Demo1234!');
    await user.click(within(dialog).getByRole('button', { name: 'Halt fram' }));
    expect(await screen.findByRole('listitem', { name: 'Mac (Chrome)' })).toBeTruthy();
    expect(api.callsTo('POST /auth/passkeys/options').map((r) => r.body)).toEqual([
      { password: 'Demo1234!' },
    ]);
    expect(startRegistration).toHaveBeenCalledWith({ optionsJSON: creationOptions });
    const created = api.callsTo('POST /auth/passkeys')[0]?.body as {
      response: unknown;
      name: string;
    };
    expect(created.response).toEqual(registration);
    // This device's name, as the sign-ins describe it, and the browser.
    expect(created.name).toMatch(/\S/);
    expect(toasts.getToasts().map((t) => t.message)).toContain('Lykilkodan er stovnað.');
    await dialogClosed();
  });

  it('keeps the step-up modal open on a wrong password, and makes nothing', async () => {
    const { user, api } = await setup({
      'GET /auth/passkeys': () => ok([]),
      'POST /auth/passkeys/options': () => fail(422, 'PASSWORD_INCORRECT', 'server text'),
    });
    await screen.findByRole('heading', { name: 'Ongar lykilkodur enn' });
    await user.click(screen.getByRole('button', { name: 'Stovna lykilkodu' }));
    const dialog = await screen.findByRole('dialog', { name: 'Stovna lykilkodu' });
    await user.type(within(dialog).getByLabelText('Loyniorð'), 'Skeivt-1');
    await user.click(within(dialog).getByRole('button', { name: 'Halt fram' }));
    expect(await within(dialog).findByText('Loyniorðið er skeivt.')).toBeTruthy();
    expect(startRegistration).not.toHaveBeenCalled();
    expect(api.callsTo('POST /auth/passkeys')).toHaveLength(0);
  });

  it('says nothing when the device’s dialog is closed, and adds nothing', async () => {
    vi.mocked(startRegistration).mockRejectedValue(
      Object.assign(new Error('not allowed'), { name: 'NotAllowedError' }),
    );
    const { user, api, toasts } = await setup({
      'GET /auth/passkeys': () => ok([]),
      'POST /auth/passkeys/options': () => ok({ options: creationOptions }),
    });
    await screen.findByRole('heading', { name: 'Ongar lykilkodur enn' });
    await user.click(screen.getByRole('button', { name: 'Stovna lykilkodu' }));
    const dialog = await screen.findByRole('dialog', { name: 'Stovna lykilkodu' });
    await user.type(within(dialog).getByLabelText('Loyniorð'), 'Demo1234!{Enter}');
    await waitFor(() => expect(startRegistration).toHaveBeenCalled());
    await waitFor(() =>
      expect(
        screen.getByRole('button', { name: 'Stovna lykilkodu' }).getAttribute('aria-busy'),
      ).toBeNull(),
    );
    expect(api.callsTo('POST /auth/passkeys')).toHaveLength(0);
    expect(toasts.getToasts()).toEqual([]);
  });

  it('says a device that already holds one of the customer’s passkeys (InvalidStateError)', async () => {
    vi.mocked(startRegistration).mockRejectedValue(
      Object.assign(new Error('previously registered'), { name: 'InvalidStateError' }),
    );
    const { user, toasts } = await setup({
      'GET /auth/passkeys': () => ok([PIXEL]),
      'POST /auth/passkeys/options': () => ok({ options: creationOptions }),
    });
    await screen.findByRole('listitem', { name: 'Pixel 8 (Chrome)' });
    await user.click(screen.getByRole('button', { name: 'Stovna lykilkodu' }));
    const dialog = await screen.findByRole('dialog', { name: 'Stovna lykilkodu' });
    await user.type(within(dialog).getByLabelText('Loyniorð'), 'Demo1234!{Enter}');
    await waitFor(() =>
      expect(toasts.getToasts().map((t) => t.message)).toContain(
        'Henda eindin hevur longu eina lykilkodu til tína konto.',
      ),
    );
  });

  it('renames a passkey in a dialog, with the contract’s rules for a name', async () => {
    let list: Passkey[] = [PIXEL, KEY];
    const route = `PATCH /auth/passkeys/${KEY.id}`;
    const { user, api, toasts } = await setup({
      'GET /auth/passkeys': () => ok(list),
      [route]: (req) => {
        const renamed = { ...KEY, name: (req.body as { name: string }).name };
        list = [PIXEL, renamed];
        return ok(renamed);
      },
    });
    const key = await screen.findByRole('listitem', { name: 'Trygdarlykil' });
    await user.click(within(key).getByRole('button', { name: 'Broyt navn: Trygdarlykil' }));
    const dialog = await screen.findByRole('dialog', { name: 'Broyt navn á lykilkoduni' });
    const name = within(dialog).getByLabelText('Navn');
    await waitFor(() => expect(document.activeElement).toBe(name));
    expect((name as HTMLInputElement).value).toBe('Trygdarlykil');
    expect(within(dialog).getByText('Í mesta lagi 60 tekn.')).toBeTruthy();

    // Required: said under the field, nothing sent.
    await user.clear(name);
    await user.click(within(dialog).getByRole('button', { name: 'Goym' }));
    expect(within(dialog).getByText('Hetta er eitt kravt felt')).toBeTruthy();
    expect(name.getAttribute('aria-invalid')).toBe('true');
    // Too long.
    await user.type(name, 'x'.repeat(61));
    await user.click(within(dialog).getByRole('button', { name: 'Goym' }));
    expect(within(dialog).getByText('Hetta er ov langt.')).toBeTruthy();
    expect(api.callsTo(route)).toHaveLength(0);

    await user.clear(name);
    await user.type(name, '  YubiKey hjá Rannvá {Enter}');
    expect(await screen.findByRole('listitem', { name: 'YubiKey hjá Rannvá' })).toBeTruthy();
    // Trimmed, as the contract's rule reads it.
    expect(api.callsTo(route).map((r) => r.body)).toEqual([{ name: 'YubiKey hjá Rannvá' }]);
    expect(toasts.getToasts().map((t) => t.message)).toContain('Navnið er broytt.');
    await dialogClosed();
  });

  it('shows the API’s verdict on a name under the field', async () => {
    const route = `PATCH /auth/passkeys/${PIXEL.id}`;
    const { user } = await setup({
      'GET /auth/passkeys': () => ok([PIXEL]),
      [route]: () =>
        Response.json(
          {
            error: {
              code: 'VALIDATION_FAILED',
              message: 'server text',
              issues: [{ path: 'name', key: 'TOO_LONG', message: 'too long' }],
            },
          },
          { status: 400 },
        ),
    });
    const pixel = await screen.findByRole('listitem', { name: 'Pixel 8 (Chrome)' });
    await user.click(within(pixel).getByRole('button', { name: 'Broyt navn: Pixel 8 (Chrome)' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Navn'), ' 2{Enter}');
    expect(await within(dialog).findByText('Hetta er ov langt.')).toBeTruthy();
    expect(screen.getByRole('dialog')).toBe(dialog);
  });

  it('deletes a passkey after the password, and shows the list without it', async () => {
    let list: Passkey[] = [PIXEL, KEY];
    const route = `POST /auth/passkeys/${PIXEL.id}/delete`;
    const { user, api, toasts } = await setup({
      'GET /auth/passkeys': () => ok(list),
      [route]: () => {
        list = [KEY];
        return new Response(null, { status: 204 });
      },
    });
    const pixel = await screen.findByRole('listitem', { name: 'Pixel 8 (Chrome)' });
    await user.click(within(pixel).getByRole('button', { name: 'Strika: Pixel 8 (Chrome)' }));
    // Cancel first: nothing happens.
    let dialog = await screen.findByRole('dialog', { name: 'Strika Pixel 8 (Chrome)?' });
    expect(
      within(dialog).getByText(
        'Tá ið hon er strikað, kanst tú ikki longur rita inn við henni. Tú kanst eisini strika hana á eindini.',
      ),
    ).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Angra' }));
    await dialogClosed();
    expect(api.callsTo(route)).toHaveLength(0);

    await user.click(within(pixel).getByRole('button', { name: 'Strika: Pixel 8 (Chrome)' }));
    dialog = await screen.findByRole('dialog', { name: 'Strika Pixel 8 (Chrome)?' });
    await user.type(within(dialog).getByLabelText('Loyniorð'), 'Demo1234!');
    await user.click(within(dialog).getByRole('button', { name: 'Strika' }));
    await waitFor(() =>
      expect(screen.queryByRole('listitem', { name: 'Pixel 8 (Chrome)' })).toBeNull(),
    );
    expect(api.callsTo(route).map((r) => r.body)).toEqual([{ password: 'Demo1234!' }]);
    expect(toasts.getToasts().map((t) => t.message)).toContain('Lykilkodan er strikað.');
    expect(screen.getByRole('listitem', { name: 'Trygdarlykil' })).toBeTruthy();
  });

  it('explains PASSKEY_LAST_WAY_IN with its message', async () => {
    const route = `POST /auth/passkeys/${PIXEL.id}/delete`;
    const { user } = await setup({
      'GET /auth/passkeys': () => ok([PIXEL]),
      [route]: () => fail(409, 'PASSKEY_LAST_WAY_IN', 'server text'),
    });
    const pixel = await screen.findByRole('listitem', { name: 'Pixel 8 (Chrome)' });
    await user.click(within(pixel).getByRole('button', { name: 'Strika: Pixel 8 (Chrome)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Strika Pixel 8 (Chrome)?' });
    await user.type(within(dialog).getByLabelText('Loyniorð'), 'Demo1234!{Enter}');
    const alert = await screen.findByRole('dialog', { name: 'Lykilkodan kann ikki strikast' });
    expect(alert.textContent).toContain(
      'Henda lykilkodan er einasti hátturin hjá tær at rita inn. Set fyrst eitt loyniorð, og strika hana so.',
    );
    expect(screen.getByRole('listitem', { name: 'Pixel 8 (Chrome)', hidden: true })).toBeTruthy();
  });

  it('says it before asking for a proof when no password, number or other passkey is left', async () => {
    const passkeyOnly = { ...demoUser, hasPassword: false, phoneNumber: null };
    const { user, api } = await setup(
      { 'GET /auth/passkeys': () => ok([PIXEL]) },
      { user: passkeyOnly },
    );
    const pixel = await screen.findByRole('listitem', { name: 'Pixel 8 (Chrome)' });
    await user.click(within(pixel).getByRole('button', { name: 'Strika: Pixel 8 (Chrome)' }));
    expect(
      await screen.findByRole('dialog', { name: 'Lykilkodan kann ikki strikast' }),
    ).toBeTruthy();
    expect(screen.queryByLabelText('Loyniorð')).toBeNull();
    expect(api.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('asks a customer without a password for an SMS code instead', async () => {
    const route = `POST /auth/passkeys/${PIXEL.id}/delete`;
    const { user, api } = await setup(
      {
        'GET /auth/passkeys': () => ok([PIXEL, KEY]),
        'POST /auth/sessions/confirmation-code': () =>
          ok({ phoneNumber: '214365', expiresIn: 600, resendAfter: 60 }),
        [route]: () => new Response(null, { status: 204 }),
      },
      { user: { ...demoUser, hasPassword: false } },
    );
    const pixel = await screen.findByRole('listitem', { name: 'Pixel 8 (Chrome)' });
    await user.click(within(pixel).getByRole('button', { name: 'Strika: Pixel 8 (Chrome)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Strika Pixel 8 (Chrome)?' });
    await user.click(within(dialog).getByRole('button', { name: 'Send kotu' }));
    await user.type(await within(dialog).findByLabelText('Kota úr SMS'), '123456{Enter}');
    await dialogClosed();
    expect(api.callsTo(route).map((r) => r.body)).toEqual([{ code: '123456' }]);
  });
});
