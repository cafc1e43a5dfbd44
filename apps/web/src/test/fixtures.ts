import type { User } from '@alda/contract/schemas/auth';
import type { Order } from '@alda/contract/schemas/orders';
import type { Account, Member, SubscriptionsResponse } from '@alda/contract/schemas/subscriptions';

export const demoUser: User = {
  id: 'u-1',
  firstname: 'Rannvá',
  lastname: 'Joensen',
  email: 'rannva@example.fo',
  phoneNumber: '214365',
  birthDate: '1988-04-12',
  address: 'Niels Finsens gøta 7',
  postCode: '100',
  city: 'Tórshavn',
  locale: 'fo',
  createdAt: '2024-01-15T10:00:00.000Z',
};

const member = (
  id: string,
  phoneNumber: string,
  firstname: string,
  domesticMb: number,
): Member => ({
  id,
  phoneNumber,
  user: { id: `user-${id}`, firstname, lastname: 'Joensen' },
  planId: 'plan-family-50',
  givenData: { current: 0, max: 10240 },
  dataRemaining: { domestic: domesticMb, eu: null },
  dataTotal: { domestic: 51200 },
  status: 'active',
  expiresAt: null,
  simType: 'ESIM',
  phoneBookVisible: true,
  rolloverMb: 0,
});

const rannva = member('s-1', '214365', 'Rannvá', 20480);
const jogvan = member('s-2', '551122', 'Jógvan', 4096);

export const familyAccount: Account = {
  id: 'acc-1',
  planId: 'plan-family-50',
  planTypeId: 'family_plan',
  type: 'family_plan',
  members: [rannva, jogvan],
  otherMembers: [jogvan],
  currentMember: rannva,
  euPackage: false,
};

export const subscriptionsWithPlan: SubscriptionsResponse = {
  currentAccount: familyAccount,
  otherAccounts: [],
  isOwner: true,
  individuals: [],
};

export const noSubscriptions: SubscriptionsResponse = {
  currentAccount: null,
  otherAccounts: [],
  isOwner: true,
  individuals: [],
};

export const processingOrder: Order = {
  id: 'o-1',
  kind: 'new_subscription',
  isComplete: false,
  isCancelled: false,
  isMainSubscription: true,
  planId: 'plan-individual-10',
  phoneNumber: '214365',
  price: null,
  paymentStatus: 'not_required',
  createdAt: '2025-05-30T09:00:00.000Z',
  completedAt: null,
};
