import { queryOptions, useQuery } from '@tanstack/react-query';
import { planResponse, type PlansResponse } from '@alda/contract/schemas/plans';
import { findPlan } from '@alda/contract/rules/plans';
import {
  subscriptionDetailResponse,
  type SubscriptionsResponse,
} from '@alda/contract/schemas/subscriptions';
import { useAppServices } from '@/shared/services/app-services';
import { ACCOUNT_RESOURCES, accountKeys, fetchSubscriptions } from './account-data';
import { unwrap, type HttpClient } from './http';

/** Keys of the account queries that are not start-up resources. */
export const subscriptionKeys = {
  detail: (id: string) => [...accountKeys.all, 'subscription', id] as const,
};
export const planKeys = {
  detail: (planId: string) => [...accountKeys.all, 'plan', planId] as const,
};

/**
 * Query options of the start-up resources (SPEC §1 step 5) that more than one feature reads. They
 * share the keys the start-up fills (`accountKeys`), so a screen renders the loaded data at once
 * and only asks the API again when it is stale, missing (a start-up load that failed) or the
 * user retries. Feature-specific queries live in their feature.
 */
export const accountQueries = {
  /**
   * The subscription state. The line the customer switched to is the current account's own
   * number in the cached answer, so a refetch keeps showing the line the user chose.
   */
  subscriptions: (http: HttpClient) =>
    queryOptions({
      queryKey: accountKeys.resource('subscriptions'),
      queryFn: async ({ signal, client }) => {
        const cached = client.getQueryData<SubscriptionsResponse>(
          accountKeys.resource('subscriptions'),
        );
        const line = cached?.currentAccount?.currentMember.phoneNumber;
        return unwrap(await fetchSubscriptions(http, line, signal));
      },
    }),
  orders: (http: HttpClient) =>
    queryOptions({
      queryKey: accountKeys.resource('orders'),
      queryFn: async ({ signal }) => {
        const { path, schema } = ACCOUNT_RESOURCES.orders;
        return unwrap(await http.get(path, schema(), { signal }));
      },
    }),
  /** GET /packages: the extra packages for sale (the packages screen; naming a bought one). */
  packages: (http: HttpClient) =>
    queryOptions({
      queryKey: accountKeys.resource('packages'),
      queryFn: async ({ signal }) => {
        const { path, schema } = ACCOUNT_RESOURCES.packages;
        return unwrap(await http.get(path, schema(), { signal }));
      },
    }),
  plans: (http: HttpClient) =>
    queryOptions({
      queryKey: accountKeys.resource('plans'),
      queryFn: async ({ signal }) => {
        const { path, schema } = ACCOUNT_RESOURCES.plans;
        return unwrap(await http.get(path, schema(), { signal }));
      },
    }),
  /**
   * GET /agreements: the card on file, null without one. Read by the agreement screen and by
   * paying the monthly price (which charges the card on file when the agreement is active).
   */
  agreement: (http: HttpClient) =>
    queryOptions({
      queryKey: accountKeys.resource('agreement'),
      queryFn: async ({ signal }) => {
        const { path, schema } = ACCOUNT_RESOURCES.agreement;
        return unwrap(await http.get(path, schema(), { signal }));
      },
    }),
  /** GET /subscriptions/{id}: one number with its plan and monthly price (owner or the user). */
  subscription: (http: HttpClient, id: string) =>
    queryOptions({
      queryKey: subscriptionKeys.detail(id),
      queryFn: async ({ signal }) =>
        unwrap(
          await http.get(`/subscriptions/${encodeURIComponent(id)}`, subscriptionDetailResponse, {
            signal,
          }),
        ),
    }),
  /**
   * GET /plans/{id}. Seeded from the plan list when it holds the plan (no request then), so it
   * only asks for plans the list does not carry (e.g. a prepaid plan no longer for sale).
   */
  plan: (http: HttpClient, planId: string, planTypes?: PlansResponse) =>
    queryOptions({
      queryKey: planKeys.detail(planId),
      queryFn: async ({ signal }) =>
        unwrap(await http.get(`/plans/${encodeURIComponent(planId)}`, planResponse, { signal })),
      initialData: () => (planTypes ? (findPlan(planTypes, planId) ?? undefined) : undefined),
    }),
};

/** GET /subscriptions through the cache (start-up data first). */
export function useSubscriptionsQuery() {
  const { http } = useAppServices();
  return useQuery(accountQueries.subscriptions(http));
}

/** GET /orders through the cache (start-up data first). */
export function useOrdersQuery() {
  const { http } = useAppServices();
  return useQuery(accountQueries.orders(http));
}

/** GET /plans through the cache (start-up data first). */
export function usePlansQuery() {
  const { http } = useAppServices();
  return useQuery(accountQueries.plans(http));
}

/** GET /agreements through the cache (start-up data first). */
export function useAgreementQuery() {
  const { http } = useAppServices();
  return useQuery(accountQueries.agreement(http));
}

/** One number in detail (GET /subscriptions/{id}); pass null to wait for the id. */
export function useSubscriptionDetailQuery(id: string | null) {
  const { http } = useAppServices();
  return useQuery({
    ...accountQueries.subscription(http, id ?? ''),
    enabled: id !== null,
  });
}

/** One plan, from the plan list when it is there, else GET /plans/{id}. */
export function usePlanQuery(planId: string | null) {
  const { http } = useAppServices();
  const plans = usePlansQuery();
  return useQuery({
    ...accountQueries.plan(http, planId ?? '', plans.data),
    enabled: planId !== null && !plans.isPending,
  });
}
