import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  staffEnrolment,
  staffList,
  staffMember,
  type StaffCreateRequest,
  type StaffUpdateRequest,
} from '@alda/contract/schemas/staff';
import { useApi } from '@/shared/services';
import { LIVE_REFRESH_MS } from '@/shared/query-client';

/*
 * The staff accounts' calls (admin, `/api/staff/accounts*`, docs/decisions/0075-staff-console.md).
 * A new account and a re-enrolment answer the enrolment — first password, TOTP secret with its
 * otpauth:// URI, ten recovery codes — once; the screen shows it and forgets it.
 */

export const staffKeys = {
  all: ['staff', 'accounts'] as const,
};

export function useStaffAccounts() {
  const api = useApi();
  return useQuery({
    queryKey: staffKeys.all,
    queryFn: ({ signal }) => api.get('/api/staff/accounts', { schema: staffList, signal }),
    refetchInterval: LIVE_REFRESH_MS,
  });
}

export function useCreateStaff() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StaffCreateRequest) =>
      api.post('/api/staff/accounts', body, { schema: staffEnrolment }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: staffKeys.all }),
  });
}

export function useUpdateStaff() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: StaffUpdateRequest & { id: string }) =>
      api.patch(`/api/staff/accounts/${encodeURIComponent(id)}`, body, { schema: staffMember }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: staffKeys.all }),
  });
}

export function useReenrol() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reason }: { id: string; reason: string }) =>
      api.post(
        `/api/staff/accounts/${encodeURIComponent(id)}/reenrol`,
        { reason },
        { schema: staffEnrolment },
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: staffKeys.all }),
  });
}
