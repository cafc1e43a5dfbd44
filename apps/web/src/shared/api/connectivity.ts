import { useSyncExternalStore } from 'react';
import { onlineManager } from '@tanstack/react-query';
import { isConnected, onConnectivityChange } from '@/shared/native/network';

/**
 * Whether the device has a connection, in one place for the whole app (issue 16 item 4): TanStack
 * Query's `onlineManager`, fed by the device (the Capacitor Network plugin on a phone, the
 * browser's online/offline events on the web). What follows from it:
 *
 * - queries pause while offline and show what they last had (home: with its age);
 * - a request that changes data fails at once with OFFLINE, unsent (the HTTP client's
 *   `isOnline`, wired in `client.ts`), and a TanStack mutation runs at once rather than waiting
 *   for the connection (`networkMode: 'always'` in `query-client.ts`), so it fails the same way.
 *   Nothing that changes data is ever queued while offline.
 */
export interface ConnectivitySource {
  isConnected: () => Promise<boolean>;
  onChange: (callback: (connected: boolean) => void) => () => void;
}

export const deviceConnectivity: ConnectivitySource = {
  isConnected,
  onChange: onConnectivityChange,
};

/** Makes the app follow the device's connection, starting with its state now. */
export function followConnectivity(source: ConnectivitySource = deviceConnectivity): void {
  onlineManager.setEventListener((setOnline) => {
    source
      .isConnected()
      .then(setOnline, (error: unknown) =>
        console.warn('Could not read the connection state', error),
      );
    return source.onChange(setOnline);
  });
}

/** True while the device has a connection. */
export const isOnline = (): boolean => onlineManager.isOnline();

const subscribe = (listener: () => void) => onlineManager.subscribe(listener);

/** Whether the device has a connection, re-rendering when that changes. */
export function useOnline(): boolean {
  return useSyncExternalStore(subscribe, isOnline, isOnline);
}
