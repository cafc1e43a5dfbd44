/**
 * The schemas of the six start-up resources (SPEC §1 step 5). The entry chunk loads this module
 * (and zod with it) only when a signed-in user's data is fetched; see `account-data.ts`.
 */
export { actionsResponse } from '@alda/contract/schemas/actions';
export { agreementResponse } from '@alda/contract/schemas/agreements';
export { ordersResponse } from '@alda/contract/schemas/orders';
export { packagesResponse } from '@alda/contract/schemas/packages';
export { plansResponse } from '@alda/contract/schemas/plans';
export { subscriptionsResponse } from '@alda/contract/schemas/subscriptions';
