import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { StaffSession } from '@alda/contract/schemas/staff';
import type { Api } from './api';
import type { SessionStore } from './session';

/**
 * What every screen of the console reaches through React: the HTTP client and the session. One
 * set per app (main.tsx); a test passes its own (test/render.tsx).
 */
export interface ConsoleServices {
  api: Api;
  session: SessionStore;
}

const ServicesContext = createContext<ConsoleServices | null>(null);

export function ServicesProvider({
  services,
  children,
}: {
  services: ConsoleServices;
  children: ReactNode;
}) {
  return <ServicesContext value={services}>{children}</ServicesContext>;
}

export function useServices(): ConsoleServices {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('useServices outside <ServicesProvider>');
  return services;
}

/** The HTTP client of `/api/staff/*` (shared/api.ts). */
export function useApi(): Api {
  return useServices().api;
}

/** The live staff session, or null; re-renders when it changes. */
export function useSession(): StaffSession | null {
  const { session } = useServices();
  return useSyncExternalStore(session.subscribe, session.get, session.get);
}
