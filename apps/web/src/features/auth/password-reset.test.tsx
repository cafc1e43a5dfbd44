import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fail, ok, type Handler } from '@/test/fake-api';
import { demoUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const tokens = { accessToken: 'a-reset', refreshToken: 'r-reset', expiresIn: 900 };

async function open(path: string, api: Record<string, Handler> = {}, locale: 'fo' | 'en' = 'fo') {
  const app = await renderApp({ initialEntries: [path], api, locale });
  await screen.findByRole('heading', { level: 2 });
  return { ...app, user: userEvent.setup() };
}

describe('forgot password (SPEC §2 forgot-password)', () => {
  it('sends the address and says a link is on its way if it is registered', async () => {
    const { user, api } = await open('/gloymt-loyniord', {
      'POST /auth/forgot-password': () => ok({ ok: true }),
    });
    await user.type(screen.getByLabelText('Teldupostur'), '  Rannva@Example.FO ');
    await user.click(screen.getByRole('button', { name: 'Send leinki' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      'Er rannva@example.fo skrásett hjá okkum, hava vit nú sent eitt leinki, har tú kanst velja eitt nýtt loyniorð. Leinkið virkar í ein tíma.',
    );
    expect(api.callsTo('POST /auth/forgot-password')[0]?.body).toEqual({
      email: 'rannva@example.fo',
    });
    expect(screen.getByRole('link', { name: 'Aftur til innritan' }).getAttribute('href')).toBe(
      '/rita-inn/vid-telduposti',
    );
  });

  it('says the same in English, whoever the address belongs to', async () => {
    const { user } = await open(
      '/gloymt-loyniord',
      { 'POST /auth/forgot-password': () => ok({ ok: true }) },
      'en',
    );
    await user.type(screen.getByLabelText('Email'), 'nobody@example.fo');
    await user.click(screen.getByRole('button', { name: 'Send link' }));
    expect((await screen.findByRole('status')).textContent).toMatch(
      /^If nobody@example\.fo is registered with us, we have sent it a link/,
    );
  });

  it('checks the address as it is typed and sends nothing until it is well formed (SPEC §5)', async () => {
    const { user, api } = await open('/gloymt-loyniord');
    await user.type(screen.getByLabelText('Teldupostur'), 'rannva@');
    expect(await screen.findByText('Skriva eina gilda teldupostadressu.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Send leinki' }));
    expect(api.callsTo('POST /auth/forgot-password')).toHaveLength(0);
  });

  it('keeps the address and explains when the request cannot be sent', async () => {
    const { user } = await open('/gloymt-loyniord', {
      'POST /auth/forgot-password': () => fail(429, 'TOO_MANY_ATTEMPTS'),
    });
    await user.type(screen.getByLabelText('Teldupostur'), 'rannva@example.fo');
    await user.click(screen.getByRole('button', { name: 'Send leinki' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Ov nógvar royndir');
    expect(screen.getByLabelText<HTMLInputElement>('Teldupostur').value).toBe('rannva@example.fo');
  });
});

describe('reset password (SPEC §2 reset-password)', () => {
  it('says the link does not work when it has no token, with a way to ask for a new one', async () => {
    await renderApp({ initialEntries: ['/nytt-loyniord'] });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'Leinkið virkar ikki' })).toBeTruthy();
    expect(
      within(alert).getByRole('link', { name: 'Bið um eitt nýtt leinki' }).getAttribute('href'),
    ).toBe('/gloymt-loyniord');
  });

  it.each([
    ['fo', 'Leinkið er ógilt ella útgingið. Bið um eitt nýtt.', 'Bið um eitt nýtt leinki'],
    ['en', 'The link is invalid or has expired. Request a new one.', 'Ask for a new link'],
  ] as const)(
    '%s: explains an invalid or expired token (TOKEN_INVALID)',
    async (locale, text, link) => {
      const { user, api } = await open(
        '/nytt-loyniord?token=used-token',
        { 'POST /auth/reset-password': () => fail(400, 'TOKEN_INVALID', 'server text') },
        locale,
      );
      const [password, repeat] = screen.getAllByLabelText(
        locale === 'fo' ? /loyniorð/i : /password/i,
        { selector: 'input' },
      );
      await user.type(password!, 'Nytt-Loyniord1');
      await user.type(repeat!, 'Nytt-Loyniord1');
      await user.click(
        screen.getByRole('button', { name: locale === 'fo' ? 'Goym loyniorðið' : 'Save password' }),
      );
      const alert = await screen.findByRole('alert');
      expect(alert.textContent).toContain(text);
      expect(within(alert).getByRole('link', { name: link }).getAttribute('href')).toBe(
        '/gloymt-loyniord',
      );
      expect(api.callsTo('POST /auth/reset-password')[0]?.body).toEqual({
        // The device it signs in from (ADR 0059).
        device: expect.objectContaining({ platform: 'web' }),
        token: 'used-token',
        password: 'Nytt-Loyniord1',
      });
    },
  );

  it('ticks off the password rules as they are met and checks the repeat (SPEC §5)', async () => {
    const { user } = await open('/nytt-loyniord?token=t-1');
    const password = screen.getByLabelText('Nýtt loyniorð');
    const rule = (name: RegExp) => screen.getByText(name).closest('li')!;
    await user.type(password, 'abc');
    expect(rule(/^ein lítlan bókstav/).getAttribute('data-met')).toBe('true');
    expect(rule(/^ein stóran bókstav/).getAttribute('data-met')).toBe('false');
    expect(rule(/^minst 8 tekn/).getAttribute('data-met')).toBe('false');
    expect(await screen.findByText(/Loyniorðið skal hava minst 8 tekn/)).toBeTruthy();
    await user.type(password, 'Defgh1!');
    expect(rule(/^ein stóran bókstav/).getAttribute('data-met')).toBe('true');
    expect(rule(/^minst 8 tekn/).getAttribute('data-met')).toBe('true');
    expect(rule(/^eitt tal ella tekn/).getAttribute('data-met')).toBe('true');

    await user.type(screen.getByLabelText('Endurtak loyniorðið'), 'abcDefgh1');
    expect(await screen.findByText('Loyniorðini eru ikki eins.')).toBeTruthy();
    // Correcting the password clears the repeat's message too.
    await user.type(password, '{Backspace}');
    await waitFor(() => expect(screen.queryByText('Loyniorðini eru ikki eins.')).toBeNull());
  });

  it('signs in with the new password and goes home (SPEC §4 "Session")', async () => {
    const { user, router, storage, toasts } = await open('/nytt-loyniord?token=good-token', {
      'POST /auth/reset-password': () => ok(tokens),
      'GET /auth/me': () => ok(demoUser),
    });
    await user.type(screen.getByLabelText('Nýtt loyniorð'), 'Nytt-Loyniord1');
    await user.type(screen.getByLabelText('Endurtak loyniorðið'), 'Nytt-Loyniord1');
    await user.click(screen.getByRole('button', { name: 'Goym loyniorðið' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(await storage.get('accessToken')).toBe('a-reset');
    expect(toasts.getToasts().map((t) => t.message)).toContain('Loyniorðið er broytt.');
  });
});
