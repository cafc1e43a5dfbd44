import { Capacitor } from '@capacitor/core';
import { Preferences } from '@capacitor/preferences';

/**
 * Small key-value storage on the device. Capacitor Preferences keeps values in the native
 * key-value store (UserDefaults / SharedPreferences) and falls back to localStorage on the web.
 */
export interface KeyValueStorage {
  get(key: string): Promise<string | null>;
  set(key: string, value: string): Promise<void>;
  remove(key: string): Promise<void>;
  /** Every key kept (to forget a group of them at once, e.g. at logout). */
  keys(): Promise<string[]>;
}

/**
 * Where Capacitor Preferences keeps values on the web: localStorage, under its default group
 * `CapacitorStorage`. The web path reads it directly: the same keys, without waiting for the
 * plugin's web implementation (a chunk of its own) before the first screen.
 */
const WEB_PREFIX = 'CapacitorStorage.';

const nativePreferences: KeyValueStorage = {
  async get(key) {
    const { value } = await Preferences.get({ key });
    return value;
  },
  async set(key, value) {
    await Preferences.set({ key, value });
  },
  async remove(key) {
    await Preferences.remove({ key });
  },
  async keys() {
    return (await Preferences.keys()).keys;
  },
};

const webPreferences: KeyValueStorage = {
  get: async (key) => window.localStorage.getItem(WEB_PREFIX + key),
  set: async (key, value) => window.localStorage.setItem(WEB_PREFIX + key, value),
  remove: async (key) => window.localStorage.removeItem(WEB_PREFIX + key),
  keys: async () =>
    Object.keys(window.localStorage).flatMap((key) =>
      key.startsWith(WEB_PREFIX) ? [key.slice(WEB_PREFIX.length)] : [],
    ),
};

export const preferences: KeyValueStorage = Capacitor.isNativePlatform()
  ? nativePreferences
  : webPreferences;

/** In-memory storage with the same interface, for tests and as a last resort. */
export function createMemoryStorage(initial: Record<string, string> = {}): KeyValueStorage {
  const values = new Map(Object.entries(initial));
  return {
    get: async (key) => values.get(key) ?? null,
    set: async (key, value) => void values.set(key, value),
    remove: async (key) => void values.delete(key),
    keys: async () => [...values.keys()],
  };
}
