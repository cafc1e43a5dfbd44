import { App } from '@capacitor/app';
import type { PluginListenerHandle } from '@capacitor/core';
import { isNativePlatform } from './platform';

type Unsubscribe = () => void;

/** Wraps a Capacitor listener registration (a promise of a handle) as a synchronous unsubscribe. */
function listen(register: () => Promise<PluginListenerHandle>): Unsubscribe {
  let handle: PluginListenerHandle | null = null;
  let removed = false;
  register()
    .then((h) => {
      handle = h;
      if (removed) void h.remove();
    })
    .catch((error: unknown) => console.warn('Could not register a native listener', error));
  return () => {
    removed = true;
    if (handle) void handle.remove();
  };
}

/** Runs `callback` when the native app returns to the foreground. No-op on the web. */
export function onAppResume(callback: () => void): Unsubscribe {
  if (!isNativePlatform()) return () => {};
  return listen(() => App.addListener('resume', callback));
}

/**
 * Runs `callback` when the Android hardware back button is pressed. Registering a listener
 * replaces the default behaviour (closing the app), so the callback decides what back means.
 * No-op on the web and iOS.
 */
export function onBackButton(callback: (event: { canGoBack: boolean }) => void): Unsubscribe {
  if (!isNativePlatform()) return () => {};
  return listen(() => App.addListener('backButton', callback));
}

/**
 * Runs `callback(url)` when the OS opens the app with a link it claims: the custom scheme
 * (`fo.alda.selfcare://…`) or an App Link / Universal Link on the web app's domain (the card
 * page's return address, a password-reset e-mail). No-op on the web.
 */
export function onAppUrlOpen(callback: (url: string) => void): Unsubscribe {
  if (!isNativePlatform()) return () => {};
  return listen(() => App.addListener('appUrlOpen', (event) => callback(event.url)));
}

/** Leaves the app (Android: back on the first screen). No-op on the web. */
export async function exitApp(): Promise<void> {
  if (isNativePlatform()) await App.exitApp();
}
