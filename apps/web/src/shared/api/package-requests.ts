import { useQuery } from '@tanstack/react-query';
import { IDEMPOTENCY_KEY_HEADER } from '@alda/contract/schemas/common';
import { PACKAGE_REQUESTS_PATH } from '@alda/contract/start-up';
import {
  packageRequest,
  packageRequestsResponse,
  type CreatePackageRequestRequest,
  type LineControls,
  type PackageRequest,
  type UpdateLineControlsRequest,
  lineControls,
} from '@alda/contract/schemas/controls';
import { useAppServices } from '@/shared/services/app-services';
import { accountKeys } from './account-data';
import { unwrap, type HttpClient, type Result } from './http';

/**
 * Owner controls per member (issue 16.3, ADR 0068): the member's package requests, read by home
 * (the owner's inbox) and the packages screen (the member's pending request; the owner
 * approving one), and the owner's switches of a member's number. Under `accountKeys.all`, so
 * logout and every placed order forget them with the rest of the account.
 */
export const packageRequestKeys = {
  all: [...accountKeys.all, 'package-requests'] as const,
};

/** GET /package-requests: pending requests the user made or decides, oldest first. */
export function usePackageRequestsQuery(enabled = true) {
  const { http } = useAppServices();
  return useQuery({
    queryKey: packageRequestKeys.all,
    queryFn: async ({ signal }) =>
      unwrap(await http.get(PACKAGE_REQUESTS_PATH, packageRequestsResponse, { signal })),
    enabled,
  });
}

/** The calls that change package requests and controls. */
export const controlsApi = {
  /** The member asks the owner; one Idempotency-Key per attempt (a double tap asks once). */
  ask: (
    http: HttpClient,
    body: CreatePackageRequestRequest,
    idempotencyKey: string,
  ): Promise<Result<PackageRequest>> =>
    http.post('/package-requests', body, packageRequest, {
      headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
    }),
  /** The owner declines, or the member withdraws. */
  remove: (http: HttpClient, id: string): Promise<Result<PackageRequest>> =>
    http.delete(`/package-requests/${encodeURIComponent(id)}`, packageRequest),
  /** The owner sets a member's controls (setting what is set changes nothing). */
  setControls: (
    http: HttpClient,
    lineId: string,
    body: UpdateLineControlsRequest,
  ): Promise<Result<LineControls>> =>
    http.patch(`/subscriptions/${encodeURIComponent(lineId)}/controls`, body, lineControls),
};
