import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  staffPartner,
  staffPartnerCreated,
  staffPartnerList,
  type StaffPartnerCreateRequest,
} from '@alda/contract/schemas/staff-partners';
import { useApi } from '@/shared/services';
import { LIVE_REFRESH_MS } from '@/shared/query-client';

/*
 * Partner clients (admin, `/api/staff/partners*`, issue 32): banks using the CAMARA SIM Swap API.
 * A new client answers its secret once; the screen shows it and forgets it.
 */

export const partnerKeys = { all: ['staff', 'partners'] as const };

export function usePartners() {
  const api = useApi();
  return useQuery({
    queryKey: partnerKeys.all,
    queryFn: ({ signal }) => api.get('/api/staff/partners', { schema: staffPartnerList, signal }),
    refetchInterval: LIVE_REFRESH_MS,
  });
}

export function useCreatePartner() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StaffPartnerCreateRequest) =>
      api.post('/api/staff/partners', body, { schema: staffPartnerCreated }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: partnerKeys.all }),
  });
}

export function useDisablePartner() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ clientId, reason }: { clientId: string; reason: string }) =>
      api.post(
        `/api/staff/partners/${encodeURIComponent(clientId)}/disable`,
        { reason },
        { schema: staffPartner },
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: partnerKeys.all }),
  });
}
