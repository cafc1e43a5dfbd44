import { useSyncExternalStore } from 'react';
import { isConnected, onConnectivityChange } from '@/shared/native/network';

/**
 * Whether the device has a connection, in one place for the whole app (issue 16 item 4), fed by
 * the device (the Capacitor Network plugin on a phone, the browser's online/offline events on the
 * web). What follows from it:
 *
 * - a request that changes data fails at once with OFFLINE, unsent (the HTTP client's
 *   `isOnline`, wired in `client.ts`);
 * - queries pause while offline and show what they last had (home: with its age): TanStack
 *   Query's `onlineManager` follows this store once the query cache has loaded
 *   (`followConnectionInQueries` in `query-client.ts`), and a mutation runs at once rather than
 *   waiting for the connection (`networkMode: 'always'`), so it fails the same way.
 *   Nothing that changes data is ever queued while offline.
 *
 * The store is the app's own so that a guest's first screen knows the connection without loading
 * the query library (issue 45: login's first download).
 */
export interface ConnectivitySource {
  isConnected: () => Promise<boolean>;
  onChange: (callback: (connected: boolean) => void) => () => void;
}

export const deviceConnectivity: ConnectivitySource = {
  isConnected,
  onChange: onConnectivityChange,
};

let online = true;
const listeners = new Set<() => void>();

/** The connection as the app last heard it, and who is told when it changes. */
export const connection = {
  isOnline: (): boolean => online,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  },
  /** What the device reports (and what tests set). */
  set(value: boolean): void {
    if (value === online) return;
    online = value;
    for (const listener of [...listeners]) listener();
  },
};

/** Makes the app follow the device's connection, starting with its state now. */
export function followConnectivity(source: ConnectivitySource = deviceConnectivity): () => void {
  source
    .isConnected()
    .then(connection.set, (error: unknown) =>
      console.warn('Could not read the connection state', error),
    );
  return source.onChange(connection.set);
}

/** True while the device has a connection. */
export const isOnline = (): boolean => connection.isOnline();

/** Whether the device has a connection, re-rendering when that changes. */
export function useOnline(): boolean {
  return useSyncExternalStore(connection.subscribe, isOnline, isOnline);
}
