import type { PackageRequest } from '@alda/contract/schemas/controls';
import type { Order } from '@alda/contract/schemas/orders';
import type { Plan, PlansResponse } from '@alda/contract/schemas/plans';
import type {
  Account,
  Member,
  SubscriptionDetailResponse,
  SubscriptionsResponse,
} from '@alda/contract/schemas/subscriptions';

/*
 * Account data shaped like the API's demo seed (contract schemas): the Joensen family plan owned
 * by Jóannes with Sunneva as a member and Bárður being added, plans of two types, orders.
 */

export const familyPlan: Plan = {
  planId: 'plan-family-50',
  type: 'family_plan',
  name: '50 GB',
  dataMb: 51200,
  maxMembers: 5,
  memberPrices: [{ price: 29900 }, { price: 9900 }, { price: 4900 }],
  planTypeName: 'Familjuhald',
  euPackage: { price: 4900, dataMb: 51200 },
  commitmentMonths: 6,
};

export const individualPlan: Plan = {
  planId: 'plan-individual-10',
  type: 'individual_plan',
  name: '10 GB',
  dataMb: 10240,
  maxMembers: 1,
  memberPrices: [{ price: 14900 }],
  planTypeName: 'Einstaklingahald',
  euPackage: { price: 4900, dataMb: 51200 },
  commitmentMonths: 6,
};

export const unlimitedPlan: Plan = {
  ...individualPlan,
  planId: 'plan-individual-unlimited',
  name: 'Óavmarkað',
  dataMb: 1_024_000,
  memberPrices: [{ price: 29900 }],
};

export const plans: PlansResponse = [
  {
    id: 'type-individual',
    name: 'Einstaklingahald',
    type: 'individual_plan',
    dataPlanResponses: [individualPlan, unlimitedPlan],
  },
  { id: 'type-family', name: 'Familjuhald', type: 'family_plan', dataPlanResponses: [familyPlan] },
];

export function makeMember(
  overrides: Partial<Member> & Pick<Member, 'id' | 'phoneNumber'>,
): Member {
  return {
    user: { id: `user-${overrides.id}`, firstname: 'Jóannes', lastname: 'Joensen' },
    planId: familyPlan.planId,
    givenData: { current: 1024, max: 10240 },
    dataRemaining: { domestic: 30720, eu: null },
    dataTotal: { domestic: 51200, eu: null },
    dataUsed: { domestic: 20480, eu: null },
    status: 'active',
    expiresAt: null,
    simType: 'ESIM',
    phoneBookVisible: true,
    rolloverMb: 0,
    dataUpdatedAt: '2025-05-12T13:32:00.000Z',
    prepaidBalance: null,
    ...overrides,
  };
}

export const joannes = makeMember({ id: 'sub-joannes', phoneNumber: '214455' });
export const sunneva = makeMember({
  id: 'sub-sunneva',
  phoneNumber: '214456',
  user: { id: 'user-sunneva', firstname: 'Sunneva', lastname: 'Joensen' },
  dataRemaining: { domestic: 2048, eu: null },
  dataUsed: { domestic: 49152, eu: null },
  givenData: { current: 0, max: 10240 },
});

export const joensenFamily: Account = {
  id: 'acc-joensen',
  planId: familyPlan.planId,
  planTypeId: 'type-family',
  type: 'family_plan',
  members: [joannes, sunneva],
  otherMembers: [sunneva],
  currentMember: joannes,
  euPackage: false,
  family: { canAddMember: true, nextMemberPrice: 4900, processingMembers: 1, maxMembers: 5 },
};

/** Jóannes, the owner of the family plan. */
export const ownerSubscriptions: SubscriptionsResponse = {
  currentAccount: joensenFamily,
  otherAccounts: [],
  isOwner: true,
  individuals: [],
};

/** Sunneva, a member of the family plan she does not own. */
export const memberSubscriptions: SubscriptionsResponse = {
  currentAccount: { ...joensenFamily, currentMember: sunneva, otherMembers: [joannes] },
  otherAccounts: [],
  isOwner: false,
  individuals: [],
};

export const newCustomer: SubscriptionsResponse = {
  currentAccount: null,
  otherAccounts: [],
  isOwner: true,
  individuals: [],
};

const order = (overrides: Partial<Order> & Pick<Order, 'id' | 'kind'>): Order => ({
  isComplete: true,
  isCancelled: false,
  isMainSubscription: false,
  planId: familyPlan.planId,
  phoneNumber: null,
  price: null,
  paymentStatus: 'not_required',
  createdAt: '2025-04-02T10:00:00.000Z',
  completedAt: '2025-04-03T10:00:00.000Z',
  memberName: null,
  ...overrides,
});

/** Bárður being added to the family: processing (SPEC §3 "Family members in processing"). */
export const addingBardur = order({
  id: 'order-bardur',
  kind: 'add_member',
  isComplete: false,
  phoneNumber: '214457',
  memberName: 'Bárður Joensen',
  price: { net: 3920, vat: 980, gross: 4900 },
  createdAt: '2025-05-20T09:00:00.000Z',
  completedAt: null,
});

/** A member order the customer cancelled: hidden everywhere (SPEC §3). */
export const cancelledMemberOrder = order({
  id: 'order-cancelled',
  kind: 'add_member',
  isComplete: false,
  isCancelled: true,
  phoneNumber: '214458',
  memberName: 'Rógvi Joensen',
  completedAt: null,
});

export const familyCreated = order({
  id: 'order-family',
  kind: 'new_subscription',
  isMainSubscription: true,
  phoneNumber: '214455',
  price: { net: 23920, vat: 5980, gross: 29900 },
  paymentStatus: 'paid',
});

export const ownerOrders: Order[] = [addingBardur, cancelledMemberOrder, familyCreated];

/** A first subscription ordered and not set up yet (SPEC §3 backup order). */
export const firstSubscriptionProcessing = order({
  id: 'order-first',
  kind: 'new_subscription',
  isMainSubscription: true,
  isComplete: false,
  planId: individualPlan.planId,
  phoneNumber: '557899',
  price: { net: 11920, vat: 2980, gross: 14900 },
  paymentStatus: 'paid',
  createdAt: '2025-05-28T09:00:00.000Z',
  completedAt: null,
});

export const sunnevaDetail: SubscriptionDetailResponse = {
  accountId: joensenFamily.id,
  accountType: 'family_plan',
  isOwner: true,
  member: sunneva,
  plan: familyPlan,
  monthlyPrice: { net: 7920, vat: 1980, gross: 9900 },
  euPackage: false,
};

export const joannesDetail: SubscriptionDetailResponse = {
  ...sunnevaDetail,
  member: joannes,
  monthlyPrice: { net: 23920, vat: 5980, gross: 29900 },
};

export const ownerData = {
  subscriptions: ownerSubscriptions,
  orders: ownerOrders,
  plans,
};

/** Sunneva's pending request for 5 GB to her line (ADR 0068), as the member sees it. */
export const sunnevaPackageRequest = (patch: Partial<PackageRequest> = {}): PackageRequest => ({
  id: 'req-1',
  status: 'pending',
  phoneNumber: '214456',
  lineId: 'sub-sunneva',
  requester: { firstname: 'Sunneva', lastname: 'Joensen' },
  package: {
    id: 'pkg-5',
    kind: 'data',
    name: '5 GB',
    dataMb: 5120,
    price: { net: 4000, vat: 1000, gross: 5000 },
  },
  isApprover: false,
  orderId: null,
  createdAt: '2026-11-20T10:00:00.000Z',
  decidedAt: null,
  ...patch,
});
