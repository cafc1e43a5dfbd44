import { startOfNextMonth } from '@alda/contract/rules/lifecycle';
import type { Order } from '@alda/contract/schemas/orders';
import type { Plan, PlansResponse } from '@alda/contract/schemas/plans';
import type {
  Account,
  Member,
  SubscriptionDetailResponse,
  SubscriptionsResponse,
} from '@alda/contract/schemas/subscriptions';
import { familyPlan, individualPlan, makeMember, unlimitedPlan } from '@/test/account-fixtures';

/*
 * Test data of the lifecycle tests: Anna on an individual 20 GB plan with 7 GB left this month,
 * a smaller 10 GB plan and a bigger unlimited one of the same type.
 */

export const plan20: Plan = {
  ...individualPlan,
  planId: 'plan-individual-20',
  name: '20 GB',
  dataMb: 20480,
  memberPrices: [{ price: 19900 }],
};

export const lifecyclePlans: PlansResponse = [
  {
    id: 'type-individual',
    name: 'Einstaklingahald',
    type: 'individual_plan',
    dataPlanResponses: [individualPlan, plan20, unlimitedPlan],
  },
  { id: 'type-family', name: 'Familjuhald', type: 'family_plan', dataPlanResponses: [familyPlan] },
];

export function annaWith(overrides: Partial<Member> = {}): Member {
  return makeMember({
    id: 'sub-anna',
    phoneNumber: '557711',
    user: { id: 'user-anna', firstname: 'Anna', lastname: 'Hansen' },
    planId: plan20.planId,
    dataRemaining: { domestic: 7168, eu: null },
    dataTotal: { domestic: 20480, eu: null },
    rolloverMb: 2048,
    commitmentEndsAt: null,
    pendingChange: null,
    ...overrides,
  });
}

export function annaAccount(member: Member = annaWith()): Account {
  return {
    id: 'acc-anna',
    planId: plan20.planId,
    planTypeId: 'type-individual',
    type: 'individual_plan',
    members: [member],
    otherMembers: [],
    currentMember: member,
    euPackage: false,
    family: null,
  };
}

export function annaSubscriptions(member: Member = annaWith()): SubscriptionsResponse {
  return { currentAccount: annaAccount(member), otherAccounts: [], isOwner: true, individuals: [] };
}

export function annaDetail(member: Member = annaWith()): SubscriptionDetailResponse {
  return {
    accountId: 'acc-anna',
    accountType: 'individual_plan',
    isOwner: true,
    member,
    plan: plan20,
    monthlyPrice: { net: 15920, vat: 3980, gross: 19900 },
    euPackage: false,
  };
}

export function lifecycleOrder(overrides: Partial<Order> & Pick<Order, 'id' | 'kind'>): Order {
  return {
    isComplete: false,
    isCancelled: false,
    isMainSubscription: false,
    planId: null,
    phoneNumber: '557711',
    price: null,
    paymentStatus: 'not_required',
    createdAt: new Date().toISOString(),
    completedAt: null,
    lineId: 'sub-anna',
    lifecycle: null,
    ...overrides,
  };
}

/** The first instant of next month: when a change waiting for month end takes effect. */
export const nextMonth = () => startOfNextMonth(new Date());
