/**
 * Turns pushes on and off on this device (issue 64, ADR 0096). Loaded by `import()` only when the
 * customer turns push on or off (use-device-push.ts), and in the native shell at a signed-in start
 * to hand over a changed token (push-links.ts): the first screens never carry it, nor
 * the native push plugin it brings.
 *
 * On: the permission is asked for (the browser's or the phone's dialog), then the device's push
 * address is made — a browser's PushSubscription on the app's service worker with the server's
 * VAPID key, or the APNs / FCM token of the native shell — and bound to this session with
 * PUT /api/push/device. Off: DELETE /api/push/device, then the address is dropped on the device.
 */
import type { OkResponse } from '@alda/contract/schemas/common';
import { notificationSettings, type PushDeviceRegistration } from '@alda/contract/schemas/push';
import type { ApiError, HttpClient, Result } from '@/shared/api/http';
import { getPlatform, type Platform } from '@/shared/native/platform';
import {
  nativePushPermission,
  registerNativePush,
  requestNativePushPermission,
  unregisterNativePush,
} from '@/shared/native/push-notifications';
import { browserPushApi } from './device-capability';
import { registerPushDevice, removePushDevice } from './notification-settings-api';

/**
 * How turning push on went: on; `refused` — the customer did not allow notifications (or had
 * blocked them); `unsupported` — no push here after all; `failed` — the push service or the API
 * said no (`error` says why).
 */
export type EnableOutcome =
  | { ok: true }
  | { ok: false; reason: 'refused' }
  | { ok: false; reason: 'unsupported' }
  | { ok: false; reason: 'failed'; error: ApiError };

/** What the web path uses of the browser (tests give fakes). */
export interface BrowserPush {
  serviceWorker: Pick<ServiceWorkerContainer, 'ready' | 'getRegistration'>;
  notification: Pick<typeof Notification, 'permission' | 'requestPermission'>;
}

/** What turning push on or off uses; the platform and the browser default to this device's. */
export interface DevicePushDeps {
  http: HttpClient;
  /** The platform: the browser's push on 'web', the native plugin's otherwise. */
  platform?: Platform;
  /** The browser's Push API; null where there is none. */
  browser?: BrowserPush | null;
  /** How long to wait for the service worker to be active before giving up. */
  readyTimeoutMs?: number;
}

/** A failure of the device (not the API), as the screens show errors. */
const deviceError = (message = ''): ApiError => ({ code: 'UNKNOWN', message, status: 0 });

/** The VAPID key (base64url, as the API gives it) as the bytes `subscribe` takes. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64.padEnd(Math.ceil(base64.length / 4) * 4, '=');
  return Uint8Array.from(atob(padded), (char) => char.charCodeAt(0));
}

/** The service worker's registration once it is active, or null when it does not get there. */
function activeWorker(
  serviceWorker: BrowserPush['serviceWorker'],
  timeoutMs: number,
): Promise<ServiceWorkerRegistration | null> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), timeoutMs);
    serviceWorker.ready.then(
      (registration) => {
        clearTimeout(timer);
        resolve(registration);
      },
      () => {
        clearTimeout(timer);
        resolve(null);
      },
    );
  });
}

/**
 * A subscription with the server's key. A subscription kept from before with another key (the
 * server's key was changed) is dropped and made again: `subscribe` refuses a second key.
 */
async function subscribe(
  pushManager: PushManager,
  applicationServerKey: Uint8Array<ArrayBuffer>,
): Promise<PushSubscription> {
  const options = { userVisibleOnly: true, applicationServerKey };
  try {
    return await pushManager.subscribe(options);
  } catch (error) {
    if (!(error instanceof DOMException) || error.name !== 'InvalidStateError') throw error;
    await (await pushManager.getSubscription())?.unsubscribe();
    return pushManager.subscribe(options);
  }
}

async function webAddress(
  browser: BrowserPush,
  vapidPublicKey: string,
  timeoutMs: number,
): Promise<PushDeviceRegistration | Exclude<EnableOutcome, { ok: true }>> {
  // The browser's dialog only when it has not been answered (a granted one would not show).
  const permission =
    browser.notification.permission === 'granted'
      ? 'granted'
      : await browser.notification.requestPermission();
  if (permission !== 'granted') return { ok: false, reason: 'refused' };
  const registration = await activeWorker(browser.serviceWorker, timeoutMs);
  if (!registration) return { ok: false, reason: 'unsupported' };
  let subscription: PushSubscription;
  try {
    subscription = await subscribe(registration.pushManager, keyBytes(vapidPublicKey));
  } catch (error) {
    if (error instanceof DOMException && error.name === 'NotAllowedError')
      return { ok: false, reason: 'refused' };
    return { ok: false, reason: 'failed', error: deviceError() };
  }
  const { endpoint, keys } = subscription.toJSON();
  if (!endpoint || !keys?.p256dh || !keys.auth)
    return { ok: false, reason: 'failed', error: deviceError() };
  return { platform: 'web', endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } };
}

