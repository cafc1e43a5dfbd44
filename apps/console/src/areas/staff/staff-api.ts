import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  staffEnrolment,
  staffList,
  staffMember,
  staffPasskeyList,
  staffRolePolicy,
  staffRolePolicyList,
  type StaffCreateRequest,
  type StaffRole,
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
  passkeysOf: (id: string) => ['staff', 'accounts', id, 'passkeys'] as const,
  rolePolicies: ['staff', 'role-policies'] as const,
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

/*
 * Staff passkeys (ADR 0097): a member's passkeys and their revocation (the member's sessions
 * end), and which roles must sign in with one.
 */

export function useMemberPasskeys(id: string) {
  const api = useApi();
  return useQuery({
    queryKey: staffKeys.passkeysOf(id),
    queryFn: ({ signal }) =>
      api.get(`/api/staff/accounts/${encodeURIComponent(id)}/passkeys`, {
        schema: staffPasskeyList,
        signal,
      }),
  });
}

export function useRevokePasskey() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, passkeyId, reason }: { id: string; passkeyId: string; reason: string }) =>
      api.post<undefined>(
        `/api/staff/accounts/${encodeURIComponent(id)}/passkeys/${encodeURIComponent(passkeyId)}/revoke`,
        { reason },
      ),
    // The count in the list and the roles' members without a passkey change with it.
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: staffKeys.all }),
        queryClient.invalidateQueries({ queryKey: staffKeys.rolePolicies }),
      ]),
  });
}

export function useRolePolicies() {
  const api = useApi();
  return useQuery({
    queryKey: staffKeys.rolePolicies,
    queryFn: ({ signal }) =>
      api.get('/api/staff/role-policies', { schema: staffRolePolicyList, signal }),
    refetchInterval: LIVE_REFRESH_MS,
  });
}

export function useSetRolePolicy() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ role, ...body }: { role: StaffRole; requirePasskey: boolean; reason: string }) =>
      api.put(`/api/staff/role-policies/${encodeURIComponent(role)}`, body, {
        schema: staffRolePolicy,
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: staffKeys.rolePolicies }),
  });
}
