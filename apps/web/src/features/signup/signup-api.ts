import { useCallback, useRef, useState } from 'react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  reservedNumbersResponse,
  type ReservedNumbersResponse,
} from '@alda/contract/schemas/auth-register';
import type { NumberMatchMode } from '@alda/contract/rules/number-picker';
import { freeNumbersResponse } from '@alda/contract/schemas/number-picker';
import type { OrderPlacedResponse } from '@alda/contract/schemas/orders';
import { simPickupLocationsResponse } from '@alda/contract/schemas/provisioning';
import type { SignupPayload } from '@alda/contract/schemas/signup';
import { accountKeys } from '@/shared/api/account-data';
import { unwrap, type HttpClient, type Result } from '@/shared/api/http';
import { placeOrder } from '@/shared/payments/use-purchase';
import { useAppServices } from '@/shared/services/app-services';

export const signupKeys = {
  /** Under `accountKeys.all`, so logout forgets it with the rest of the account. */
  pickupLocations: [...accountKeys.all, 'sim-pickup-locations'] as const,
  /** One set of the number picker: `round` asks for a fresh set ("Vís fleiri"). */
  freeNumbers: (pattern: NumberPattern | null, round: number) =>
    [
      ...accountKeys.all,
      'free-numbers',
      pattern?.match ?? '',
      pattern?.digits ?? '',
      round,
    ] as const,
};

/** A pattern search of the number picker (contract `numberMatch`). */
export interface NumberPattern {
  match: NumberMatchMode;
  digits: string;
}

/**
 * GET /auth/free-numbers (issue 33 §1, ADR 0077): a set of free numbers that match the pattern
 * (none: any), the easy ones with their one-off price, or the nearest when none is free. Nothing
 * is reserved; a set is never refetched behind the customer's back (it would move under a tap).
 */
export function freeNumbersOptions(http: HttpClient, pattern: NumberPattern | null, round: number) {
  const query = pattern ? `?${new URLSearchParams({ ...pattern }).toString()}` : '';
  return queryOptions({
    queryKey: signupKeys.freeNumbers(pattern, round),
    queryFn: async ({ signal }) =>
      unwrap(await http.get(`/auth/free-numbers${query}`, freeNumbersResponse, { signal })),
    staleTime: Infinity,
    gcTime: 60_000,
    retry: false,
  });
}

/**
 * POST /auth/reserved-numbers: is the number free? When it is, it is now reserved for the
 * signed-in caller for 30 minutes (ADR 0024). The number is sent as its 6 digits.
 */
export function searchNumber(
  http: HttpClient,
  phoneNumber: string,
): Promise<Result<ReservedNumbersResponse>> {
  return http.post('/auth/reserved-numbers', { phoneNumber }, reservedNumbersResponse);
}

/** GET /sim-pickup-locations: the shops where a physical SIM can be picked up. */
export function usePickupLocationsQuery(enabled: boolean) {
  const { http } = useAppServices();
  return useQuery({
    queryKey: signupKeys.pickupLocations,
    queryFn: async ({ signal }) =>
      unwrap(await http.get('/sim-pickup-locations', simPickupLocationsResponse, { signal })),
    enabled,
    staleTime: 10 * 60_000,
  });
}

/**
 * POST /subscriptions (ADR 0055) with one `Idempotency-Key` per attempt, as `usePurchase` does:
 * a double tap shares the request in flight, and a retry after a lost answer (status 0: the
 * server may have placed the order) sends the same key, so it cannot order twice. An answered
 * refusal ends the attempt; the next tap is a new one.
 */
export function usePlaceSignup() {
  const { http } = useAppServices();
  const [pending, setPending] = useState(false);
  const key = useRef<string | null>(null);
  const inFlight = useRef<Promise<Result<OrderPlacedResponse>> | null>(null);

  const place = useCallback(
    (payload: SignupPayload): Promise<Result<OrderPlacedResponse>> => {
      if (inFlight.current) return inFlight.current;
      key.current ??= crypto.randomUUID();
      setPending(true);
      const attempt = (async () => {
        const result = await placeOrder(
          http,
          '/subscriptions',
          payload as unknown as Record<string, unknown>,
          key.current!,
        );
        if (result.ok || result.error.status !== 0) key.current = null;
        return result;
      })();
      inFlight.current = attempt;
      void attempt.finally(() => {
        inFlight.current = null;
        setPending(false);
      });
      return attempt;
    },
    [http],
  );

  return { place, pending };
}
