import { queryOptions, useQuery } from '@tanstack/react-query';
import { usageHistoryResponse } from '@alda/contract/schemas/usage';
import { accountKeys } from '@/shared/api/account-data';
import { unwrap, type HttpClient } from '@/shared/api/http';
import { useAppServices } from '@/shared/services/app-services';

/** Keys of the usage history, under the account's keys: what refreshes the account refreshes it. */
export const usageHistoryKeys = {
  line: (lineId: string) => [...accountKeys.all, 'usage-history', lineId] as const,
};

export const usageHistoryQueries = {
  /** GET /subscriptions/{id}/usage-history: this month day by day and the last 6 months. */
  line: (http: HttpClient, lineId: string) =>
    queryOptions({
      queryKey: usageHistoryKeys.line(lineId),
      queryFn: async ({ signal }) =>
        unwrap(
          await http.get(
            `/subscriptions/${encodeURIComponent(lineId)}/usage-history`,
            usageHistoryResponse,
            { signal },
          ),
        ),
      // Use booked a minute ago (the refresh on home) should be on the chart when it opens.
      staleTime: 0,
    }),
};

/** One number's usage history. */
export function useUsageHistoryQuery(lineId: string) {
  const { http } = useAppServices();
  return useQuery(usageHistoryQueries.line(http, lineId));
}
