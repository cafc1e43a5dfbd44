import { useEffect, useSyncExternalStore, type ReactNode } from 'react';
import { QueryClientContext } from '@tanstack/react-query';
import type { LazyValue } from './lazy-value';
import type { QueryRuntime } from './query-runtime';

/**
 * TanStack Query's context, given the query cache once its chunk has loaded (issue 45): until
 * then a guest's first screen renders without it, and a hook that needs it would say so
 * ("No QueryClient set"). The tree around the router stays the same when the cache arrives, so
 * nothing on the screen is mounted again. Mounting the client (focus and online events) is what
 * TanStack's own `QueryClientProvider` does.
 */
export function LazyQueryClientProvider({
  runtime,
  children,
}: {
  runtime: LazyValue<QueryRuntime>;
  children: ReactNode;
}) {
  const client = useSyncExternalStore(runtime.subscribe, runtime.get, runtime.get)?.queryClient;
  useEffect(() => {
    if (!client) return;
    client.mount();
    return () => client.unmount();
  }, [client]);
  return <QueryClientContext.Provider value={client}>{children}</QueryClientContext.Provider>;
}
