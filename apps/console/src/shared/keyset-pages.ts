import { useInfiniteQuery } from '@tanstack/react-query';
import type { ResponseSchema } from './api';
import { LIVE_REFRESH_MS } from './query-client';
import { useApi } from './services';

/**
 * A live list paged by keyset (`before` = the last page's `nextBefore`; the audit log, payments,
 * the orders queue). A refresh reads every page shown again, in order, each from the one before's
 * `nextBefore` (TanStack's infinite query): the older rows appended stay, a new row on top pushes
 * one on to the next page instead of showing twice, and an unchanged page is a 304 (each page has
 * its own URL and ETag). Another filter's rows stay until its own arrive (no flash of "loading").
 */
export function useKeysetPages<T extends { nextBefore: string | null }>(options: {
  queryKey: readonly unknown[];
  path: string;
  query: Record<string, string | number | boolean | undefined>;
  schema: ResponseSchema<T>;
}) {
  const api = useApi();
  return useInfiniteQuery({
    queryKey: options.queryKey,
    queryFn: ({ pageParam, signal }) =>
      api.get(options.path, {
        query: { ...options.query, before: pageParam },
        schema: options.schema,
        signal,
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextBefore ?? undefined,
    refetchInterval: LIVE_REFRESH_MS,
    placeholderData: (previous) => previous,
  });
}
