import { useEffect, useRef, useState } from 'react';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { orderResponse, type Order } from '@alda/contract/schemas/orders';
import { accountKeys } from '@/shared/api/account-data';
import { accountQueries } from '@/shared/api/account-queries';
import { ApiRequestError, unwrap, type HttpClient } from '@/shared/api/http';
import type { HubState, PaymentHubClient } from '@/shared/payments/payment-watch';
import { watchPayment } from '@/shared/payments/payment-watch';
import { useAppServices } from '@/shared/services/app-services';

/**
 * Pauses between HTTP reads of a pending order: quick at first (most payments settle within
 * seconds), then every 10 s. The hub usually answers first; these reads are what tell the outcome
 * when it cannot (SPEC §8: hub errors are swallowed).
 */
export const POLL_DELAYS_MS = [2_000, 3_000, 5_000, 8_000, 10_000] as const;
/** After this long without an outcome the screen says so (and keeps checking). */
export const STILL_PENDING_AFTER_MS = 45_000;

export const paymentKeys = {
  order: (orderId: string) => [...accountKeys.all, 'payment-order', orderId] as const,
};

/** Where an order's payment stands, as the status screen shows it. */
export type PaymentPhase = 'pending' | 'paid' | 'failed' | 'cancelled';

export function phaseOf(order: Pick<Order, 'paymentStatus'>): PaymentPhase {
  switch (order.paymentStatus) {
    case 'paid':
    case 'not_required':
      return 'paid';
    case 'failed':
      return 'failed';
    case 'cancelled':
      return 'cancelled';
    default:
      return 'pending';
  }
}

const pollDelay = (reads: number) =>
  POLL_DELAYS_MS[Math.min(Math.max(reads - 1, 0), POLL_DELAYS_MS.length - 1)]!;

/** GET /orders/{id} (the HTTP fallback of the payment flow), re-read with backoff while pending. */
export const paymentOrderQuery = (http: HttpClient, orderId: string) =>
  queryOptions({
    queryKey: paymentKeys.order(orderId),
    queryFn: async ({ signal }) =>
      unwrap(await http.get(`/orders/${encodeURIComponent(orderId)}`, orderResponse, { signal })),
    staleTime: 0,
    // A missing order stays missing; anything else (network, 5xx) gets two more tries.
    retry: (count, error) =>
      !(error instanceof ApiRequestError && error.error.status === 404) && count < 2,
    refetchInterval: (query) =>
      query.state.data && phaseOf(query.state.data) === 'pending'
        ? pollDelay(query.state.dataUpdateCount)
        : false,
    refetchIntervalInBackground: true,
  });

/** Loads the SignalR client on demand, so `@microsoft/signalr` is only downloaded here. */
export const loadPaymentHub = async (http: HttpClient): Promise<PaymentHubClient> =>
  (await import('@/shared/payments/payment-hub')).createPaymentHub(
    async () => (await http.freshAccessToken()) ?? '',
  );

/**
 * The live status of one order's payment (SPEC §4 "Payment flow"): the order over HTTP at once,
 * then, while it is pending, the payment hub (connect → ListenToOrder → PaymentUpdated →
 * StopListeningToOrder → disconnect) next to HTTP reads with backoff, a read right after the hub
 * listens and after each reconnect. Whichever learns the outcome first updates the screen.
 */
export function usePaymentStatus(
  orderId: string,
  { loadHub }: { loadHub?: () => Promise<PaymentHubClient> } = {},
) {
  const { http } = useAppServices();
  const queryClient = useQueryClient();
  const query = useQuery(paymentOrderQuery(http, orderId));
  const [hubState, setHubState] = useState<HubState>('Disconnected');
  const [slow, setSlow] = useState(false);
  const phase = query.data ? phaseOf(query.data) : null;
  const waiting = phase === 'pending';
  const loadHubRef = useRef(loadHub ?? (() => loadPaymentHub(http)));

  useEffect(() => {
    if (!waiting) return;
    const abort = new AbortController();
    const key = paymentKeys.order(orderId);
    void (async () => {
      let client: PaymentHubClient;
      try {
        client = await loadHubRef.current();
      } catch (error) {
        // The chunk did not load (offline, new deploy): the HTTP reads carry on alone.
        console.info('Payment hub unavailable', error);
        return;
      }
      if (abort.signal.aborted) return;
      setHubState(client.state);
      const offState = client.onStateChange(setHubState);
      const update = await watchPayment(client, orderId, {
        signal: abort.signal,
        onListening: () => void queryClient.refetchQueries({ queryKey: key, exact: true }),
        onUpdate: (update) => {
          if (!abort.signal.aborted) queryClient.setQueryData(key, update.order);
        },
      });
      offState();
      setHubState('Disconnected');
      if (update && !abort.signal.aborted) queryClient.setQueryData(key, update.order);
    })();
    return () => abort.abort();
  }, [waiting, orderId, queryClient]);

  useEffect(() => {
    if (!waiting) return;
    const timer = setTimeout(() => setSlow(true), STILL_PENDING_AFTER_MS);
    return () => clearTimeout(timer);
  }, [waiting]);

  // Paid: everything the payment changed (data, balance, agreement, orders) is read again, so the
  // screens the customer goes back to show it at once.
  const invalidated = useRef(false);
  useEffect(() => {
    if (phase !== 'paid' || invalidated.current) return;
    invalidated.current = true;
    void queryClient
      .invalidateQueries({
        queryKey: accountKeys.all,
        predicate: (q) => q.queryKey[1] !== 'payment-order',
      })
      .then(() =>
        // Read now, not when home mounts, so home opens with the new figures (no flash of old).
        Promise.all([
          queryClient.prefetchQuery({ ...accountQueries.subscriptions(http), staleTime: 0 }),
          queryClient.prefetchQuery({ ...accountQueries.orders(http), staleTime: 0 }),
          queryClient.prefetchQuery({ ...accountQueries.agreement(http), staleTime: 0 }),
        ]),
      );
  }, [phase, queryClient, http]);

  return { query, order: query.data ?? null, phase, hubState, slow: slow && waiting };
}
