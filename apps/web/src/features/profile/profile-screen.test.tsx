import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { connection } from '@/shared/api/connectivity';
import type { User } from '@alda/contract/schemas/auth';
import { fail, json, ok, type Handler } from '@/test/fake-api';
import { demoUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';

async function setup(
  path: string,
  api: Record<string, Handler> = {},
  { locale = 'fo', user = demoUser }: { locale?: 'fo' | 'en'; user?: User } = {},
) {
  const app = await renderApp({ user, initialEntries: [path], api, locale });
  await screen.findByRole('heading', { level: 1 });
  return { ...app, user: userEvent.setup() };
}

const input = (label: string) =>
  screen.getByLabelText<HTMLInputElement>(label, { selector: 'input' });

describe('profile (SPEC §2 /min-brukari)', () => {
  it('shows the details, phone-book visibility and language, and links to edit and password', async () => {
    await setup('/min-brukari', {}, { user: { ...demoUser, showInPhoneBook: true } });
    const details = screen.getByRole('heading', { name: 'Tínar upplýsingar' }).parentElement!;
    const pairs = [...details.querySelectorAll('dt')].map((dt) => [
      dt.textContent,
      dt.nextElementSibling?.textContent,
    ]);
    expect(pairs).toEqual([
      ['Teldupostur', 'rannva@example.fo'],
      ['Telefonnummar', '21 43 65'],
      ['Føðingardagur', '12.04.1988'],
      ['Bústaður', 'Niels Finsens gøta 7'],
      ['Postnummar og bygd', '100 Tórshavn'],
      ['Telefonbókin', 'Nummarið er í telefonbókini'],
      ['Mál', 'Føroyskt'],
    ]);
    expect(screen.getByRole('link', { name: 'Broyt upplýsingar' }).getAttribute('href')).toBe(
      '/min-brukari/broyt',
    );
    expect(screen.getByRole('link', { name: 'Broyt loyniorð' }).getAttribute('href')).toBe(
      '/min-brukari/loyniord',
    );
  });
});

describe('profile: usage alert switches (issue 16, ADR 0066)', () => {
  it('saves each switch at once and shows the saved state; how they come is the notification settings', async () => {
    // The server keeps what was saved.
    let saved = { at80: true, at100: true, email: false };
    const { user, api, session, toasts } = await setup('/min-brukari', {
      'PATCH /auth/me': (req) => {
        saved = { ...saved, ...(req.body as { usageAlerts: typeof saved }).usageAlerts };
        return ok({ ...demoUser, usageAlerts: saved });
      },
    });
    const card = screen.getByRole('region', { name: 'Boð um datanýtslu' });
    const at80 = within(card).getByRole<HTMLInputElement>('switch', {
      name: 'Tá ið 80 % er brúkt',
    });
    const at100 = within(card).getByRole<HTMLInputElement>('switch', {
      name: 'Tá ið alt datað er brúkt',
    });
    expect(at80.checked).toBe(true);
    // The e-mail switch has one home, the notification settings' "Datanýtsla" row (issue 64).
    expect(within(card).getAllByRole('switch')).toEqual([at80, at100]);
    expect(
      within(card).getByText(
        'Hvussu boðini koma til tín – á telefonina ella við telduposti – velur tú undir Fráboðanir.',
      ),
    ).toBeTruthy();

    await user.click(at80);
    await waitFor(() => expect(at80.checked).toBe(false));
    await user.click(at100);
    await waitFor(() => expect(at100.checked).toBe(false));
    expect(api.callsTo('PATCH /auth/me').map((c) => c.body)).toEqual([
      { usageAlerts: { at80: false } },
      { usageAlerts: { at100: false } },
    ]);
    expect(session.getState().user?.usageAlerts).toEqual({
      at80: false,
      at100: false,
      email: false,
    });
    expect(toasts.getToasts().map((t) => t.message)).toContain('Broytingin er goymd.');
  });

  it('keeps the switch as it was and says so when the save fails (e.g. offline)', async () => {
    const { user, toasts } = await setup('/min-brukari', {
      'PATCH /auth/me': () => fail(503, 'SERVICE_UNAVAILABLE'),
    });
    const at100 = screen.getByRole<HTMLInputElement>('switch', {
      name: 'Tá ið alt datað er brúkt',
    });
    await user.click(at100);
    await waitFor(() =>
      expect(
        toasts
          .getToasts()
          .map((t) => t.message)
          .join(),
      ).toMatch(/^Broytingin varð ikki goymd\. /),
    );
    expect(at100.checked).toBe(true);
  });
});

describe('profile edit (SPEC §2 profile, §5)', () => {
  it('saves names, e-mail, address, phone book and language, then shows them (SPEC §5)', async () => {
    const { user, api, router, session, i18n, toasts } = await setup('/min-brukari/broyt', {
      'PATCH /auth/me': (req) => ok({ ...demoUser, ...(req.body as Partial<User>) }),
    });
    const first = input('Fornavn');
    await user.clear(first);
    await user.type(first, 'Rannvá Maria');
    const postCode = input('Postnummar');
    await user.clear(postCode);
    await user.type(postCode, '700');
    expect(input('Bygd ella býur').value).toBe('Klaksvík');
    await user.click(screen.getByRole('switch', { name: 'Vís meg í telefonbókini' }));
    await user.click(screen.getByRole('radio', { name: 'English' }));
    await user.click(screen.getByRole('button', { name: 'Goym broytingar' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/min-brukari'));
    expect(api.callsTo('PATCH /auth/me')[0]?.body).toEqual({
      firstname: 'Rannvá Maria',
      lastname: 'Joensen',
      email: 'rannva@example.fo',
      address: 'Niels Finsens gøta 7',
      postCode: '700',
      city: 'Klaksvík',
      locale: 'en',
      showInPhoneBook: true,
    });
    expect(session.getState().user).toMatchObject({ firstname: 'Rannvá Maria', city: 'Klaksvík' });
    // The chosen language is the app's language from now on.
    expect(i18n.language).toBe('en');
    expect(await screen.findByText('700 Klaksvík')).toBeTruthy();
    expect(screen.getByText('Your number is in the phone book')).toBeTruthy();
    expect(toasts.getToasts().map((t) => t.message)).toContain('Your details have been saved.');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('checks the fields as they are typed (SPEC §5)', async () => {
    const { user, api } = await setup('/min-brukari/broyt', {}, { locale: 'en' });
    await user.clear(input('First name'));
    expect(await screen.findByText('This is a required field')).toBeTruthy();
    await user.type(input('Email'), '@@');
    expect(await screen.findByText('Enter a valid email address.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(api.callsTo('PATCH /auth/me')).toHaveLength(0);
  });

  it.each([
    ['fo', 'Teldupostadressan er longu skrásett.'],
    ['en', 'The email is already registered'],
  ] as const)('%s: says under the field that the e-mail has another user', async (locale, text) => {
    const { user, router } = await setup(
      '/min-brukari/broyt',
      { 'PATCH /auth/me': () => fail(409, 'EMAIL_ALREADY_REGISTERED', 'server text') },
      { locale },
    );
    const email = input(locale === 'fo' ? 'Teldupostur' : 'Email');
    await user.clear(email);
    await user.type(email, 'jogvan@example.fo');
    await user.click(
      screen.getByRole('button', { name: locale === 'fo' ? 'Goym broytingar' : 'Save changes' }),
    );
    expect(await screen.findByText(text)).toBeTruthy();
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(email.value).toBe('jogvan@example.fo');
    expect(router.state.location.pathname).toBe('/min-brukari/broyt');
  });

  it('marks the fields of a refused save (VALIDATION_FAILED issues)', async () => {
    const { user } = await setup('/min-brukari/broyt', {
      'PATCH /auth/me': () =>
        json(400, {
          error: {
            code: 'VALIDATION_FAILED',
            message: 'x',
            issues: [{ path: 'address', key: 'TOO_LONG', message: 'x' }],
          },
        }),
    });
    await user.type(input('Bústaður'), ' B');
    await user.click(screen.getByRole('button', { name: 'Goym broytingar' }));
    expect(await screen.findByText('Hetta er ov langt.')).toBeTruthy();
  });

  it('shows other failures and keeps what was typed', async () => {
    const { user } = await setup('/min-brukari/broyt', {
      'PATCH /auth/me': () => fail(500, 'INTERNAL'),
    });
    await user.type(input('Eftirnavn'), '-Hansen');
    await user.click(screen.getByRole('button', { name: 'Goym broytingar' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Ein villa hendi');
    expect(input('Eftirnavn').value).toBe('Joensen-Hansen');
  });

  it('issue 16.4: offline, saving says it needs a connection at once, sends nothing and keeps what was typed', async () => {
    const { user, api } = await setup('/min-brukari/broyt', {
      'PATCH /auth/me': (req) => ok({ ...demoUser, ...(req.body as Partial<User>) }),
    });
    await user.type(input('Eftirnavn'), '-Hansen');
    connection.set(false);
    await user.click(screen.getByRole('button', { name: 'Goym broytingar' }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Hetta krevur samband við internetið.',
    );
    expect(api.callsTo('PATCH /auth/me')).toEqual([]);
    expect(input('Eftirnavn').value).toBe('Joensen-Hansen');

    // Back online, nothing that was tried offline arrives by itself.
    connection.set(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(api.callsTo('PATCH /auth/me')).toEqual([]);
  });

  it('asks before leaving with unsaved changes (SPEC §5)', async () => {
    const { user, router } = await setup('/min-brukari/broyt');
    await user.type(input('Eftirnavn'), 'x');
    await user.click(screen.getByRole('button', { name: 'Aftur' }));
    await user.click(await screen.findByRole('button', { name: 'Far frá síðuni' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/min-brukari'));
  });
});

describe('change password', () => {
  it('says under the field when the current password is wrong (CURRENT_PASSWORD_INCORRECT)', async () => {
    const { user } = await setup('/min-brukari/loyniord', {
      'POST /auth/change-password': () =>
        json(422, {
          error: {
            code: 'CURRENT_PASSWORD_INCORRECT',
            message: 'x',
            field: 'currentPassword',
          },
        }),
    });
    await user.type(input('Núverandi loyniorð'), 'Skeivt-1');
    await user.type(input('Nýtt loyniorð'), 'Nytt-Loyniord1');
    await user.type(input('Endurtak loyniorðið'), 'Nytt-Loyniord1');
    await user.click(screen.getByRole('button', { name: 'Broyt loyniorð' }));
    expect(await screen.findByText('Núverandi loyniorðið er skeivt.')).toBeTruthy();
    expect(input('Núverandi loyniorð').getAttribute('aria-invalid')).toBe('true');
  });

  it('changes the password and goes back to the profile', async () => {
    const { user, api, router, toasts } = await setup('/min-brukari/loyniord', {
      'POST /auth/change-password': () => ok({ ok: true }),
    });
    await user.type(input('Núverandi loyniorð'), 'Gamalt-1');
    await user.type(input('Nýtt loyniorð'), 'Nytt-Loyniord1');
    await user.type(input('Endurtak loyniorðið'), 'Nytt-Loyniord1');
    await user.click(screen.getByRole('button', { name: 'Broyt loyniorð' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/min-brukari'));
    expect(api.callsTo('POST /auth/change-password')[0]?.body).toEqual({
      currentPassword: 'Gamalt-1',
      password: 'Nytt-Loyniord1',
    });
    expect(toasts.getToasts().map((t) => t.message)).toContain('Loyniorðið er broytt.');
  });
});

describe('delete user (SPEC §6)', () => {
  it('asks first, and does nothing when cancelled', async () => {
    const { user, api } = await setup('/min-brukari');
    await user.click(screen.getByRole('button', { name: 'Strika brúkara' }));
    const dialog = await screen.findByRole('dialog', { name: 'Strika brúkaran?' });
    await user.click(within(dialog).getByRole('button', { name: 'Angra' }));
    expect(api.callsTo('DELETE /auth/me')).toHaveLength(0);
  });

  it.each([
    [
      'fo',
      'Strika brúkara',
      'Strika brúkaran',
      'Tú kanst ikki strika brúkaran enn',
      'Tú mást siga haldið upp, áðrenn tú kanst strika brúkaran.',
    ],
    [
      'en',
      'Delete user',
      'Delete user',
      'You cannot delete your user yet',
      'You must cancel your subscription before you can delete your user.',
    ],
  ] as const)(
    '%s: explains that an active subscription must be cancelled first (HAS_ACTIVE_SUBSCRIPTION)',
    async (locale, action, confirm, title, message) => {
      const { user, router, session } = await setup(
        '/min-brukari',
        { 'DELETE /auth/me': () => fail(409, 'HAS_ACTIVE_SUBSCRIPTION', 'server text') },
        { locale },
      );
      await user.click(screen.getByRole('button', { name: action }));
      const dialog = await screen.findByRole('dialog');
      await user.click(within(dialog).getByRole('button', { name: confirm }));
      const refusal = await screen.findByRole('dialog', { name: title });
      expect(refusal.textContent).toContain(message);
      expect(session.getState().user).not.toBeNull();
      expect(router.state.location.pathname).toBe('/min-brukari');
    },
  );

  it('deletes the user, logs out and says so', async () => {
    const { user, api, router, storage, toasts } = await setup('/min-brukari', {
      'DELETE /auth/me': () => new Response(null, { status: 204 }),
      'POST /auth/logout': () => new Response(null, { status: 204 }),
    });
    await user.click(screen.getByRole('button', { name: 'Strika brúkara' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Strika brúkaran' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/rita-inn'));
    expect(api.callsTo('DELETE /auth/me')).toHaveLength(1);
    expect(await storage.get('accessToken')).toBeNull();
    expect(toasts.getToasts().map((t) => t.message)).toContain('Brúkari tín er strikaður.');
  });
});
