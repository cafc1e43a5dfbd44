import { useCallback, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { IDEMPOTENCY_KEY_HEADER } from '@alda/contract/schemas/common';
import {
  orderPlacedResponse,
  type CheckoutMethod,
  type OrderPlacedResponse,
} from '@alda/contract/schemas/orders';
import type { ApiError, HttpClient, Result } from '@/shared/api/http';
import { useAppServices } from '@/shared/services/app-services';
import type { PaymentMemo } from './payment-memo';
import { startPayment } from './start-payment';

/** POST of a purchase (every purchase answers orderPlacedResponse), with its Idempotency-Key. */
export function placeOrder(
  http: HttpClient,
  path: string,
  body: Record<string, unknown>,
  idempotencyKey: string,
): Promise<Result<OrderPlacedResponse>> {
  return http.post(path, body, orderPlacedResponse, {
    headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
  });
}

/**
 * Places a purchase and starts its payment ({@link startPayment}). One attempt keeps one
 * Idempotency-Key: a double tap shares the request in flight, and a retry after a network failure
 * (no answer: the server may have placed the order) sends the same key, so the API answers the
 * first order instead of buying twice. An answered refusal ends the attempt; the next tap is a new
 * purchase with a new key.
 */
export function usePurchase() {
  const { http } = useAppServices();
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const key = useRef<string | null>(null);
  const inFlight = useRef<Promise<ApiError | null> | null>(null);

  const purchase = useCallback(
    (path: string, body: Record<string, unknown>, memo: PaymentMemo = {}) => {
      if (inFlight.current) return inFlight.current;
      key.current ??= crypto.randomUUID();
      setPending(true);
      setError(null);
      const attempt = (async () => {
        const result = await placeOrder(http, path, body, key.current!);
        if (!result.ok) {
          if (result.error.status !== 0) key.current = null;
          setError(result.error);
          return result.error;
        }
        key.current = null;
        const checkout = body.payWith === 'card' || body.payWith === 'mobilepay';
        startPayment(result.data, navigate, {
          retry: { path, body },
          ...(checkout ? { paidWith: body.payWith as CheckoutMethod } : {}),
          ...memo,
        });
        return null;
      })();
      inFlight.current = attempt;
      void attempt.finally(() => {
        inFlight.current = null;
        setPending(false);
      });
      return attempt;
    },
    [http, navigate],
  );

  return { purchase, pending, error, clearError: () => setError(null) };
}
