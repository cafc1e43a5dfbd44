import { familyMembers, familyMembersInProcessing } from '@alda/contract/rules/family';
import { visibleOrders } from '@alda/contract/rules/orders';
import { allPlans } from '@alda/contract/rules/plans';
import type { Order } from '@alda/contract/schemas/orders';
import type { PlansResponse } from '@alda/contract/schemas/plans';
import type { Account, Member, SubscriptionsResponse } from '@alda/contract/schemas/subscriptions';
import { compareCodeUnits } from '@/shared/format/compare';

/**
 * The family account the customer sees: the current account when it is a family plan, else the
 * first family plan among the other accounts, else null.
 */
export function familyAccountOf(subscriptions: SubscriptionsResponse): Account | null {
  const { currentAccount, otherAccounts } = subscriptions;
  if (currentAccount?.type === 'family_plan') return currentAccount;
  return otherAccounts.find((a) => a.type === 'family_plan') ?? null;
}

/**
 * The customer's own numbers: the current account's and each other account's currentMember
 * (the signed-in user's number on that account), once each, in number order so the line tabs
 * keep their places when the current line changes.
 */
export function customerLines(subscriptions: SubscriptionsResponse): Member[] {
  const byNumber = new Map<string, Member>();
  const accounts = [
    ...(subscriptions.currentAccount ? [subscriptions.currentAccount] : []),
    ...subscriptions.otherAccounts,
  ];
  for (const { currentMember } of accounts)
    if (!byNumber.has(currentMember.phoneNumber))
      byNumber.set(currentMember.phoneNumber, currentMember);
  return [...byNumber.values()].sort((a, b) => compareCodeUnits(a.phoneNumber, b.phoneNumber));
}

/**
 * The family as the owner sees it (SPEC §3 "Derived", computed by the contract's rules): the
 * members other than the customer's own numbers, and the members still being added (incomplete
 * family orders; cancelled orders are hidden).
 */
export function familyOverview(
  subscriptions: SubscriptionsResponse,
  orders: readonly Order[] | undefined,
  plans: PlansResponse | undefined,
): { members: Member[]; processing: Order[] } {
  // The customer's own numbers are their lines (home's tabs), not family members to look after.
  const own = new Set(customerLines(subscriptions).map((m) => m.phoneNumber));
  const members = familyMembers(subscriptions.otherAccounts, subscriptions.currentAccount).filter(
    (m) => !own.has(m.phoneNumber),
  );
  const familyPlanIds = new Set(
    (plans ? allPlans(plans) : []).filter((p) => p.type === 'family_plan').map((p) => p.planId),
  );
  const processing = orders ? familyMembersInProcessing(visibleOrders(orders), familyPlanIds) : [];
  return { members, processing };
}

/** Every account the customer can see, current first. */
export function accountsOf(subscriptions: SubscriptionsResponse): Account[] {
  const seen = new Set<string>();
  return [
    ...(subscriptions.currentAccount ? [subscriptions.currentAccount] : []),
    ...subscriptions.otherAccounts,
    ...subscriptions.individuals,
  ].filter((a) => (seen.has(a.id) ? false : (seen.add(a.id), true)));
}

/** The number (member) with this phone number on any of the customer's accounts, with its account. */
export function findNumber(
  subscriptions: SubscriptionsResponse,
  phoneNumber: string,
): { member: Member; account: Account } | null {
  for (const account of accountsOf(subscriptions)) {
    const member = account.members.find((m) => m.phoneNumber === phoneNumber);
    if (member) return { member, account };
  }
  return null;
}
