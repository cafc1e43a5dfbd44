import { useQuery } from '@tanstack/react-query';
import { IDEMPOTENCY_KEY_HEADER } from '@alda/contract/schemas/common';
import { orderPlacedResponse, type OrderPlacedResponse } from '@alda/contract/schemas/orders';
import {
  simDetails,
  simSecretsResponse,
  type SimDetails,
  type SimReplacementRequest,
  type SimSecretsResponse,
} from '@alda/contract/schemas/provisioning';
import { accountKeys } from '@/shared/api/account-data';
import { unwrap, type HttpClient, type Result } from '@/shared/api/http';
import { useAppServices } from '@/shared/services/app-services';

/*
 * The SIM of a number (SPEC §1 "manage eSIM or physical SIM details and phone-book
 * visibility", ADR 0055): read by the manage screen, the profile and the eSIM screens. Under the
 * account keys, so a change to the subscriptions refreshes it too.
 */

export const simKeys = {
  detail: (lineId: string) => [...accountKeys.all, 'sim', lineId] as const,
};

const path = (lineId: string, rest = '') =>
  `/subscriptions/${encodeURIComponent(lineId)}/sim${rest}`;

/** GET /subscriptions/{id}/sim. */
export function useSimQuery(lineId: string | null) {
  const { http } = useAppServices();
  return useQuery({
    queryKey: simKeys.detail(lineId ?? ''),
    enabled: lineId !== null,
    queryFn: async ({ signal }) =>
      unwrap(await http.get(path(lineId ?? ''), simDetails, { signal })),
  });
}

/** POST /subscriptions/{id}/sim/secrets: PIN and PUK, after the password again. */
export function revealSimSecrets(
  http: HttpClient,
  lineId: string,
  password: string,
): Promise<Result<SimSecretsResponse>> {
  return http.post(path(lineId, '/secrets'), { password }, simSecretsResponse);
}

/** PATCH /subscriptions/{id}/phone-book: this number in or out of the phone book. */
export function setPhoneBookVisible(
  http: HttpClient,
  lineId: string,
  phoneBookVisible: boolean,
): Promise<Result<SimDetails>> {
  return http.patch(
    `/subscriptions/${encodeURIComponent(lineId)}/phone-book`,
    { phoneBookVisible },
    simDetails,
  );
}

/** POST /subscriptions/{id}/sim/replacement (a `sim_change` order), with its Idempotency-Key. */
export function orderSimReplacement(
  http: HttpClient,
  lineId: string,
  body: SimReplacementRequest,
  idempotencyKey: string,
): Promise<Result<OrderPlacedResponse>> {
  return http.post(path(lineId, '/replacement'), body, orderPlacedResponse, {
    headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
  });
}
