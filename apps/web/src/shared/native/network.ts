import { Network } from '@capacitor/network';
import { isNativePlatform } from './platform';

/** Whether the device has a network connection now. Web: `navigator.onLine`. */
export async function isConnected(): Promise<boolean> {
  if (!isNativePlatform()) return typeof navigator === 'undefined' ? true : navigator.onLine;
  const status = await Network.getStatus();
  return status.connected;
}

/**
 * Calls `callback(connected)` whenever connectivity changes. Native: the Network plugin's
 * `networkStatusChange`; web: the window's `online` / `offline` events.
 */
export function onConnectivityChange(callback: (connected: boolean) => void): () => void {
  if (!isNativePlatform()) {
    const online = () => callback(true);
    const offline = () => callback(false);
    window.addEventListener('online', online);
    window.addEventListener('offline', offline);
    return () => {
      window.removeEventListener('online', online);
      window.removeEventListener('offline', offline);
    };
  }
  let removed = false;
  let remove: (() => Promise<void>) | null = null;
  Network.addListener('networkStatusChange', (status) => callback(status.connected))
    .then((handle) => {
      remove = handle.remove;
      if (removed) void handle.remove();
    })
    .catch((error: unknown) => console.warn('Could not listen to network changes', error));
  return () => {
    removed = true;
    if (remove) void remove();
  };
}
