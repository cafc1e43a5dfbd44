import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { billResponse } from '@alda/contract/schemas/bills';
import { resendBillResponse, staffBillsResponse } from '@alda/contract/schemas/staff-bills';
import {
  staffCustomerAccess,
  staffCustomerSearchResult,
  staffCustomerView,
  staffResendResult,
  staffSignOutEverywhereResult,
} from '@alda/contract/schemas/staff-customers';
import { isApiError } from '@/shared/api';
import { useApi } from '@/shared/services';
import { LIVE_REFRESH_MS } from '@/shared/query-client';

/*
 * The customers area's calls (`/api/staff/customers*`, docs/decisions/0075-staff-console.md).
 * The customer view refreshes every 5 s; the client sends If-None-Match, so an unchanged view is
 * a 304. Opening a customer (POST …/access with a reason) is what lets the view answer in this
 * staff session: until then it is 403 STAFF_REASON_REQUIRED.
 */

/** The shortest search the API takes. */
export const MIN_QUERY_LENGTH = 2;

export const customersKeys = {
  all: ['staff', 'customers'] as const,
  search: (q: string) => ['staff', 'customers', 'search', q] as const,
  one: (id: string) => ['staff', 'customers', 'one', id] as const,
  bills: (id: string) => ['staff', 'customers', 'bills', id] as const,
  bill: (billId: string) => ['staff', 'bills', 'one', billId] as const,
};

/** The view answered "give a reason first" (no `customer.open` in this staff session). */
export function needsReason(error: unknown): boolean {
  return isApiError(error, 'STAFF_REASON_REQUIRED');
}

export function useCustomerSearch(q: string) {
  const api = useApi();
  const query = q.trim();
  return useQuery({
    queryKey: customersKeys.search(query),
    queryFn: ({ signal }) =>
      api.get('/api/staff/customers', {
        query: { q: query },
        schema: staffCustomerSearchResult,
        signal,
      }),
    enabled: query.length >= MIN_QUERY_LENGTH,
    // Each search is recorded in the audit log: the same words are not asked again at once.
    staleTime: 60_000,
    placeholderData: (previous) => previous,
  });
}

export function useCustomer(id: string) {
  const api = useApi();
  return useQuery({
    queryKey: customersKeys.one(id),
    queryFn: ({ signal }) =>
      api.get(`/api/staff/customers/${encodeURIComponent(id)}`, {
        schema: staffCustomerView,
        signal,
      }),
    // Live while it answers; waiting for a reason stops the refresh.
    refetchInterval: (query) => (needsReason(query.state.error) ? false : LIVE_REFRESH_MS),
    staleTime: 0,
  });
}

/** POST …/access: opens the customer for this staff session, with the reason given. */
export function useOpenCustomer() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reason }: { id: string; reason: string }) =>
      api.post(
        `/api/staff/customers/${encodeURIComponent(id)}/access`,
        { reason },
        { schema: staffCustomerAccess },
      ),
    onSuccess: (_data, { id }) =>
      queryClient.invalidateQueries({ queryKey: customersKeys.one(id) }),
  });
}

export function useSignOutEverywhere(id: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (reason: string) =>
      api.post(
        `/api/staff/customers/${encodeURIComponent(id)}/sign-out-everywhere`,
        { reason },
        { schema: staffSignOutEverywhereResult },
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: customersKeys.one(id) }),
  });
}

export function useResendMessage(id: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ messageId, reason }: { messageId: string; reason: string }) =>
      api.post(
        `/api/staff/customers/${encodeURIComponent(id)}/messages/${encodeURIComponent(messageId)}/resend`,
        { reason },
        { schema: staffResendResult },
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: customersKeys.one(id) }),
  });
}

/** GET …/bills: the customer's monthly bills, newest first (ADR 0098). */
export function useCustomerBills(id: string) {
  const api = useApi();
  return useQuery({
    queryKey: customersKeys.bills(id),
    queryFn: ({ signal }) =>
      api.get(`/api/staff/customers/${encodeURIComponent(id)}/bills`, {
        schema: staffBillsResponse,
        signal,
      }),
  });
}

/** GET /api/staff/bills/{id}: one bill in full (its numbers, items, totals, bank transfer). */
export function useBill(billId: string) {
  const api = useApi();
  return useQuery({
    queryKey: customersKeys.bill(billId),
    queryFn: ({ signal }) =>
      api.get(`/api/staff/bills/${encodeURIComponent(billId)}`, { schema: billResponse, signal }),
  });
}

/** POST …/resend with a reason (audited): the bill's PDF is e-mailed to the customer again. */
export function useResendBill(id: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ billId, reason }: { billId: string; reason: string }) =>
      api.post(
        `/api/staff/bills/${encodeURIComponent(billId)}/resend`,
        { reason },
        { schema: resendBillResponse },
      ),
    // The e-mail shows among the messages sent.
    onSettled: () => queryClient.invalidateQueries({ queryKey: customersKeys.one(id) }),
  });
}
