import { createContext, useContext, useSyncExternalStore } from 'react';
import type { User } from '@alda/contract/schemas/auth';
import type { HttpClient, Result } from '@/shared/api/http';
import type { SessionState, SessionStore } from '@/shared/auth/session-store';
import type { TokenPair } from '@/shared/auth/token-store';

/**
 * What features need from the app around them. The app provides the real implementations
 * (src/app/services.ts); tests provide fakes. Features never import app/ directly.
 */
export interface AppServices {
  http: HttpClient;
  session: SessionStore;
  /**
   * Completes a login (SPEC §4 "Session"): stores the tokens, loads the user and then the six
   * account resources in parallel, like the start-up sequence does.
   */
  signIn(tokens: TokenPair): Promise<Result<User>>;
  /** Logs out: tells the API, forgets the tokens, resets all state and goes to login. */
  signOut(): Promise<void>;
  /** Loads the six account resources again (retry after a failed start-up load). */
  reloadAccountData(): Promise<void>;
}

export const AppServicesContext = createContext<AppServices | null>(null);

export function useAppServices(): AppServices {
  const services = useContext(AppServicesContext);
  if (!services) throw new Error('useAppServices needs <AppServicesContext.Provider>');
  return services;
}

/** The session (signed-in user), re-rendering on change. */
export function useSession(): SessionState {
  const { session } = useAppServices();
  return useSyncExternalStore(session.subscribe, session.getState, session.getState);
}
