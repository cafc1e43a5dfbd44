import type { User } from '@alda/contract/schemas/auth';

export interface SessionState {
  /** The signed-in user; null for a guest. */
  user: User | null;
  /** True once start-up (or a login) has settled who the user is (SPEC §1 step 4). */
  userFetched: boolean;
}

export type SignOutReason = 'logout' | 'expired';

/**
 * Who is signed in. A tiny external store rather than React state, because route guards
 * (loaders), the HTTP client and the start-up sequence read it outside React.
 */
export interface SessionStore {
  getState(): SessionState;
  subscribe(listener: () => void): () => void;
  setUser(user: User): void;
  markUserFetched(): void;
  /** Resets the session to a guest and tells every sign-out listener why. */
  signOut(reason: SignOutReason): void;
  /** Listeners run on every sign-out (reset all state, go to login). */
  onSignOut(listener: (reason: SignOutReason) => void): () => void;
}

export function createSessionStore(
  initial: SessionState = { user: null, userFetched: false },
): SessionStore {
  let state = initial;
  const listeners = new Set<() => void>();
  const signOutListeners = new Set<(reason: SignOutReason) => void>();
  const set = (next: SessionState) => {
    state = next;
    for (const listener of listeners) listener();
  };
  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setUser: (user) => set({ user, userFetched: true }),
    markUserFetched: () => set({ ...state, userFetched: true }),
    signOut(reason) {
      set({ user: null, userFetched: true });
      for (const listener of signOutListeners) listener(reason);
    },
    onSignOut(listener) {
      signOutListeners.add(listener);
      return () => signOutListeners.delete(listener);
    },
  };
}

export const sessionStore = createSessionStore();
