import type { Order } from '../schemas/orders';
import type { MemberPrice } from '../schemas/plans';
import type { Account, Member } from '../schemas/subscriptions';

/** What besides capacity can stop a family plan from taking members (SPEC §4 "Family capacity"). */
export interface FamilyState {
  /** The subscription itself is still being set up (its main order is incomplete). */
  isProcessing: boolean;
  /** The number is on a prepaid (talutíð) plan. */
  isPrepaid: boolean;
}

/**
 * SPEC §4 "Family capacity": a family plan may accept another member while `maxMembers` exceeds
 * the members plus the processing orders — and never while the subscription is processing or on
 * a prepaid plan. `members` and `processingOrders` are counts (of
 * {@link familyMembersInProcessing} for the latter).
 */
export function canAddFamilyMember(
  maxMembers: number,
  members: number,
  processingOrders: number,
  state: FamilyState,
): boolean {
  if (state.isProcessing || state.isPrepaid) return false;
  return maxMembers > members + processingOrders;
}

/**
 * SPEC §4: the monthly price (øre, with VAT) of the member at position `index` (0 = the first
 * member, whose entry is the plan's own price): the entry at that index, capped at the last
 * entry. A negative index counts as 0.
 * @throws RangeError for an empty price list (the contract requires at least one entry).
 */
export function memberPriceAt(memberPrices: readonly MemberPrice[], index: number): number {
  const last = memberPrices.length - 1;
  if (last < 0) throw new RangeError('A plan has at least one member price');
  const entry = memberPrices[Math.min(Math.max(0, Math.trunc(index)), last)];
  return entry?.price ?? 0;
}

/**
 * SPEC §4 "The next family member price is the memberPrices entry at the index equal to the
 * current member count, capped at the last entry." `count` is the number of members now; the
 * answer is in øre with VAT and is shown as `+{price} kr.` (`formatKr(price, locale, { sign:
 * 'always', decimals: 'auto' })`).
 */
export function nextMemberPrice(memberPrices: readonly MemberPrice[], count: number): number {
  return memberPriceAt(memberPrices, count);
}

/**
 * SPEC §3 "Derived": family members are the members of all family accounts plus the current
 * account's otherMembers. `accounts` are the other accounts (`otherAccounts` of GET
 * /api/subscriptions); a member reachable both ways is listed once, in first-seen order.
 */
export function familyMembers(
  accounts: readonly Pick<Account, 'type' | 'members'>[],
  currentAccount: Pick<Account, 'otherMembers'> | null,
): Member[] {
  const seen = new Set<string>();
  const result: Member[] = [];
  const candidates = [
    ...accounts.filter((a) => a.type === 'family_plan').flatMap((a) => a.members),
    ...(currentAccount?.otherMembers ?? []),
  ];
  for (const member of candidates) {
    if (seen.has(member.id)) continue;
    seen.add(member.id);
    result.push(member);
  }
  return result;
}

/**
 * SPEC §3 "Family members in processing are the incomplete family orders": orders that add a
 * member to a family plan, or move a number onto one of `familyPlanIds`, that are neither
 * complete nor cancelled.
 */
export function familyMembersInProcessing<
  O extends Pick<Order, 'kind' | 'isComplete' | 'isCancelled' | 'planId'>,
>(orders: readonly O[], familyPlanIds: ReadonlySet<string> = new Set()): O[] {
  return orders.filter(
    (o) =>
      !o.isComplete &&
      !o.isCancelled &&
      (o.kind === 'add_member' ||
        (o.kind === 'transfer' && o.planId !== null && familyPlanIds.has(o.planId))),
  );
}
