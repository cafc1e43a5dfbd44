import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import errorsFo from '@alda/contract/locales/errors.fo.json';
import type { Passkey } from '@alda/contract/schemas/passkeys';
import { aSession, renderConsole, type Handler } from '@/test/render';

// The browser's prompt to make a passkey (ADR 0097): jsdom has no WebAuthn.
const webauthn = vi.hoisted(() => ({ startRegistration: vi.fn() }));
vi.mock('@simplewebauthn/browser', () => webauthn);
beforeEach(() => webauthn.startRegistration.mockReset());

beforeAll(async () => {
  await import('./my-passkeys-screen');
}, 20_000);

const LAPTOP: Passkey = {
  id: '66666666-6666-4666-8666-666666666666',
  name: 'Chrome, Windows',
  backedUp: false,
  createdAt: '2026-04-01T08:00:00.000Z',
  lastUsedAt: null,
};
const OPTIONS = {
  challenge: 'cmVnaXN0ZXI',
  rp: { id: 'alda.fo', name: 'Alda' },
  user: { id: 'dXNlcg', name: 'support@alda.fo', displayName: 'Sólrun Joensen' },
  pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
  timeout: 300000,
};
const CREDENTIAL = {
  id: 'bmV3LWNyZWRlbnRpYWw',
  rawId: 'bmV3LWNyZWRlbnRpYWw',
  type: 'public-key',
  response: {
    clientDataJSON: 'Y2xpZW50RGF0YQ',
    attestationObject: 'YXR0ZXN0YXRpb24',
    transports: ['internal'],
  },
  clientExtensionResults: {},
};

/** The API of one member's passkeys, kept as the calls change them. */
function passkeysApi(start: Passkey[]) {
  let items = [...start];
  let wrongPassword = true;
  const handler: Handler = ({ method, path, body }) => {
    if (method === 'GET' && path === '/api/staff/passkeys')
      return { status: 200, body: { data: { items } } };
    if (method === 'POST' && path === '/api/staff/passkeys/options') {
      if (wrongPassword) {
        wrongPassword = false;
        return {
          status: 422,
          body: { error: { code: 'PASSWORD_INCORRECT', message: errorsFo.PASSWORD_INCORRECT } },
        };
      }
      return { status: 200, body: { data: { options: OPTIONS } } };
    }
    if (method === 'POST' && path === '/api/staff/passkeys') {
      const added: Passkey = {
        id: '77777777-7777-4777-8777-777777777777',
        name: (body as { name?: string }).name ?? 'Chrome, Linux',
        backedUp: true,
        createdAt: '2026-06-15T12:00:00.000Z',
        lastUsedAt: null,
      };
      items = [added, ...items];
      return { status: 201, body: { data: added } };
    }
    if (method === 'DELETE' && path.startsWith('/api/staff/passkeys/')) {
      items = items.filter((p) => !path.endsWith(p.id));
      return { status: 204 };
    }
    return undefined;
  };
  return handler;
}

