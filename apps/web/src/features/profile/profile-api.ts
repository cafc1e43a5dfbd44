import { z } from 'zod/mini';
import { okResponse, type OkResponse } from '@alda/contract/schemas/common';
import type { ChangePasswordRequest } from '@alda/contract/schemas/profile';
import { useQuery } from '@tanstack/react-query';
import {
  dataExport,
  dataExportList,
  type DataExport,
} from '@alda/contract/schemas/number-protection';
import { unwrap, type HttpClient, type Result } from '@/shared/api/http';
import { useAppServices } from '@/shared/services/app-services';

/*
 * The signed-in customer's own user (SPEC §2 /min-brukari): DELETE /auth/me and
 * POST /auth/change-password; PATCH /auth/me is shared/auth/update-user.ts. GET /auth/me is the
 * session's (start-up step 3), so the profile shows the session's user and puts the answer of an
 * edit back into the session.
 */

/**
 * POST /auth/change-password → `{ ok: true }`; the other sessions end, this one stays. A wrong
 * current password is 422 CURRENT_PASSWORD_INCORRECT on the field `currentPassword`.
 */
export function changePassword(
  http: HttpClient,
  body: ChangePasswordRequest,
): Promise<Result<OkResponse>> {
  return http.post('/auth/change-password', body, okResponse);
}

/** DELETE /auth/me; 409 HAS_ACTIVE_SUBSCRIPTION while the customer still has a line (SPEC §6). */
export function deleteUser(http: HttpClient): Promise<Result<unknown>> {
  return http.delete('/auth/me', z.unknown());
}

/*
 * The customer's data export (issue 32, ADR 0076; GDPR Art. 15 and 20): POST asks for one (202),
 * GET lists them newest first; 409 DATA_EXPORT_PENDING while one is prepared.
 */

export const dataExportKeys = {
  all: ['profile', 'data-exports'] as const,
};

/** How often the list is read while the newest export is queued or being prepared. */
export const DATA_EXPORT_POLL_MS = 2_000;

/** Whether an export is still queued or being prepared. */
export const isPending = (
  item: DataExport | undefined,
): item is DataExport & { state: 'queued' | 'preparing' } =>
  item?.state === 'queued' || item?.state === 'preparing';

/** GET /profile/data-exports, read every 2 s while the newest one is prepared. */
export function useDataExportsQuery() {
  const { http } = useAppServices();
  return useQuery({
    queryKey: dataExportKeys.all,
    queryFn: async ({ signal }) =>
      unwrap(await http.get('/profile/data-exports', dataExportList, { signal })),
    staleTime: 0,
    refetchInterval: (query) => (isPending(query.state.data?.[0]) ? DATA_EXPORT_POLL_MS : false),
  });
}

/** POST /profile/data-exports → the new export (queued). */
export function requestDataExport(http: HttpClient): Promise<Result<DataExport>> {
  return http.post('/profile/data-exports', {}, dataExport);
}
