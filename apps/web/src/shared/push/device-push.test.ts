import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fail, ok } from '@/test/fake-api';
import {
  defaultSettings,
  installFakeWebPush,
  SUBSCRIPTION,
  VAPID_PUBLIC_KEY,
} from '@/test/fake-web-push';
import { createTestContext } from '@/test/render';
import { overridePlatform } from '@/shared/native/platform';
import { readDeviceCapability } from './device-capability';
import {
  disablePushOnThisDevice,
  enablePushOnThisDevice,
  refreshPushOnThisDevice,
} from './device-push';

// The native plugin (outside the system): what the OS would answer, recorded.
const plugin = vi.hoisted(() => {
  const listeners = new Map<string, (event: unknown) => void>();
  return {
    listeners,
    permission: 'prompt' as string,
    answer: 'granted' as string,
    /** How often the OS's permission dialog was shown. */
    asked: 0,
    token: 'f3c1a0b2d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f',
    /** Set: the OS answers `register` with this error instead of a token. */
    registrationError: null as string | null,
    register: vi.fn(),
    unregister: vi.fn(async () => {}),
  };
});
vi.mock('@capacitor/push-notifications', () => ({
  PushNotifications: {
    checkPermissions: async () => ({ receive: plugin.permission }),
    requestPermissions: async () => {
      plugin.asked += 1;
      plugin.permission = plugin.answer;
      return { receive: plugin.answer };
    },
    addListener: async (event: string, listener: (event: unknown) => void) => {
      plugin.listeners.set(event, listener);
      return { remove: async () => void plugin.listeners.delete(event) };
    },
    register: async () => {
      plugin.register();
      // The OS answers a moment later, with the device's token (or why there is none).
      setTimeout(() => {
        if (plugin.registrationError !== null) {
          plugin.listeners.get('registrationError')?.({ error: plugin.registrationError });
        } else plugin.listeners.get('registration')?.({ value: plugin.token });
      }, 0);
    },
    unregister: plugin.unregister,
  },
}));

const registered = { platform: 'web', registeredAt: '2026-11-30T09:00:00.000Z' };

function api(handlers: Parameters<typeof createTestContext>[0] = {}) {
  return createTestContext({
    api: {
      'PUT /push/device': () => ok(registered),
      'DELETE /push/device': () => ok({ ok: true }),
      ...handlers.api,
    },
  });
}

beforeEach(() => {
  plugin.permission = 'prompt';
  plugin.answer = 'granted';
  plugin.asked = 0;
  plugin.token = 'f3c1a0b2d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f';
  plugin.registrationError = null;
  plugin.listeners.clear();
  plugin.register.mockClear();
});

describe('push on this device, web (issue 64)', () => {
  it('asks for the permission, subscribes on the service worker with the VAPID key and PUTs the subscription', async () => {
    const browser = installFakeWebPush();
    const { http, api: fake } = api();
    expect(await readDeviceCapability(VAPID_PUBLIC_KEY)).toBe('askable');

    const outcome = await enablePushOnThisDevice({ http, vapidPublicKey: VAPID_PUBLIC_KEY });

    expect(outcome).toEqual({ ok: true });
    expect(browser.requestPermission).toHaveBeenCalledTimes(1);
    const [options] = browser.subscribe.mock.calls[0] ?? [];
    expect(options?.userVisibleOnly).toBe(true);
    // The key as bytes: an uncompressed P-256 point, 65 bytes starting with 4.
    const key = options?.applicationServerKey as Uint8Array;
    expect([key.length, key[0]]).toEqual([65, 4]);
    expect(fake.callsTo('PUT /push/device').map((call) => call.body)).toEqual([
      {
        platform: 'web',
        endpoint: SUBSCRIPTION.endpoint,
        keys: { p256dh: SUBSCRIPTION.keys.p256dh, auth: SUBSCRIPTION.keys.auth },
      },
    ]);
    expect(await readDeviceCapability(VAPID_PUBLIC_KEY)).toBe('granted');
  });

  it('a refusal subscribes nothing and tells the API nothing', async () => {
    const browser = installFakeWebPush({ answer: 'denied' });
    const { http, api: fake } = api();
    expect(await enablePushOnThisDevice({ http, vapidPublicKey: VAPID_PUBLIC_KEY })).toEqual({
      ok: false,
      reason: 'refused',
    });
    expect(browser.subscribe).not.toHaveBeenCalled();
    expect(fake.requests).toEqual([]);
    expect(await readDeviceCapability(VAPID_PUBLIC_KEY)).toBe('denied');
  });

  it('is unsupported without the Push API, without the app’s service worker (dev) or without a VAPID key', async () => {
    const { http, api: fake } = api();
    expect(await readDeviceCapability(VAPID_PUBLIC_KEY)).toBe('unsupported');
    expect(await enablePushOnThisDevice({ http, vapidPublicKey: VAPID_PUBLIC_KEY })).toEqual({
      ok: false,
      reason: 'unsupported',
    });
    installFakeWebPush({ serviceWorker: false });
    expect(await readDeviceCapability(VAPID_PUBLIC_KEY)).toBe('unsupported');
    expect(await readDeviceCapability(null)).toBe('unsupported');
    expect(fake.requests).toEqual([]);
  });

  it('waits for the service worker a production build registers after the first screen', async () => {
    installFakeWebPush({ serviceWorker: 'later' });
    expect(await readDeviceCapability(VAPID_PUBLIC_KEY, { waitForWorker: false })).toBe(
      'unsupported',
    );
    expect(await readDeviceCapability(VAPID_PUBLIC_KEY, { waitForWorker: true })).toBe('askable');
  });

  it('says why when the API refuses the address, and keeps nothing else from it', async () => {
    installFakeWebPush();
    const { http } = api({ api: { 'PUT /push/device': () => fail(409, 'PUSH_NOT_AVAILABLE') } });
    const outcome = await enablePushOnThisDevice({ http, vapidPublicKey: VAPID_PUBLIC_KEY });
    expect(outcome).toMatchObject({
      ok: false,
      reason: 'failed',
      error: { code: 'PUSH_NOT_AVAILABLE' },
    });
  });

  it('off: DELETEs the address, then drops the subscription; a failed DELETE keeps it', async () => {
    const browser = installFakeWebPush({ permission: 'granted' });
    await browser.subscribe({});
    const refused = api({ api: { 'DELETE /push/device': () => fail(503, 'SERVICE_UNAVAILABLE') } });
    expect((await disablePushOnThisDevice({ http: refused.http })).ok).toBe(false);
    expect(browser.unsubscribe).not.toHaveBeenCalled();

    const { http, api: fake } = api();
    expect(await disablePushOnThisDevice({ http })).toEqual({ ok: true, data: { ok: true } });
    expect(fake.callsTo('DELETE /push/device')).toHaveLength(1);
    expect(browser.unsubscribe).toHaveBeenCalledTimes(1);
  });
});