describe('my passkeys (/console/my-passkeys, every role)', () => {
  it('is reached from the header by every role, and lists the passkeys or says there are none', async () => {
    const user = userEvent.setup();
    const { router } = renderConsole({
      path: '/customers',
      session: aSession('provisioning'),
      handler: passkeysApi([]),
    });
    await user.click(await screen.findByRole('link', { name: 'Mínar lykilkodur' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/my-passkeys'));
    expect(await screen.findByRole('heading', { name: 'Mínar lykilkodur', level: 1 })).toBeTruthy();
    expect(await screen.findByText('Tú hevur onga lykilkodu enn.')).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Mínar lykilkodur – Alda – arbeiðsborð'));
  });

  it('adds a passkey after the password (a wrong one is the field’s error), then lists it', async () => {
    webauthn.startRegistration.mockResolvedValueOnce(CREDENTIAL);
    const user = userEvent.setup();
    const { calls } = renderConsole({
      path: '/my-passkeys',
      session: aSession('content'),
      handler: passkeysApi([LAPTOP]),
    });
    const table = await screen.findByRole('table', { name: 'Mínar lykilkodur' });
    expect(within(table).getByText('Chrome, Windows')).toBeTruthy();
    expect(within(table).getByText('Ikki brúkt enn')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Legg lykilkodu afturat' }));
    const dialog = screen.getByRole('dialog', { name: 'Legg lykilkodu afturat' });
    await user.click(within(dialog).getByRole('button', { name: 'Legg afturat' }));
    expect(within(dialog).getByText('Skriva loyniorðið.')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await user.type(within(dialog).getByLabelText('Navn (valfrítt)'), 'Arbeiðstelda');
    await user.type(within(dialog).getByLabelText('Loyniorð'), 'skeivt');
    await user.click(within(dialog).getByRole('button', { name: 'Legg afturat' }));
    expect(await within(dialog).findByText(errorsFo.PASSWORD_INCORRECT)).toBeTruthy();
    expect(within(dialog).getByLabelText('Loyniorð').getAttribute('aria-invalid')).toBe('true');
    expect(webauthn.startRegistration).not.toHaveBeenCalled();

    await user.type(within(dialog).getByLabelText('Loyniorð'), 'Rætt loyniorð 1');
    await user.click(within(dialog).getByRole('button', { name: 'Legg afturat' }));
    expect(
      await screen.findByText(
        'Lykilkodan “Arbeiðstelda” er løgd afturat. Nú kanst tú rita inn við henni.',
      ),
    ).toBeTruthy();
    expect(webauthn.startRegistration).toHaveBeenCalledWith({ optionsJSON: OPTIONS });
    const posts = calls.filter((c) => c.method === 'POST');
    expect(posts.map((c) => c.body)).toEqual([
      { password: 'skeivt' },
      { password: 'Rætt loyniorð 1' },
      { response: CREDENTIAL, name: 'Arbeiðstelda' },
    ]);
    expect(await within(table).findByText('Arbeiðstelda')).toBeTruthy();
    expect(within(table).getByText('Samstillað við aðrar eindir')).toBeTruthy();
  });

  it('says so when the browser already holds a passkey of the account', async () => {
    const error = new Error('The authenticator was previously registered');
    error.name = 'InvalidStateError';
    webauthn.startRegistration.mockRejectedValueOnce(error);
    const user = userEvent.setup();
    const handler = passkeysApi([]);
    // The password is right at once.
    let first = true;
    const { calls } = renderConsole({
      path: '/my-passkeys',
      session: aSession('support'),
      handler: (call) => {
        if (call.path === '/api/staff/passkeys/options' && first) {
          first = false;
          return { status: 200, body: { data: { options: OPTIONS } } };
        }
        return handler(call);
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Legg lykilkodu afturat' }));
    const dialog = screen.getByRole('dialog', { name: 'Legg lykilkodu afturat' });
    await user.type(within(dialog).getByLabelText('Loyniorð'), 'Rætt loyniorð 1');
    await user.click(within(dialog).getByRole('button', { name: 'Legg afturat' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Henda eindin hevur longu eina lykilkodu til tína kontu.',
    );
    expect(calls.some((c) => c.path === '/api/staff/passkeys' && c.method === 'POST')).toBe(false);
  });

  it('deletes a passkey after a confirmation, and explains why the last one of a passkey role stays', async () => {
    const user = userEvent.setup();
    let refuse = true;
    const handler = passkeysApi([LAPTOP]);
    const { calls } = renderConsole({
      path: '/my-passkeys',
      session: aSession('support'),
      handler: (call) => {
        if (call.method === 'DELETE' && refuse) {
          refuse = false;
          return {
            status: 409,
            body: {
              error: {
                code: 'STAFF_ACTION_NOT_ALLOWED',
                message: errorsFo.STAFF_ACTION_NOT_ALLOWED,
              },
            },
          };
        }
        return handler(call);
      },
    });
    await user.click(
      await screen.findByRole('button', { name: 'Strika lykilkoduna Chrome, Windows' }),
    );
    const dialog = screen.getByRole('dialog', { name: 'Strika lykilkoduna “Chrome, Windows”?' });
    await user.click(within(dialog).getByRole('button', { name: 'Strika lykilkoduna' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Tín leiklutur ritar inn við lykilkodu, so tann seinasta kann ikki strikast. Legg fyrst eina nýggja afturat.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Strika lykilkoduna' }));
    expect(await screen.findByText('Lykilkodan “Chrome, Windows” er strikað.')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([
      `/api/staff/passkeys/${LAPTOP.id}`,
      `/api/staff/passkeys/${LAPTOP.id}`,
    ]);
    expect(await screen.findByText('Tú hevur onga lykilkodu enn.')).toBeTruthy();
  });
});
