import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  staffOrderDetail,
  staffOrdersPage,
  type StaffOrderFilter,
  type StaffPortCorrectionRequestInput,
} from '@alda/contract/schemas/staff-orders';
import { useApi } from '@/shared/services';
import { useKeysetPages } from '@/shared/keyset-pages';
import { LIVE_REFRESH_MS } from '@/shared/query-client';

/*
 * The orders area's calls (`/api/staff/orders*`, docs/decisions/0075-staff-console.md). The queue
 * and an order refresh themselves every 5 s while shown; the client sends If-None-Match with the
 * last ETag, so an unchanged answer is a 304 without a body (shared/api.ts). The queue pages on as
 * the audit log does (`before` = the last page's `nextBefore`).
 */

export const ORDERS_PAGE_SIZE = 200;

export interface OrdersFilter {
  state: StaffOrderFilter;
  q: string;
}

export const ordersKeys = {
  all: ['staff', 'orders'] as const,
  list: (filter: OrdersFilter) => ['staff', 'orders', 'list', filter] as const,
  one: (id: string) => ['staff', 'orders', 'one', id] as const,
};

/** The queue, page by page (`useKeysetPages`). */
export function useOrders(filter: OrdersFilter) {
  return useKeysetPages({
    queryKey: ordersKeys.list(filter),
    path: '/api/staff/orders',
    query: { state: filter.state, q: filter.q || undefined, limit: ORDERS_PAGE_SIZE },
    schema: staffOrdersPage,
  });
}

export function useOrder(id: string) {
  const api = useApi();
  return useQuery({
    queryKey: ordersKeys.one(id),
    queryFn: ({ signal }) =>
      api.get(`/api/staff/orders/${encodeURIComponent(id)}`, {
        schema: staffOrderDetail,
        signal,
      }),
    refetchInterval: LIVE_REFRESH_MS,
  });
}

/** The provisioning commands (role `provisioning`). */
export const COMMANDS = ['advance', 'complete', 'fail', 'retry'] as const;
export type OrderCommand = (typeof COMMANDS)[number];

/** complete and fail write the reason on the step the customer sees: it is required. */
export const REASON_REQUIRED: Record<OrderCommand, boolean> = {
  advance: false,
  complete: true,
  fail: true,
  retry: false,
};

/**
 * What the customer reads of the reason: on complete and fail always, on advance when one is
 * given (it is written on the step); a retry's reason goes to the audit log only.
 */
export const CUSTOMER_SEES_REASON: Record<OrderCommand, boolean> = {
  advance: true,
  complete: true,
  fail: true,
  retry: false,
};

/** POST a command; the order answered replaces the one shown, and the queue is read again. */
export function useOrderCommand(orderId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ command, reason }: { command: OrderCommand; reason: string }) =>
      api.post(
        `/api/staff/orders/${encodeURIComponent(orderId)}/${command}`,
        reason ? { reason } : {},
        { schema: staffOrderDetail },
      ),
    onSuccess: (order) => queryClient.setQueryData(ordersKeys.one(orderId), order),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ordersKeys.all }),
  });
}

/** POST the corrected SIM card number of a rejected port, for the customer. */
export function usePortCorrection(orderId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StaffPortCorrectionRequestInput) =>
      api.post(`/api/staff/orders/${encodeURIComponent(orderId)}/port-correction`, body, {
        schema: staffOrderDetail,
      }),
    onSuccess: (order) => queryClient.setQueryData(ordersKeys.one(orderId), order),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ordersKeys.all }),
  });
}
