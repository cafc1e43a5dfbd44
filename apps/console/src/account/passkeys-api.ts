import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { passkey } from '@alda/contract/schemas/passkeys';
import { staffPasskeyCreationOptions, staffPasskeyList } from '@alda/contract/schemas/staff';
import { makePasskey } from '@/shared/passkeys';
import { useApi } from '@/shared/services';

/*
 * The signed-in staff member's own passkeys (ADR 0097, `/api/staff/passkeys*`), for every role.
 * Adding one is three steps: the password again (`/options`, which answers the creation
 * options), the browser's prompt, and the new credential sent back.
 */

export const myPasskeysKey = ['staff', 'me', 'passkeys'] as const;

export function useMyPasskeys() {
  const api = useApi();
  return useQuery({
    queryKey: myPasskeysKey,
    queryFn: ({ signal }) => api.get('/api/staff/passkeys', { schema: staffPasskeyList, signal }),
  });
}

export function useAddPasskey() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ password, name }: { password: string; name: string }) => {
      const { options } = await api.post(
        '/api/staff/passkeys/options',
        { password },
        { schema: staffPasskeyCreationOptions },
      );
      const response = await makePasskey(options);
      return api.post(
        '/api/staff/passkeys',
        { response, ...(name.trim() ? { name: name.trim() } : {}) },
        { schema: passkey },
      );
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: myPasskeysKey }),
  });
}

export function useDeletePasskey() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api.delete<undefined>(`/api/staff/passkeys/${encodeURIComponent(id)}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: myPasskeysKey }),
  });
}
