import type { QueryClient } from '@tanstack/react-query';
import type { SessionStore } from '@/shared/auth/session-store';
import type { KeyValueStorage } from '@/shared/native/preferences';
import { createOfflineCache, type OfflineCache } from './offline-cache';
import { createQueryClient, followConnectionInQueries } from './query-client';

/**
 * The app's server state: the query cache and the copy of it kept on the device for a start
 * without a connection (issue 16 item 4, ADR 0069). A chunk of its own with TanStack Query
 * (issue 45, ADR 0086): a signed-in start loads it beside GET /auth/me; a guest's first screen
 * does without it, and it loads once that screen is up or the guest moves on.
 */
export interface QueryRuntime {
  queryClient: QueryClient;
  offlineCache: OfflineCache;
}

export interface QueryRuntimeDeps {
  storage: KeyValueStorage;
  session: Pick<SessionStore, 'getState' | 'subscribe'>;
}

export function startQueryRuntime({ storage, session }: QueryRuntimeDeps): QueryRuntime {
  followConnectionInQueries();
  const queryClient = createQueryClient();
  const offlineCache = createOfflineCache({ queryClient, storage, session });
  offlineCache.start();
  return { queryClient, offlineCache };
}
