import { onlineManager, QueryClient } from '@tanstack/react-query';
import { connection } from './connectivity';
import { ApiRequestError } from './http';

/** The query cache of the app: server state, including the start-up data (SPEC §1). */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 60_000,
        refetchOnWindowFocus: false,
        // Client errors (4xx) will not get better by asking again; network and 5xx might.
        retry: (failureCount, error) =>
          failureCount < 2 &&
          !(
            error instanceof ApiRequestError &&
            error.error.status >= 400 &&
            error.error.status < 500
          ),
      },
      // Issue 16 item 4: a mutation is not paused until the device is back online (TanStack's
      // default) but runs at once; offline, the HTTP client fails it with OFFLINE, unsent.
      mutations: { networkMode: 'always' },
    },
  });
}

/**
 * TanStack Query's idea of the connection follows the app's (`connectivity.ts`): queries pause
 * while the device is offline and resume when it is back.
 */
export function followConnectionInQueries(): void {
  onlineManager.setEventListener((setOnline) => {
    setOnline(connection.isOnline());
    return connection.subscribe(() => setOnline(connection.isOnline()));
  });
}
