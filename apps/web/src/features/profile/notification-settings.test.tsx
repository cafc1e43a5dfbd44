import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { NotificationSettings, NotificationSettingsUpdate } from '@alda/contract/schemas/push';
import { fail, ok, type Handler } from '@/test/fake-api';
import { defaultSettings, installFakeWebPush, SUBSCRIPTION } from '@/test/fake-web-push';
import { demoUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';

/** The profile with an API that keeps what is saved, as the real one does. */
async function open(
  settings: NotificationSettings = defaultSettings,
  api: Record<string, Handler> = {},
  locale: 'fo' | 'en' = 'fo',
) {
  let saved = structuredClone(settings);
  const app = await renderApp({
    user: demoUser,
    initialEntries: ['/min-brukari'],
    locale,
    api: {
      'GET /notification-settings': () => ok(saved),
      'PATCH /notification-settings': (request) => {
        const update = request.body as NotificationSettingsUpdate;
        for (const { kind, channel, on } of update.channels ?? []) {
          const cell = saved.kinds.find((entry) => entry.kind === kind)?.[channel];
          if (cell) cell.on = on;
        }
        if (update.quietHours) saved = { ...saved, quietHours: update.quietHours };
        return ok(saved);
      },
      'PUT /push/device': () => {
        saved = { ...saved, thisDeviceRegistered: true, devices: saved.devices + 1 };
        return ok({ platform: 'web', registeredAt: '2026-11-30T09:00:00.000Z' });
      },
      'DELETE /push/device': () => {
        saved = { ...saved, thisDeviceRegistered: false, devices: saved.devices - 1 };
        return ok({ ok: true });
      },
      ...api,
    },
  });
  const card = await screen.findByRole('group', {
    name: locale === 'fo' ? 'Fráboðanir' : 'Notifications',
  });
  await within(card).findByRole('group', { name: locale === 'fo' ? 'Datanýtsla' : 'Data use' });
  return { ...app, card, user: userEvent.setup() };
}

const kind = (card: HTMLElement, name: string) => within(card).getByRole('group', { name });
const toggle = (group: HTMLElement, name: string) =>
  within(group).getByRole<HTMLInputElement>('switch', { name });
const toastTexts = (toasts: { getToasts(): readonly { message: string }[] }) =>
  toasts.getToasts().map((t) => t.message);

describe('profile: notification settings (issue 64)', () => {
  it("shows every kind in the contract's order with a switch per channel it has, and nothing for one it has not", async () => {
    // The server's order does not matter.
    const { card } = await open({
      ...defaultSettings,
      kinds: [...defaultSettings.kinds].reverse(),
    });
    const groups = within(card)
      .getAllByRole('group')
      .map((group) => group.querySelector('h3')?.textContent);
    expect(groups).toEqual([
      'Á hesi eindini',
      'Datanýtsla',
      'Útreiðsluloft uttanlands',
      'Familjan',
      'Gjøld',
      'Bíleggingar',
      'Svar frá okkum',
      'Trygd',
      'Áríðandi boð',
    ]);
    const channels = (name: string) =>
      within(kind(card, name))
        .getAllByRole<HTMLInputElement>('switch')
        .map((s) => [s.labels?.[0]?.textContent, s.checked]);
    expect(channels('Datanýtsla')).toEqual([
      ['Á telefonina', true],
      ['Teldupostur', false],
    ]);
    expect(channels('Útreiðsluloft uttanlands')).toEqual([['Á telefonina', true]]);
    expect(channels('Svar frá okkum')).toEqual([
      ['Á telefonina', true],
      ['Teldupostur', true],
      ['SMS', true],
    ]);
    expect(
      within(kind(card, 'Datanýtsla')).getByText(
        'Tá ið 80 % og 100 % av datanum í mánaðinum er brúkt – heima og í ES.',
      ),
    ).toBeTruthy();
  });

  it('shows the security push as always on: it cannot be switched off', async () => {
    const { card, api, user } = await open();
    const security = kind(card, 'Trygd');
    const push = toggle(security, 'Á telefonina');
    expect(push.checked).toBe(true);
    expect(push.disabled).toBe(true);
    expect(within(security).getAllByText('Verður altíð sent')).toHaveLength(2);
    await user.click(push);
    expect(push.checked).toBe(true);
    expect(api.callsTo('PATCH /notification-settings')).toEqual([]);
    // The e-mail of a payment is always sent too; its push is the customer's choice.
    expect(toggle(kind(card, 'Gjøld'), 'Teldupostur').disabled).toBe(true);
    expect(toggle(kind(card, 'Gjøld'), 'Á telefonina').disabled).toBe(false);
  });

  it('saves a switch at once and shows the saved state', async () => {
    const { card, api, user, toasts } = await open();
    const email = toggle(kind(card, 'Datanýtsla'), 'Teldupostur');
    await user.click(email);
    await waitFor(() => expect(email.checked).toBe(true));
    const push = toggle(kind(card, 'Familjan'), 'Á telefonina');
    await user.click(push);
    await waitFor(() => expect(push.checked).toBe(false));
    expect(api.callsTo('PATCH /notification-settings').map((call) => call.body)).toEqual([
      { channels: [{ kind: 'usage', channel: 'email', on: true }] },
      { channels: [{ kind: 'family', channel: 'push', on: false }] },
    ]);
    expect(toastTexts(toasts)).toContain('Broytingin er goymd.');
  });

  it('a failed save leaves the switch as it was and says why', async () => {
    const { card, user, toasts } = await open(defaultSettings, {
      'PATCH /notification-settings': () => fail(503, 'SERVICE_UNAVAILABLE'),
    });
    const orders = toggle(kind(card, 'Bíleggingar'), 'Á telefonina');
    await user.click(orders);
    await waitFor(() =>
      expect(toastTexts(toasts).join()).toMatch(/^Broytingin varð ikki goymd\. \S/),
    );
    expect(orders.checked).toBe(true);
    expect(orders.disabled).toBe(false);
  });

  it('saves quiet hours: on or off at once, the times with their button, never from and to the same', async () => {
    const { card, api, user, toasts } = await open();
    const quiet = within(card).getByRole<HTMLInputElement>('switch', { name: 'Kvirrir tímar' });
    expect(quiet.checked).toBe(true);
    const from = within(card).getByLabelText<HTMLInputElement>('Frá kl.');
    const to = within(card).getByLabelText<HTMLInputElement>('Til kl.');
    expect([from.value, to.value]).toEqual(['22:00', '08:00']);
    expect(within(card).getByText('Tíðirnar eru føroysk tíð.')).toBeTruthy();
    // Nothing to save until a time changes.
    expect(within(card).queryByRole('button', { name: 'Goym tíðirnar' })).toBeNull();

    await user.clear(from);
    await user.type(from, '08:00');
    expect(within(card).getByText('Frá og til kunnu ikki vera sama klokkutíð.')).toBeTruthy();
    expect(
      within(card).getByRole<HTMLButtonElement>('button', { name: 'Goym tíðirnar' }).disabled,
    ).toBe(true);
    await user.clear(from);
    await user.type(from, '23:30');
    await user.clear(to);
    await user.type(to, '07:00');
    await user.click(within(card).getByRole('button', { name: 'Goym tíðirnar' }));
    await waitFor(() =>
      expect(within(card).queryByRole('button', { name: 'Goym tíðirnar' })).toBeNull(),
    );
    expect(within(card).getByLabelText<HTMLInputElement>('Frá kl.').value).toBe('23:30');
    expect(within(card).getByLabelText<HTMLInputElement>('Til kl.').value).toBe('07:00');

    await user.click(quiet);
    await waitFor(() => expect(quiet.checked).toBe(false));
    expect(within(card).queryByLabelText('Frá kl.')).toBeNull();
    expect(api.callsTo('PATCH /notification-settings').map((call) => call.body)).toEqual([
      { quietHours: { on: true, from: 23 * 60 + 30, to: 7 * 60 } },
      { quietHours: { on: false, from: 23 * 60 + 30, to: 7 * 60 } },
    ]);
    expect(toastTexts(toasts)).toContain('Broytingin er goymd.');
  });

  it('says when this browser cannot have pushes (no service worker, no Push API), with nothing to press', async () => {
    const { card } = await open();
    const device = within(card).getByRole('group', { name: 'Á hesi eindini' });
    expect(
      await within(device).findByText(
        'Hesin kagin kann ikki taka ímóti boðum frá okkum. Brúka appina á telefonini ella ein annan kaga.',
      ),
    ).toBeTruthy();
    expect(within(device).queryByRole('button')).toBeNull();
  });

  it('turning a push switch on asks for the permission then, registers this device and saves', async () => {
    const browser = installFakeWebPush({ answer: 'granted' });
    const off = structuredClone(defaultSettings);
    off.kinds[0]!.push!.on = false;
    const { card, api, user, toasts } = await open(off);
    const device = within(card).getByRole('group', { name: 'Á hesi eindini' });
    await within(device).findByText('Boð koma ikki á hesa eindina.');
    // Nothing is asked before the customer turns something on.
    expect(browser.requestPermission).not.toHaveBeenCalled();

    const push = toggle(kind(card, 'Datanýtsla'), 'Á telefonina');
    await user.click(push);
    await waitFor(() => expect(push.checked).toBe(true));
    expect(browser.requestPermission).toHaveBeenCalledTimes(1);
    expect(api.callsTo('PUT /push/device').map((call) => call.body)).toEqual([
      { platform: 'web', ...SUBSCRIPTION },
    ]);
    expect(api.callsTo('PATCH /notification-settings').map((call) => call.body)).toEqual([
      { channels: [{ kind: 'usage', channel: 'push', on: true }] },
    ]);
    expect(await within(device).findByText('Boð koma beinleiðis á hesa eindina.')).toBeTruthy();
    expect(within(device).getByText('1 eind hjá tær fær boð.')).toBeTruthy();
    expect(toastTexts(toasts)).toContain('Broytingin er goymd.');
  });

  it('a refused permission says so and leaves the push switch off', async () => {
    const browser = installFakeWebPush({ answer: 'denied' });
    const off = structuredClone(defaultSettings);
    off.kinds[0]!.push!.on = false;
    const { card, api, user, toasts } = await open(off);
    const device = within(card).getByRole('group', { name: 'Á hesi eindini' });
    await within(device).findByRole('button', { name: 'Set á' });

    const push = toggle(kind(card, 'Datanýtsla'), 'Á telefonina');
    await user.click(push);
    await waitFor(() =>
      expect(toastTexts(toasts)).toContain(
        'Tú gav ikki loyvi til fráboðanir, so boð koma ikki á hesa eindina.',
      ),
    );
    expect(push.checked).toBe(false);
    expect(browser.subscribe).not.toHaveBeenCalled();
    expect(api.callsTo('PUT /push/device')).toEqual([]);
    expect(api.callsTo('PATCH /notification-settings')).toEqual([]);
    // Blocked now: only the browser's settings can allow it, and the card says how.
    expect(await within(device).findByText(/Kagin forðar fyri boðum frá okkum\./)).toBeTruthy();
    expect(within(device).queryByRole('button')).toBeNull();
  });

  it('turns push on this device off and on again with its button', async () => {
    const browser = installFakeWebPush({ permission: 'granted' });
    const { card, api, user, toasts } = await open({
      ...defaultSettings,
      thisDeviceRegistered: true,
      devices: 2,
    });
    const device = within(card).getByRole('group', { name: 'Á hesi eindini' });
    expect(await within(device).findByText('Boð koma beinleiðis á hesa eindina.')).toBeTruthy();
    expect(within(device).getByText('2 eindir hjá tær fáa boð.')).toBeTruthy();
    // The browser already has a subscription from before.
    await browser.subscribe({});

    await user.click(within(device).getByRole('button', { name: 'Slá frá' }));
    expect(await within(device).findByText('Boð koma ikki á hesa eindina.')).toBeTruthy();
    expect(api.callsTo('DELETE /push/device')).toHaveLength(1);
    expect(browser.unsubscribe).toHaveBeenCalledTimes(1);
    expect(toastTexts(toasts)).toContain('Boð koma ikki longur á hesa eindina.');

    await user.click(within(device).getByRole('button', { name: 'Set á' }));
    expect(await within(device).findByText('Boð koma beinleiðis á hesa eindina.')).toBeTruthy();
    expect(api.callsTo('PUT /push/device')).toHaveLength(1);
    // Already allowed: nothing was asked.
    expect(browser.requestPermission).not.toHaveBeenCalled();
  });

  it('a failed load says so and loads again on retry', async () => {
    let calls = 0;
    await renderApp({
      user: demoUser,
      initialEntries: ['/min-brukari'],
      locale: 'en',
      api: {
        'GET /notification-settings': () =>
          ++calls === 1 ? fail(500, 'INTERNAL') : ok(defaultSettings),
      },
    });
    const card = await screen.findByRole('group', { name: 'Notifications' });
    expect(
      await within(card).findByText('We could not load your notification settings.'),
    ).toBeTruthy();
    await userEvent.click(within(card).getByRole('button', { name: 'Try again' }));
    expect(await within(card).findByRole('group', { name: 'Data use' })).toBeTruthy();
    expect(within(kind(card, 'Security')).getAllByText('Always sent')).toHaveLength(2);
  });
});
