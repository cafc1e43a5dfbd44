import type { PluginListenerHandle } from '@capacitor/core';
import { PushNotifications } from '@capacitor/push-notifications';
import { isNativePlatform } from './platform';

/*
 * The native shell's push (issue 64, ADR 0096), on @capacitor/push-notifications: APNs on iOS,
 * FCM on Android. The plugin has no web implementation, so every function here does nothing on the
 * web (the browser's push is shared/push/device-push.ts). Imported only by `import()`, from the
 * push code that loads when it is used (shared/push/), never by the first screens.
 */

/** The OS's permission to show this app's notifications; 'prompt' while it has not asked. */
export type NativePushPermission = 'granted' | 'denied' | 'prompt';

const permissionOf = (receive: string): NativePushPermission =>
  receive === 'granted' ? 'granted' : receive === 'denied' ? 'denied' : 'prompt';

/** The permission as it is, without asking. Web: 'denied' (no native push there). */
export async function nativePushPermission(): Promise<NativePushPermission> {
  if (!isNativePlatform()) return 'denied';
  return permissionOf((await PushNotifications.checkPermissions()).receive);
}

/**
 * Asks the OS for the permission (its dialog shows once; after a refusal only the phone's
 * settings can change it). Web: 'denied'.
 */
export async function requestNativePushPermission(): Promise<NativePushPermission> {
  if (!isNativePlatform()) return 'denied';
  return permissionOf((await PushNotifications.requestPermissions()).receive);
}

/** How long the OS may take to hand over the token before registering counts as failed. */
const REGISTER_TIMEOUT_MS = 20_000;

/**
 * Registers the app with APNs / FCM and resolves with the device's token (the plugin's
 * `registration` event), or rejects with its `registrationError` — or when no answer comes in
 * time (a build without push set up answers nothing). Web: rejects.
 */
export async function registerNativePush(timeoutMs = REGISTER_TIMEOUT_MS): Promise<string> {
  if (!isNativePlatform()) throw new Error('No native push on the web');
  const handles: Promise<PluginListenerHandle>[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await new Promise<string>((resolve, reject) => {
      timer = setTimeout(() => reject(new Error('No push token from the OS')), timeoutMs);
      handles.push(
        PushNotifications.addListener('registration', (token) => resolve(token.value)),
        PushNotifications.addListener('registrationError', (error) =>
          reject(new Error(error.error)),
        ),
      );
      PushNotifications.register().catch(reject);
    });
  } finally {
    clearTimeout(timer);
    for (const handle of handles) void handle.then((h) => h.remove()).catch(() => {});
  }
}

/** Unregisters the app from APNs / FCM: the OS stops handing it pushes. Web: nothing. */
export async function unregisterNativePush(): Promise<void> {
  if (isNativePlatform()) await PushNotifications.unregister();
}

/**
 * Runs `callback(link)` when the customer taps one of the app's notifications (`link`: the app
 * path its data carries, or null). The plugin keeps a tap that launched the app until a listener
 * is added, so a tap from a closed app arrives too. Web: nothing.
 */
export function onNativePushTapped(callback: (link: string | null) => void): () => void {
  if (!isNativePlatform()) return () => {};
  let removed = false;
  let handle: PluginListenerHandle | null = null;
  PushNotifications.addListener('pushNotificationActionPerformed', (action) => {
    const link: unknown = (action.notification.data as { link?: unknown } | undefined)?.link;
    callback(typeof link === 'string' ? link : null);
  })
    .then((h) => {
      handle = h;
      if (removed) void h.remove();
    })
    .catch((error: unknown) => console.warn('Could not listen to notification taps', error));
  return () => {
    removed = true;
    if (handle) void handle.remove();
  };
}
