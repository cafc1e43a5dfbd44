import type { QueryClient } from '@tanstack/react-query';
import type { ActionsResponse } from '@alda/contract/schemas/actions';
import type { AgreementResponse } from '@alda/contract/schemas/agreements';
import type { Order, OrdersResponse } from '@alda/contract/schemas/orders';
import type { PackagesResponse } from '@alda/contract/schemas/packages';
import type { PlansResponse } from '@alda/contract/schemas/plans';
import type { SubscriptionsResponse } from '@alda/contract/schemas/subscriptions';
import { ACCOUNT_RESOURCE_PATHS as PATHS } from '@alda/contract/start-up';
import type { HttpClient, Result } from './http';

/**
 * The schemas live in a chunk of their own, with zod: the entry chunk (start-up, sign-in) asks
 * for them when it sends the requests, so they load while the answers are on their way and a
 * guest never downloads them.
 */
const schemas = () => import('./account-schemas');
const schema =
  <K extends keyof Awaited<ReturnType<typeof schemas>>>(name: K) =>
  () =>
    schemas().then((m) => m[name]);

/**
 * The six resources loaded after sign-in (SPEC §1 step 5), each parsed with the contract's schema.
 * Their screens come in later issues; the shell reads subscriptions and orders (guards, home).
 */
export const ACCOUNT_RESOURCES = {
  actions: { path: PATHS.actions, schema: schema('actionsResponse') },
  packages: { path: PATHS.packages, schema: schema('packagesResponse') },
  subscriptions: { path: PATHS.subscriptions, schema: schema('subscriptionsResponse') },
  plans: { path: PATHS.plans, schema: schema('plansResponse') },
  orders: { path: PATHS.orders, schema: schema('ordersResponse') },
  agreement: { path: PATHS.agreement, schema: schema('agreementResponse') },
} as const;

export type AccountResource = keyof typeof ACCOUNT_RESOURCES;
export const ACCOUNT_RESOURCE_NAMES = Object.keys(ACCOUNT_RESOURCES) as AccountResource[];

interface AccountDataOf {
  actions: ActionsResponse;
  packages: PackagesResponse;
  subscriptions: SubscriptionsResponse;
  plans: PlansResponse;
  orders: OrdersResponse;
  agreement: AgreementResponse;
}

export type AccountData<R extends AccountResource> = AccountDataOf[R];

/** Query keys of the start-up data; features read it from the query cache. */
export const accountKeys = {
  all: ['account'] as const,
  resource: <R extends AccountResource>(resource: R) => ['account', resource] as const,
};

export type AccountLoaders = { [R in AccountResource]: () => Promise<Result<AccountData<R>>> };

/**
 * GET /subscriptions for one of the customer's own numbers (`line`), or the server's default
 * (the first active number) without one. A line that is no longer the customer's (404) falls
 * back to the default, so a stale choice never locks the user out of home.
 */
export async function fetchSubscriptions(
  http: HttpClient,
  line?: string,
  signal?: AbortSignal,
): Promise<Result<SubscriptionsResponse>> {
  const { path, schema } = ACCOUNT_RESOURCES.subscriptions;
  if (line === undefined) return http.get(path, schema(), { signal });
  const result = await http.get(path, schema(), { signal, query: { line } });
  if (!result.ok && result.error.status === 404) return http.get(path, schema(), { signal });
  return result;
}

/**
 * Loaders that fetch the six resources with the app's HTTP client. `chosenLine` is the number
 * the customer last switched to on this device, if any; subscriptions load for it.
 */
export function httpAccountLoaders(
  http: HttpClient,
  chosenLine: () => Promise<string | null> = async () => null,
): AccountLoaders {
  const { actions, packages, plans, orders, agreement } = ACCOUNT_RESOURCES;
  return {
    actions: () => http.get(actions.path, actions.schema()),
    packages: () => http.get(packages.path, packages.schema()),
    subscriptions: async () => {
      const line = await chosenLine().catch(() => null);
      return fetchSubscriptions(http, line ?? undefined);
    },
    plans: () => http.get(plans.path, plans.schema()),
    orders: () => http.get(orders.path, orders.schema()),
    agreement: () => http.get(agreement.path, agreement.schema()),
  };
}

/**
 * Loads actions, packages, subscriptions, plans, orders and agreement in parallel into the query
 * cache (SPEC §1 step 5). A failed load is skipped silently: its data stays unset, the others are
 * still stored. Resolves with the resources that loaded.
 */
export async function loadAccountData(
  queryClient: QueryClient,
  loaders: AccountLoaders,
): Promise<AccountResource[]> {
  const settled = await Promise.allSettled(
    ACCOUNT_RESOURCE_NAMES.map(async (resource) => {
      const result = await loaders[resource]();
      if (!result.ok) return null;
      queryClient.setQueryData(accountKeys.resource(resource), result.data);
      return resource;
    }),
  );
  return settled.flatMap((s) => (s.status === 'fulfilled' && s.value ? [s.value] : []));
}

export function getSubscriptions(
  queryClient: Pick<QueryClient, 'getQueryData'>,
): SubscriptionsResponse | undefined {
  return queryClient.getQueryData<SubscriptionsResponse>(accountKeys.resource('subscriptions'));
}

export function getOrders(queryClient: Pick<QueryClient, 'getQueryData'>): Order[] | undefined {
  return queryClient.getQueryData<Order[]>(accountKeys.resource('orders'));
}

/** SPEC §3 "Order": cancelled orders are hidden. */
export const visibleOrders = (orders: readonly Order[]) => orders.filter((o) => !o.isCancelled);

/** SPEC §3 "Subscription state": isOwner defaults to true. */
export function isOwner(queryClient: Pick<QueryClient, 'getQueryData'>): boolean {
  return getSubscriptions(queryClient)?.isOwner ?? true;
}