describe('push on this device, native shell (issue 64)', () => {
  it.each([
    ['ios', 'apns'],
    ['android', 'fcm'],
  ] as const)('%s: asks the OS, registers and PUTs the %s token', async (platform, kind) => {
    overridePlatform(platform);
    const { http, api: fake } = api();
    expect(await readDeviceCapability(null)).toBe('askable');
    expect(await enablePushOnThisDevice({ http, vapidPublicKey: null })).toEqual({ ok: true });
    expect(plugin.register).toHaveBeenCalled();
    expect(fake.callsTo('PUT /push/device').map((call) => call.body)).toEqual([
      { platform: kind, token: plugin.token },
    ]);
    // The listeners of the registration are gone again.
    expect([...plugin.listeners.keys()]).toEqual([]);
    expect(await readDeviceCapability(null)).toBe('granted');
  });

  it('a refusal on the phone registers nothing', async () => {
    overridePlatform('ios');
    plugin.answer = 'denied';
    const { http, api: fake } = api();
    expect(await enablePushOnThisDevice({ http, vapidPublicKey: null })).toEqual({
      ok: false,
      reason: 'refused',
    });
    expect(fake.requests).toEqual([]);
    expect(await readDeviceCapability(null)).toBe('denied');
  });

  it('off: DELETEs the address and unregisters from the OS', async () => {
    overridePlatform('android');
    const { http, api: fake } = api();
    expect((await disablePushOnThisDevice({ http })).ok).toBe(true);
    expect(fake.callsTo('DELETE /push/device')).toHaveLength(1);
    expect(plugin.unregister).toHaveBeenCalled();
  });
});

describe('a signed-in start of the native shell hands a changed token to the server (issue 64)', () => {
  /** A token APNs or FCM handed out since the device was registered (a restored phone). */
  const NEW_TOKEN = 'a9b8c7d6e5f40312a9b8c7d6e5f40312a9b8c7d6e5f40312a9b8c7d6e5f40312';
  const settings = (thisDeviceRegistered: boolean) => ({
    'GET /notification-settings': () => ok({ ...defaultSettings, thisDeviceRegistered }),
  });

  it.each([
    ['ios', 'apns'],
    ['android', 'fcm'],
  ] as const)(
    '%s, push on: PUTs the OS’s current token as %s, without a dialog',
    async (platform, kind) => {
      overridePlatform(platform);
      plugin.permission = 'granted';
      plugin.token = NEW_TOKEN;
      const { http, api: fake } = api({ api: settings(true) });

      expect(await refreshPushOnThisDevice({ http })).toBe(true);

      expect(fake.callsTo('PUT /push/device').map((call) => call.body)).toEqual([
        { platform: kind, token: NEW_TOKEN },
      ]);
      expect(plugin.asked).toBe(0);
      expect([...plugin.listeners.keys()]).toEqual([]);
    },
  );

  it('a device whose push is off is not turned on: no permission, or no address on the server', async () => {
    overridePlatform('android');
    const notAllowed = api({ api: settings(true) });
    expect(await refreshPushOnThisDevice({ http: notAllowed.http })).toBe(false);
    // Not even asked: the OS's permission alone says no.
    expect(notAllowed.api.requests).toEqual([]);
    expect(plugin.asked).toBe(0);

    // Turned off in the app (or the push service said the address was gone): the permission is
    // still there, but the server has no address for this session.
    plugin.permission = 'granted';
    const turnedOff = api({ api: settings(false) });
    expect(await refreshPushOnThisDevice({ http: turnedOff.http })).toBe(false);
    expect(turnedOff.api.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /notification-settings',
    ]);
    expect(plugin.register).not.toHaveBeenCalled();
  });

  it('sends nothing when the OS hands over no token, and nothing on the web', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const web = api({ api: settings(true) });
    expect(await refreshPushOnThisDevice({ http: web.http })).toBe(false);
    expect(web.api.requests).toEqual([]);

    overridePlatform('ios');
    plugin.permission = 'granted';
    plugin.registrationError = 'no valid aps-environment entitlement';
    const { http, api: fake } = api({ api: settings(true) });
    expect(await refreshPushOnThisDevice({ http })).toBe(false);
    expect(fake.callsTo('PUT /push/device')).toEqual([]);
    expect(warn).toHaveBeenCalled();
  });
});
