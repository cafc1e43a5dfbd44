import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  staffStatusMessage,
  staffStatusMessageList,
  type StaffStatusPublishRequest,
} from '@alda/contract/schemas/staff-status';
import { useApi } from '@/shared/services';
import { LIVE_REFRESH_MS } from '@/shared/query-client';

/*
 * The status area's calls (`/api/staff/status-messages*`, docs/decisions/0075-staff-console.md).
 * The list refreshes every 5 s (a scheduled message becomes active, an active one ends); the
 * client sends If-None-Match, so an unchanged list is a 304.
 */

const LIST = '/api/staff/status-messages';

export const statusKeys = { all: ['staff', 'status-messages'] as const };

export function useStatusMessages() {
  const api = useApi();
  return useQuery({
    queryKey: statusKeys.all,
    queryFn: ({ signal }) => api.get(LIST, { schema: staffStatusMessageList, signal }),
    refetchInterval: LIVE_REFRESH_MS,
  });
}

export function usePublishStatus() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StaffStatusPublishRequest) =>
      api.post(LIST, body, { schema: staffStatusMessage }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: statusKeys.all }),
  });
}

export function useEndStatus() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reason }: { id: string; reason: string }) =>
      api.post(`${LIST}/${encodeURIComponent(id)}/end`, { reason }, { schema: staffStatusMessage }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: statusKeys.all }),
  });
}