/** The push service of a native platform: APNs for iOS, FCM for Android. */
const nativePlatformOf = (platform: Exclude<Platform, 'web'>) =>
  platform === 'ios' ? ('apns' as const) : ('fcm' as const);

async function nativeAddress(
  platform: Exclude<Platform, 'web'>,
): Promise<PushDeviceRegistration | Exclude<EnableOutcome, { ok: true }>> {
  if ((await requestNativePushPermission()) !== 'granted') return { ok: false, reason: 'refused' };
  let token: string;
  try {
    token = await registerNativePush();
  } catch {
    return { ok: false, reason: 'failed', error: deviceError() };
  }
  return { platform: nativePlatformOf(platform), token };
}

/**
 * Turns pushes on for this device: asks for the permission, makes the push address and binds it
 * to this session (PUT /api/push/device). `vapidPublicKey` is the server's (GET
 * /api/notification-settings); without it a browser cannot subscribe.
 */
export async function enablePushOnThisDevice({
  http,
  vapidPublicKey,
  platform = getPlatform(),
  browser = browserPushApi(),
  readyTimeoutMs = 10_000,
}: DevicePushDeps & { vapidPublicKey: string | null }): Promise<EnableOutcome> {
  let address: PushDeviceRegistration | Exclude<EnableOutcome, { ok: true }>;
  if (platform !== 'web') address = await nativeAddress(platform);
  else if (!browser || vapidPublicKey === null) return { ok: false, reason: 'unsupported' };
  else address = await webAddress(browser, vapidPublicKey, readyTimeoutMs);
  if ('ok' in address) return address;
  const bound = await registerPushDevice(http, address);
  return bound.ok ? { ok: true } : { ok: false, reason: 'failed', error: bound.error };
}

/**
 * Turns pushes off for this device: DELETE /api/push/device, then the browser's subscription or
 * the native registration is dropped too (best effort: the server no longer sends to it). A
 * failed DELETE leaves everything as it was.
 */
export async function disablePushOnThisDevice({
  http,
  platform = getPlatform(),
  browser = browserPushApi(),
}: DevicePushDeps): Promise<Result<OkResponse>> {
  const removed = await removePushDevice(http);
  if (!removed.ok) return removed;
  try {
    if (platform !== 'web') await unregisterNativePush();
    else {
      const registration = await browser?.serviceWorker.getRegistration();
      await (await registration?.pushManager.getSubscription())?.unsubscribe();
    }
  } catch (error) {
    console.warn('The push address was not dropped on this device', error);
  }
  return removed;
}

/**
 * Hands the native shell's current push token to the server at a signed-in start: APNs and FCM
 * may give the app a new one (a restored phone, an FCM rotation), and pushes to the old one are
 * lost. Only for a device that receives pushes: the OS's permission is granted and the server has
 * an address for this session (`thisDeviceRegistered`). A customer who turned push off here, or
 * whose address the push service reported gone, is not turned on again behind their back.
 * PUT /api/push/device keeps the address when it is the same and replaces it when it changed.
 * Asks nothing (no dialog) and does nothing on the web. Resolves with whether the token went
 * over; a failure is logged, and the next start tries again.
 */
export async function refreshPushOnThisDevice({
  http,
  platform = getPlatform(),
}: Pick<DevicePushDeps, 'http' | 'platform'>): Promise<boolean> {
  if (platform === 'web' || (await nativePushPermission()) !== 'granted') return false;
  const settings = await http.get('/notification-settings', notificationSettings);
  if (!settings.ok || !settings.data.thisDeviceRegistered) return false;
  let token: string;
  try {
    token = await registerNativePush();
  } catch (error) {
    console.warn('No push token from the OS at start', error);
    return false;
  }
  const bound = await registerPushDevice(http, { platform: nativePlatformOf(platform), token });
  if (!bound.ok) console.warn('The push token was not handed over', bound.error);
  return bound.ok;
}
