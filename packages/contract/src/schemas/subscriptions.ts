import { z } from 'zod/mini';
import { phoneNumber, phoneNumberInput } from '../rules/phone';
import { id, isoDateTime, mb, oere, priceBreakdown } from './common';
import { plan, planType } from './plans';
import { lifecycleAction } from './orders';
import { emailSchema } from '../rules/email';
import { lineControls } from './controls';
import { roamingCap } from './roaming';

/** The person behind a number (SPEC §3 currentMember.user). */
export const memberUser = z.object({ id, firstname: z.string(), lastname: z.string() });
export type MemberUser = z.infer<typeof memberUser>;

/** SIM of a number: an eSIM profile or a physical card. */
export const simType = z.enum(['ESIM', 'PHYSICAL']);
export type SimType = z.infer<typeof simType>;

/** Lifecycle of one number on an account (SPEC §4 "Subscription lifecycle"). */
export const memberStatus = z.enum(['active', 'processing', 'cancelled']);
export type MemberStatus = z.infer<typeof memberStatus>;

/**
 * One number (member) of an account. SPEC §3 names phoneNumber, user, givenData and
 * dataRemaining; the rest is what the home and manage screens show.
 */
export const member = z.object({
  /** Subscription id of this number: the `{id}` of PATCH /subscriptions/{id} and transfers. */
  id,
  phoneNumber,
  user: memberUser,
  planId: id,
  /** Data given away this month and the monthly ceiling for gifts, in MB (SPEC §5). */
  givenData: z.object({ current: mb, max: mb }),
  /** Data left this month, in MB; `eu` is the EU package's data, null without one. */
  dataRemaining: z.object({ domestic: mb, eu: z.nullable(mb) }),
  /**
   * Data of the month in total (plan + extra packages + gifts received), in MB; `eu` is the EU
   * package's allowance, null without one (absent from answers older than the usage feed).
   */
  dataTotal: z.object({ domestic: mb, eu: z.optional(z.nullable(mb)) }),
  status: memberStatus,
  /** Set when cancelled: the number ends at month end and becomes prepaid (SPEC §4). */
  expiresAt: z.nullable(isoDateTime),
  simType,
  /** Listed in the public phone book (SPEC §1 "phone-book visibility"). */
  phoneBookVisible: z.boolean(),
  /** Data left over from last month; going to a smaller plan deletes it (SPEC §4). */
  rolloverMb: mb,
  /**
   * Data used this month, in MB (on unlimited plans the remainder does not shrink, so use is
   * only visible here); `eu` is the EU package's use, null without one.
   */
  dataUsed: z.optional(z.object({ domestic: mb, eu: z.nullable(mb) })),
  /**
   * When the data figures were last updated by the usage feed ("updated at" on home); null while
   * the number has no balance yet (being set up).
   */
  dataUpdatedAt: z.optional(z.nullable(isoDateTime)),
  /** Credit left on a prepaid (talutíð) number, in øre with VAT; null for subscriptions. */
  prepaidBalance: z.optional(z.nullable(oere)),
  /**
   * The first instant after the 6-month commitment (SPEC §9) of the number, null when none runs
   * (`rules/lifecycle.ts commitmentEndsAt`); a cancellation cannot end it sooner.
   */
  commitmentEndsAt: z.optional(z.nullable(isoDateTime)),
  /**
   * A change of the number that waits for its time (a cancellation or a smaller plan at month
   * end): the order, what it does and when; null when none.
   */
  pendingChange: z.optional(
    z.nullable(
      z.object({
        orderId: id,
        action: lifecycleAction,
        effectiveAt: isoDateTime,
        /** The plan it goes to, when it sets one. */
        planId: z.nullable(id),
      }),
    ),
  ),
  /**
   * What the account owner set for this number (ADR 0068): data paused, purchases needing
   * approval. Only a member's number has controls (`rules/controls.ts isOwnersOwnLine`): absent
   * on the owner's own number, and from answers older than issue 16.3; read it with
   * `NO_LINE_CONTROLS`.
   */
  controls: z.optional(lineControls),
  /**
   * The number's roaming spend cap and this month's roaming charges (issue 33 §2, ADR 0078);
   * absent from answers older than it.
   */
  roaming: z.optional(roamingCap),
});
export type Member = z.infer<typeof member>;

/** An account: one subscription with its members (SPEC §3 "Subscription state"). */
export const account = z.object({
  id,
  /** Null until the first order completes (the welcome screen waits for it, SPEC §2). */
  planId: z.nullable(id),
  planTypeId: z.nullable(id),
  type: planType,
  /** Every number on the account. */
  members: z.array(member),
  /** The members other than `currentMember`. */
  otherMembers: z.array(member),
  /** The signed-in user's own number on this account. */
  currentMember: member,
  /** Whether the EU package is on. */
  euPackage: z.boolean(),
  /**
   * SPEC §4 "Family capacity" as the server computes it with `rules/family.ts`: null for
   * accounts that are not family plans (absent from older answers).
   */
  family: z.optional(
    z.nullable(
      z.object({
        /** canAddFamilyMember(maxMembers, members, processing, {isProcessing, isPrepaid}). */
        canAddMember: z.boolean(),
        /** nextMemberPrice(memberPrices, members) in øre with VAT; null without a plan yet. */
        nextMemberPrice: z.nullable(oere),
        /** Members being added (familyMembersInProcessing of the account's orders). */
        processingMembers: z.int().check(z.nonnegative()),
        maxMembers: z.nullable(z.int().check(z.positive())),
      }),
    ),
  ),
});
export type Account = z.infer<typeof account>;

