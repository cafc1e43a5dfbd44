import { useQuery } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { IDEMPOTENCY_KEY_HEADER } from '@alda/contract/schemas/common';
import { orderPlacedResponse, type OrderPlacedResponse } from '@alda/contract/schemas/orders';
import {
  familyAccountExistsResponse,
  lineHandover,
  type LineHandover,
  type TransferToFamilyAccountRequest,
  type TransferToOwnAccountRequest,
  type TransferToUserCustomerRequest,
} from '@alda/contract/schemas/subscriptions';
import { accountKeys } from '@/shared/api/account-data';
import { unwrap, type HttpClient, type Result } from '@/shared/api/http';
import { useAppServices } from '@/shared/services/app-services';

const withKey = (idempotencyKey: string) => ({
  headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
});
const enc = encodeURIComponent;

/** The lifecycle calls of the transfer screens (ADR 0056 "Routes and calls"). */
export const transfersApi = {
  /** A number onto an individual plan of its own, owned by the caller (`move_to_own_account`). */
  toOwnAccount: (
    http: HttpClient,
    memberId: string,
    body: TransferToOwnAccountRequest,
    idempotencyKey: string,
  ): Promise<Result<OrderPlacedResponse>> =>
    http.patch(
      `/subscriptions/transfer-subscription-to-new-account/${enc(memberId)}`,
      body,
      orderPlacedResponse,
      withKey(idempotencyKey),
    ),

  /** A number into the caller's family account, or a new one with `planInfo`'s plan. */
  toFamilyAccount: (
    http: HttpClient,
    memberId: string,
    body: TransferToFamilyAccountRequest,
    idempotencyKey: string,
  ): Promise<Result<OrderPlacedResponse>> =>
    http.patch(
      `/subscriptions/transfer-subscription-to-family-account/${enc(memberId)}`,
      body,
      orderPlacedResponse,
      withKey(idempotencyKey),
    ),

  /** Offers the number to another Alda user (a pending line hand-over). */
  toUserCustomer: (
    http: HttpClient,
    body: TransferToUserCustomerRequest,
    idempotencyKey: string,
  ): Promise<Result<LineHandover>> =>
    http.patch(
      '/subscriptions/transfer-subscription-to-user-customer',
      body,
      lineHandover,
      withKey(idempotencyKey),
    ),

  /** The receiver accepts: a `hand_over` transfer order (needs their card on file). */
  acceptHandover: (
    http: HttpClient,
    id: string,
    idempotencyKey: string,
  ): Promise<Result<OrderPlacedResponse>> =>
    http.post(
      `/line-handovers/${enc(id)}/accept`,
      {},
      orderPlacedResponse,
      withKey(idempotencyKey),
    ),

  /** Declined by the receiver, withdrawn by the giver: 204 or the hand-over. */
  endHandover: (http: HttpClient, id: string): Promise<Result<unknown>> =>
    http.delete(`/line-handovers/${enc(id)}`, z.unknown()),
};

export const transferKeys = {
  familyAccountExists: [...accountKeys.all, 'family-account-exists'] as const,
};

/** GET /subscriptions/family-account-exists: whether a move into a family joins or creates one. */
export function useFamilyAccountExistsQuery() {
  const { http } = useAppServices();
  return useQuery({
    queryKey: transferKeys.familyAccountExists,
    queryFn: async ({ signal }) =>
      unwrap(
        await http.get('/subscriptions/family-account-exists', familyAccountExistsResponse, {
          signal,
        }),
      ),
  });
}
