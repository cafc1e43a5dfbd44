import { describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { NotificationItem } from '@alda/contract/schemas/notifications';
import type { NotificationSettings } from '@alda/contract/schemas/push';
import { ok, type Handler } from '@/test/fake-api';
import { defaultSettings, installFakeWebPush } from '@/test/fake-web-push';
import { demoUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const notice = (id: string, type: NotificationItem['type'], title: string): NotificationItem => ({
  id,
  type,
  title,
  body: 'Tekstur',
  createdAt: '2026-11-20T10:00:00.000Z',
  readAt: null,
  link: null,
});
const usageAlert = notice('n-2', 'usage_alert', '80 % av datanum er brúkt');
const dataReceived = notice('n-1', 'data_received', 'Tú fekst 1 GB');

/** The notifications screen with these notifications and these settings. */
async function open(
  items: NotificationItem[],
  settings: NotificationSettings = defaultSettings,
  api: Record<string, Handler> = {},
) {
  const app = await renderApp({
    user: demoUser,
    initialEntries: ['/frabodanir'],
    api: {
      'GET /data-transfers': () => ok([]),
      'GET /notifications': () =>
        ok({ totalUnread: items.length, items, page: 0, perPage: 15, total: items.length }),
      'GET /notification-settings': () => ok(settings),
      'PUT /push/device': () => ok({ platform: 'web', registeredAt: '2026-11-30T09:00:00.000Z' }),
      ...api,
    },
  });
  await screen.findByText(items[0]?.title ?? '');
  return { ...app, user: userEvent.setup() };
}

const offer = () => screen.queryByRole('region', { name: 'Fá boð beinleiðis á telefonina?' });

describe('the offer to turn push on (issue 64: asked at the right moment, not at first open)', () => {
  it('is not made before the first usage alert, and nothing is asked of the API for it', async () => {
    installFakeWebPush();
    const app = await open([dataReceived]);
    // Give an offer the time it would take to show.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(offer()).toBeNull();
    expect(app.api.callsTo('GET /notification-settings')).toEqual([]);
  });

  it('is made after a usage alert, and "Set á" asks for the permission and registers this device', async () => {
    const browser = installFakeWebPush();
    const app = await open([usageAlert, dataReceived]);
    const card = await screen.findByRole('region', { name: 'Fá boð beinleiðis á telefonina?' });
    // Shown, not asked: the browser's dialog comes only with the customer's "yes".
    expect(browser.requestPermission).not.toHaveBeenCalled();

    await app.user.click(within(card).getByRole('button', { name: 'Set á' }));
    await waitFor(() => expect(offer()).toBeNull());
    expect(browser.requestPermission).toHaveBeenCalledTimes(1);
    expect(app.api.callsTo('PUT /push/device')).toHaveLength(1);
    expect(app.toasts.getToasts().map((t) => t.message)).toContain(
      'Boð koma nú beinleiðis á hesa eindina.',
    );
  });

  it('"Ikki nú" puts it away on this device, also the next time the screen opens', async () => {
    installFakeWebPush();
    const app = await open([usageAlert]);
    const card = await screen.findByRole('region', { name: 'Fá boð beinleiðis á telefonina?' });
    await app.user.click(within(card).getByRole('button', { name: 'Ikki nú' }));
    expect(offer()).toBeNull();

    cleanup();
    await open([usageAlert]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(offer()).toBeNull();
  });

  it('a refusal in the browser is taken as "not now": said once, not offered again', async () => {
    installFakeWebPush({ answer: 'default' });
    const app = await open([usageAlert]);
    const card = await screen.findByRole('region', { name: 'Fá boð beinleiðis á telefonina?' });
    await app.user.click(within(card).getByRole('button', { name: 'Set á' }));
    await waitFor(() => expect(offer()).toBeNull());
    expect(app.toasts.getToasts().map((t) => t.message)).toContain(
      'Tú gav ikki loyvi til fráboðanir, so boð koma ikki á hesa eindina.',
    );
    expect(app.api.callsTo('PUT /push/device')).toEqual([]);
  });

  it.each([
    ['this device already has push', () => installFakeWebPush({ permission: 'granted' }), true],
    ['the browser blocks notifications', () => installFakeWebPush({ permission: 'denied' }), false],
    ['this browser cannot have pushes', () => undefined, false],
  ])('is not made when %s', async (_when, install, registered) => {
    install();
    const app = await open([usageAlert], { ...defaultSettings, thisDeviceRegistered: registered });
    await waitFor(() => expect(app.api.callsTo('GET /notification-settings')).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(offer()).toBeNull();
  });
});