/**
 * GET /api/subscriptions. SPEC §3 "Subscription state": derived on the client are familyMembers
 * (members of family accounts + currentAccount.otherMembers) and the processing family members
 * (incomplete family orders).
 */
export const subscriptionsResponse = z.object({
  /** Null for a user without a subscription yet. */
  currentAccount: z.nullable(account),
  otherAccounts: z.array(account),
  /** False for a family member who does not own the account (SPEC §6). */
  isOwner: z._default(z.boolean(), true),
  /** Individual accounts the user pays for, each with members and a currentMember. */
  individuals: z.array(account),
});
export type SubscriptionsResponse = z.output<typeof subscriptionsResponse>;

/**
 * Query of GET /api/subscriptions: `line` picks which of the caller's own numbers is the current
 * one (the customer switches lines; docs/decisions/0030-accounts-model.md). Without it the server
 * picks the caller's first active number. A number that is not the caller's own is 404.
 */
export const subscriptionsQuery = z.object({ line: z.optional(phoneNumberInput) });
export type SubscriptionsQuery = z.output<typeof subscriptionsQuery>;

/**
 * GET /api/subscriptions/{id}: one number (member) in detail, for the family member and manage
 * screens (SPEC §2 familju-limur/:id, umsit-hald). Readable by the number's own user and by the
 * account owner; another member of the family gets 403 OWNER_ONLY (SPEC §6).
 */
export const subscriptionDetailResponse = z.object({
  accountId: id,
  accountType: planType,
  /** True when the caller owns the account the number is on. */
  isOwner: z.boolean(),
  member,
  /** The number's plan (in the requested language), null before its first order completes. */
  plan: z.nullable(plan),
  /** What this number costs a month: memberPrices at its position on the account (SPEC §4). */
  monthlyPrice: z.nullable(priceBreakdown),
  /** Whether the account's EU package is on. */
  euPackage: z.boolean(),
});
export type SubscriptionDetailResponse = z.infer<typeof subscriptionDetailResponse>;

/**
 * PATCH /api/subscriptions/{id}: change the plan of the number's account to another plan of the
 * same type (SPEC §4 "Subscription lifecycle"; docs/decisions/0056-subscription-lifecycle.md).
 * Phone-book visibility and the SIM have their own calls (ADR 0055).
 */
export const updateSubscriptionRequest = z.strictObject({ planId: id });
export type UpdateSubscriptionRequest = z.output<typeof updateSubscriptionRequest>;

/** GET /api/subscriptions/family-account-exists. */
export const familyAccountExistsResponse = z.object({
  exists: z.boolean(),
  accountId: z.nullable(id),
});
export type FamilyAccountExistsResponse = z.infer<typeof familyAccountExistsResponse>;

/**
 * PATCH /api/subscriptions/transfer-subscription-to-family-account/{id}: move a number into the
 * caller's family account; `planInfo` (optional, SPEC §7) picks the family plan when the caller
 * has none and one is created for it.
 */
export const transferToFamilyAccountRequest = z.strictObject({
  planInfo: z.optional(z.strictObject({ planId: id, euPackage: z._default(z.boolean(), false) })),
});
export type TransferToFamilyAccountRequest = z.output<typeof transferToFamilyAccountRequest>;

/**
 * PATCH /api/subscriptions/transfer-subscription-to-new-account/{id}: move a number off its
 * account onto an individual plan of its own (`planId`), owned by the caller.
 */
export const transferToOwnAccountRequest = z.strictObject({ planId: id });
export type TransferToOwnAccountRequest = z.output<typeof transferToOwnAccountRequest>;

/**
 * PATCH /api/subscriptions/transfer-subscription-to-user-customer: hand a number to another
 * person's user (found by the e-mail they log in with), on an individual plan of theirs. Nothing
 * moves until they accept (a line hand-over).
 */
export const transferToUserCustomerRequest = z.strictObject({
  subscriptionId: id,
  email: emailSchema,
  planId: id,
});
export type TransferToUserCustomerRequest = z.output<typeof transferToUserCustomerRequest>;

/** Where a hand-over of a number to another person stands. */
export const lineHandoverStatus = z.enum(['pending', 'accepted', 'declined', 'withdrawn']);
export type LineHandoverStatus = z.infer<typeof lineHandoverStatus>;

/**
 * A number offered to another person (transfer-subscription-to-user-customer): the receiver
 * sees who offers it, the number and the plan with its price, and accepts or declines.
 */
export const lineHandover = z.object({
  id,
  phoneNumber,
  status: lineHandoverStatus,
  /** The person handing the number over. */
  from: z.object({ firstname: z.string(), lastname: z.string() }),
  /** The person receiving it (their name only). */
  to: z.object({ firstname: z.string(), lastname: z.string() }),
  planId: id,
  planName: z.string(),
  /** The plan's monthly price, which the receiver pays from the month after they accept. */
  monthlyPrice: priceBreakdown,
  /** True when the caller is the receiver (they may accept or decline), false for the giver. */
  isReceiver: z.boolean(),
  createdAt: isoDateTime,
  decidedAt: z.nullable(isoDateTime),
  /** The transfer order placed when it was accepted. */
  orderId: z.nullable(id),
});
export type LineHandover = z.infer<typeof lineHandover>;

/** GET /api/line-handovers: the pending hand-overs to and from the caller, oldest first. */
export const lineHandoversResponse = z.array(lineHandover);
