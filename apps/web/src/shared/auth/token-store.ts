import { TOKEN_KEYS } from '@alda/contract/constants';
import { preferences, type KeyValueStorage } from '@/shared/native/preferences';

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
}

/**
 * The auth tokens (SPEC §3): persisted on the device under TOKEN_KEYS with Capacitor Preferences
 * and mirrored in memory, so the HTTP client reads them synchronously on every request.
 */
export interface TokenStore {
  /** Reads the persisted tokens into memory (start-up step 3, before the user is fetched). */
  load(): Promise<void>;
  getAccessToken(): string | null;
  getRefreshToken(): string | null;
  set(pair: TokenPair): Promise<void>;
  /** Forgets both tokens, in memory and on the device (logout). */
  clear(): Promise<void>;
}

export function createTokenStore(storage: KeyValueStorage = preferences): TokenStore {
  let access: string | null = null;
  let refresh: string | null = null;
  return {
    async load() {
      const [a, r] = await Promise.all([
        storage.get(TOKEN_KEYS.access),
        storage.get(TOKEN_KEYS.refresh),
      ]);
      access = a;
      refresh = r;
    },
    getAccessToken: () => access,
    getRefreshToken: () => refresh,
    async set(pair) {
      access = pair.accessToken;
      refresh = pair.refreshToken;
      await Promise.all([
        storage.set(TOKEN_KEYS.access, pair.accessToken),
        storage.set(TOKEN_KEYS.refresh, pair.refreshToken),
      ]);
    },
    async clear() {
      access = null;
      refresh = null;
      await Promise.all([storage.remove(TOKEN_KEYS.access), storage.remove(TOKEN_KEYS.refresh)]);
    },
  };
}

export const tokenStore = createTokenStore();
