import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  staffPaymentDetail,
  staffPaymentsPage,
  staffRefund,
  type StaffPaymentState,
  type StaffRefundRequest,
} from '@alda/contract/schemas/staff-payments';
import { useApi } from '@/shared/services';
import { useKeysetPages } from '@/shared/keyset-pages';
import { LIVE_REFRESH_MS } from '@/shared/query-client';

/*
 * The payments area's calls (`/api/staff/payments*`, docs/decisions/0075-staff-console.md): live
 * screens refresh every 5 s; the client sends If-None-Match, so an unchanged answer is a 304.
 * The list pages on as the audit log does (`before` = the last page's `nextBefore`).
 */

export const PAYMENTS_PAGE_SIZE = 100;

export interface PaymentsFilter {
  q: string;
  state: StaffPaymentState | '';
}

export const paymentsKeys = {
  all: ['staff', 'payments'] as const,
  list: (filter: PaymentsFilter) => ['staff', 'payments', 'list', filter] as const,
  one: (id: string) => ['staff', 'payments', 'one', id] as const,
};

/** The list, page by page (`useKeysetPages`). */
export function usePayments(filter: PaymentsFilter) {
  return useKeysetPages({
    queryKey: paymentsKeys.list(filter),
    path: '/api/staff/payments',
    query: {
      q: filter.q || undefined,
      state: filter.state || undefined,
      limit: PAYMENTS_PAGE_SIZE,
    },
    schema: staffPaymentsPage,
  });
}

export function usePayment(id: string) {
  const api = useApi();
  return useQuery({
    queryKey: paymentsKeys.one(id),
    queryFn: ({ signal }) =>
      api.get(`/api/staff/payments/${encodeURIComponent(id)}`, {
        schema: staffPaymentDetail,
        signal,
      }),
    refetchInterval: LIVE_REFRESH_MS,
  });
}

/** POST a refund; the payment and the list are read again at once. */
export function useRefund(paymentId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StaffRefundRequest) =>
      api.post(`/api/staff/payments/${encodeURIComponent(paymentId)}/refunds`, body, {
        schema: staffRefund,
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: paymentsKeys.all }),
  });
}
