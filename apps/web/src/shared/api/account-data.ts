import { z } from 'zod';
import type { QueryClient } from '@tanstack/react-query';
import type { HttpClient, Result } from './http';

/*
 * The six resources loaded after sign-in (SPEC §1 step 5). Their screens come in later issues;
 * the shapes below hold only the fields the shell reads (guards, home summary) and let the rest
 * through untouched, so the contract's full schemas can replace them without breaking anything.
 */

const id = z.union([z.string(), z.number()]);

export const member = z.looseObject({
  phoneNumber: z.string(),
  user: z.looseObject({ id, firstname: z.string(), lastname: z.string() }).nullish(),
  givenData: z.looseObject({ current: z.number(), max: z.number() }).nullish(),
  dataRemaining: z.looseObject({ domestic: z.number() }).nullish(),
});
export type Member = z.infer<typeof member>;

export const account = z.looseObject({
  id: id.optional(),
  planId: id.nullish(),
  planTypeId: id.nullish(),
  members: z.array(member).default([]),
  otherMembers: z.array(member).default([]),
  currentMember: member.nullish(),
});
export type Account = z.infer<typeof account>;

export const subscriptionsState = z.looseObject({
  currentAccount: account.nullish(),
  otherAccounts: z.array(account).default([]),
  /** SPEC §3: default true. */
  isOwner: z.boolean().default(true),
});
export type SubscriptionsState = z.infer<typeof subscriptionsState>;

export const order = z.looseObject({
  id: id.optional(),
  isComplete: z.boolean(),
  isCancelled: z.boolean(),
  isMainSubscription: z.boolean(),
  planId: id.nullish(),
});
export type Order = z.infer<typeof order>;

export const ACCOUNT_RESOURCES = {
  actions: { path: '/actions', schema: z.unknown() },
  packages: { path: '/packages', schema: z.unknown() },
  subscriptions: { path: '/subscriptions', schema: subscriptionsState },
  plans: { path: '/plans', schema: z.unknown() },
  orders: { path: '/orders', schema: z.array(order) },
  agreement: { path: '/agreements', schema: z.unknown() },
} as const;

export type AccountResource = keyof typeof ACCOUNT_RESOURCES;
export const ACCOUNT_RESOURCE_NAMES = Object.keys(ACCOUNT_RESOURCES) as AccountResource[];

type DataOf<R extends AccountResource> = z.output<(typeof ACCOUNT_RESOURCES)[R]['schema']>;

/** Query keys of the start-up data; features read it with `queryClient.getQueryData`/`useQuery`. */
export const accountKeys = {
  all: ['account'] as const,
  resource: <R extends AccountResource>(resource: R) => ['account', resource] as const,
};

export type AccountLoaders = { [R in AccountResource]: () => Promise<Result<DataOf<R>>> };

/** Loaders that fetch the six resources with the app's HTTP client. */
export function httpAccountLoaders(http: HttpClient): AccountLoaders {
  const load = <R extends AccountResource>(resource: R) => () =>
    http.get(ACCOUNT_RESOURCES[resource].path, ACCOUNT_RESOURCES[resource].schema as z.ZodType<DataOf<R>>);
  return {
    actions: load('actions'),
    packages: load('packages'),
    subscriptions: load('subscriptions'),
    plans: load('plans'),
    orders: load('orders'),
    agreement: load('agreement'),
  };
}

/**
 * Loads actions, packages, subscriptions, plans, orders and agreement in parallel into the query
 * cache (SPEC §1 step 5). A failed load is skipped silently: its data stays unset, the others are
 * still stored. Resolves with the resources that loaded.
 */
export async function loadAccountData(queryClient: QueryClient, loaders: AccountLoaders): Promise<AccountResource[]> {
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

export function getSubscriptions(queryClient: QueryClient): SubscriptionsState | undefined {
  return queryClient.getQueryData<SubscriptionsState>(accountKeys.resource('subscriptions'));
}

export function getOrders(queryClient: QueryClient): Order[] | undefined {
  return queryClient.getQueryData<Order[]>(accountKeys.resource('orders'));
}

/** SPEC §3 "Order": cancelled orders are hidden. */
export const visibleOrders = (orders: readonly Order[]) => orders.filter((o) => !o.isCancelled);

/** SPEC §3 "Subscription state": isOwner defaults to true. */
export function isOwner(queryClient: QueryClient): boolean {
  return getSubscriptions(queryClient)?.isOwner ?? true;
}
