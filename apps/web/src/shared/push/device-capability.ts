import { isNativePlatform } from '@/shared/native/platform';

/**
 * What this device can do about pushes (issue 64), before anything is asked:
 * - `unsupported`: no push here — a browser without the Push API or a service worker (the dev
 *   server has none), or web push is off on the server (no VAPID key);
 * - `denied`: the customer refused the permission; only the browser's or phone's settings can
 *   change that, an app cannot ask again;
 * - `askable`: the permission can still be asked for;
 * - `granted`: the permission is there.
 */
export type DeviceCapability = 'unsupported' | 'denied' | 'askable' | 'granted';

/** The browser's Push API, when this browser has one (and a service worker to receive with). */
export function browserPushApi(): {
  serviceWorker: ServiceWorkerContainer;
  notification: typeof Notification;
} | null {
  if (typeof window === 'undefined' || typeof navigator === 'undefined') return null;
  const serviceWorker = navigator.serviceWorker as ServiceWorkerContainer | undefined;
  if (!serviceWorker || typeof window.PushManager !== 'function') return null;
  if (typeof window.Notification !== 'function') return null;
  return { serviceWorker, notification: window.Notification };
}

/** How long a production build waits for its service worker, registered after the first screen. */
const WORKER_WAIT_MS = 5_000;

/**
 * The app's service worker registration. A production build registers it once the first screen
 * is up (app/service-worker.ts), so a screen opened first may ask before it is there: then it is
 * waited for, a while. Development has none and never will: not waited for.
 */
async function appWorker(
  serviceWorker: ServiceWorkerContainer,
  waitForIt: boolean,
): Promise<ServiceWorkerRegistration | undefined> {
  const registration = await serviceWorker.getRegistration();
  if (registration || !waitForIt) return registration;
  return Promise.race([
    serviceWorker.ready,
    new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), WORKER_WAIT_MS)),
  ]);
}

/**
 * Reads {@link DeviceCapability} without asking anything. Web: the Push API, this app's service
 * worker (registered by the production build only) and the server's VAPID key, then the
 * notification permission. Native: the OS's permission (the plugin's wrapper loads here, by
 * `import()`, so the web never downloads it).
 */
export async function readDeviceCapability(
  vapidPublicKey: string | null,
  { waitForWorker = import.meta.env.PROD }: { waitForWorker?: boolean } = {},
): Promise<DeviceCapability> {
  if (isNativePlatform()) {
    const { nativePushPermission } = await import('@/shared/native/push-notifications');
    const permission = await nativePushPermission();
    return permission === 'granted' ? 'granted' : permission === 'denied' ? 'denied' : 'askable';
  }
  const api = browserPushApi();
  if (!api || vapidPublicKey === null) return 'unsupported';
  if (!(await appWorker(api.serviceWorker, waitForWorker))) return 'unsupported';
  const permission = api.notification.permission;
  return permission === 'granted' ? 'granted' : permission === 'denied' ? 'denied' : 'askable';
}
