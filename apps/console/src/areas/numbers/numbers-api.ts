import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  staffNumberRelease,
  staffNumbersPage,
  type NumberState,
} from '@alda/contract/schemas/staff-numbers';
import { useApi } from '@/shared/services';
import { LIVE_REFRESH_MS } from '@/shared/query-client';

/*
 * The number inventory's calls (`/api/staff/numbers*`, docs/decisions/0075-staff-console.md). The
 * list refreshes every 5 s; the client sends If-None-Match, so an unchanged page is a 304.
 */

/** Numbers per page ("Show more" adds the next). */
export const NUMBERS_PAGE_SIZE = 50;

export interface NumbersFilter {
  state: NumberState;
  /** Digits the numbers contain; empty for all. */
  q: string;
}

export const numbersKeys = {
  all: ['staff', 'numbers'] as const,
  list: (filter: NumbersFilter) => ['staff', 'numbers', 'list', filter] as const,
};

/** The numbers in a state, page by page (`after` = the last page's `nextAfter`). */
export function useNumbers(filter: NumbersFilter) {
  const api = useApi();
  return useInfiniteQuery({
    queryKey: numbersKeys.list(filter),
    queryFn: ({ pageParam, signal }) =>
      api.get('/api/staff/numbers', {
        query: {
          state: filter.state,
          q: filter.q || undefined,
          after: pageParam,
          limit: NUMBERS_PAGE_SIZE,
        },
        schema: staffNumbersPage,
        signal,
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextAfter ?? undefined,
    refetchInterval: LIVE_REFRESH_MS,
    placeholderData: (previous) => previous,
  });
}

/** POST a release from quarantine; the inventory is read again at once. */
export function useRelease() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ msisdn, reason }: { msisdn: string; reason: string }) =>
      api.post(
        `/api/staff/numbers/${encodeURIComponent(msisdn)}/release`,
        { reason },
        { schema: staffNumberRelease },
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: numbersKeys.all }),
  });
}
